package ui

import (
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

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
	shown                // which proposal, what the view shows of it, its outcome
	choices              // ticks, edits, file shown (choices.go)
	kept    keptChoices  // the choices of the proposals left undecided
	trivial *trivialJobs // the files' whitespace- and comment-only hunks, classified off the UI goroutine (trivial.go)

	// The pane's parts, each owning its widgets.
	head       *header        // title, state, the checkers' word, intent, note (header.go)
	files      *choice        // the files of a multi-file proposal outside a changeset
	nav        *navigator     // j/k and the other keys that move through it or tick its hunks (navigate.go)
	tree       *changesetTree // the shown proposal's changeset (changeset.go)
	loose      *looseCard     // the loose match that placed the current hunk (loose.go)
	stale      *staleView     // which two of base / disk / proposal a stale file shows (staleview.go)
	centerPane                // the view (view), a failed edit's text, or the empty queue's hint
	pick       *picker        // where a failed or loose block goes, as the person picks it (pick.go)
	checks     *checksView    // what the checkers found, and the check of the person's edit (checks.go)
	edit       *editSession   // the edit under way: entering and leaving it, an external editor, a double click (editplace.go)
	comments   *comments      // the person's line comments, sent with the decision (comments.go)
	drafts     *drafts        // reasons and comments typed and not yet sent (drafts.go)
	rejectBox  *rejectBox     // the reason for a rejection (reject.go)
	protect    *protectedAsk  // the question before approving a protected file (protected.go)
	onScreen   *onScreen      // what was on screen, and the question before approving the rest (seen.go)
	inter      *interdiffView // this proposal vs the session's previous one of the file (interdiff.go)
	bar        *decisionBar   // the decisions (bar.go)
	line       *statusLine    // message, counter, keyboard and status under the bar (statusline.go)
	content    fyne.CanvasObject
	kit        paneKit // what the parts share of the pane
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
}

// canDecide reports whether the shown proposal takes a decision now.
func (s *shown) canDecide() bool {
	return s.id != "" && s.p.State.Open() && s.p.State != review.StateStreaming && !s.deciding && s.outcome == nil
}

// paneKit is what every part of the pane shares: the shown proposal and
// what the person chose on it (the coordinator changes them; the edit
// session and the trivial jobs keep the choices they make), the view, the
// lines under the bar, dialogs bound to the shown proposal, and work off
// the UI goroutine. A part knows the pane through its kit and its own
// narrow callbacks, never the pane or the window themselves.
type paneKit struct {
	sh        *shown
	c         *choices
	view      *diffview.DiffView
	counter   func()                                                                        // the counter says where the view is now
	redraw    func(afresh bool)                                                             // the shown proposal drawn again (detail.redraw)
	say       func(string)                                                                  // the message line
	setStatus func(s string, isErr bool)                                                    // the status line
	focus     func(f fyne.Focusable)                                                        // the keyboard to f (nil: the window's keys), said
	open      func(dlg dialog.Dialog, focus fyne.Focusable, keys dialogKeys, closed func()) // a dialog bound to the shown proposal
	openFree  func(dlg dialog.Dialog, focus fyne.Focusable)                                 // a dialog bound to no proposal
	post      func(func())                                                                  // back to the UI goroutine
	run       func(work func() (then func()))                                               // off it, waited for by Close; then back on it
	keysBack  func()
	win       fyne.Window
}

// ask opens q, a question about the shown proposal: Enter presses its
// confirm button (which says so), Esc its dismiss button.
func (k paneKit) ask(q *dialog.ConfirmDialog) { k.open(q, nil, dialogKeys{enter: q.Confirm}, nil) }

// cur is the shown file.
func (k paneKit) cur() review.File { return k.sh.p.Files[k.c.file] }

// canTick reports whether the shown proposal's hunks take ticks now (and
// t, s): it waits for a decision, outside edit mode, not stale.
func (k paneKit) canTick() bool {
	return k.sh.canDecide() && !k.c.editing && !slices.ContainsFunc(k.sh.p.Files, review.File.Stale)
}

func newDetail(w *Window) *detail {
	d := &detail{w: w, centerPane: centerPane{view: diffview.NewDiffView()}, kept: keptChoices{}}
	d.line = newStatusLine()
	d.kit = paneKit{sh: &d.shown, c: &d.choices, view: d.view, counter: d.updateCounter, redraw: d.redraw,
		say: d.line.say, setStatus: d.line.setStatus, open: d.openBound, openFree: d.openFree, focus: d.focus,
		post: w.do, run: w.background, keysBack: w.keysBack, win: w.Win}
	d.drafts = newDrafts(d.line.say)
	// In a short window the note over the view scrolls past one line,
	// leaving the rows to the diff (FYNE_SCALE=1.5: 700 px high gave the
	// diff about 4 rows); a tall one shows it whole.
	oneLine := widget.NewLabel("").MinSize().Height
	d.head = newHeader(func() float32 { return max(oneLine, (w.Win.Canvas().Size().Height-400)/2) })
	d.stale = newStaleView(newChoice(w.keysBack, nil, func(string) { d.redraw(true) }))
	d.files = newChoice(w.keysBack, nil, d.selectFile)
	d.loose = newLooseCard()
	d.pick = newPicker(d.kit, pickDeps{desk: w.desk, looseBlock: func() int { return d.loose.m.Block }, placed: d.placed})
	d.inter = newInterdiffView(d.kit, w.desk.Interdiff)
	d.loose.box.Add(d.pick.looseMark)
	d.centerPane.build(d.pick.box)
	d.listen()
	d.bar = newDecisionBar(d.kit, barActions{approve: d.Approve, reject: d.ShowReject, edit: func() { d.edit.toggle() },
		approveEdited: d.ApproveEdited, cancelEdit: func() { d.edit.cancel() }, partial: d.ApprovePartial, merged: d.ApproveMerged,
		external: func() { d.edit.external() }, dismiss: d.Dismiss}, w.app.Preferences(), d.inter.button)
	d.tree = newChangesetTree(d.kit, treeDeps{desk: w.desk, relayout: func() { d.content.Refresh() }, showProposal: d.showProposal,
		showFile: d.showFile, kept: d.kept})
	d.comments = newComments(d.kit, d.drafts, func() bool {
		return !d.editing && (!d.cur().Stale() || d.stale.shows() == present.StaleProposal)
	}, d.openTyping)
	d.protect = &protectedAsk{paneKit: d.kit}
	d.rejectBox = &rejectBox{paneKit: d.kit, drafts: d.drafts, key: func() string { return d.tree.cs.Key }, reject: d.Reject, rejectAll: d.rejectChangeset, openTyping: d.openTyping}
	d.onScreen = newOnScreen(d.kit, onScreenDeps{merge: d.merge, get: w.desk.Get, ask: d.bar.asksUnseen, decide: d.decide, selectFile: d.files.SetSelected})
	d.checks = newChecksView(d.kit, d.head, w.opts.AfterFunc, w.desk.CheckText)
	d.edit = &editSession{paneKit: d.kit, deps: editDeps{saveFileState: d.saveFileState, decide: d.decide, editor: func() []string { return w.opts.Editor }}}
	d.trivial = &trivialJobs{paneKit: d.kit, deps: trivialDeps{labelled: d.labelled, changeset: d.tree.openProposals, seen: d.onScreen.records,
		desk: w.desk, name: w.proposalName, refresh: d.changesetDecidedElsewhere, stop: w.stop}}
	d.nav = &navigator{paneKit: d.kit, deps: navDeps{step: d.tree.step, selectFile: d.files.SetSelected, ticked: d.ticked, someRejected: d.someRejected,
		approvePartial: d.ApprovePartial, onScreen: d.onScreen, search: d.startSearch}}
	top := container.NewVBox(d.head.row, d.head.intent, d.files, d.tree.box, d.head.noteBox, d.loose.box, d.stale.box, d.pick.againBox)
	bottom := container.NewVBox(d.checks.problems, d.comments.box, d.bar.box, d.line.row, d.line.status)
	d.content = container.New(newSettledBorder(top, bottom), d.center, top, bottom)
	d.reset()
	d.showEmpty()
	return d
}

// listen is what the pane does when the view says something happened:
// a hunk ticked, an edit, a double click, a jump, a big diff arrived, the
// search closed.
func (d *detail) listen() {
	v, w := d.view, d.w
	v.Search().OnClosed = func() {
		w.stopTyping(v.Search().Box())
		w.keysBack()
	}
	v.Showing = w.reviewShown // seen coverage: not while the History tab shows
	v.OnHunkToggled = func(id string, ok bool) {
		d.nav.tickMovePartners(id, ok) // both ends of a moved block together
		d.ticked()
	}
	v.OnEdited = func() {
		if d.editing && len(d.p.Files) > 0 {
			d.edited[d.curPath()] = v.EditedText()
			d.checks.changed()
			d.updateCounter() // the edit may add or join hunks
		}
	}
	v.OnEditAt = func(line, col int) { d.edit.doubleClicked(line, col) } // a double click on the proposal's text never edits (ownedit.go)
	v.OnJumped = d.updateCounter                                         // a tap on a change in the overview strip
	v.OnOpened = func() {                                                // a big diff arrived: its hunks, their labels, counter and bar
		d.trivial.show()
		d.updateBar()
		d.updateCounter()
		if d.file < len(d.p.Files) {
			memory.Release(d.cur().TextBytes())
		}
	}
}

// redraw draws the shown proposal again (render); afresh, the view's
// content too, as what it shows changed (an edit begun or left, a stale
// file's other view, a block placed).
func (d *detail) redraw(afresh bool) {
	if afresh {
		d.shownKey = ""
	}
	d.render()
}

// focus gives the keyboard to f (nil: the window's keys) and says who has it.
func (d *detail) focus(f fyne.Focusable) {
	if f == nil {
		d.w.Win.Canvas().Unfocus()
		return
	}
	d.w.Win.Canvas().Focus(f)
	d.showKeyboard()
}

// openFree shows dlg, bound to no proposal (Esc closes it), the keyboard in
// focus (nil: the window's keys).
func (d *detail) openFree(dlg dialog.Dialog, focus fyne.Focusable) {
	d.w.setCloser(dlg, nil)
	dlg.Show()
	if focus != nil {
		d.focus(focus)
	}
}

// openTyping shows dlg bound to the shown proposal, the keys typing into
// box (what names it) while open() holds (typing.go): a letter that
// reaches the window, the box having lost the keyboard to a click on the
// dialog, is typed into it. Ctrl+Enter sends it, and closed runs when it
// closes.
func (d *detail) openTyping(dlg dialog.Dialog, box *dialogEntry, what string, open func() bool, closed func()) {
	d.openBound(dlg, nil, dialogKeys{ctrlEnter: box.onSubmit}, func() {
		closed()
		d.w.stopTyping(box)
	})
	d.w.startTyping(box, what, true, open)
}

// startSearch opens the search box, the keys typing into it (/, Ctrl+F).
func (d *detail) startSearch() {
	d.w.startTyping(d.view.Search().Box(), "the search box", false, d.view.Search().Open)
}

// showProposal shows proposal id; false when it is no longer at the desk.
func (d *detail) showProposal(id string) bool {
	d.w.Select(id)
	return d.id == id
}

// placed shows p, the shown proposal as a block placed by the person left
// it (pick.go), and says said.
func (d *detail) placed(p review.Proposal, said string) {
	d.outcome, d.shownKey, d.p = nil, "", p
	d.w.items[d.id] = p
	d.line.setStatus("", false)
	d.line.say(said)
	d.refreshFiles()
	d.render()
	d.w.refreshQueue()
}

// rejectChangeset rejects every open proposal of the shown changeset with
// one reason (R).
func (d *detail) rejectChangeset(reason string) {
	d.decideChangeset(review.ChangesetDecision{Verdict: decision.Rejected, Feedback: reason})
}

// changesetDecidedElsewhere redraws the tree and the queue after other
// proposals of the changeset were decided (t approving them).
func (d *detail) changesetDecidedElsewhere() {
	d.tree.refresh()
	d.w.refreshQueue()
}

// labelled reports whether the view shows f's hunks with the proposal's
// ids: its own diff, or a stale file's merge, whose changes kept as the
// agent wrote them have the proposal's ids (their labels stay through a
// save on disk).
func (d *detail) labelled(f review.File) bool {
	return d.viewHasProposal(f) || f.Stale() && !d.editing && d.outcome == nil && d.stale.shows() == present.StaleMerged && strings.HasPrefix(d.shownKey, "stale:")
}

// reset forgets what the person did to the previous proposal, but for
// the hunks it had on screen (keepSeen).
func (d *detail) reset() {
	d.onScreen.reset()
	d.choices = newChoices()
	d.deciding, d.outcome, d.shownKey = false, nil, ""
	d.trivial.dropAll()
	d.stale.reset() // no callback: render follows
	d.edit.reset()
}

// showEmpty shows the empty queue's hint.
func (d *detail) showEmpty() {
	var doors []review.DoorStatus
	if d.w.opts.Doors != nil {
		doors = d.w.opts.Doors()
	}
	d.empty.SetText(present.EmptyHint(d.w.opts.Socket, deskrpc.DefaultSocketPath(), doors))
	d.head.clear()
	d.loose.box.Hide()
	d.stale.hide()
	d.files.Hide()
	d.showCenter(d.empty)
	d.bar.box.Hide()
	d.content.Refresh()
}

// show displays proposal p (a new selection).
func (d *detail) show(p review.Proposal) {
	restored := false
	if p.ID != d.id {
		// What was decided on the proposal left behind stays said, so
		// moving on to the next one hides nothing.
		before := ""
		if d.outcome != nil && d.id != "" {
			before = present.FileNames(d.p) + ": " + present.Outcome(d.p, *d.outcome)
		}
		d.closeBoundDialog() // a question about the one left decides nothing now
		if d.id != "" {      // the ticks and edit of the one left
			open := d.outcome == nil && d.p.State.Open() && !d.deciding
			if open {
				d.saveFileState()
			}
			d.kept.stash(d.id, d.choices, open, d.w.desk.Get)
		}
		d.reset()
		d.id = p.ID
		d.shownAt = d.w.now()
		d.queuePos = max(slices.Index(d.w.queue.ids(), p.ID), 0)
		d.line.setStatus(before, false)
		if o, ok := d.w.desk.Outcome(p.ID); ok && !p.State.Open() && !p.State.DidNotApply() {
			d.line.setStatus(present.Outcome(p, o), false) // a decided proposal of the changeset, read again
		}
		d.line.say("")
		d.files.Options = nil // select the first file, whatever the last proposal had
		var dropped bool
		restored, dropped = d.kept.restore(p, &d.choices)
		if dropped {
			d.line.say("The file changed on disk while another proposal was shown: your edit of this one was dropped.")
		}
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
	if p.State != review.StateStreaming && p.State.Open() && review.ShownVersion(p) != review.ShownVersion(d.p) {
		// New texts (the stream ended, a file changed on disk, a new
		// round on the hub): a key meant for the ones before decides
		// nothing until they have been on screen (ArmDelay).
		d.shownAt = d.w.now()
	}
	d.p = p
	if o, ok := d.w.desk.Outcome(p.ID); ok && d.outcome == nil && !d.deciding {
		d.outcome = &o // decided elsewhere (withdrawn, the decide method, a rule)
		msg := present.Outcome(p, o)
		if d.editing || len(d.edited) > 0 {
			msg += " Your edit of it was not written." // it went without a word (real window)
		}
		d.line.setStatus(msg, o.Status == decision.Failed)
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

// openBound shows dlg bound to the shown proposal (closed when another
// proposal takes the pane), answering keys, the keyboard in focus (nil:
// the window's keys); closed runs when it closes.
func (d *detail) openBound(dlg dialog.Dialog, focus fyne.Focusable, keys dialogKeys, closed func()) {
	d.w.openOver(openDialog{d: dlg, keys: keys, about: d.id}, closed)
	dlg.Show()
	if focus != nil {
		d.w.Win.Canvas().Focus(focus)
		d.showKeyboard()
	}
}

// showKeyboard says who has the keyboard: the editor, a text box, or the
// window's keys.
func (d *detail) showKeyboard() {
	f := d.w.Win.Canvas().Focused()
	if ed := d.view.Editor(); ed != nil && f == fyne.Focusable(ed) && !ed.HasKeyboard() {
		f = nil // the editor is losing the keyboard (Esc): the canvas still names it
	}
	if t := d.w.typing; t != nil && f == nil {
		f = t.box // the window's keys type into it (typing.go)
	}
	k, what := present.TextBox, ""
	switch {
	case d.rejectBox.typing(f):
		k = present.RejectBox
	case d.w.typing != nil && f == d.w.typing.box:
		k, what = present.Typing, d.w.typing.what
	case f == nil:
		k = present.ReviewKeys
	case d.view.Editor() != nil && f == fyne.Focusable(d.view.Editor()):
		k = present.Editor
	case f == fyne.Focusable(d.w.queue.list):
		k = present.Queue
	default:
		if _, text := f.(fyne.Shortcutable); !text { // a button or option reached with Tab
			k = present.Control
		}
	}
	d.line.setKeyboard(present.Keyboard(k, what))
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

// ticked keeps the view's ticks of the shown file after they changed,
// and tells the tree, the bar and the counter.
func (d *detail) ticked() {
	if len(d.p.Files) > 0 {
		d.accepted[d.curPath()] = d.view.AcceptedHunks()
	}
	d.updateBar()
	d.updateCounter()
	d.tree.ticksChanged()
}

func (d *detail) canTick() bool    { return d.kit.canTick() }
func (d *detail) cur() review.File { return d.p.Files[d.file] }
func (d *detail) curPath() string  { return d.p.Files[d.file].Path }

// updateBar shows and enables the decision buttons the state allows.
func (d *detail) updateBar() {
	p := d.p
	s := present.BarState{
		Open:      p.State.Open() && d.outcome == nil,
		Streaming: p.State == review.StateStreaming,
		Stale:     p.State == review.StateStale || slices.ContainsFunc(p.Files, review.File.Stale),
		Editing:   d.editing,
		Deciding:  d.deciding,
		Files:     len(p.Files) > 0,
		Failed:    p.State.DidNotApply(),
		Protected: len(present.ProtectedFiles(p)) > 0,
	}
	busy := s.Deciding || s.Streaming
	s.Conflicted = !busy && d.choices.conflicted(d.p) // merges only when it matters
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
		case saved && len(ids) < len(f.Hunks()):
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

// A question asked about one proposal must never decide another. When its
// proposal was withdrawn (or decided elsewhere) the pane moved on to the
// next proposal while the question stayed open, and its Enter or
// Ctrl+Enter then decided the proposal that took the pane: a reject box
// opened for A.go rejected B.go with A's reason, and "Approve anyway" asked
// about big.txt wrote B.go, which the person had never opened (QA in the
// real window). A dialog about the shown proposal is bound to it, and
// closes when another proposal is shown.

// closeBoundDialog closes a dialog bound to the proposal the pane is
// leaving. Its Cancel runs (a typed reason stays a draft of that
// proposal); nothing it would confirm happens. A notice takes its place
// until the person closes it: the keys they were typing into the question
// (a reason's letters, the Ctrl+Enter that would have sent it) must not
// land on the proposal that took the pane, as a or Ctrl+Enter.
func (d *detail) closeBoundDialog() {
	w := d.w
	var bound []dialog.Dialog
	for _, o := range w.dialogs {
		if o.about != "" && o.about == d.id {
			bound = append(bound, o.d)
		}
	}
	if len(bound) == 0 {
		return
	}
	name := present.FileNames(d.p)
	for _, dlg := range bound {
		dlg.Hide()
	}
	note := dialog.NewInformation("No longer waiting here", present.NoLongerWaiting(name), w.Win)
	w.setCloser(note, nil)
	note.Show()
}
