package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/ui/present"
)

// rejectBox is the reject dialog (r, R, or a with nothing ticked): a
// reason for the agent, kept as a draft when the box closes unsent.
type rejectBox struct {
	paneKit
	drafts    *drafts
	key       func() string       // the shown proposal's changeset's key
	reject    func(reason string) // the shown proposal
	rejectAll func(reason string) // every open proposal of its changeset
	dialog    dialog.Dialog       // while open
	entry     *dialogEntry        // the reason
	button    *widget.Button
	whole     bool // it rejects the whole changeset (R)

	// openTyping shows the dialog, the window's keys typing into the reason
	// box while it is open (detail.openTyping).
	openTyping func(dlg dialog.Dialog, box *dialogEntry, what string, open func() bool, closed func())
}

// box names the draft: the shown proposal's reason, or its changeset's.
func (r *rejectBox) draft(whole bool) (box, owner string) {
	if whole {
		return "reject-all", r.key()
	}
	return "reject", r.sh.id
}

// show opens the dialog asking question; whole rejects every open
// proposal of the changeset (R) instead of the shown one.
func (r *rejectBox) show(whole bool, question string) {
	r.whole = whole
	var dlg dialog.Dialog
	r.entry = newDialogEntry(true, func() { dlg.Hide() }, r.confirm)
	r.entry.SetPlaceHolder(present.RejectPlaceholder(r.sh.p))
	r.entry.setDraft(r.drafts.get(r.draft(whole)))
	r.entry.SetMinRowsVisible(3)
	r.button = widget.NewButton("Reject (Ctrl+Enter)", r.confirm)
	r.button.Importance = widget.DangerImportance
	cancel := widget.NewButton("Cancel (Esc)", func() { dlg.Hide() })
	body := container.NewBorder(widget.NewLabel(question), container.NewHBox(cancel, r.button), nil, nil, r.entry)
	dlg = dialog.NewCustomWithoutButtons("Reject proposal", body, r.win)
	dlg.Resize(fyne.NewSize(520, 260))
	r.dialog = dlg
	entry := r.entry
	box, owner := r.draft(whole)
	r.openTyping(dlg, entry, "the reject box", func() bool { return r.dialog == dlg }, func() {
		if r.dialog == dlg { // closed without rejecting: the reason stays a draft
			again := "r"
			if whole {
				again = "R"
			}
			r.drafts.keep(box, owner, entry.Text, again)
		}
		r.dialog = nil
	})
}

// confirm closes the dialog and rejects with its reason.
func (r *rejectBox) confirm() {
	if r.dialog == nil {
		return
	}
	dlg := r.dialog
	r.dialog = nil
	r.drafts.drop(r.draft(r.whole))
	dlg.Hide()
	if r.whole {
		r.rejectAll(strings.TrimSpace(r.entry.Text))
		return
	}
	r.reject(r.entry.Text)
}

// typing reports whether f is the open dialog's reason box.
func (r *rejectBox) typing(f fyne.Focusable) bool {
	return r.dialog != nil && f == fyne.Focusable(r.entry)
}
