package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/ui/present"
)

// rejectBox is the reject dialog (r, R, or a with nothing ticked): a
// reason for the agent, kept as a draft when the box closes unsent.
type rejectBox struct {
	deps   rejectDeps
	dialog dialog.Dialog // while open
	entry  *dialogEntry  // the reason
	button *widget.Button
	whole  bool // it rejects the whole changeset (R)
}

// rejectDeps is what the reject box needs of the pane.
type rejectDeps struct {
	shown     func() (review.Proposal, string) // the shown proposal and its changeset's key
	drafts    *drafts
	reject    func(reason string) // the shown proposal
	rejectAll func(reason string) // every open proposal of its changeset
	// open shows dlg bound to the shown proposal, focus typing; closed
	// runs when it closes.
	open func(dlg dialog.Dialog, focus fyne.Focusable, closed func())
	win  fyne.Window
}

// box names the draft: the shown proposal's reason, or its changeset's.
func (r *rejectBox) draft(whole bool) (box, owner string) {
	p, key := r.deps.shown()
	if whole {
		return "reject-all", key
	}
	return "reject", p.ID
}

// show opens the dialog asking question; whole rejects every open
// proposal of the changeset (R) instead of the shown one.
func (r *rejectBox) show(whole bool, question string) {
	p, _ := r.deps.shown()
	r.whole = whole
	var dlg dialog.Dialog
	r.entry = newDialogEntry(true, func() { dlg.Hide() }, r.confirm)
	r.entry.SetPlaceHolder(present.RejectPlaceholder(p))
	r.entry.setDraft(r.deps.drafts.get(r.draft(whole)))
	r.entry.SetMinRowsVisible(3)
	r.button = widget.NewButton("Reject (Ctrl+Enter)", r.confirm)
	r.button.Importance = widget.DangerImportance
	cancel := widget.NewButton("Cancel (Esc)", func() { dlg.Hide() })
	body := container.NewBorder(widget.NewLabel(question), container.NewHBox(cancel, r.button), nil, nil, r.entry)
	dlg = dialog.NewCustomWithoutButtons("Reject proposal", body, r.deps.win)
	dlg.Resize(fyne.NewSize(520, 260))
	r.dialog = dlg
	entry := r.entry
	box, owner := r.draft(whole)
	r.deps.open(dlg, entry, func() {
		if r.dialog == dlg { // closed without rejecting: the reason stays a draft
			again := "r"
			if whole {
				again = "R"
			}
			r.deps.drafts.keep(box, owner, entry.Text, again)
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
	r.deps.drafts.drop(r.draft(r.whole))
	dlg.Hide()
	if r.whole {
		r.deps.rejectAll(strings.TrimSpace(r.entry.Text))
		return
	}
	r.deps.reject(r.entry.Text)
}

// typing reports whether f is the open dialog's reason box.
func (r *rejectBox) typing(f fyne.Focusable) bool {
	return r.dialog != nil && f == fyne.Focusable(r.entry)
}
