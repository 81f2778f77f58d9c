package diag

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestProblemString(t *testing.T) {
	require.Equal(t, "a.yaml:3:5: bad [metadata]", Errorf("a.yaml", 3, 5, "metadata", "bad").String())
	require.Equal(t, "a.yaml:3: bad", Errorf("a.yaml", 3, 0, "", "bad").String())
	require.Equal(t, "dir: warning: odd [discover]", Warnf("dir", 0, 7, "discover", "odd").String(), "a column without a line is not shown")
	require.Equal(t, "x: 1 of 2", Errorf("x", 0, 0, "", "%d of %d", 1, 2).String())
}

func TestSortAndHasErrors(t *testing.T) {
	ps := []Problem{
		Errorf("b", 1, 1, "r", "z"),
		Warnf("a", 2, 1, "r", "y"),
		Errorf("a", 2, 1, "r", "x"),
		Errorf("a", 1, 9, "r", "w"),
	}
	Sort(ps)
	var got []string
	for _, p := range ps {
		got = append(got, p.String())
	}
	require.Equal(t, []string{"a:1:9: w [r]", "a:2:1: x [r]", "a:2:1: warning: y [r]", "b:1:1: z [r]"}, got)
	require.True(t, HasErrors(ps))
	require.False(t, HasErrors(ps[2:3]))
	require.False(t, HasErrors(nil))
}
