package ctext

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzAnalyses checks that no predicate panics on arbitrary input and that
// reported positions stay inside the text.
func FuzzAnalyses(f *testing.F) {
	for _, s := range []string{sampleC(), driverC, "if(", "void f(", "ISR(", "}{)(", "ret = foo(); if (ret", "int foo(a) int a; {"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		lines := strings.Count(code, "\n") + 1
		src := NewSource(code)
		for _, fn := range src.Functions() {
			if fn.BodyOffset < 0 || fn.BodyOffset+len(fn.Body) > len(code) || fn.Line < 1 || fn.Line > lines {
				t.Fatalf("bad function %+v", fn)
			}
		}
		for _, m := range src.CallSites("foo") {
			if m.Offset < 0 || m.Offset >= len(code) || m.Line < 1 || m.Line > lines {
				t.Fatalf("bad match %+v", m)
			}
		}
		_, _ = src.FunctionBody("f")
		_ = src.HasWord("int x")
	})
}

func TestDeepNestingDoesNotExplode(t *testing.T) {
	code := "int f(void)\n{\n\tret = foo();\n" + strings.Repeat("if (ret) ", 50000) + "return 1;\n" +
		strings.Repeat("(", 50000) + strings.Repeat("{", 50000) + "\n}\n"
	src := NewSource(code)
	require.Len(t, src.Functions(), 1)
	require.Len(t, src.CallSites("foo"), 1)
}
