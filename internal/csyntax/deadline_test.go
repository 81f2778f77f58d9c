package csyntax

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestDeadlineStopsParsingWalksAndQueries(t *testing.T) {
	c := NewParseCache(4)
	defer c.Close()
	code := "void f(void) { g(1); h(2); }\n"

	c.SetDeadline(time.Now().Add(-time.Second))
	_, err := c.Get(code)
	require.ErrorIs(t, err, ErrInterrupted)
	require.Equal(t, 0, c.Len())

	c.SetDeadline(time.Time{})
	f, err := c.Get(code)
	require.NoError(t, err)
	require.False(t, f.Interrupted())

	// Once the deadline passes, walks and queries end early and say so; an
	// incomplete answer is not kept.
	c.SetDeadline(time.Now().Add(-time.Second))
	ms, err := f.Query("(call_expression) @c")
	require.NoError(t, err)
	require.Empty(t, ms)
	require.True(t, f.Interrupted())
	require.Empty(t, f.Calls(""))

	// The next Get parses the code again, and the new File is complete.
	c.SetDeadline(time.Time{})
	g, err := c.Get(code)
	require.NoError(t, err)
	require.Equal(t, 2, c.Parses())
	require.Len(t, g.Calls(""), 2)
	ms, err = g.Query("(call_expression) @c")
	require.NoError(t, err)
	require.Len(t, ms, 2)
}

func TestDeadlineStopsALongParse(t *testing.T) {
	var b strings.Builder
	for b.Len() < 8<<20 {
		b.WriteString("static int f(int a) { int b = g(a, 1); if (b < 0) { return h(b); } return b * 2; }\n")
	}
	c := NewParseCache(4)
	defer c.Close()
	c.SetDeadline(time.Now().Add(50 * time.Millisecond))
	_, err := c.Get(b.String())
	require.ErrorIs(t, err, ErrInterrupted, "parsing 8 MB takes far longer than 50ms")

	// The parser was reset: it parses other code normally afterwards.
	c.SetDeadline(time.Time{})
	f, err := c.Get("int main(void) { return 0; }")
	require.NoError(t, err)
	require.Len(t, f.Functions(), 1)
}

func TestTextsShareTheSource(t *testing.T) {
	// Nested calls: each call's argument holds the inner calls. Copying
	// every argument text would take quadratic memory.
	depth := 50000
	code := "int f(void) { return " + strings.Repeat("g(", depth) + "1" + strings.Repeat(")", depth) + "; }"
	f, err := Parse(code)
	require.NoError(t, err)
	defer f.Close()
	calls := f.Calls("")
	require.Len(t, calls, depth)
	require.Equal(t, code[strings.Index(code, "g(")+2:len(code)-4], calls[0].Args[0])
	total := 0
	for _, c := range calls {
		total += len(c.Args[0])
	}
	require.Greater(t, total, 1<<30, "the texts add up to gigabytes, which only sharing makes possible")
}

func TestCacheBoundsTheBytesItKeeps(t *testing.T) {
	c := NewParseCache(8)
	defer c.Close()
	// Blank sources parse fast; five of 15 MiB pass MaxCachedBytes.
	blank := strings.Repeat(" ", 15<<20)
	for i := 0; i < 5; i++ {
		_, err := c.Get(blank + "int x" + strings.Repeat("x", i) + ";")
		require.NoError(t, err)
	}
	require.Equal(t, MaxCachedBytes/(15<<20), c.Len(), "the oldest are evicted past MaxCachedBytes")
	_, err := c.Get("int z;")
	require.NoError(t, err)
	require.Equal(t, MaxCachedBytes/(15<<20)+1, c.Len())
}
