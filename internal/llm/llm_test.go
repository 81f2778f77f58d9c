package llm

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
)

func TestExtractCode(t *testing.T) {
	for in, want := range map[string]string{
		"int x;":                             "int x;",
		"text\n```c\nint x;\n```\nmore":      "int x;\n",
		"```\nint a;\n```\n```\nint b;\n```": "int a;\n",
		"```c\r\nint x;\r\n```\r\n":          "int x;\n",
		"```c\nint x;\n":                     "int x;\n",
		"```":                                "",
	} {
		require.Equal(t, want, ExtractCode(in), "%q", in)
	}
}

func TestModels(t *testing.T) {
	dir := t.TempDir()
	ref := filepath.Join(dir, "main.c")
	require.NoError(t, os.WriteFile(ref, []byte("int main(void) { return 0; }\n"), 0o644))
	c := &cases.Case{ReferencePath: ref}
	m, err := New("reference")
	require.NoError(t, err)
	r, err := m.Generate(context.Background(), Request{Case: c})
	require.NoError(t, err)
	require.Equal(t, "int main(void) { return 0; }\n", ExtractCode(r.Text))

	m, err = New("mock")
	require.NoError(t, err)
	r, err = m.Generate(context.Background(), Request{Case: c})
	require.NoError(t, err)
	require.Contains(t, ExtractCode(r.Text), "printf(\"hello\\n\");")

	_, err = New("gpt-9")
	require.EqualError(t, err, `unknown model "gpt-9" (this build knows: reference, mock)`)
}

func FuzzExtractCode(f *testing.F) {
	for _, s := range []string{"", "```", "```c\nx\n```", "a```b\n```c", "\r\n```\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		code := ExtractCode(reply)
		normalized := strings.ReplaceAll(reply, "\r\n", "\n")
		require.True(t, strings.Contains(normalized, code), "the extracted code is a piece of the reply")
		require.NotContains(t, code, "```", "a fence never leaks into the code unless the reply has no fence")
	})
}
