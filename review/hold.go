package review

import (
	"context"
	"fmt"
	"sync"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/decision"
)

// Holding a failed edit for the person.
//
// An edit whose block matched nowhere, or several places, fails. With
// nobody at the desk the agent is told at once, as it always was. With a
// person at the desk the failure is held instead (StateHeld): the
// agent's call stays open, the window shows the candidate lines, and the
// person either places the block (Place: the proposal becomes pending and
// is decided as any other, its outcome saying which lines the person
// chose) or dismisses the failure (Dismiss: the agent gets the same
// failure text it would have got at once). The agent therefore never
// hears "failed" about a file a person then writes.
//
// "A person at the desk" means, precisely: the desk has no unattended
// policy (Options.Unattended is ""), at least one reviewer attends
// (Attend: the window while it is open, or a native reviewer connection
// that said hello with "attend": true, while it is connected), and the
// user config does not turn holding off ([review] hold_failed = false).
// deskctl serve with no reviewer attending answers failures at once.
//
// A held failure ends as a pending proposal does when its agent cancels
// or disconnects (Withdraw), and it is sent to the agent when the last
// reviewer leaves, so no agent waits for a person who is gone.

// Attend says a person is at the desk until leave is called (once; later
// calls do nothing). When the last attending reviewer leaves, every held
// failure is sent to its agent.
func (d *Desk) Attend() (leave func()) {
	d.mu.Lock()
	d.attending++
	d.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			d.mu.Lock()
			d.attending--
			var held []*entry
			if d.attending == 0 {
				for _, e := range d.entries {
					if e.p.State == StateHeld && !e.deciding {
						e.p.State, e.deciding = StateFailed, true
						held = append(held, e)
					}
				}
			}
			d.mu.Unlock()
			for _, e := range held {
				d.sendFailure(context.Background(), e)
			}
		})
	}
}

// Attended reports whether a person is at the desk: failures that a
// person can place are held for them.
func (d *Desk) Attended() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.holdsLocked()
}

// holdsLocked reports whether a failure is held for the person; d.mu must
// be held.
func (d *Desk) holdsLocked() bool {
	return d.unattended == "" && d.attending > 0 && d.cfg.load().HoldFailed
}

// holdLocked holds e's failure if a person is at the desk and could place
// its block, and reports whether it did; d.mu must be held.
func (d *Desk) holdLocked(e *entry) bool {
	if e.p.State != StateFailed || !holdable(e.p) || !d.holdsLocked() {
		return false
	}
	e.p.State, e.heldFailure = StateHeld, e.p.Failure
	return true
}

// holdable reports whether a person could place the block p failed on:
// a single-file edit with blocks, of a file that exists, that failed
// because a block did not match.
func holdable(p Proposal) bool {
	return p.Mismatch != nil && placeableFormat(p.Format) && len(p.Files) == 1 && p.Files[0].Base.Exists
}

// placeableFormat reports whether an edit of format f has blocks a person
// can place (Place).
func placeableFormat(f engine.Format) bool {
	switch f {
	case engine.FormatSearchReplace, engine.FormatEdit, engine.FormatMultiEdit, engine.FormatSmartEdit:
		return true
	}
	return false
}

// Dismiss sends a held failure to its agent: the person looked and chose
// not to place the block. The agent reads the text it would have read
// had the failure not been held. A proposal that has already ended is
// left as it is; an open one is an error (decide it instead).
func (d *Desk) Dismiss(ctx context.Context, id string) error {
	d.mu.Lock()
	e, ok := d.entries[id]
	if !ok {
		d.mu.Unlock()
		return ErrUnknownProposal
	}
	if e.p.State != StateHeld || e.deciding {
		state := e.p.State
		d.mu.Unlock()
		if state.Open() {
			return fmt.Errorf("review: proposal %s is %s, not a failure held for the person; decide it instead", id, state)
		}
		return nil
	}
	e.p.State, e.deciding = StateFailed, true
	d.mu.Unlock()
	d.sendFailure(ctx, e)
	return nil
}

// sendFailure ends e, a held failure claimed by its caller, with the
// failure as it was when it was held.
func (d *Desk) sendFailure(ctx context.Context, e *entry) {
	d.mu.Lock()
	if e.heldFailure != nil {
		e.p.Failure = e.heldFailure
	}
	failure := e.p.Failure
	d.mu.Unlock()
	d.finish(ctx, e, Outcome{ID: e.p.ID, Status: decision.Failed, Failure: failure, Files: []FileOutcome{}})
}
