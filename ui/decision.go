package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/memory"
	"github.com/diffdesk/diffdesk/ui/diffview"
	"github.com/diffdesk/diffdesk/ui/present"
)

// detail is the right pane: the selected proposal (its files, the DiffView)
// and the decision bar.
type detail struct {
	w *Window

	// The proposal shown, what the person did to it, and what they left on
	// the proposals shown before.
	shown                   // which proposal, what the view shows of it, its outcome
	choices                 // ticks, edits, file shown (choices.go)
	seenState               // what was on screen (seen.go)
	leftBehind              // choices and drafts of the proposals left undecided
	trivial     trivialJobs // the files' whitespace- and comment-only hunks, classified off the UI goroutine (trivial.go)
	editSession             // the edit under way: its check, an external editor, a double click

	// The pane's parts, each owning its widgets.
	head       *header        // title, state, the checkers' word, intent, note (header.go)
	files      *choice        // the files of a multi-file proposal outside a changeset
	tree       *changesetTree // the shown proposal's changeset (changeset.go)
	loose      *looseCard     // the loose match that placed the current hunk (loose.go)
	staleShow  *choice        // which two of base / disk / proposal a stale file shows
	view       *diffview.DiffView
	centerPane                // the view, a failed edit's text, or the empty queue's hint
	pick       *picker        // where a failed or loose block goes, as the person picks it (pick.go)
	problems   *widget.Label  // under the view: the current hunk's problems (checks.go)
	comments   *comments      // the person's line comments, sent with the decision (comments.go)
	inter      *interdiffView // this proposal vs the session's previous one of the file (interdiff.go)
	bar        *decisionBar   // the decisions (bar.go)
	line       *statusLine    // message, counter, keyboard and status under the bar (statusline.go)
	content    fyne.CanvasObject

	asks // the questions open about the shown proposal (dialogbind.go)
}

// shown is the proposal the pane shows and what became of it.
type shown struct {
	id       string
	p        review.Proposal
	shownAt  time.Time // when it was first shown (ArmDelay)
	queuePos int       // where it was in the queue when selected
	shownKey string    // what the view shows, so that render rebuilds it only when that changes
	deciding bool
	outcome  *review.Outcome
	approved map[string]string // path → the text sent for writing, to show what the formatter changed
}

// seenState is what the person had on screen: the shown proposal's files
// (seen; unseenOK: they chose to approve the others unopened) and, per
// proposal shown before, its hunks (path → ids), for a whole-changeset
// approval (seen.go).
type seenState struct {
	seen       map[string]bool
	unseenOK   bool
	seenBefore map[string]map[string]map[string]bool
}

// leftBehind is what stays of the proposals left undecided while another
// shows.
type leftBehind struct {
	kept   map[string]choices // their ticks and edits (keepchoices.go)
	drafts map[string]string  // reasons and comments typed and not yet sent (drafts.go)
}

// editSession is the edit under way and what leads to one.
type editSession struct {
	recheck   *editCheck    // the check of the person's edit of the shown file (checks.go)
	ext       *externalEdit // an external editor's file, reloaded live (decision_external.go)
	ownEditOK string        // the few characters' edit the person confirmed (ownedit.go: editKey)
	clickedAt *[2]int       // the line and column double-clicked, where e puts the cursor
}

// centerPane is what shows in the diff's place: the view, a failed edit's
// text (under the picker), or the empty queue's hint.
type centerPane struct {
	failure       *widget.Label
	failureScroll *container.Scroll
	empty         *widget.Label
	center        *fyne.Container
}

func newDetail(w *Window) *detail {
	d := &detail{w: w, view: diffview.NewDiffView(), seenState: seenState{seenBefore: map[string]map[string]map[string]bool{}}, leftBehind: leftBehind{drafts: map[string]string{}}}
	// In a short window the note over the view scrolls past one line,
	// leaving the rows to the diff (FYNE_SCALE=1.5: 700 px high gave the
	// diff about 4 rows); a tall one shows it whole.
	oneLine := widget.NewLabel("").MinSize().Height
	d.head = newHeader(func() float32 { return max(oneLine, (w.Win.Canvas().Size().Height-400)/2) })
	d.problems = widget.NewLabel("")
	d.problems.Wrapping = fyne.TextWrapWord
	d.problems.Importance = widget.DangerImportance
	d.staleShow = newChoice(w, []string{present.StaleMerged, present.StaleDisk, present.StaleProposal}, func(string) {
		d.shownKey = ""
		d.render()
	})
	d.staleShow.choose(present.StaleMerged)
	d.staleShow.Hide()
	d.files = newChoice(w, nil, d.selectFile)
	d.line = newStatusLine()
	d.loose = newLooseCard()
	d.failure = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	d.failure.Wrapping = fyne.TextWrapWord
	d.pick = newPicker(d)
	d.inter = newInterdiffView(d)
	d.loose.box.Add(d.pick.looseMark)
	d.failureScroll = container.NewVScroll(container.NewVBox(d.pick.box, d.failure))
	d.empty = widget.NewLabel("No proposals waiting.")
	d.empty.Alignment = fyne.TextAlignCenter
	d.empty.Wrapping = fyne.TextWrapWord

	d.view.OnSearchClosed = func() {
		w.stopTyping(d.view.SearchBox())
		w.keysBack()
	}
	d.view.Showing = w.reviewShown // seen coverage: not while the History tab shows

	d.view.OnHunkToggled = func(id string, ok bool) {
		d.tickMovePartners(id, ok) // moves.go: both ends of a moved block together
		if len(d.p.Files) > 0 {
			d.accepted[d.curPath()] = d.view.AcceptedHunks()
		}
		d.updateBar()
		d.updateCounter()
		d.tree.ticksChanged() // treeticks.go
	}
	d.view.OnEdited = func() {
		if d.editing && len(d.p.Files) > 0 {
			d.edited[d.curPath()] = d.view.EditedText()
			d.editChanged()
			d.updateCounter() // the edit may add or join hunks
		}
	}
	d.view.OnEditAt = d.doubleClicked // a double click on the proposal's text never edits (ownedit.go)
	d.view.OnJumped = d.updateCounter // a tap on a change in the overview strip
	d.view.OnFollowChanged = func(on bool) { d.bar.follow.SetChecked(on) }
	d.view.OnOpened = func() { // a big diff arrived: its hunks, their labels, counter and bar
		d.showTrivial()
		d.updateBar()
		d.updateCounter()
		if d.file < len(d.p.Files) {
			memory.Release(d.cur().TextBytes())
		}
	}

	d.bar = newDecisionBar(w.Win.Canvas(), barActions{
		approve: d.Approve, reject: d.ShowReject, edit: d.ToggleEdit, approveEdited: d.ApproveEdited, cancelEdit: d.CancelEdit,
		partial: d.ApprovePartial, merged: d.ApproveMerged, external: d.EditExternal, dismiss: d.Dismiss,
		follow: d.view.SetFollow,
		wrap: func(on bool) {
			d.view.SetWrap(on)
			w.app.Preferences().SetBool(prefWrap, on)
		},
		inline: func(on bool) {
			d.view.SetInline(on)
			w.app.Preferences().SetBool(prefInline, on)
		},
		ignoreWS: func(on bool) {
			d.view.SetIgnoreWhitespace(on)
			d.updateCounter()
		},
		collapse:  d.view.SetCollapse,
		askUnseen: func(on bool) { w.app.Preferences().SetBool(prefAskUnseen, on) },
		keysBack:  w.keysBack,
	}, w.app.Preferences().BoolWithFallback(prefAskUnseen, true), d.inter.button)
	d.center = container.NewStack(d.view, d.failureScroll, container.NewCenter(d.empty))
	d.tree = newChangesetTree(d)
	top := container.NewVBox(d.head.row, d.head.intent, d.files, d.tree.box, d.head.noteBox, d.loose.box,
		container.New(narrowLayout{d.staleShow}, container.NewHScroll(d.staleShow)), d.pick.againBox)
	d.comments = newComments(d)
	bottom := container.NewVBox(d.problems, d.comments.box, d.bar.box, d.line.row, d.line.status)
	d.content = container.NewBorder(top, bottom, nil, nil, d.center)
	d.reset()
	d.showEmpty()
	return d
}

// reset forgets what the person did to the previous proposal, but for
// the hunks it had on screen (keepSeen).
func (d *detail) reset() {
	d.keepSeen()
	d.choices = newChoices()
	d.deciding, d.outcome, d.shownKey, d.approved = false, nil, "", nil
	d.seen, d.unseenOK = map[string]bool{}, false
	d.ownEditOK, d.clickedAt = "", nil
	d.trivial.dropAll()
	d.view.ForgetSeen()
	d.staleShow.choose(present.StaleMerged) // no callback: render follows
	d.closeExternal()
}

// showEmpty shows the empty queue's hint.
func (d *detail) showEmpty() {
	hint := "No proposals waiting.\n\nAgents send edits to this desk's socket"
	try := "deskctl demo"
	if s := d.w.opts.Socket; s != "" {
		hint += " (" + s + ")"
		if s != deskrpc.DefaultSocketPath() {
			try += " --socket " + s
		}
	}
	text := hint + ".\nTry it: " + try +
		"\n\nHooks (Claude Code, Gemini CLI, in any mode): deskctl setup claude, deskctl setup gemini" +
		"\nMCP server (Codex, Cursor, Windsurf, any MCP client): deskctl mcp; deskctl setup codex (or cursor, windsurf) adds it" +
		"\ndeskctl setup lists the agents and what each door carries."
	if d.w.opts.Doors != nil {
		for _, door := range d.w.opts.Doors() {
			if door.Error != "" {
				text += "\n\n" + door.Name + " door: not open: " + door.Error
				continue
			}
			text += "\n\n" + door.Name + " door on " + door.Addr + "\n" + door.Connect
		}
	}
	d.empty.SetText(text)
	d.head.clear()
	d.loose.box.Hide()
	d.staleShow.Hide()
	d.files.Hide()
	d.showCenter(d.empty)
	d.bar.box.Hide()
	d.content.Refresh()
}

func (d *detail) showCenter(o fyne.CanvasObject) {
	d.view.Hide()
	d.failureScroll.Hide()
	d.empty.Hide()
	o.Show()
	if o == d.empty {
		d.center.Objects[2].Show()
	} else {
		d.center.Objects[2].Hide()
	}
}

// show displays proposal p (a new selection).
func (d *detail) show(p review.Proposal) {
	restored := false
	if p.ID != d.id {
		// What was decided on the proposal left behind stays said, so
		// moving on to the next one hides nothing.
		before := ""
		if d.outcome != nil && d.id != "" {
			before = fileNames(d.p) + ": " + present.Outcome(d.p, *d.outcome)
		}
		d.closeBoundDialog() // dialogbind.go: a question about the one left decides nothing now
		d.stash()            // keepchoices.go: the ticks and edit of the one left
		d.reset()
		d.id = p.ID
		d.shownAt = d.w.now()
		d.queuePos = max(indexOf(d.w.queue.ids(), p.ID), 0)
		d.setStatus(before, false)
		if o, ok := d.w.desk.Outcome(p.ID); ok && !p.State.Open() && p.State != review.StateFailed {
			d.setStatus(present.Outcome(p, o), false) // a decided proposal of the changeset, read again
		}
		d.say("")
		d.files.Options = nil // select the first file, whatever the last proposal had
		restored = d.unstash(p)
	}
	d.p = p
	d.bar.box.Show()
	d.refreshFiles()
	d.render()
	if restored {
		d.w.Win.Canvas().Unfocus() // edit mode back, but the keys stay the window's (n, p go on)
		d.showKeyboard()
	}
}

// update applies a change of the shown proposal from the desk.
func (d *detail) update(p review.Proposal) {
	d.p = p
	if o, ok := d.w.desk.Outcome(p.ID); ok && d.outcome == nil && !d.deciding {
		d.outcome = &o // decided elsewhere (withdrawn, the decide method, a rule)
		msg := present.Outcome(p, o)
		if d.editing || len(d.edited) > 0 {
			msg += " Your edit of it was not written." // it went without a word (real window)
		}
		d.setStatus(msg, o.Status == decision.Failed)
	}
	d.refreshFiles()
	d.render()
}

// refreshFiles shows a file selector for a multi-file proposal, or the
// changeset's file tree when the changeset has more files than it.
func (d *detail) refreshFiles() {
	d.tree.refresh()
	if len(d.p.Files) < 2 {
		d.files.Hide()
		return
	}
	var names []string
	for _, f := range d.p.Files {
		names = append(names, f.Rel)
	}
	if strings.Join(names, "\x00") != strings.Join(d.files.Options, "\x00") {
		d.files.Options = names
		d.files.choose(names[min(d.file, len(names)-1)])
	}
	vis(d.files, !d.tree.shown())
}

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

// say shows a brief answer to a key under the decision bar ("" clears it).
func (d *detail) say(s string) { d.line.say(s) }

// updateCounter says which hunk of the shown file j and k went to, and
// shows the loose match that placed it, if any.
func (d *detail) updateCounter() { d.line.setCounter(d.counterText()) }

// counterText is the counter's line for the view as it is.
func (d *detail) counterText() string {
	if d.view.Opening() { // a big diff is being computed: OnOpened comes back
		return "diffing…"
	}
	d.updateLoose()
	d.updateChecks()
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
	case n+faded == 0 && len(d.p.Files) > 0 && present.StaleFromStart(d.cur()) && d.staleShow.Selected == present.StaleDisk:
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
	return s + d.trivialSummary()
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

// showKeyboard says who has the keyboard: the editor, a text box, or the
// window's keys.
func (d *detail) showKeyboard() {
	f := d.w.Win.Canvas().Focused()
	if ed := d.view.Editor(); ed != nil && f == fyne.Focusable(ed) && !ed.HasKeyboard() {
		f = nil // the editor is losing the keyboard (Esc): the canvas still names it
	}
	d.showKeyboardFor(f)
}

// showKeyboardFor is showKeyboard with f focused.
func (d *detail) showKeyboardFor(f fyne.Focusable) {
	switch {
	case d.w.typing != nil && (f == nil || f == d.w.typing.box):
		d.line.setKeyboard("Keys: typing in " + d.w.typing.what + " (Esc closes it)")
	case f == nil:
		d.line.setKeyboard("Keys: review (? lists them)")
	case d.rejectDialog != nil && f == fyne.Focusable(d.rejectEntry):
		d.line.setKeyboard("Keys: typing in the reject box (Ctrl+Enter rejects, Esc closes it)")
	case d.view.Editor() != nil && f == fyne.Focusable(d.view.Editor()):
		d.line.setKeyboard("Keys: typing in the editor (Esc: back to the review keys)")
	default:
		d.line.setKeyboard("Keys: typing in a text box")
	}
}

// unseen lists the files of the shown proposal never on screen.
func (d *detail) unseen() []string {
	var out []string
	for _, f := range d.p.Files {
		if !d.seen[f.Path] {
			out = append(out, f.Rel)
		}
	}
	return out
}

// selectFile switches the view to another file of the proposal.
func (d *detail) selectFile(rel string) {
	for i, f := range d.p.Files {
		if f.Rel == rel && i != d.file {
			d.clickedAt = nil
			d.saveFileState()
			d.file = i
			d.shownKey = ""
			d.render()
			d.tree.refresh()
		}
	}
}

// saveFileState keeps the shown file's edits and hunk choices.
func (d *detail) saveFileState() {
	if len(d.p.Files) == 0 || d.outcome != nil {
		return
	}
	if d.editing {
		d.edited[d.curPath()] = d.view.EditedText()
	} else if d.shownKey != "" && !d.cur().Stale() && d.p.State != review.StateStreaming {
		d.accepted[d.curPath()] = d.view.AcceptedHunks()
	}
}

func (d *detail) cur() review.File { return d.p.Files[d.file] }
func (d *detail) curPath() string  { return d.p.Files[d.file].Path }

// render draws the shown file as the proposal's state requires; it rebuilds
// the view only when what it shows changed (a recheck that changes nothing
// keeps the person's hunk choices and scroll position).
func (d *detail) render() {
	// The header's notes come and go: lay the pane out again, or the diff
	// keeps the place the last proposal's header took. Not for each chunk
	// of a stream already on show (no note while it streams): refreshing
	// the whole pane was most of a chunk's UI work (issue 28).
	if !(d.p.State == review.StateStreaming && d.shownKey == "stream") {
		defer d.content.Refresh()
	}
	d.staleShow.Hide() // renderProposal shows it for a stale file
	p := d.p
	d.head.show(p)
	if d.file >= len(p.Files) {
		d.file = 0
	}
	defer d.updateCounter()
	d.pick.show(p)
	d.inter.update(p)
	switch {
	case d.pick.choosing: // a placed proposal's candidates listed again (pick.go)
		d.failure.SetText("")
		d.showCenter(d.failureScroll)
		d.head.hideNote()
	case p.State == review.StateFailed || len(p.Files) == 0:
		d.failure.SetText(p.Failure)
		d.showCenter(d.failureScroll)
		d.head.setNote(present.Failed(p))
	case d.outcome != nil:
		d.renderOutcome()
	default:
		d.renderProposal()
	}
	d.comments.refresh()
	d.showTrivial()
	d.updateBar()
}

func (d *detail) renderProposal() {
	f := d.cur()
	d.seen[f.Path] = true
	d.showCenter(d.view)
	switch {
	case d.p.State == review.StateStreaming:
		d.head.hideNote()
		if pv, ok := d.w.desk.Preview(d.p.ID); ok {
			d.view.SetStream(f.Path, f.BaseText(), pv)
		}
		d.shownKey = "stream"
		return
	case f.Stale() && !d.editing:
		key := "stale:" + f.Disk.SHA256 + ":" + d.staleShow.Selected
		d.staleShow.Show()
		if d.shownKey == key {
			return
		}
		m := d.merge(f)
		// A save on disk while the person reads (this view, or the
		// proposal's before it turned stale) keeps their place: the same
		// line where it was on screen, its change the current one (it
		// threw the view to hunk 1 at every save).
		line, y, keep := d.placeKept()
		switch d.staleShow.Selected {
		case present.StaleDisk:
			d.view.SetTexts(f.Path, f.BaseText(), string(f.Disk.Content))
		case present.StaleProposal:
			d.view.SetTexts(f.Path, f.BaseText(), f.Proposed)
		default:
			d.view.SetStale(string(f.Disk.Content), m)
		}
		if keep && strings.HasSuffix(d.shownKey, ":"+d.staleShow.Selected) || keep && !strings.HasPrefix(d.shownKey, "stale:") {
			d.view.ShowLineAt(min(line, d.view.Lines()-1), y)
		} else {
			d.view.NextHunk() // open at the first change, as every diff does
		}
		d.head.setNote(present.Stale(f, m))
		d.shownKey = key
		return
	}
	if d.editing || len(d.edited) > 0 {
		d.rebaseEdits() // a save on disk while the person edits (editrebase.go)
	}
	key := fmt.Sprintf("texts:%d:%v:%s", d.file, d.editing, f.Disk.SHA256)
	if d.shownKey == key {
		return
	}
	d.shownKey = key
	old, proposed := leftText(f), f.Proposed // editrebase.go: the disk of a stale file, else its base
	if f.Stale() {                           // a stale file: the disk against the merge
		proposed = d.merge(f).Text
	}
	if d.editing {
		d.noteEditBase(f)
	}
	if d.editing && !f.Stale() {
		proposed = d.editStart(f) // the person's edit, or the ticked hunks only (editplace.go)
	} else if t, ok := d.edited[f.Path]; ok {
		proposed = t
	}
	kept := d.keepEditor(f) // ownedit.go: the cursor and the person's own lines
	d.view.SetTexts(f.Path, old, proposed)
	if !f.Stale() {
		d.view.SetLooseLines(looseRanges(f))
	}
	d.view.NextHunk() // open at the first change
	if ids, ok := d.accepted[f.Path]; ok && !d.editing {
		keep := map[string]bool{}
		for _, id := range ids {
			keep[id] = true
		}
		for _, h := range d.view.Hunks() {
			d.view.SetHunkAccepted(h.ID, keep[h.ID])
		}
	}
	d.view.SetEditable(d.editing)
	kept()
	switch note := present.Unsure(f); {
	case d.editing:
		d.head.hideNote() // the view says so in its own banner, keeping the rows still
	case note != "":
		d.head.setNote(note)
	default:
		d.head.hideNote()
	}
}

// renderOutcome shows what happened to a decided proposal and, when a
// formatter changed the approved text, that change.
func (d *detail) renderOutcome() {
	o := d.outcome
	d.showCenter(d.view)
	d.view.SetEditable(false)
	for _, fo := range o.Files {
		if fo.AutoFormatEdits == "" {
			continue
		}
		before, ok := d.approved[fo.Path]
		if !ok {
			continue
		}
		if d.shownKey != "format:"+fo.Path {
			d.view.SetTexts(fo.Path, before, fo.FinalContent)
			d.shownKey = "format:" + fo.Path
		}
		d.head.setNote("The formatter changed " + present.RelOf(d.p, fo.Path) + " after it was approved; this is its change.")
		return
	}
	d.head.hideNote()
	d.showWrittenOverDisk(o)
}

// showWrittenOverDisk shows, for the shown file written over a change on
// disk (a stale proposal approved merged or edited), what the write did:
// the disk the person reviewed → the final content. The stale view chosen
// before (what changed on disk, what the agent sent) is not what was
// written.
func (d *detail) showWrittenOverDisk(o *review.Outcome) {
	if len(d.p.Files) == 0 {
		return
	}
	f := d.cur()
	for _, fo := range o.Files {
		if fo.Path != f.Path || fo.DiskEdits == "" || !fo.Written || fo.Deleted {
			continue
		}
		if key := "written:" + fo.Path; d.shownKey != key {
			d.view.SetTexts(fo.Path, string(f.Disk.Content), fo.FinalContent)
			d.view.NextHunk()
			d.shownKey = key
		}
	}
}

// placeKept is the line of the right side the person reads at and how far
// below the top of the view it is, when the view shows the shown file
// already (a refresh of it, not another file or proposal).
func (d *detail) placeKept() (line int, y float32, ok bool) {
	if d.shownKey == "" || d.shownKey == "stream" || strings.HasPrefix(d.shownKey, "format:") || strings.HasPrefix(d.shownKey, "written:") {
		return 0, 0, false
	}
	line = d.view.PlaceLine()
	if line < 0 {
		return 0, 0, false
	}
	y, on := d.view.LineY(line)
	return line, y, on
}

// updateBar shows and enables the decision buttons the state allows.
func (d *detail) updateBar() {
	p := d.p
	s := present.BarState{
		Open:      p.State.Open() && d.outcome == nil,
		Streaming: p.State == review.StateStreaming,
		Stale:     p.State == review.StateStale || anyStale(p),
		Editing:   d.editing,
		Deciding:  d.deciding,
		Files:     len(p.Files) > 0,
		Failed:    p.State == review.StateFailed,
		Protected: len(protectedFiles(p)) > 0,
	}
	busy := s.Deciding || s.Streaming
	s.Conflicted = !busy && d.conflicted() // merges only when it matters
	s.Unticked = !busy && s.Open && !s.Stale && !s.Editing && d.someRejected()
	d.bar.show(present.DecisionBar(s), p, s.Open)
}

// vis shows o when on, else hides it.
func vis(o fyne.CanvasObject, on bool) {
	if on {
		o.Show()
	} else {
		o.Hide()
	}
}

func anyStale(p review.Proposal) bool {
	for _, f := range p.Files {
		if f.Stale() {
			return true
		}
	}
	return false
}

// conflicted reports whether a stale file's merge has conflicts.
func (d *detail) conflicted() bool {
	for _, f := range d.p.Files {
		if f.Stale() && len(d.merge(f).Conflicts) > 0 {
			return true
		}
	}
	return false
}

// someRejected reports whether the person rejected at least one hunk.
//
// Only files the person has ticked can have rejected hunks: the shown one
// (once its diff is there) and those left with saved choices; the others
// are not diffed for this.
func (d *detail) someRejected() bool {
	for i, f := range d.p.Files {
		ids, saved := d.accepted[f.Path]
		switch {
		case i == d.file && d.viewHasProposal(f):
			if !d.view.Opening() && len(d.view.AcceptedHunks()) < len(d.view.Hunks()) {
				return true
			}
		case saved && len(ids) < len(d.fileHunks(f)):
			return true
		}
	}
	return false
}

// viewHasProposal reports whether the view shows f's proposal, whose hunks
// the person ticks (not an edit, a stale view, an outcome or a stream).
func (d *detail) viewHasProposal(f review.File) bool {
	return d.shownKey != "" && !d.editing && !f.Stale() && d.outcome == nil && d.p.State != review.StateStreaming
}

// choicesNow are the shown proposal's choices with the ticks the view
// shows for its file.
func (d *detail) choicesNow() choices {
	if len(d.p.Files) > d.file {
		if f := d.cur(); d.viewHasProposal(f) {
			return d.choices.withTicks(f.Path, d.view.AcceptedHunks())
		}
	}
	return d.choices
}

// fileHunks are the hunks of a file's proposal (ids as the view shows
// them), computed once per file.
func (d *detail) fileHunks(f review.File) []engine.Hunk {
	if hs, ok := d.hunks[f.Path]; ok {
		return hs
	}
	var hs []engine.Hunk
	if len(d.p.Files) > d.file && d.curPath() == f.Path && d.viewHasProposal(f) && !d.view.Opening() {
		hs = d.view.Hunks() // the same ids, diffed already
	} else {
		hs = f.Hunks()
	}
	d.hunks[f.Path] = hs
	return hs
}
