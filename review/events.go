package review

import (
	"slices"
	"sync"
	"sync/atomic"
)

// EventKind says what happened to a proposal.
type EventKind string

// The events a Desk sends to subscribers.
const (
	EventAdded   EventKind = "added"   // a new proposal (maybe still streaming)
	EventUpdated EventKind = "updated" // a streaming chunk, a failure note, a state change
	EventPending EventKind = "pending" // complete and waiting for a decision
	EventStale   EventKind = "stale"   // a file changed on disk while it waited
	EventDecided EventKind = "decided" // the outcome is recorded and delivered
)

// Event tells a subscriber that proposal ID changed; read it with Desk.Get.
type Event struct {
	Kind EventKind
	ID   string
}

// Subscribers is the list of functions every Event goes to: the Desk's,
// and that of each other desk the window shows (the hub's View, a far
// desk). Its lock is never held while a function runs, so a function may
// cancel itself or another, and a slow one delays only the Emit it is in.
// A function cancelled while an Emit is under way on the same goroutine
// is not called again. The zero value is an empty list.
type Subscribers struct {
	mu   sync.Mutex
	list []*subscriber // copied on change: an Emit reads the list it took
}

type subscriber struct {
	fn  func(Event)
	off atomic.Bool // cancelled
}

// Subscribe adds fn, called in order of subscription, until cancel is
// called (more than once is harmless).
func (s *Subscribers) Subscribe(fn func(Event)) (cancel func()) {
	sub := &subscriber{fn: fn}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.list = append(slices.Clip(s.list), sub)
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		sub.off.Store(true)
		s.list = slices.DeleteFunc(slices.Clone(s.list), func(x *subscriber) bool { return x == sub })
	}
}

// Emit calls every subscribed function with ev, on the calling goroutine.
func (s *Subscribers) Emit(ev Event) {
	s.mu.Lock()
	list := s.list
	s.mu.Unlock()
	for _, sub := range list {
		if !sub.off.Load() {
			sub.fn(ev)
		}
	}
}

// Subscribe calls fn for every event until cancel is called. fn runs on the
// goroutine that caused the event, possibly with internal locks held, so it
// must return at once and must not call back into the Desk (queue the event
// and handle it elsewhere, as the UI does with one coalesced refresh).
func (d *Desk) Subscribe(fn func(Event)) (cancel func()) { return d.subs.Subscribe(fn) }

// emit sends ev to every subscriber, in the order of the desk's changes.
func (d *Desk) emit(ev Event) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.subs.Emit(ev)
}
