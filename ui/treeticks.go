package ui

import (
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/ui/present"
)

// ticksNote is what the changeset tree adds to a waiting file's state when
// the person unticked some of its hunks ("1 of 2 ticked", "none ticked"),
// "" otherwise: across a many-file changeset, the files a would write only
// in part could not be told from the rest (real window, a 6-file patch).
func (t *changesetTree) ticksNote(f review.ChangesetFile) string {
	var ids []string
	var ok bool
	if f.Proposal == t.sh.id {
		ids, ok = t.c.accepted[f.Path]
	} else if k, kept := t.deps.kept[f.Proposal]; kept {
		ids, ok = k.accepted[f.Path]
	}
	if !ok {
		return "" // never ticked or unticked: every hunk is
	}
	return present.TicksNote(len(ids), t.hunkCount(f))
}

// ticksChanged redraws the tree's states after the person ticked or
// unticked hunks of the shown file.
func (t *changesetTree) ticksChanged() {
	if t.shown() {
		t.refresh()
	}
}
