package ui

import (
	"sync"
	"sync/atomic"

	"github.com/diffdesk/diffdesk/review"
)

// eventPump carries desk events from the goroutines that cause them to the
// UI goroutine: events are merged into a pending set under a mutex, and an
// atomic flag lets at most one apply be scheduled at a time, so a burst of
// 2,000 streaming chunks costs one refresh, not 2,000.
type eventPump struct {
	do        func(func()) // schedules a func on the UI goroutine (fyne.Do)
	apply     func(map[string]review.EventKind)
	scheduled atomic.Bool

	mu      sync.Mutex
	pending map[string]review.EventKind // id → the most telling kind seen
}

func newEventPump(do func(func()), apply func(map[string]review.EventKind)) *eventPump {
	return &eventPump{do: do, apply: apply, pending: map[string]review.EventKind{}}
}

// kindRank orders event kinds by what the UI must not miss: a pending
// event (a notification may follow) outranks an update of the same id.
var kindRank = map[review.EventKind]int{
	review.EventUpdated: 1, review.EventAdded: 2, review.EventStale: 3, review.EventPending: 4, review.EventDecided: 5,
}

// offThread schedules through do from a goroutine of its own, so that a
// do which runs its func inline never runs it on the caller's goroutine
// (which may hold the desk's lock).
func offThread(do func(func())) func(func()) {
	return func(f func()) { go do(f) }
}

// push queues ev; it returns at once (desk subscribers must not block).
func (p *eventPump) push(ev review.Event) {
	p.mu.Lock()
	if kindRank[ev.Kind] >= kindRank[p.pending[ev.ID]] {
		p.pending[ev.ID] = ev.Kind
	}
	p.mu.Unlock()
	if p.scheduled.CompareAndSwap(false, true) {
		p.do(p.drain)
	}
}

// drain runs on the UI goroutine: it takes the pending set and applies it.
func (p *eventPump) drain() {
	// Clear the flag before taking the set: an event pushed after the take
	// schedules another drain, one pushed before it is in this one.
	p.scheduled.Store(false)
	p.mu.Lock()
	batch := p.pending
	p.pending = map[string]review.EventKind{}
	p.mu.Unlock()
	if len(batch) > 0 {
		p.apply(batch)
	}
}
