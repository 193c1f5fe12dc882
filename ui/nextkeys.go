package ui

import (
	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
)

// Two keys for reading what matters: u goes to the first hunk of the
// shown proposal never on screen (in any of its files), so the
// never-on-screen question need not be the way to find them; J goes to
// the next change that is not trivial (no whitespace-, comment- or
// formatting-only label), past the ones t approves.

// NextUnseen shows the first hunk of the proposal never on screen (u).
func (d *detail) NextUnseen() {
	if d.id == "" || len(d.p.Files) == 0 || d.p.State == review.StateStreaming || d.editing {
		d.say("u goes to a hunk never on screen: choose a proposal waiting for a decision, outside edit mode.")
		return
	}
	u := review.CheckSeen([]review.ProposalSeen{d.onScreen.proposalSeen(review.Decision{Verdict: decision.Approved})})
	if u.Unseen == 0 {
		d.say("Every hunk of this proposal has been on screen.")
		return
	}
	d.onScreen.showFirst(nil, u)
	d.say("")
}

// NextNonTrivial goes to the next change of the shown file without a
// trivial label (J).
func (d *detail) NextNonTrivial() {
	hs := d.view.Hunks()
	from := d.view.CurrentHunk()
	if !d.view.CurrentOnScreen() {
		from = -1
	}
	for k := from + 1; k < len(hs); k++ {
		if d.view.Note(hs[k].ID).Text == "" {
			d.showHunk(hs[k])
			return
		}
	}
	d.say("No change below that is not trivial in this file: ] goes to the next file.")
}

// showHunk makes h the current change, on screen.
func (d *detail) showHunk(h engine.Hunk) {
	d.view.ShowHunk(h.ID)
	d.updateCounter()
}
