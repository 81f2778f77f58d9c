package csyntax

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestQueriesCompileOncePerCache(t *testing.T) {
	c := NewParseCache(4)
	defer c.Close()
	const pattern = "(call_expression function: (identifier) @fn)"
	for _, code := range []string{"void f(void) { g(); }", "void f(void) { h(); k(); }"} {
		f, err := c.Get(code)
		require.NoError(t, err)
		for i := 0; i < 3; i++ {
			ms, err := f.Query(pattern)
			require.NoError(t, err)
			require.NotEmpty(t, ms)
		}
	}
	require.Equal(t, 1, c.CompiledQueries())

	f, err := c.Get("int x;")
	require.NoError(t, err)
	_, err = f.Query("(nope) @x")
	require.ErrorContains(t, err, "csyntax: bad query")
	_, err = f.Query("(nope) @x")
	require.ErrorContains(t, err, "csyntax: bad query", "a bad pattern keeps failing the same way from the cache")
	require.Equal(t, 2, c.CompiledQueries())
}
