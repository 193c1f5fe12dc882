package ui

import (
	"fmt"
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/review"
)

// A protected file (one that runs code or decides without the person once
// written: .envrc, .git, CI workflows, the agents' settings) must not look
// like any other (a .envrc running curl … | sh was one plain line above a
// normal diff with the usual Approve): the queue badges it, the decision
// bar turns red and names it with the reason, Approve says so, and every
// approval of it asks first, naming why it is protected.

// protectedFiles lists p's protected files, each "PATH — why".
func protectedFiles(p review.Proposal) []string {
	var out []string
	for _, f := range p.Files {
		if !f.Protected.IsZero() {
			out = append(out, f.Rel+" — "+f.Protected.String())
		}
	}
	return out
}

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
	files := protectedFiles(p)
	if len(files) == 0 || !open {
		b.box.Hide()
		return
	}
	b.label.SetText("PROTECTED FILE — no rule may approve it, only you: " + strings.Join(files, "; "))
	b.box.Show()
}

// confirmProtected asks before an approval writes a protected file,
// naming why it is protected; it reports whether to go ahead now.
func (d *detail) confirmProtected(approve func()) bool {
	files := protectedFiles(d.p)
	if len(files) == 0 || d.protectedOK == d.id {
		return true
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s protected:\n", plural(len(files), "This file is", "These files are"))
	for _, f := range files {
		b.WriteString("\n" + f + "\n")
	}
	b.WriteString("\nOnce written it can run code or change what happens without you. Approve it?")
	d.protectedMsg = b.String()
	d.protectedDialog = dialog.NewConfirm("Approve a protected file?", d.protectedMsg, func(ok bool) {
		d.protectedDialog = nil
		if ok {
			d.protectedOK = d.id
			approve()
		}
	}, d.w.Win)
	d.protectedDialog.SetConfirmText("Approve protected (Enter)")
	d.protectedDialog.SetDismissText("Cancel (Esc)")
	d.w.setCloser(d.protectedDialog, nil)
	d.bindDialog()
	d.protectedDialog.Show()
	return false
}

// withAlpha is c with alpha a.
func withAlpha(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: a}
}
