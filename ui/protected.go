package ui

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/ui/present"
)

// A protected file (one that runs code or decides without the person once
// written: .envrc, .git, CI workflows, the agents' settings) must not look
// like any other (a .envrc running curl … | sh was one plain line above a
// normal diff with the usual Approve): the queue badges it, the decision
// bar turns red and names it with the reason, Approve says so, and every
// approval of it asks first, naming why it is protected.

// protectedBar is the red band over the decision buttons while the shown
// proposal has a protected file.
type protectedBar struct {
	box   *fyne.Container
	label *widget.Label
}

func newProtectedBar() *protectedBar {
	b := &protectedBar{label: widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})}
	b.label.Wrapping = fyne.TextWrapWord
	b.label.Importance = widget.DangerImportance
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameError))
	bg.FillColor = withAlpha(theme.Color(theme.ColorNameError), 0x30)
	bg.StrokeColor = theme.Color(theme.ColorNameError)
	bg.StrokeWidth = 2
	b.box = container.NewStack(bg, b.label)
	b.box.Hide()
	return b
}

// show shows the band for p while it waits for a decision; hides it
// otherwise.
func (b *protectedBar) show(p review.Proposal, open bool) {
	files := present.ProtectedFiles(p)
	if len(files) == 0 || !open {
		b.box.Hide()
		return
	}
	b.label.SetText("PROTECTED FILE — no rule may approve it, only you: " + strings.Join(files, "; "))
	b.box.Show()
}

// protectedAsk asks before an approval writes a protected file, naming
// why it is protected, once per proposal.
type protectedAsk struct {
	paneKit
	ok string // the proposal whose protected files the person agreed to approve
}

// confirm asks before approve writes the shown proposal's protected files;
// it reports whether to go ahead now.
func (a *protectedAsk) confirm(approve func()) bool {
	p := a.sh.p
	files := present.ProtectedFiles(p)
	if len(files) == 0 || a.ok == p.ID {
		return true
	}
	q := dialog.NewConfirm("Approve a protected file?", present.ProtectedQuestion(files), func(ok bool) {
		if ok {
			a.ok = p.ID
			approve()
		}
	}, a.win)
	q.SetConfirmText("Approve protected (Enter)")
	q.SetDismissText("Cancel (Esc)")
	a.ask(q)
	return false
}

// withAlpha is c with alpha a.
func withAlpha(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: a}
}
