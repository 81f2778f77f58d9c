package workpool

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestEachVisitsEveryItemOnceWithPerWorkerState(t *testing.T) {
	var opened, closed atomic.Int32
	seen := make([]int32, 100)
	var mu sync.Mutex
	states := map[*int]bool{}
	err := Each(context.Background(), len(seen), 3,
		func() *int {
			opened.Add(1)
			s := new(int)
			mu.Lock()
			states[s] = true
			mu.Unlock()
			return s
		},
		func(*int) { closed.Add(1) },
		func(s *int, i int) { *s++; atomic.AddInt32(&seen[i], 1) })
	require.NoError(t, err)
	for i, n := range seen {
		require.Equal(t, int32(1), n, "item %d", i)
	}
	require.Equal(t, int32(3), opened.Load())
	require.Equal(t, opened.Load(), closed.Load())
	total := 0
	for s := range states {
		total += *s
	}
	require.Equal(t, 100, total)
}

func TestEachStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var done atomic.Int32
	err := Each(ctx, 1000, 2, func() int { return 0 }, func(int) {}, func(_ int, i int) {
		if done.Add(1) == 10 {
			cancel()
		}
	})
	require.ErrorIs(t, err, context.Canceled)
	require.Less(t, done.Load(), int32(1000))
}

func TestEachWithNoItems(t *testing.T) {
	require.NoError(t, Each(context.Background(), 0, 4, func() int { t.Fatal("no worker needed"); return 0 }, func(int) {}, func(int, int) {}))
}
