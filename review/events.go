package review

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

// Subscribe calls fn for every event until cancel is called. fn runs on the
// goroutine that caused the event, possibly with internal locks held, so it
// must return at once and must not call back into the Desk (queue the event
// and handle it elsewhere, as the UI does with one coalesced refresh).
func (d *Desk) Subscribe(fn func(Event)) (cancel func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.subSeq++
	id := d.subSeq
	d.subs[id] = fn
	return func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		delete(d.subs, id)
	}
}

func (d *Desk) emit(ev Event) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.emitLocked(ev)
}

// emitLocked sends ev to every subscriber; d.mu must be held.
func (d *Desk) emitLocked(ev Event) {
	for _, fn := range d.subs {
		fn(ev)
	}
}
