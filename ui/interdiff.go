package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/ui/diffview"
)

// interdiffView shows a re-proposed file against the same agent session's
// previous proposal of it (review.Desk.Interdiff): "vs previous (v)" in the
// bar, shown when there is one, opens the previous → this diff in a
// dialog of its own, with the previous decision's comments on the file,
// each marked touched or not. The main view, its hunks and the decision
// are left as they are.
type interdiffView struct {
	d      *detail
	button *widget.Button
	view   *diffview.DiffView // the dialog's diff; kept for the next time
	key    string             // the proposal and file the button was last checked for
	in     review.Interdiff   // what the button shows, when shown
	ok     bool
	list   *widget.Label // the comments, in the dialog
}

func newInterdiffView(d *detail) *interdiffView {
	x := &interdiffView{d: d, view: diffview.NewDiffView(), list: widget.NewLabel("")}
	x.list.Wrapping = fyne.TextWrapWord
	x.button = widget.NewButton("vs previous (v)", x.show)
	x.button.Hide()
	return x
}

// update shows the button when the shown proposal's file has a previous
// proposal to compare with.
func (x *interdiffView) update(p review.Proposal) {
	d := x.d
	if d.id == "" || len(p.Files) == 0 || p.State == review.StateStreaming || p.State.DidNotApply() {
		x.ok = false
		x.button.Hide()
		return
	}
	key := p.ID + "\x00" + d.curPath()
	if key != x.key || !x.ok { // a previous proposal decided since counts too
		x.key = key
		x.in, x.ok = d.w.desk.Interdiff(p.ID, d.curPath())
	}
	if !x.ok {
		x.button.Hide()
		return
	}
	x.button.SetText(fmt.Sprintf("vs previous (v) · %s", touchedCount(x.in)))
	x.button.Show()
}

// touchedCount says how many of the previous decision's comments the new
// version touched, or what the previous proposal's fate was.
func touchedCount(in review.Interdiff) string {
	if len(in.Comments) == 0 {
		return string(in.Status)
	}
	n := 0
	for _, c := range in.Comments {
		if c.Touched {
			n++
		}
	}
	return fmt.Sprintf("%d of %d comments touched", n, len(in.Comments))
}

// show opens the previous → this diff: the key v and the button.
func (x *interdiffView) show() {
	d := x.d
	if !x.ok || x.button.Hidden {
		d.say("No previous proposal of this file from this agent session to compare with.")
		return
	}
	in := x.in
	x.view.SetTexts(in.Path, in.Previous, in.Current)
	x.list.SetText(commentsText(in))
	head := widget.NewLabel(fmt.Sprintf("Left: the previous proposal %s of %s (%s). Right: this one.", in.PreviousID, d.cur().Rel, in.Status))
	head.Wrapping = fyne.TextWrapWord
	var body fyne.CanvasObject = x.view
	if len(in.Comments) > 0 {
		body = container.NewVSplit(x.view, container.NewVScroll(x.list))
		body.(*container.Split).Offset = 0.7
	}
	dlg := dialog.NewCustom("This proposal vs the previous one", "Close (Esc)", container.NewBorder(head, nil, nil, nil, body), d.w.Win)
	dlg.Resize(d.w.Win.Canvas().Size().Subtract(fyne.NewSize(80, 80)))
	d.w.setCloser(dlg, nil)
	dlg.Show()
	x.view.NextHunk() // at the first change, once the view has its size (before, it would scroll sideways)
}

// commentsText lists the previous decision's comments on the file, each
// with whether the new version touched it.
func commentsText(in review.Interdiff) string {
	s := ""
	for _, c := range in.Comments {
		mark := "not touched"
		if c.Touched {
			mark = "TOUCHED"
		}
		side := "proposed"
		if c.Side == "old" {
			side = "original"
		}
		s += fmt.Sprintf("[%s] %s text, %s: %s\n", mark, side, lineSpan(c.Line, max(c.EndLine, c.Line)), c.Text)
	}
	return s
}
