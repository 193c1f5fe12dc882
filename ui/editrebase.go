package ui

import (
	"fmt"
	"strings"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
)

// A save on disk while the person edits: their text was made against the
// left side as it was then. Approve edited wrote it over the new save —
// reverting a change nobody in the window made, and telling no one (QA in
// the real window). The edit is carried onto the new disk as the proposal
// is, by a three-way merge, and the approval that would have used the old
// one stops so the person sees the result first.

// leftText is what the view shows on the left for f: the disk of a stale
// file, else the file as the proposal found it.
func leftText(f review.File) string {
	if f.Stale() {
		return string(f.Disk.Content)
	}
	return f.BaseText()
}

// noteBase records, for the file shown in edit mode, the left side the
// person edits against (once: the first time it is shown in edit mode).
func (e *editSession) noteBase(f review.File) {
	if e.c.editedOn == nil {
		e.c.editedOn = map[string]string{}
	}
	if _, ok := e.c.editedOn[f.Path]; !ok {
		e.c.editedOn[f.Path] = leftText(f)
	}
}

// rebase merges each of the person's edits (e.c.edited: the editor
// keeps it current through OnEdited) made against a left side the disk no
// longer holds onto the disk as it is now, and says so. It returns the
// names of the files it moved.
func (e *editSession) rebase() []string {
	var moved, conflicted []string
	for _, f := range e.sh.p.Files {
		text, edited := e.c.edited[f.Path]
		on, known := e.c.editedOn[f.Path]
		now := leftText(f)
		if !edited || !known || on == now {
			continue
		}
		m := engine.Merge3(on, now, text, engine.MergeLabels{Ours: "the disk now", Base: "the disk you began editing", Theirs: "your edit"})
		e.c.edited[f.Path], e.c.editedOn[f.Path] = m.Text, now
		moved = append(moved, f.Rel)
		if len(m.Conflicts) > 0 {
			conflicted = append(conflicted, fmt.Sprintf("%s (%d conflicts)", f.Rel, len(m.Conflicts)))
		}
	}
	if len(moved) == 0 {
		return nil
	}
	msg := "Saved on disk while you edited: " + strings.Join(moved, ", ") + ". Your edit was merged onto the new disk (left); nothing was written — review it, then approve."
	if len(conflicted) > 0 {
		msg = "Saved on disk while you edited: " + strings.Join(moved, ", ") + ". Your edit and the save conflict in " + strings.Join(conflicted, ", ") + ": resolve the marked lines, then approve. Nothing was written."
	}
	e.sh.shownKey = "" // rebuilt at the next render
	e.setStatus(msg, true)
	return moved
}
