package review

import (
	"context"
	"errors"
	"fmt"

	"github.com/diffdesk/diffdesk/review/decision"
)

// agentNoteMax is the most of an agent's account of its write the desk
// keeps (Cline's tool errors can be long; the history needs the gist).
const agentNoteMax = 2000

// ErrNotAgentWrite is wrapped by AgentWrote's refusal: the proposal is not
// an approval its agent writes itself, or the desk no longer holds it.
var ErrNotAgentWrite = errors.New("not an approval the agent writes itself")

// AgentWrote checks, after an agent that writes its files itself
// (Request.AgentWrites: the Cline door) ran its tool for an approval — or
// was kept from running it, or the tool failed —, whether each file holds
// the final text the outcome gave it. Where every file does, the approval
// stands and the outcome is returned as it was. Where one does not, the
// approval was not carried out: the journal records the decision as
// failed, with what the desk found and the agent's note (what its tool
// said; untrusted, cut to agentNoteMax), so the history never says
// "approved" for a file that was not written; the outcome returned, and
// the window's, say so.
//
// The desk checks the disk itself: an agent can only make the record
// truer, never mark an approval it wrote as unwritten.
func (d *Desk) AgentWrote(ctx context.Context, id, note string) (Outcome, error) {
	d.mu.Lock()
	e, ok := d.entries[id]
	var o Outcome
	if ok && e.hasOutcome() {
		o = e.outcome
	}
	d.mu.Unlock()
	if !ok {
		return Outcome{}, fmt.Errorf("proposal %s: the desk no longer holds it: %w", id, ErrNotAgentWrite)
	}
	if !o.AgentWrites || !o.Status.Wrote() {
		return Outcome{}, fmt.Errorf("proposal %s (%s): %w", id, o.Status, ErrNotAgentWrite)
	}
	roots := map[string]string{}
	for _, f := range e.p.Files {
		roots[f.Path] = f.Root
	}
	var missing []string
	for _, f := range o.Files {
		if !d.holdsFinal(f, roots[f.Path]) {
			missing = append(missing, Printable(f.Path))
		}
	}
	if len(missing) == 0 {
		return o, nil
	}
	if len(note) > agentNoteMax {
		note = note[:agentNoteMax] + "…"
	}
	why := &Failure{Kind: FailNotWritten, Verdict: o.Status, Paths: missing, Note: note, Feedback: o.Feedback}
	if err := d.journal.NotWritten(ctx, id, d.failText(why)); err != nil {
		return Outcome{}, err
	}
	d.mu.Lock()
	if e.outcome.Status.Wrote() {
		e.outcome.Status, e.outcome.Failure = decision.Failed, why
	}
	o = e.outcome
	d.mu.Unlock()
	d.emit(Event{Kind: EventDecided, ID: id})
	return o, nil
}

// holdsFinal reports whether f's file (under root) is as the outcome says
// it ends: gone for a deletion, else holding FinalSHA256. It is read as
// every file is (readDisk): the agent chose what is there by now, and a
// FIFO or a link to /dev/zero is not a file that holds the approved text.
func (d *Desk) holdsFinal(f FileOutcome, root string) bool {
	s, err := d.readDisk(f.Path, root)
	if f.Deleted {
		return err == nil && !s.Exists
	}
	return err == nil && s.Exists && s.SHA256 == f.FinalSHA256
}
