package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2/dialog"
)

// cancel leaves edit mode and forgets the edits (Cancel edit, e, and
// Esc once the editor has let the keyboard go). When the person changed
// something it asks first: Enter discards, Esc keeps editing. A second Esc
// pressed to leave the editor must never throw their work away.
func (e *editSession) cancel() {
	if !e.c.editing || e.sh.deciding || e.discardDialog != nil {
		return
	}
	changed := e.changedFiles()
	if len(changed) == 0 {
		e.discard()
		return
	}
	keep := func() {
		e.discardDialog = nil
		if ed := e.view.Editor(); ed != nil {
			e.deps.focus(ed) // back to the text, to go on
		}
	}
	e.discardDialog = dialog.NewConfirm("Discard your edit?",
		fmt.Sprintf("You changed %s. Discard your changes and go back to the proposal?", strings.Join(changed, ", ")),
		func(ok bool) {
			if !ok {
				keep()
				return
			}
			e.discardDialog = nil
			e.discard()
		}, e.win)
	e.discardDialog.SetConfirmText("Discard (Enter)")
	e.discardDialog.SetDismissText("Keep editing (Esc)")
	e.open(e.discardDialog, nil, nil) // Esc hides it: the callback keeps the edit
}

// changedFiles names the files of the shown proposal whose edit differs
// from the text editing started from (the proposal's ticked hunks).
func (e *editSession) changedFiles() []string {
	var out []string
	for _, f := range e.sh.p.Files {
		text, ok := e.c.edited[f.Path]
		if f.Path == e.cur().Path && e.view.Editor() != nil {
			text, ok = e.view.EditedText(), true
		}
		if ok && text != e.tickedText(f) {
			out = append(out, f.Rel)
		}
	}
	return out
}
