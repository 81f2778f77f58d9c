package validate

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSharedLines(t *testing.T) {
	ref := "a\n\n  b\nc\nd\n"
	shared, total := sharedLines(ref, "a\nb\nx\nd\n")
	require.Equal(t, 3, shared, "a, b, d in order; blank lines and indentation do not count")
	require.Equal(t, 4, total)
	shared, _ = sharedLines(ref, "d\nc\nb\na\n")
	require.Equal(t, 1, shared, "the same lines in another order are not shared")
	shared, total = sharedLines("", "a\n")
	require.Zero(t, shared)
	require.Zero(t, total)
}

func TestSimilarityProblem(t *testing.T) {
	var ref []string
	for i := 0; i < 20; i++ {
		ref = append(ref, strings.Repeat("x", i+1)+";")
	}
	near := append(append([]string{}, ref[:19]...), "changed;")
	p := similarityProblem("v.c", strings.Join(ref, "\n"), strings.Join(near, "\n"))
	require.NotNil(t, p)
	require.Equal(t, "v.c: warning: accepted variant repeats 19 of the reference's 20 lines (95%): it proves little; write one with a different structure, names and order [accept-similarity]", p.String())
	require.Nil(t, similarityProblem("v.c", strings.Join(ref, "\n"), strings.Join(ref[:10], "\n")), "half the lines is a different solution")
	require.Nil(t, similarityProblem("v.conf", "A=y\nB=y\n", "A=y\nB=y\n"), "tiny references are not judged")
	require.Nil(t, similarityProblem("accept/blind-1.c", strings.Join(ref, "\n"), strings.Join(near, "\n")), "a blind answer was written without the reference")
}
