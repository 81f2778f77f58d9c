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

func TestContainerOfParsesCleanly(t *testing.T) {
	code := "static int hit_open(struct inode *inode, struct file *file)\n{\n\tstruct hit_dev *hc = container_of(file->private_data, struct hit_dev, misc);\n\tmutex_lock(&hc->lock);\n\treturn 0;\n}\n"
	f, err := Parse(code)
	require.NoError(t, err)
	defer f.Close()
	require.False(t, f.HasErrors())
	calls := f.Calls("hit_open")
	require.Equal(t, "container_of", calls[0].Name)
	require.Equal(t, []string{"file->private_data", "struct hit_dev", "misc"}, calls[0].Args, "argument texts come from the original source")
	require.Equal(t, "mutex_lock", calls[1].Name)
	ds := f.Declarations("hit_open")
	require.Equal(t, "hc", ds[0].Name)
	require.Equal(t, "struct hit_dev", ds[0].Type)
}

func TestSharedQueryCacheAcrossParseCaches(t *testing.T) {
	shared := NewQueryCache()
	defer shared.Close()
	const pattern = "(function_definition) @f"
	for i := 0; i < 2; i++ {
		c := NewParseCache(2)
		c.ShareQueries(shared)
		f, err := c.Get("void f(void) {}\nvoid g(void) {}\n")
		require.NoError(t, err)
		ms, err := f.Query(pattern)
		require.NoError(t, err)
		require.Len(t, ms, 2)
		c.Close()
	}
	require.Equal(t, 1, shared.Len(), "the second parse cache reuses the compiled pattern")
	// The shared cache outlives the parse caches that used it.
	c := NewParseCache(1)
	c.ShareQueries(shared)
	defer c.Close()
	f, err := c.Get("void h(void) {}")
	require.NoError(t, err)
	ms, err := f.Query(pattern)
	require.NoError(t, err)
	require.Len(t, ms, 1)
}
