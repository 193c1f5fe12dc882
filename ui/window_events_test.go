package ui

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review"
)

// TestEventPumpCoalescesBursts pushes 2,000 events from 8 goroutines into
// the pump while a "UI goroutine" drains it: every id arrives, and the
// number of scheduled applies stays far below one per event. Run it with
// -race: the pending set and the flag are shared.
func TestEventPumpCoalescesBursts(t *testing.T) {
	ui := make(chan func(), 4096)
	var scheduled int
	var smu sync.Mutex
	seen := map[string]review.EventKind{}
	applies := 0
	p := newEventPump(func(f func()) {
		smu.Lock()
		scheduled++
		smu.Unlock()
		ui <- f
	}, func(batch map[string]review.EventKind) {
		applies++
		for id, k := range batch {
			if kindRank[k] >= kindRank[seen[id]] {
				seen[id] = k
			}
		}
	})
	const goroutines, each = 8, 250
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				kind := review.EventUpdated
				if i == each-1 {
					kind = review.EventPending
				}
				p.push(review.Event{Kind: kind, ID: fmt.Sprintf("p%d", g)})
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for running := true; running; {
		select {
		case f := <-ui:
			f()
		case <-done:
			running = false
		}
	}
	for len(ui) > 0 { // what was scheduled before the last push returned
		(<-ui)()
	}
	if len(seen) != goroutines {
		t.Fatalf("the UI saw %d proposals; want %d", len(seen), goroutines)
	}
	for id, k := range seen {
		if k != review.EventPending {
			t.Errorf("%s: last kind %s; want pending (a later update must not hide it)", id, k)
		}
	}
	smu.Lock()
	defer smu.Unlock()
	if scheduled > goroutines*each/4 {
		t.Errorf("%d events scheduled %d applies; want them coalesced", goroutines*each, scheduled)
	}
	t.Logf("%d events → %d scheduled applies (%d ran)", goroutines*each, scheduled, applies)
}

// TestEventPumpNoLostEvent checks the flag/set hand-over: an event pushed
// while a drain runs is applied by the next drain.
func TestEventPumpNoLostEvent(t *testing.T) {
	var queued []func()
	var got []string
	var p *eventPump
	p = newEventPump(func(f func()) { queued = append(queued, f) }, func(b map[string]review.EventKind) {
		for id := range b {
			got = append(got, id)
		}
		if len(got) == 1 {
			p.push(review.Event{Kind: review.EventUpdated, ID: "late"}) // arrives mid-drain
		}
	})
	p.push(review.Event{Kind: review.EventAdded, ID: "first"})
	for len(queued) > 0 {
		f := queued[0]
		queued = queued[1:]
		f()
	}
	if fmt.Sprint(got) != "[first late]" {
		t.Errorf("applied %v; want [first late]", got)
	}
}

// TestPumpNeverAppliesOnThePushersGoroutine: the desk pushes events with
// its lock held, and apply reads the desk; when the scheduler runs its
// func inline (fyne.Do once the app's loop has stopped), offThread keeps
// apply off the pusher's goroutine, so it waits for the lock instead of
// deadlocking on it.
func TestPumpNeverAppliesOnThePushersGoroutine(t *testing.T) {
	var deskLock sync.Mutex
	applied := make(chan struct{})
	inline := func(f func()) { f() }
	p := newEventPump(offThread(inline), func(map[string]review.EventKind) {
		deskLock.Lock() // the pump waits for the lock, as apply's Desk.Get does
		//lint:ignore SA2001 an empty critical section is the wait
		deskLock.Unlock()
		close(applied)
	})
	deskLock.Lock()
	p.push(review.Event{Kind: review.EventAdded, ID: "p1"}) // as Desk.emitLocked does
	deskLock.Unlock()
	select {
	case <-applied:
	case <-time.After(20 * time.Second):
		t.Fatal("the event was never applied")
	}
}
