package ui

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/ui/present"
)

// Moving through the shown proposal: j/k across hunks and files, ] and [,
// Space, s, go to line; and the counter saying where the view is.

// NextHunk goes to the next change, on into the next file (j).
func (d *detail) NextHunk() {
	defer d.updateCounter()
	if d.view.NextHunk() {
		return
	}
	if d.file+1 >= len(d.p.Files) || d.outcome != nil {
		d.tree.step(1, false) // on into the changeset's next proposal
		return
	}
	d.files.SetSelected(d.p.Files[d.file+1].Rel) // selectFile: opens at its first change
}

// PrevHunk goes to the previous change, back into the previous file (k).
func (d *detail) PrevHunk() {
	defer d.updateCounter()
	if d.view.PrevHunk() {
		return
	}
	if d.file == 0 || d.outcome != nil {
		d.tree.step(-1, true) // back into the changeset's previous proposal
		return
	}
	d.files.SetSelected(d.p.Files[d.file-1].Rel) // selectFile
	d.view.LastHunk()
}

// NextFile shows the next file of a multi-file proposal (]).
func (d *detail) NextFile() { d.stepFile(1) }

// PrevFile shows the previous file of a multi-file proposal ([).
func (d *detail) PrevFile() { d.stepFile(-1) }

func (d *detail) stepFile(dir int) {
	if d.tree.step(dir, false) {
		return
	}
	switch i := d.file + dir; {
	case d.id == "" || len(d.p.Files) < 2:
		d.say("This proposal has one file.")
	case i < 0:
		d.say("This is the first file of the proposal.")
	case i >= len(d.p.Files):
		d.say("This is the last file of the proposal.")
	default:
		d.files.SetSelected(d.p.Files[i].Rel) // selectFile: opens at its first change
	}
}

// ToggleHunk ticks or unticks the hunk j and k went to (Space), as a click
// on its toggle in the gutter does.
func (d *detail) ToggleHunk() {
	k := d.view.CurrentHunk()
	switch {
	case !d.canDecide() || d.editing || anyStale(d.p) || len(d.view.Hunks()) == 0:
		d.say("No hunks to tick here.")
	case k < 0:
		d.say("No current hunk: j goes to the next one.")
	case !d.view.CurrentOnScreen(): // scrolled away: never tick what the person does not see
		d.say(fmt.Sprintf("Hunk %d, the current one, is off screen: j or k goes to one on screen, then Space ticks or unticks it.", k+1))
	default:
		d.view.ToggleHunk(k) // OnHunkToggled keeps the choice and updates the bar
	}
}

// ApproveSelected writes only the ticked hunks (s); with every hunk ticked
// it says that a approves them all.
func (d *detail) ApproveSelected() {
	switch {
	case !d.canDecide() || d.editing || anyStale(d.p):
		d.say("Approving selected hunks needs a waiting proposal, outside edit mode and not stale.")
	case !d.someRejected():
		d.say("Every hunk is ticked: Space unticks the current one; a approves them all.")
	default:
		d.ApprovePartial()
	}
}

// ShowGoToLine asks for a line of the right side and scrolls to it (g).
func (d *detail) ShowGoToLine() {
	if d.id == "" || !d.view.Visible() || d.editing {
		return
	}
	n := d.view.Lines()
	var dlg dialog.Dialog
	hint := widget.NewLabel("")
	d.lineHint = hint
	submit := func() bool {
		line, err := strconv.Atoi(strings.TrimSpace(d.lineEntry.Text))
		if err != nil || !d.view.GoToLine(line) {
			hint.SetText(fmt.Sprintf("Type a line number from 1 to %d.", n))
			return false
		}
		dlg.Hide()
		d.updateCounter()
		return true
	}
	d.lineEntry = newDialogEntry(false, func() { dlg.Hide() }, func() { submit() })
	d.lineEntry.SetPlaceHolder(fmt.Sprintf("1–%d", n))
	d.lineEntry.OnChanged = func(s string) { hint.SetText(lineHintFor(strings.TrimSpace(s), n)) }
	body := container.NewVBox(widget.NewLabel(fmt.Sprintf("Line of %s (right side, 1–%d):", d.cur().Rel, n)), d.lineEntry, hint)
	dlg = dialog.NewCustomConfirm("Go to line", "Go", "Cancel", body, func(ok bool) {
		// Go has closed the dialog: a line not in the file is said on the
		// message line (in the closed dialog's hint, nothing was seen).
		if ok && !submit() {
			d.say(fmt.Sprintf("No line %q to go to: g, then a line number from 1 to %d.", strings.TrimSpace(d.lineEntry.Text), n))
		}
	}, d.w.Win)
	d.w.setCloser(dlg, nil)
	dlg.Show()
	d.w.Win.Canvas().Focus(d.lineEntry)
	d.showKeyboard()
}

// lineHintFor says, as it is typed, what is wrong with s as a line of a
// text of n lines; "" when nothing is.
func lineHintFor(s string, n int) string {
	line, err := strconv.Atoi(s)
	switch {
	case s == "":
		return ""
	case strings.Trim(s, "0123456789") != "" || err != nil:
		return fmt.Sprintf("Only digits: a line number from 1 to %d.", n)
	case line < 1 || line > n:
		return fmt.Sprintf("No line %d: the file has lines 1 to %d.", line, n)
	}
	return ""
}

// selectFile switches the view to another file of the proposal.
func (d *detail) selectFile(rel string) {
	for i, f := range d.p.Files {
		if f.Rel == rel && i != d.file {
			d.edit.clickedAt = nil
			d.saveFileState()
			d.file = i
			d.shownKey = ""
			d.render()
			d.tree.refresh()
		}
	}
}

// updateCounter says which hunk of the shown file j and k went to, and
// shows the loose match that placed it, if any.
func (d *detail) updateCounter() { d.line.setCounter(d.counterText()) }

// counterText is the counter's line for the view as it is.
func (d *detail) counterText() string {
	if d.view.Opening() { // a big diff is being computed: OnOpened comes back
		return "diffing…"
	}
	d.updateLoose()
	d.checks.update()
	k, n, faded := d.view.HunkCount()
	above := d.view.HunksAbove()
	hidden := ""
	if faded > 0 {
		// The person must know the faded hunks are still part of the decision.
		hidden = fmt.Sprintf(" (+%d whitespace-only, faded: approved too unless unticked)", faded)
	}
	var s string
	switch {
	case d.id == "" || !d.view.Visible() || d.p.State == review.StateStreaming:
		return ""
	case n+faded == 0 && len(d.p.Files) > 0 && present.StaleFromStart(d.cur()) && d.stale.shows() == present.StaleDisk:
		s = "not known: the agent read a version this desk never had"
	case n+faded == 0:
		s = "no changes"
	default:
		s = present.HunkWhere(k, above, 0, n) + hidden
	}
	if t := d.tree.counter(k, above, n); t != "" && n+faded > 0 {
		s = t + hidden
	} else if nf := len(d.p.Files); nf > 1 {
		s = fmt.Sprintf("%s · file %d of %d", s, d.file+1, nf)
	}
	if d.canDecide() && !d.editing && !anyStale(d.p) {
		s += d.trivial.summary()
	}
	return s
}

// updateLoose shows the loose-match card for the hunk j and k went to in
// the proposal's own diff (base against proposal, or the person's edit of
// it); a stale view diffs other texts, and a decided proposal's view
// shows what happened.
func (d *detail) updateLoose() {
	was := d.loose.box.Visible()
	defer func() {
		if d.loose.box.Visible() != was {
			d.content.Refresh() // the card comes or goes above the diff
		}
	}()
	k, hs := d.view.CurrentHunk(), d.view.Hunks()
	if d.id == "" || d.outcome != nil || d.p.State != review.StatePending || len(d.p.Files) == 0 ||
		d.cur().Stale() || !d.view.Visible() || k < 0 || k >= len(hs) {
		d.loose.show(engine.Match{}, false)
		return
	}
	d.loose.show(looseMatchAt(d.cur(), hs[k]))
}
