package memory

import (
	"runtime"
	"sync"
	"testing"
)

// TestReleaseOnlyAfterBigWorkAndOneAtATime: small work releases nothing;
// big work does, in its goroutine; releases asked for while one runs come
// to one more after it, never two at once.
func TestReleaseOnlyAfterBigWorkAndOneAtATime(t *testing.T) {
	var calls, inside, most int
	var cmu sync.Mutex
	gate := make(chan struct{})
	done := make(chan struct{}, 8)
	free = func() {
		cmu.Lock()
		calls++
		inside++
		most = max(most, inside)
		first := calls == 1
		cmu.Unlock()
		if first {
			<-gate // the first release runs until the others have been asked for
		}
		cmu.Lock()
		inside--
		cmu.Unlock()
		done <- struct{}{}
	}
	defer func() { free = defaultFree }()
	Release(Big - 1)
	Release(Big)
	Release(Big)
	Release(2 * Big)
	close(gate)
	<-done
	<-done
	for { // the goroutine ends once it finds nothing more asked for
		mu.Lock()
		r := running
		mu.Unlock()
		if !r {
			break
		}
		runtime.Gosched()
	}
	if calls != 2 || most != 1 {
		t.Errorf("%d releases, at most %d at once; want 2 (one, then one for those asked meanwhile), one at a time", calls, most)
	}
}
