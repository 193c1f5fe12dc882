package ui

import (
	"fyne.io/fyne/v2/dialog"
	"github.com/diffdesk/diffdesk/ui/present"
)

// A question asked about one proposal must never decide another. When its
// proposal was withdrawn (or decided elsewhere) the pane moved on to the
// next proposal while the question stayed open, and its Enter or
// Ctrl+Enter then decided the proposal that took the pane: a reject box
// opened for A.go rejected B.go with A's reason, and "Approve anyway" asked
// about big.txt wrote B.go, which the person had never opened (QA in the
// real window). A dialog about the shown proposal is bound to it, and
// closes when another proposal is shown.

// closeBoundDialog closes a dialog bound to the proposal the pane is
// leaving. Its Cancel runs (a typed reason stays a draft of that
// proposal); nothing it would confirm happens. A notice takes its place
// until the person closes it: the keys they were typing into the question
// (a reason's letters, the Ctrl+Enter that would have sent it) must not
// land on the proposal that took the pane, as a or Ctrl+Enter.
func (d *detail) closeBoundDialog() {
	w := d.w
	if w.closer == nil || w.closerFor == "" || w.closerFor != d.id {
		return
	}
	name := present.FileNames(d.p)
	dlg := w.closer
	w.closer, w.closerFor = nil, ""
	dlg.Hide()
	note := dialog.NewInformation("No longer waiting here",
		name+" is no longer waiting here (withdrawn by its agent, or decided elsewhere) while you answered a question about it.\n"+
			"Nothing was decided by that question; a reason or comment you typed is kept as its draft.\n\nEsc closes this.", w.Win)
	w.setCloser(note, nil)
	note.Show()
}
