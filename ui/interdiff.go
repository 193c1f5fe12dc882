package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/ui/diffview"
)

// interdiffView shows a re-proposed file against the same agent session's
// previous proposal of it (review.Desk.Interdiff): "vs previous (v)" in the
// bar, shown when there is one, opens the previous → this diff in a
// dialog of its own, with the previous decision's comments on the file,
// each marked touched or not. The main view, its hunks and the decision
// are left as they are. It knows the pane only through interdiffDeps.
type interdiffView struct {
	deps   interdiffDeps
	button *widget.Button
	view   *diffview.DiffView // the dialog's diff; kept for the next time
	key    string             // the proposal and file the button was last checked for
	in     review.Interdiff   // what the button shows, when shown
	ok     bool
	rel    string        // the file's name as the proposal gives it
	list   *widget.Label // the comments, in the dialog
}

// interdiffDeps are what the interdiff needs of the pane: the desk's
// interdiff, the message line, and a dialog over the window.
type interdiffDeps struct {
	interdiff func(id, path string) (review.Interdiff, bool)
	say       func(string)
	open      func(title string, body fyne.CanvasObject) // Esc or its Close button closes it
}

func newInterdiffView(deps interdiffDeps) *interdiffView {
	x := &interdiffView{deps: deps, view: diffview.NewDiffView(), list: widget.NewLabel("")}
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
		x.in, x.ok = x.deps.interdiff(p.ID, f.Path)
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
	if !x.ok || x.button.Hidden {
		x.deps.say("No previous proposal of this file from this agent session to compare with.")
		return
	}
	in := x.in
	x.view.SetTexts(in.Path, in.Previous, in.Current)
	x.list.SetText(commentsText(in))
	head := widget.NewLabel(fmt.Sprintf("Left: the previous proposal %s of %s (%s). Right: this one.", in.PreviousID, x.rel, in.Status))
	head.Wrapping = fyne.TextWrapWord
	var body fyne.CanvasObject = x.view
	if len(in.Comments) > 0 {
		body = container.NewVSplit(x.view, container.NewVScroll(x.list))
		body.(*container.Split).Offset = 0.7
	}
	x.deps.open("This proposal vs the previous one", container.NewBorder(head, nil, nil, nil, body))
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
