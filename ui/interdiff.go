package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/ui/diffview"
	"github.com/diffdesk/diffdesk/ui/present"
)

// interdiffView shows a re-proposed file against the same agent session's
// previous proposal of it (review.Desk.Interdiff): "vs previous (v)" in the
// bar, shown when there is one, opens the previous → this diff in a
// dialog of its own, with the previous decision's comments on the file,
// each marked touched or not. The main view, its hunks and the decision
// are left as they are. It knows the pane through its kit (the message
// line, a dialog over the window: Esc or its Close button closes it) and
// the desk's interdiff.
type interdiffView struct {
	paneKit
	interdiff func(id, path string) (review.Interdiff, bool)
	button    *widget.Button
	view      *diffview.DiffView // the dialog's diff; kept for the next time
	key       string             // the proposal and file the button was last checked for
	in        review.Interdiff   // what the button shows, when shown
	ok        bool
	rel       string        // the file's name as the proposal gives it
	list      *widget.Label // the comments, in the dialog
}

func newInterdiffView(kit paneKit, interdiff func(id, path string) (review.Interdiff, bool)) *interdiffView {
	x := &interdiffView{paneKit: kit, interdiff: interdiff, view: diffview.NewDiffView(), list: widget.NewLabel("")}
	x.list.Wrapping = fyne.TextWrapWord
	x.button = widget.NewButton("vs previous (v)", x.show)
	x.button.Hide()
	return x
}

// update shows the button when file i of the shown proposal p has a
// previous proposal to compare with.
func (x *interdiffView) update(p review.Proposal, i int) {
	if p.ID == "" || i >= len(p.Files) || p.State == review.StateStreaming || p.State.DidNotApply() {
		x.ok = false
		x.button.Hide()
		return
	}
	f := p.Files[i]
	x.rel = f.Rel
	key := p.ID + "\x00" + f.Path
	if key != x.key || !x.ok { // a previous proposal decided since counts too
		x.key = key
		x.in, x.ok = x.interdiff(p.ID, f.Path)
	}
	if !x.ok {
		x.button.Hide()
		return
	}
	x.button.SetText(fmt.Sprintf("vs previous (v) · %s", present.Touched(x.in)))
	x.button.Show()
}

// show opens the previous → this diff: the key v and the button.
func (x *interdiffView) show() {
	if !x.ok || x.button.Hidden {
		x.say("No previous proposal of this file from this agent session to compare with.")
		return
	}
	in := x.in
	x.view.SetTexts(in.Path, in.Previous, in.Current)
	x.list.SetText(present.InterdiffComments(in))
	head := widget.NewLabel(fmt.Sprintf("Left: the previous proposal %s of %s (%s). Right: this one.", in.PreviousID, x.rel, in.Status))
	head.Wrapping = fyne.TextWrapWord
	var body fyne.CanvasObject = x.view
	if len(in.Comments) > 0 {
		body = container.NewVSplit(x.view, container.NewVScroll(x.list))
		body.(*container.Split).Offset = 0.7
	}
	dlg := dialog.NewCustom("This proposal vs the previous one", "Close (Esc)", container.NewBorder(head, nil, nil, nil, body), x.win)
	dlg.Resize(x.win.Canvas().Size().Subtract(fyne.NewSize(80, 80)))
	x.openFree(dlg, nil)
	x.view.Nav().NextHunk() // at the first change, once the view has its size (before, it would scroll sideways)
}
