package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/ui/diffview"
)

// keyBinding is one keyboard action of the main window.
type keyBinding struct {
	r    rune
	what string
	do   func(w *Window)
}

// keyBindings are the main window's keys; they act while no text field or
// the editor has the focus (then the keys type).
func keyBindings() []keyBinding {
	return []keyBinding{
		{'j', "next hunk (on to the next file)", func(w *Window) { w.detail.NextHunk() }},
		{'k', "previous hunk (back to the previous file)", func(w *Window) { w.detail.PrevHunk() }},
		{'a', "approve (approve edited while editing, approve merged when stale)", func(w *Window) { w.Approve() }},
		{'r', "reject, with a reason for the agent", func(w *Window) { w.ShowReject() }},
		{'e', "edit the proposal (again: cancel the edit)", func(w *Window) { w.Edit() }},
		{'x', "edit in the external editor ($VISUAL / $EDITOR)", func(w *Window) { w.detail.EditExternal() }},
		{'n', "next proposal", func(w *Window) { w.NextProposal() }},
		{'p', "previous proposal", func(w *Window) { w.PrevProposal() }},
		{'f', "follow the growing edge of a stream", func(w *Window) { w.detail.follow.SetChecked(!w.detail.follow.Checked) }},
		{'w', "wrap long lines", func(w *Window) { w.detail.wrap.SetChecked(!w.detail.wrap.Checked) }},
		{'?', "show these keys", func(w *Window) { w.ShowKeys() }},
	}
}

// TypeKey performs the action bound to r, as typing it in the window does
// while nothing has the focus; it reports whether r is bound.
func (w *Window) TypeKey(r rune) bool {
	for _, k := range keyBindings() {
		if k.r == r {
			k.do(w)
			return true
		}
	}
	return false
}

// bindKeys routes typed runes and keys (when no widget has the focus) to
// the key bindings, and Ctrl+Enter to approve.
func (w *Window) bindKeys() {
	c := w.Win.Canvas()
	c.SetOnTypedRune(func(r rune) { w.TypeKey(r) })
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
		switch ev.Name {
		case fyne.KeyEscape:
			if w.keysOverlay != nil {
				w.keysOverlay.Hide()
				return
			}
			w.detail.CancelEdit()
		case fyne.KeyDown:
			w.NextProposal()
		case fyne.KeyUp:
			w.PrevProposal()
		}
	})
	c.AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) { w.Approve() })
}

// KeysText lists the keys, one per line.
func KeysText() string {
	var b strings.Builder
	for _, k := range keyBindings() {
		b.WriteString(string(k.r) + "  " + k.what + "\n")
	}
	b.WriteString("Ctrl+Enter  approve\nEsc  leave the editor (keeps your text); again: leave edit mode\n↑/↓  previous / next proposal\n")
	return b.String()
}

// ShowKeys shows the keys overlay (?).
func (w *Window) ShowKeys() {
	if w.keysOverlay != nil {
		w.keysOverlay.Hide()
	}
	var rows []fyne.CanvasObject
	for _, line := range strings.Split(strings.TrimSpace(KeysText()), "\n") {
		key, what, _ := strings.Cut(line, "  ")
		k := widget.NewLabelWithStyle(key, fyne.TextAlignTrailing, fyne.TextStyle{Monospace: true, Bold: true})
		rows = append(rows, k, widget.NewLabel(what))
	}
	note := widget.NewLabel("The keys act while the editor does not have the keyboard (click outside it, or use the buttons).")
	d := dialog.NewCustom("Keys", "Close", container.NewVBox(container.New(layout.NewFormLayout(), rows...), note), w.Win)
	d.SetOnClosed(func() { w.keysOverlay = nil })
	w.keysOverlay = d
	d.Show()
}

// Approve approves the selected proposal (a).
func (w *Window) Approve() { w.detail.Approve() }

// ApproveEdited writes the person's edited text (after Edit).
func (w *Window) ApproveEdited() { w.detail.ApproveEdited() }

// ApproveMerged writes a stale proposal merged into the disk's content.
func (w *Window) ApproveMerged() { w.detail.ApproveMerged() }

// ApprovePartial writes only the hunks accepted in the gutter.
func (w *Window) ApprovePartial() { w.detail.ApprovePartial() }

// ShowReject opens the reject dialog (r).
func (w *Window) ShowReject() { w.detail.ShowReject() }

// Reject rejects the selected proposal with reason, without the dialog.
func (w *Window) Reject(reason string) { w.detail.Reject(reason) }

// Edit toggles edit mode (e).
func (w *Window) Edit() { w.detail.ToggleEdit() }

// View is the diff view of the selected proposal.
func (w *Window) View() *diffview.DiffView { return w.detail.view }
