package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2/dialog"
)

// CancelEdit leaves edit mode and forgets the edits (Cancel edit, e, and
// Esc once the editor has let the keyboard go). When the person changed
// something it asks first: Enter discards, Esc keeps editing. A second Esc
// pressed to leave the editor must never throw their work away.
func (d *detail) CancelEdit() {
	if !d.editing || d.deciding || d.discardDialog != nil {
		return
	}
	changed := d.changedFiles()
	if len(changed) == 0 {
		d.discardEdit()
		return
	}
	keep := func() {
		d.discardDialog = nil
		if ed := d.view.Editor(); ed != nil {
			d.w.Win.Canvas().Focus(ed) // back to the text, to go on
			d.showKeyboard()
		}
	}
	d.discardDialog = dialog.NewConfirm("Discard your edit?",
		fmt.Sprintf("You changed %s. Discard your changes and go back to the proposal?", strings.Join(changed, ", ")),
		func(ok bool) {
			if !ok {
				keep()
				return
			}
			d.discardDialog = nil
			d.discardEdit()
		}, d.w.Win)
	d.discardDialog.SetConfirmText("Discard (Enter)")
	d.discardDialog.SetDismissText("Keep editing (Esc)")
	d.w.setCloser(d.discardDialog, nil) // Esc hides it: the callback keeps the edit
	d.bindDialog()
	d.discardDialog.Show()
}

// changedFiles names the files of the shown proposal whose edit differs
// from the text editing started from (the proposal's ticked hunks).
func (d *detail) changedFiles() []string {
	var out []string
	for _, f := range d.p.Files {
		text, ok := d.edited[f.Path]
		if f.Path == d.curPath() && d.view.Editor() != nil {
			text, ok = d.view.EditedText(), true
		}
		if ok && text != d.tickedText(f) {
			out = append(out, f.Rel)
		}
	}
	return out
}
