package ui

import (
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/ui/diffview"
	"github.com/diffdesk/diffdesk/ui/present"
)

// The window driver's dialogs and controls (driver_test.go): the
// never-on-screen question, the reject box, the go-to-line box, the keys
// overlay, and the controls a test clicks to see where the keyboard goes.
// Every reach into the window for them is here.

// Unseen is what the never-on-screen question asks ("" while it is not
// asked).
func (h *harness) Unseen() string {
	if o := h.win.detail.onScreen; o.dialog != nil {
		return o.msg
	}
	return ""
}

// ApproveAnyway answers the never-on-screen question Approve anyway, as
// its button does; it fails the test when no question is asked.
func (h *harness) ApproveAnyway() {
	h.t.Helper()
	q := h.win.detail.onScreen.dialog
	if q == nil {
		h.t.Fatal("no never-on-screen question to approve anyway")
	}
	q.Confirm()
	h.settle()
}

// ApproveAnywayIfAsked is ApproveAnyway when the question is asked (what
// was on screen does not matter to the test), else nothing.
func (h *harness) ApproveAnywayIfAsked() {
	if h.win.detail.onScreen.dialog != nil {
		h.ApproveAnyway()
	}
}

// Modal reports whether something covers the window (a dialog, the keys
// overlay): the review keys wait under it.
func (h *harness) Modal() bool { return h.win.modal() }

// KeysShown reports whether the keys overlay (?) is open.
func (h *harness) KeysShown() bool { return h.win.keysOverlay != nil }

// Deciding reports whether a decision of the shown proposal is on its way
// to the desk.
func (h *harness) Deciding() bool { return h.win.detail.deciding }

// Typing reports whether a text box the person types in has the
// keyboard from the window (the search box, a dialog's entry).
func (h *harness) Typing() bool { return h.win.typing != nil }

// Focused is what has the keyboard (nil: the window's review keys).
func (h *harness) Focused() fyne.Focusable { return h.win.Win.Canvas().Focused() }

// KeysBack gives the keyboard back to the window, as a click outside an
// entry does.
func (h *harness) KeysBack() { h.win.keysBack() }

// CancelEdit leaves edit mode, dropping the edit, if the shown proposal is
// in it.
func (h *harness) CancelEdit() {
	if h.win.detail.editing {
		h.win.detail.edit.cancel()
		h.settle()
	}
}

// FileChoice is the file chosen among a multi-file proposal's files above
// the diff ("" when there is no choice).
func (h *harness) FileChoice() string { return h.win.detail.files.Selected }

// rejectDriver is the reject dialog (r, R).
type rejectDriver struct{ h *harness }

// RejectBox is the reject dialog.
func (h *harness) RejectBox() rejectDriver { return rejectDriver{h} }

// Open reports whether the reject dialog is open.
func (r rejectDriver) Open() bool { return r.h.win.detail.rejectBox.dialog != nil }

// Reason is the reason typed ("" when closed).
func (r rejectDriver) Reason() string {
	if e := r.h.win.detail.rejectBox.entry; e != nil && r.Open() {
		return e.Text
	}
	return ""
}

// Focused reports whether the reason box has the keyboard.
func (r rejectDriver) Focused() bool {
	e := r.h.win.detail.rejectBox.entry
	return e != nil && r.h.Focused() == fyne.Focusable(e)
}

// Wraps reports whether the reason box wraps by word.
func (r rejectDriver) Wraps() bool {
	e := r.h.win.detail.rejectBox.entry
	return e != nil && e.Wrapping == fyne.TextWrapWord
}

// lineDriver is the go-to-line dialog (g).
type lineDriver struct{ h *harness }

// LineBox is the go-to-line dialog.
func (h *harness) LineBox() lineDriver { return lineDriver{h} }

// Focused reports whether the line box is open with the keyboard.
func (l lineDriver) Focused() bool {
	e := l.h.win.detail.nav.lineEntry
	return e != nil && l.h.Focused() == fyne.Focusable(e)
}

// Hint is what the dialog says is wrong with what was typed.
func (l lineDriver) Hint() string {
	if x := l.h.win.detail.nav.lineHint; x != nil {
		return x.Text
	}
	return ""
}

// Clear empties the line box.
func (l lineDriver) Clear() { l.h.win.detail.nav.lineEntry.SetText("") }

// controls: what a test clicks to see where the keyboard goes next.

// WrapBox is the bar's Wrap box.
func (b barDriver) WrapBox() fyne.Tappable { return b.h.win.detail.bar.wrap }

// PartialButton is the bar's Approve selected hunks button.
func (b barDriver) PartialButton() fyne.Tappable { return b.h.win.detail.bar.partial }

// FileControl is option i of the choice of a multi-file proposal's files.
func (h *harness) FileControl(i int) fyne.Tappable {
	return h.pointAt(tappables(h.win.detail.files)[i].(fyne.CanvasObject))
}

// ViewControl is option i of a stale file's choice of views.
func (d diffDriver) ViewControl(i int) fyne.Tappable {
	return d.h.pointAt(tappables(d.h.win.detail.stale.choice)[i].(fyne.CanvasObject))
}

// RowControl is the queue row of proposal id, as drawn.
func (q queueDriver) RowControl(id string) fyne.Tappable {
	q.h.t.Helper()
	i := q.h.win.queue.index(id)
	if i < 0 {
		q.h.t.Fatalf("no queue row for %s in %q", id, q.Rows())
	}
	return q.rowAt(i)
}

// rowAt is row i of the queue where it is drawn, scrolled to first.
func (q queueDriver) rowAt(i int) fyne.Tappable {
	q.h.t.Helper()
	q.h.win.queue.list.ScrollTo(i)
	for _, o := range shownObjects(q.h.win.queue.list) {
		if c, ok := o.(*queueCell); ok && c.row == i {
			return q.h.pointAt(c)
		}
	}
	q.h.t.Fatalf("queue row %d of %q is not drawn", i, q.Rows())
	return nil
}

// TabControl is the window's tab i (0 Review, 1 History).
func (h *harness) TabControl(i int) fyne.Tappable {
	return h.pointAt(tappables(h.win.tabs)[i].(fyne.CanvasObject))
}

// pointAt is a click at the middle of o where the window drew it: the
// canvas finds what is on top there (the row, the radio option, the tab,
// or whatever covers it), and the keyboard moves as a pointer's click
// moves it (a radio option or a list takes it). A click on a control
// found by itself (not where it is drawn) missed both: a choice or a
// queue row that kept the keyboard was caught by no test.
func (h *harness) pointAt(o fyne.CanvasObject) fyne.Tappable {
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
	return pointer{h.win.Win.Canvas(), at.Add(fyne.NewPos(o.Size().Width/2, o.Size().Height/2))}
}

// pointer is a click at a place of the window's canvas.
type pointer struct {
	c   fyne.Canvas
	pos fyne.Position
}

func (p pointer) Tapped(*fyne.PointEvent) { test.TapCanvas(p.c, p.pos) }

// Tap clicks c and lets the window act on it.
func (h *harness) Tap(c fyne.Tappable) { test.Tap(c); h.settle() }

// InQueue reports whether the window lists proposal id.
func (h *harness) InQueue(id string) bool { _, ok := h.win.items[id]; return ok }

// Notices records the desktop notices the window sends from now on, after
// delay (instead of sending them to the desktop).
func (h *harness) Notices(delay time.Duration) *[]present.Notice {
	var sent []present.Notice
	h.win.notify = func(n present.Notice) { sent = append(sent, n) }
	h.win.opts.NotifyDelay = delay
	return &sent
}

// ClickNotification is the person clicking the desktop notification
// that opens proposal id (its default action, as the desktop reports it).
func (h *harness) ClickNotification(id string) { h.win.desktop.onAction(id) }

// InterdiffView is the diff view of the vs previous dialog (v), made
// synchronous as the harness's views are.
func (h *harness) InterdiffView() *diffview.DiffView {
	v := h.win.detail.inter.view
	v.SetSynchronous(true)
	return v
}

// Settled records the proposals the window tells its desktop notifier no
// longer wait (so their notifications are withdrawn), from now on.
func (h *harness) Settled() *[]string {
	var ids []string
	h.win.settled = func(id string) { ids = append(ids, id) }
	return &ids
}

// SetArmDelay sets how long a proposal must have been on screen before a
// click on Approve counts (the harness's is none).
func (h *harness) SetArmDelay(d time.Duration) { h.win.opts.ArmDelay = d }

// Object is the queue's list, for a golden image or markup.
func (q queueDriver) Object() fyne.CanvasObject { return q.h.win.queue.list }

// Object is the bar, for a golden image or markup.
func (b barDriver) Object() fyne.CanvasObject { return b.h.win.detail.bar.box }

// Tap clicks the bar's visible button whose label starts with label, as
// the pointer does: on a disabled button it does nothing.
func (b barDriver) Tap(label string) {
	b.h.t.Helper()
	for _, o := range shownObjects(b.h.win.detail.bar.box) {
		if btn, ok := o.(*widget.Button); ok && strings.HasPrefix(btn.Text, label) {
			test.Tap(btn)
			b.h.settle()
			return
		}
	}
	b.h.t.Fatalf("no button %q in the bar: %q", label, b.Buttons())
}

// Following reports whether the bar's Follow box is ticked.
func (b barDriver) Following() bool { return b.h.win.detail.bar.follow.Checked }

// TreeShown reports whether the changeset's file tree shows.
func (h *harness) TreeShown() bool { return h.win.detail.tree.box.Visible() }

// FileOptions are the options of the choice of a multi-file proposal's
// files, and whether the choice shows (the tree stands in for it).
func (h *harness) FileOptions() ([]string, bool) {
	return h.win.detail.files.Options, h.win.detail.files.Visible()
}

// ChooseFile chooses file rel in the choice of a multi-file proposal's
// files, as a click on it does.
func (h *harness) ChooseFile(rel string) { h.win.detail.files.SetSelected(rel); h.settle() }

// Send clicks the reject dialog's Reject.
func (r rejectDriver) Send() {
	r.h.t.Helper()
	b := r.h.win.detail.rejectBox.button
	if !r.Open() || b == nil {
		r.h.t.Fatal("no reject dialog open to send")
	}
	test.Tap(b)
	r.h.settle()
}

// Type types s into the reason box.
func (r rejectDriver) Type(s string) {
	r.h.t.Helper()
	if !r.Open() {
		r.h.t.Fatal("no reject dialog open to type into")
	}
	test.Type(r.h.win.detail.rejectBox.entry, s)
}

// Whole reports whether the reject dialog rejects the whole changeset (R).
func (r rejectDriver) Whole() bool { return r.Open() && r.h.win.detail.rejectBox.whole }

// SetReason puts s in the reason box in place of what it holds.
func (r rejectDriver) SetReason(s string) {
	r.h.t.Helper()
	if !r.Open() {
		r.h.t.Fatal("no reject dialog open to type a reason into")
	}
	r.h.win.detail.rejectBox.entry.SetText(s)
}

// TreeRows are the changeset tree's rows as drawn: a directory ("dir/"),
// or a file with its state and counts ("▸ b.txt waiting +1 −1", the ▸ on
// the file shown).
func (h *harness) TreeRows() []string {
	var out []string
	var texts func(o fyne.CanvasObject, into *[]string)
	texts = func(o fyne.CanvasObject, into *[]string) {
		switch o := o.(type) {
		case *canvas.Text:
			*into = append(*into, strings.TrimSpace(o.Text))
		case *fyne.Container:
			for _, c := range o.Objects {
				texts(c, into)
			}
		case *treeRow:
			texts(o.content, into)
		}
	}
	for _, o := range h.win.detail.tree.rows.Objects {
		var parts []string
		texts(o, &parts)
		out = append(out, strings.Join(parts, " "))
	}
	return out
}

// TreeTitle is the line over the changeset tree.
func (h *harness) TreeTitle() string { return h.win.detail.tree.title.Text }

// ClickTreeFile clicks the tree's row of the changeset's file i (0 the
// first file, directories aside).
func (h *harness) ClickTreeFile(i int) {
	h.t.Helper()
	for _, o := range h.win.detail.tree.rows.Objects {
		if r, ok := o.(*treeRow); ok && r.i == i {
			test.Tap(r)
			h.settle()
			return
		}
	}
	h.t.Fatalf("no file %d in the tree: %q", i, h.TreeRows())
}

// ChangesetQuestion is what the question before approving the changeset
// (A) asks ("" while it is not asked).
func (h *harness) ChangesetQuestion() string {
	return h.win.detail.tree.question
}

// SetAskUnseen ticks or unticks the View options' box asking before
// approving what was never on screen.
func (b barDriver) SetAskUnseen(on bool) { b.h.win.detail.bar.askUnseen.SetChecked(on); b.h.settle() }

// HoldClassification makes each file's hunk classification wait in hold
// (given the proposal's id) before it starts.
func (h *harness) HoldClassification(hold func(id string)) { h.win.detail.trivial.hold = hold }

// ClassificationStarted reports whether the shown file's hunk
// classification was asked for (queued) and whether it started.
func (h *harness) ClassificationStarted() (queued, started bool) {
	j := h.win.detail.trivial.jobs[h.win.detail.curPath()]
	return j != nil, j != nil && j.started
}

// WaitClassified waits until the hunk classifications under way have
// posted their results (not running them: settle does).
func (h *harness) WaitClassified() { h.win.detail.trivial.work.Wait() }

// ForgetClassification drops the shown proposal's hunk classification and
// what t approved, as if it had never been classified.
func (h *harness) ForgetClassification() {
	h.win.detail.trivial.dropAll()
	h.win.detail.trivialOK = map[string]map[string]bool{}
}

// StartClassification starts classifying the shown file's hunks, as
// showing it does.
func (h *harness) StartClassification() { h.win.detail.trivial.show() }

// TrivialTicked is how many files have hunks t ticked as trivial.
func (h *harness) TrivialTicked() int { return len(h.win.detail.trivialOK) }

// Queued is proposal id as the queue has it (false while it is not
// listed).
func (h *harness) Queued(id string) (review.Proposal, bool) { p, ok := h.win.items[id]; return p, ok }

// SetEditor makes argv (the file's path appended) the external editor x
// opens.
func (h *harness) SetEditor(argv []string) { h.win.opts.Editor = argv }

// Edited is the person's edit of the shown file ("", false for none).
func (h *harness) Edited() (string, bool) {
	d := h.win.detail
	s, ok := d.edited[d.curPath()]
	return s, ok
}

// ExternalEditorOpen reports whether the external editor (x) is open on
// the shown file.
func (h *harness) ExternalEditorOpen() bool { return h.win.detail.edit.ext != nil }

// Shows is the key of what the diff view shows: the file's path, or a
// prefixed one for another view of it ("format:…" the formatter's change).
func (d diffDriver) Shows() string { return d.h.win.detail.shownKey }

// Pane is the right pane (the proposal), for its size.
func (h *harness) Pane() fyne.CanvasObject { return h.win.detail.content }

// SplitOffset is where the queue ends and the pane starts, 0–1 of the
// window's width.
func (h *harness) SplitOffset() float64 { return h.win.split.Offset }

// Widget is the bar's visible button whose label starts with label (nil
// when none shows), for its place and size.
func (b barDriver) Widget(label string) fyne.CanvasObject {
	for _, o := range shownObjects(b.h.win.detail.bar.box) {
		if btn, ok := o.(*widget.Button); ok && btn.Visible() && strings.HasPrefix(btn.Text, label) {
			return btn
		}
	}
	return nil
}

// OpenViewOptions clicks View, which opens the view options above it.
func (b barDriver) OpenViewOptions() { test.Tap(b.h.win.detail.bar.viewButton); b.h.settle() }

// ViewOptions is the View button's pop-up, for its place and size.
func (b barDriver) ViewOptions() fyne.CanvasObject { return b.h.win.detail.bar.viewOptions.Content }

// Options are the view options' boxes shown, "[x] " before a ticked one.
func (b barDriver) Options() []string {
	var out []string
	for _, o := range shownObjects(b.h.win.detail.bar.viewOptions.Content) {
		if c, ok := o.(*widget.Check); ok {
			s := c.Text
			if c.Checked {
				s = "[x] " + s
			}
			out = append(out, s)
		}
	}
	return out
}

// Option reports whether the view option whose label starts with label is
// ticked.
func (b barDriver) Option(label string) bool {
	b.h.t.Helper()
	for _, c := range b.optionBoxes() {
		if strings.HasPrefix(c.Text, label) {
			return c.Checked
		}
	}
	b.h.t.Fatalf("no view option %q", label)
	return false
}

// TapOption clicks the view option whose label starts with label.
func (b barDriver) TapOption(label string) {
	b.h.t.Helper()
	for _, c := range b.optionBoxes() {
		if strings.HasPrefix(c.Text, label) {
			test.Tap(c)
			b.h.settle()
			return
		}
	}
	b.h.t.Fatalf("no view option %q", label)
}

func (b barDriver) optionBoxes() []*widget.Check {
	var out []*widget.Check
	for _, o := range b.h.win.detail.bar.viewOptions.Content.(*fyne.Container).Objects {
		if c, ok := o.(*widget.Check); ok {
			out = append(out, c)
		}
	}
	return out
}

// SaysOutcome reports whether the status line says what became of
// proposal id on the desk in present.Outcome's words (the wording is
// present's, table-tested there; this checks the window says it).
func (h *harness) SaysOutcome(id string) bool {
	p, ok := h.desk.Get(id)
	o, decided := h.desk.Outcome(id)
	return ok && decided && strings.Contains(h.Status(), present.Outcome(p, o))
}

// Placeholder is what the empty reason box says goes there.
func (r rejectDriver) Placeholder() string {
	if e := r.h.win.detail.rejectBox.entry; e != nil && r.Open() {
		return e.PlaceHolder
	}
	return ""
}

// EditedFiles is how many files of the shown proposal hold an edit of the
// person's.
func (h *harness) EditedFiles() int { return len(h.win.detail.edited) }

// editCheckSeen is the check of the person's edit as a test sees it.
type editCheckSeen struct {
	Handle  any    // tells one check from the next (nil: none)
	Running bool   // its checkers run now
	Text    string // the text it checks
}

// EditCheck is the check of the person's edit of the shown file.
func (h *harness) EditCheck() editCheckSeen {
	c := h.win.detail.checks.recheck
	if c == nil {
		return editCheckSeen{}
	}
	return editCheckSeen{Handle: c, Running: c.cancel != nil, Text: c.text}
}

// TreeRowInSight reports whether the tree's row of the file shown is
// inside the tree's scrolled view, and where that view starts.
func (h *harness) TreeRowInSight() (bool, float32) {
	tr := h.win.detail.tree
	h.win.Win.Content().Refresh()
	y := float32(0)
	top, bottom := tr.scroll.Offset.Y, tr.scroll.Offset.Y+tr.scroll.Size().Height
	for _, o := range tr.rows.Objects {
		if r, ok := o.(*treeRow); ok && r.i == tr.current() {
			return y >= top && y+o.MinSize().Height <= bottom+1, top
		}
		y += o.MinSize().Height + theme.Padding()
	}
	return false, top
}

// decisionsLand waits for the decisions the keys started (they run off
// the UI goroutine) and runs the UI work they posted.
func decisionsLand(h *harness) {
	h.win.decisions.Wait()
	h.settle()
}

// TabTo presses Tab until option i of options (ViewChoice, FileChoices)
// has the keyboard, as a person reaches it with the keyboard alone.
func (h *harness) TabTo(options fyne.CanvasObject, i int) {
	h.t.Helper()
	want, _ := tappables(options)[i].(fyne.Focusable)
	h.tabUntil(want)
}

// TabToQueue presses Tab until the queue has the keyboard.
func (h *harness) TabToQueue() { h.t.Helper(); h.tabUntil(h.win.queue.list) }

// tabUntil presses Tab until want has the keyboard; the test fails after
// 40 presses.
func (h *harness) tabUntil(want fyne.Focusable) {
	h.t.Helper()
	for range 40 {
		if h.Focused() == want && want != nil {
			return
		}
		h.pressKey(fyne.KeyTab)
		h.settle()
	}
	h.t.Fatalf("40 Tabs never gave the keyboard to %T (last with it: %T)", want, h.Focused())
}

// Down presses the down arrow.
func (h *harness) Down() { h.pressKey(fyne.KeyDown); h.settle() }

// Space presses Space as the real window delivers it: the key to what has
// the keyboard, then the character to what has it after the key (the
// harness's Keys(" ") sends the character alone).
func (h *harness) Space() {
	h.pressKey(fyne.KeySpace)
	h.settle()
	h.press(' ')
	h.settle()
}

// ViewChoice and FileChoices are the stale file's choice of views and a
// multi-file proposal's choice of files, for TabTo.
func (h *harness) ViewChoice() fyne.CanvasObject  { return h.win.detail.stale.choice }
func (h *harness) FileChoices() fyne.CanvasObject { return h.win.detail.files }
