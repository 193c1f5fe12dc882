package ui

import (
	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/ui/present"
)

// What the person chose on a proposal stays when they look at another and
// come back (a click in the queue, n/p, ]/[ or j/k across a changeset's
// proposals): its unticked hunks, its edit (and edit mode), the file
// shown and the trivial hunks t approved. They were dropped, and a on the
// proposal again wrote the hunks the person had unticked.

// keptChoices are the choices of the proposals left undecided while
// another shows, by proposal id.
type keptChoices map[string]choices

// stash keeps c, the choices on proposal id as it is left, while another
// shows; open says it still takes a decision (a decided one keeps
// nothing). Proposals decided or gone meanwhile (get) are forgotten.
func (k keptChoices) stash(id string, c choices, open bool, get func(string) (review.Proposal, bool)) {
	for kid := range k {
		if p, ok := get(kid); !ok || !p.State.Open() {
			delete(k, kid)
		}
	}
	if !open || !c.any() {
		delete(k, id)
		return
	}
	k[id] = c.keep()
}

// restore puts back into c what stash kept of p, just shown again; it
// reports whether it restored edit mode, and whether an edit was dropped
// (p turned stale meanwhile: the edit was made on what the disk no longer
// holds; the person starts again from the merge).
func (k keptChoices) restore(p review.Proposal, c *choices) (editing, dropped bool) {
	kc, ok := k[p.ID]
	if !ok {
		return false, false
	}
	delete(k, p.ID)
	if !p.State.Open() {
		return false, false
	}
	c.accepted = kc.accepted
	if p.State == review.StatePending && kc.trivialOK != nil {
		c.trivialOK = kc.trivialOK // hunk ids: stale, the merge's hunks differ
	}
	if kc.file < len(p.Files) {
		c.file = kc.file
	}
	if p.State != review.StatePending {
		return false, kc.editing || len(kc.edited) > 0
	}
	c.edited, c.editedOn, c.editing = kc.edited, kc.editedOn, kc.editing
	return c.editing, false
}

// choiceIn returns the files of the first proposal of open, other than
// shown, with an edit or unticked hunks kept ("" if none): approving the
// changeset as proposed would drop them.
func (k keptChoices) choiceIn(open []review.Proposal, shown string, hunks func(review.Proposal) func(review.File) []engine.Hunk) string {
	for _, p := range open {
		kc, ok := k[p.ID]
		if !ok || p.ID == shown {
			continue
		}
		if kc.editing || len(kc.edited) > 0 {
			return present.FileNames(p)
		}
		for _, f := range p.Files {
			if ids, ok := kc.accepted[f.Path]; ok && len(ids) < len(hunks(p)(f)) {
				return present.FileNames(p)
			}
		}
	}
	return ""
}
