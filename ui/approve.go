package ui

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/memory"
	"github.com/diffdesk/diffdesk/ui/present"
)

// The decisions of the shown proposal: approve (as proposed, edited, the
// merge, the ticked hunks), reject, dismiss, and what follows them.

// Approve writes the proposal as the screen shows it (a): as it is; with
// hunks unticked in the gutter, only the ticked ones; on a stale proposal,
// the merge; while editing, the edited text.
func (d *detail) Approve() {
	switch {
	case !d.canDecide():
		if why := present.WhyNoApprove(d.p, d.outcome != nil); d.id != "" && !d.deciding && why != "" {
			d.line.say(why) // a key that did nothing without a word looked like one the window had not got
		}
	case d.editing:
		d.ApproveEdited()
	case slices.ContainsFunc(d.p.Files, review.File.Stale):
		d.ApproveMerged()
	case d.someRejected():
		d.ApprovePartial()
	default:
		d.decide(review.Decision{Verdict: decision.Approved})
	}
}

// ApproveEdited writes the person's text (e, then a).
func (d *detail) ApproveEdited() {
	if !d.canDecide() || !d.editing && len(d.edited) == 0 {
		return
	}
	d.saveFileState()
	if len(d.edit.rebase()) > 0 { // a save on disk meanwhile: the person sees the merge first
		d.render()
		return
	}
	d.decide(d.choices.approveEdited(d.p))
}

// ApproveMerged writes each stale file's clean merge of the proposal into
// the disk content the person saw; the write goes ahead only while the disk
// still holds exactly that content.
func (d *detail) ApproveMerged() {
	if !d.canDecide() || d.choices.conflicted(d.p) {
		if d.choices.conflicted(d.p) {
			d.line.setStatus("The merge has conflicts: Edit to resolve them, or Reject.", true)
		}
		return
	}
	d.saveFileState()
	d.decide(d.choices.approveMerged(d.p))
}

// ApprovePartial writes only the hunks left accepted in the gutter.
func (d *detail) ApprovePartial() {
	if !d.canDecide() || slices.ContainsFunc(d.p.Files, review.File.Stale) {
		return
	}
	now := d.choices // with the ticks the view shows for its file
	if len(d.p.Files) > d.file && d.viewHasProposal(d.cur()) {
		now = now.withTicks(d.curPath(), d.view.AcceptedHunks())
	}
	dec, ticked := now.approvePartial(d.p)
	if ticked == 0 {
		// Nothing ticked writes nothing: that is a rejection, and it is
		// asked as one (it was recorded as a partial approval and the
		// agent read "approved").
		d.rejectBox.show(false, "No hunk is ticked, so nothing would be written. Reject "+present.FileNames(d.p)+"?")
		return
	}
	d.decide(dec)
}

// ShowReject opens the reject dialog; its reason goes to the agent (r).
func (d *detail) ShowReject() {
	if d.id == "" || !d.p.State.Open() || d.deciding || d.outcome != nil {
		return
	}
	d.rejectBox.show(false, "Reject "+present.FileNames(d.p)+"?")
}

// Reject rejects the shown proposal with reason (may be "").
func (d *detail) Reject(reason string) {
	if d.id != "" && strings.TrimSpace(reason) != "" && (!d.p.State.Open() || d.outcome != nil) {
		d.line.say(present.ReasonNotSent(present.FileNames(d.p))) // its reject box was open as it stopped waiting
		return
	}
	if d.id == "" || !d.p.State.Open() || d.deciding || d.outcome != nil {
		return
	}
	d.decide(review.Decision{Verdict: decision.Rejected, Feedback: strings.TrimSpace(reason)})
}

// Dismiss removes a failed or decided proposal from the queue.
func (d *detail) Dismiss() {
	if d.id == "" || d.p.State.Open() && d.outcome == nil {
		return
	}
	id := d.id
	if d.p.State == review.StateHeld {
		if d.shownAt.Add(d.w.opts.ArmDelay).After(d.w.now()) {
			d.line.setStatus("This proposal has just appeared: look at it, then decide.", false)
			return // a click meant for the proposal shown before
		}
		d.pick.dismiss(id) // the agent gets its failure (pick.go); the desk forgets it once delivered
		d.line.setStatus(present.FileNames(d.p)+": dismissed; the agent is told its edit did not apply. Nothing was written.", false)
	} else {
		d.w.desk.Forget(id)
	}
	d.w.dismissed[id] = true
	delete(d.w.items, id)
	d.closeBoundDialog()
	d.id = ""
	d.reset()
	d.w.refreshQueue()
}

// decide carries out dec off the UI goroutine and shows the outcome.
func (d *detail) decide(dec review.Decision) {
	if wait := d.shownAt.Add(d.w.opts.ArmDelay).Sub(d.w.now()); wait > 0 {
		// A click or key meant for the proposal shown before (the second
		// click of a double-click on Dismiss, a repeated a) lands here.
		d.line.setStatus("This proposal has just appeared: look at it, then decide.", false)
		return
	}
	if dec.Verdict.Wrote() && !d.protect.confirm(func() { d.decide(dec) }) {
		return
	}
	if dec.Verdict.Wrote() && !d.onScreen.confirm(dec) {
		return
	}
	if dec.Verdict == decision.ApprovedEdited && !d.edit.confirmOwnEdit(dec) {
		return
	}
	id := d.id
	dec.Comments = d.comments.of(id)
	dec.Seen, dec.SeenLines = d.onScreen.forDecision(), d.onScreen.linesForDecision()
	dec.Shown = review.ShownVersion(d.p) // the texts on screen: refused if the proposal has others by now
	d.deciding = true
	d.w.autoPicked = false // the person acted on it: keep it shown
	d.line.setStatus("Writing…", false)
	if dec.Verdict == decision.Rejected {
		d.line.setStatus("Rejecting…", false)
	}
	d.updateBar()
	d.w.background(func() func() {
		o, err := d.w.desk.Decide(context.Background(), id, dec)
		return func() { d.decided(id, o, err) }
	})
}

// decided shows the result of a decision.
func (d *detail) decided(id string, o review.Outcome, err error) {
	n := 0
	for _, f := range o.Files {
		n += len(f.FinalContent)
	}
	memory.Release(2 * n) // the journal's and the write's work on a big file
	if id != d.id {
		return // the person moved on; the queue shows the rest
	}
	d.deciding = false
	if err != nil {
		var se *review.StaleError
		if errors.As(err, &se) {
			d.line.setStatus("Not written: the file changed on disk. Review base / disk / proposal and decide again.", true)
		} else {
			d.line.setStatus("Not written: "+err.Error(), true)
		}
		if p, ok := d.w.desk.Get(id); ok {
			d.p = p
		}
		d.editing = false
		d.shownKey = ""
		d.render()
		return
	}
	d.outcome = &o
	d.comments.sent(id)
	d.drafts.dropProposal(id)
	if d.editing {
		d.editing = false
		d.w.Win.Canvas().Unfocus() // the keys act on the window again
	}
	d.edit.closeExternal()
	if p, ok := d.w.desk.Get(id); ok {
		d.p = p
	}
	d.line.setStatus(present.Outcome(d.p, o), false)
	d.shownKey = ""
	d.render()
	d.w.refreshQueue() // on to the next proposal waiting, if there is one
}

// done reports whether the shown proposal was decided (or withdrawn) and
// its outcome has nothing more to show than its status line: the window
// may then move on to the next proposal.
func (d *detail) done() bool {
	if d.outcome == nil || d.deciding {
		return false
	}
	for _, f := range d.outcome.Files {
		if f.FormatterError != "" || f.AutoFormatEdits != "" {
			return false // the formatter's change or failure is on show
		}
	}
	return true
}
