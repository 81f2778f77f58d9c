package checks

import (
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"sync"
	"sync/atomic"
	"time"

	"go.starlark.net/starlark"

	"github.com/embedeval/embedeval-go/internal/bytesize"
	"github.com/embedeval/embedeval-go/internal/csyntax"
)

// Size limits that are not part of Limits.
const (
	// MaxCheckFileBytes is the largest check file that is loaded.
	MaxCheckFileBytes = 1 << 20
	// maxIntBits bounds the integers a check computes: multiplying or
	// printing far larger ones takes longer than any time limit.
	maxIntBits = 1 << 16
	// maxHelperInput bounds the text the helpers (strip_comments, has_word,
	// kconfig.parse, ...) take, as the C parser does (csyntax.MaxSourceBytes).
	maxHelperInput = csyntax.MaxSourceBytes
	// maxQuery bounds a c.query pattern.
	maxQuery = 4 << 10
	// elemBytes is what one element of a list, tuple, dict or set counts
	// toward the size and memory limits.
	elemBytes = 16
	// structBytes is what one struct or dict a helper returns counts toward
	// the memory limit, besides its elements.
	structBytes = 64
	// asyncInput is the input size from which a helper runs on its own
	// goroutine, so that the call can return at the time limit without
	// waiting for it.
	asyncInput = 256 << 10
	// abandonGrace is how long a call that passed its time limit may take to
	// stop on its own; then it is abandoned (see Runtime.call).
	abandonGrace = time.Second
)

// callState is what the builtins of one call share, reached through the
// thread (stateOf): the session caches in use, the memory count, and the stop
// signal set at the time limit or on cancellation.
type callState struct {
	rt    *Runtime
	cache *sessionState
	// allocated is the estimate, in bytes, of what the call has allocated
	// through operations whose cost grows with their operands.
	allocated int64

	stopOnce sync.Once
	reason   atomic.Pointer[string]
	stopped  chan struct{} // closed by stop

	mu        sync.Mutex
	finished  bool // the call's goroutine has returned
	abandoned bool // the caller stopped waiting for it
}

func newCallState(rt *Runtime, cache *sessionState) *callState {
	return &callState{rt: rt, cache: cache, stopped: make(chan struct{})}
}

// stateOf returns the state of a thread started by Runtime.call, which always
// sets one.
func stateOf(th *starlark.Thread) *callState {
	return th.Local(stateKey).(*callState)
}

// stop records why the call must end; the first reason wins. Safe from any
// goroutine.
func (st *callState) stop(reason string) {
	st.stopOnce.Do(func() {
		st.reason.Store(&reason)
		close(st.stopped)
	})
}

// poll returns the stop reason as an error once the call must end.
func (st *callState) poll() error {
	if r := st.reason.Load(); r != nil {
		return &limitError{msg: *r}
	}
	return nil
}

// timeLimit is the error of work cut short at the call's deadline. The
// deadline passes a moment before the stop signal, so poll may not say it
// yet.
func (st *callState) timeLimit() error {
	if err := st.poll(); err != nil {
		return err
	}
	return &limitError{msg: st.rt.timeLimitMsg()}
}

// parsed is the syntax tree of code from the session's cache: nil (and no
// error) when the code does not parse, the time-limit error when the parse
// was cut short at the deadline.
func (st *callState) parsed(code string) (*csyntax.File, error) {
	f, err := st.cache.parse(code)
	if errors.Is(err, csyntax.ErrInterrupted) {
		return nil, st.timeLimit()
	}
	if err != nil {
		return nil, nil
	}
	return f, nil
}

func (r *Runtime) timeLimitMsg() string {
	return fmt.Sprintf("exceeded the time limit of %s", r.limits.Timeout)
}

// await runs f, which must not touch the thread or the session, and returns
// when it is done or when the call must stop, whichever is first. Work on an
// input of size bytes or more runs on its own goroutine and is abandoned at
// the stop; smaller work runs inline.
func (st *callState) await(size int, f func()) error {
	if err := st.poll(); err != nil {
		return err
	}
	if size < asyncInput {
		f()
		return st.poll()
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
		return nil
	case <-st.stopped:
		return st.poll()
	}
}

// checkInput refuses a helper input over maxHelperInput.
func checkInput(name string, n int) error {
	if n > maxHelperInput {
		return &limitError{msg: fmt.Sprintf("exceeded the size limit of %s for the text a helper reads (%s got %d bytes)", bytesize.Format(maxHelperInput), name, n)}
	}
	return nil
}

// alloc counts n bytes toward the memory limit of the call.
func (st *callState) alloc(n int64) error {
	st.allocated += n
	if st.allocated > st.rt.limits.MaxAllocBytes {
		return &limitError{msg: fmt.Sprintf("exceeded the memory limit of %s per call", bytesize.Format(st.rt.limits.MaxAllocBytes))}
	}
	return nil
}

// newBytes checks and counts a new string or bytes of n bytes.
func (st *callState) newBytes(kind string, n int64) error {
	if max := int64(st.rt.limits.MaxValueBytes); n > max {
		// textSize stops counting at max+1.
		size := fmt.Sprintf("%d bytes", n)
		if n == max+1 {
			size = fmt.Sprintf("more than %d bytes", max)
		}
		return &limitError{msg: fmt.Sprintf("exceeded the size limit of %s per value (the result would be a %s of %s)", bytesize.Format(max), kind, size)}
	}
	return st.alloc(n)
}

// newElems checks and counts a new list, tuple, dict or set of n elements.
func (st *callState) newElems(kind string, n int64) error {
	return st.grow(kind, n, n)
}

// grow checks a list, tuple, dict or set of n elements of which added are
// new, and counts the new ones.
func (st *callState) grow(kind string, n, added int64) error {
	if max := int64(st.rt.limits.MaxValueBytes); n > max/elemBytes {
		return &limitError{msg: fmt.Sprintf("exceeded the size limit of %s per value (the result would be a %s of %d elements, at most %d fit)", bytesize.Format(max), kind, n, max/elemBytes)}
	}
	return st.alloc(added * elemBytes)
}

// newStructs counts n structs or dicts built by a helper, with elems
// elements in all.
func (st *callState) newStructs(n, elems int) error {
	return st.alloc(int64(n)*structBytes + int64(elems)*elemBytes)
}

// checkIntBits refuses an integer result of more than maxIntBits bits.
func checkIntBits(n int) error {
	if n > maxIntBits {
		return &limitError{msg: fmt.Sprintf("exceeded the size limit of %d bits per integer (the result would have %d bits)", maxIntBits, n)}
	}
	return nil
}

// intBits is the bit length of |i|.
func intBits(i starlark.Int) int {
	if v, ok := i.Int64(); ok {
		if v < 0 {
			v = -v
		}
		return bits.Len64(uint64(v))
	}
	return new(big.Int).Abs(i.BigInt()).BitLen()
}

// seqLen is the length of an iterable, counting its elements when it does
// not say (stopping past limit). ok is false for a non-iterable.
func seqLen(v starlark.Value, limit int64) (n int64, ok bool) {
	it, isIter := v.(starlark.Iterable)
	if !isIter {
		return 0, false
	}
	if l, hasLen := v.(interface{ Len() int }); hasLen {
		return int64(l.Len()), true
	}
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for n <= limit && iter.Next(&x) {
		n++
	}
	return n, true
}
