package llm

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
)

func TestModels(t *testing.T) {
	dir := t.TempDir()
	ref := filepath.Join(dir, "main.c")
	require.NoError(t, os.WriteFile(ref, []byte("int main(void) { return 0; }\n"), 0o644))
	c := &cases.Case{ReferencePath: ref}
	m, err := New("reference")
	require.NoError(t, err)
	r, err := m.Generate(context.Background(), Request{Case: c})
	require.NoError(t, err)
	require.Equal(t, "int main(void) { return 0; }\n", ExtractFor(r.Text, "c"))

	m, err = New("mock")
	require.NoError(t, err)
	r, err = m.Generate(context.Background(), Request{Case: c})
	require.NoError(t, err)
	require.Contains(t, ExtractFor(r.Text, "c"), "printf(\"hello\\n\");")

	_, err = New("gpt-9")
	require.EqualError(t, err, `unknown model "gpt-9" (this build knows: reference, mock)`)
}
