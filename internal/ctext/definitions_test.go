package ctext

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/csyntax"
)

// TestOneBodyAnswer checks that the body helpers answer from csyntax's
// function index: the same definitions as csyntax.File.Functions, each body
// the text between csyntax's braces with comments blanked.
func TestOneBodyAnswer(t *testing.T) {
	for _, code := range []string{driverC, sampleC(), "foo(x)\n{\n\tbar(); /* c */\n}\n", "int f(void)\n{\n\tx = (1;\n"} {
		f, err := csyntax.Parse(code)
		require.NoError(t, err)
		fs, defs := f.Functions(), f.Definitions()
		f.Close()
		src := NewSource(code)
		got := src.Functions()
		require.Len(t, got, len(fs))
		for i, fn := range fs {
			require.Equal(t, fn.Name, got[i].Name)
			require.Equal(t, defs[i].Line, got[i].Line)
			end := len(code)
			if defs[i].Close >= 0 {
				end = defs[i].Close
			}
			require.Equal(t, StripComments(code)[defs[i].Open+1:end], got[i].Body, fn.Name)
		}
		withDefs := NewSourceWith(code, defs)
		require.True(t, withDefs.HasDefinitions())
		require.Equal(t, got, withDefs.Functions())
	}
}
