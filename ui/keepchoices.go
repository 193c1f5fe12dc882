package ui

import (
	"github.com/diffdesk/diffdesk/review"
)

// What the person chose on a proposal stays when they look at another and
// come back (a click in the queue, n/p, ]/[ or j/k across a changeset's
// proposals): its unticked hunks, its edit (and edit mode), the file
// shown and the trivial hunks t approved. They were dropped, and a on the
// proposal again wrote the hunks the person had unticked.

// stash keeps the shown proposal's choices while another is shown.
func (d *detail) stash() {
	if d.id == "" {
		return
	}
	if d.kept == nil {
		d.kept = map[string]choices{}
	}
	for id := range d.kept { // forget proposals decided or gone meanwhile
		if p, ok := d.w.desk.Get(id); !ok || !p.State.Open() {
			delete(d.kept, id)
		}
	}
	if d.outcome != nil || !d.p.State.Open() || d.deciding {
		delete(d.kept, d.id)
		return
	}
	d.saveFileState()
	if !d.choices.any() {
		delete(d.kept, d.id)
		return
	}
	d.kept[d.id] = d.choices.keep()
}

// unstash restores what stash kept of p, just shown again; it reports
// whether it restored edit mode.
func (d *detail) unstash(p review.Proposal) bool {
	k, ok := d.kept[p.ID]
	if !ok {
		return false
	}
	delete(d.kept, p.ID)
	if !p.State.Open() {
		return false
	}
	d.accepted = k.accepted
	if p.State == review.StatePending && k.trivialOK != nil {
		d.trivialOK = k.trivialOK // hunk ids: stale, the merge's hunks differ
	}
	if k.file < len(p.Files) {
		d.file = k.file
	}
	if p.State != review.StatePending {
		// Stale meanwhile: the edit was made on what the disk no longer
		// holds; the person starts again from the merge.
		if k.editing || len(k.edited) > 0 {
			d.say("The file changed on disk while another proposal was shown: your edit of this one was dropped.")
		}
		return false
	}
	d.edited, d.editedOn, d.editing = k.edited, k.editedOn, k.editing
	return d.editing
}

// keptChoiceIn returns the files of the first proposal of open, other than
// the shown one, with an edit or unticked hunks kept by stash ("" if none):
// approving the changeset as proposed would drop them.
func (d *detail) keptChoiceIn(open []review.Proposal) string {
	for _, p := range open {
		k, ok := d.kept[p.ID]
		if !ok || p.ID == d.id {
			continue
		}
		if k.editing || len(k.edited) > 0 {
			return fileNames(p)
		}
		for _, f := range p.Files {
			if ids, ok := k.accepted[f.Path]; ok && len(ids) < len(d.tree.fileHunks(p)(f)) {
				return fileNames(p)
			}
		}
	}
	return ""
}
