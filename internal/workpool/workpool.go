// Package workpool runs indexed work items on a fixed number of goroutines,
// each with its own per-worker state (such as a checks.Session, which is not
// safe for concurrent use). It owns nothing else.
package workpool

import (
	"context"
	"runtime"
	"sync"
)

// Each calls do(state, i) for every i in [0, n) on at most jobs goroutines
// (jobs <= 0 means one per CPU). Each goroutine gets its own state from open
// and hands it to closeState when it is done. Once ctx is cancelled no new
// item starts; Each returns ctx.Err() in that case.
func Each[S any](ctx context.Context, n, jobs int, open func() S, closeState func(S), do func(S, int)) error {
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	if jobs > n {
		jobs = n
	}
	items := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			state := open()
			defer closeState(state)
			for i := range items {
				do(state, i)
			}
		}()
	}
feed:
	for i := 0; i < n; i++ {
		select {
		case items <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(items)
	wg.Wait()
	return ctx.Err()
}
