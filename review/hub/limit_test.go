package hub_test

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// Each hub test is bounded by a limit of its own (limit, its first line):
// every wait of the test ends at the test's deadline and fails it, saying
// what was waited for, what the test's hubs, desks and views had shown
// (what it registered with seen), and the goroutines of this package's
// code; a test still running a minute past its deadline — stuck where no
// wait of its own is, a Close that does not return — ends the binary
// with the same, naming the test, instead of holding it until go test's
// own timeout (30 minutes) with no test named.

// testState is what a bounded test's waits need.
type testState struct {
	ctx   context.Context
	limit time.Duration
	mu    sync.Mutex
	seen  []func() string
}

var states sync.Map // testing.TB → *testState

// limit bounds t to d; its waits use deadline(t).
func limit(t testing.TB, d time.Duration) {
	t.Helper()
	c, cancel := context.WithTimeout(context.Background(), d)
	st := &testState{ctx: c, limit: d}
	if _, dup := states.LoadOrStore(t, st); dup {
		cancel()
		t.Fatal("limit called twice")
	}
	name := t.Name()
	watchdog := time.AfterFunc(d+time.Minute, func() {
		panic(fmt.Sprintf("%s still running a minute past its %s limit (stuck outside its waits: a Close, a cleanup)\n%s\n%s", name, d, st.report(), goroutines()))
	})
	// Registered first, run last: the watchdog covers the test's cleanups.
	t.Cleanup(func() {
		watchdog.Stop()
		cancel()
		states.Delete(t)
	})
}

// unbounded is the state of a benchmark, which runs as long as its sizes
// take.
var unbounded = &testState{ctx: context.Background()}

func stateOf(t testing.TB) *testState {
	if st, ok := states.Load(t); ok {
		return st.(*testState)
	}
	if _, bench := t.(*testing.B); bench {
		return unbounded
	}
	t.Helper()
	t.Fatal("the test has no limit: call limit(t, d) first")
	return nil
}

// deadline is the context of t's limit: it ends when t's time is up.
func deadline(t testing.TB) context.Context { return stateOf(t).ctx }

// seen registers what describes the state of something the test waits
// on (a view's proposals and notices, a link's log): a stalled wait
// prints it.
func seen(t testing.TB, what func() string) {
	st := stateOf(t)
	st.mu.Lock()
	st.seen = append(st.seen, what)
	st.mu.Unlock()
}

func (st *testState) report() string {
	st.mu.Lock()
	list := append([]func() string(nil), st.seen...)
	st.mu.Unlock()
	var b strings.Builder
	for _, f := range list {
		b.WriteString(f())
		b.WriteString("\n")
	}
	return b.String()
}

// stalled fails t: what it waited for did not come by its deadline.
func stalled(t testing.TB, what string) {
	t.Helper()
	st := stateOf(t)
	t.Fatalf("timed out (the test's %s limit) waiting for %s\nwhat the test had seen:\n%s\n%s", st.limit, what, st.report(), goroutines())
}

// recv waits for a value from ch (what it is says what), until t's
// deadline.
func recv[T any](t testing.TB, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-deadline(t).Done():
		stalled(t, what)
	}
	var zero T
	return zero
}

// until polls cond (each 10 ms) until it holds, until t's deadline.
func until(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		select {
		case <-deadline(t).Done():
			stalled(t, what)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// goroutines is every goroutine running this module's code (the test's
// own, the links', the followers'), and how many others there are (the
// hub servers'): the stacks that say where a wait is stuck.
func goroutines() string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var ours []string
	others := 0
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		if bytes.Contains(g, []byte("github.com/diffdesk/diffdesk/")) && !bytes.Contains(g, []byte("hub_test.goroutines(")) {
			ours = append(ours, string(g))
		} else {
			others++
		}
	}
	return fmt.Sprintf("goroutines of this module's code (%d; %d others not shown):\n%s", len(ours), others, strings.Join(ours, "\n\n"))
}
