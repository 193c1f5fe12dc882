package ui

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/ui/diffview"
)

// The window driver: what a person at the window sees and does, in words,
// so that tests say "the queue's rows", "the bar's Approve", "the status
// line" and survive a reshaping of the window's structs (issue 26). Every
// reach into the window's fields is here, in one place; new tests use
// only these.

// windowOver is the harness over desk, any Desk the window is opened on:
// a local desk, a far one reached through the protocol, a fleet of them, a
// hub's view. The tests that built a window over one each (remote, fleet,
// hub) build it here. o's Do, Now, AfterFunc and delays are the harness's;
// the rest (Remote, History) is the test's. h.desk, h.root and h.j are
// left empty: the test has the desk behind desk itself.
func windowOver(t *testing.T, desk Desk, o WindowOptions) *harness {
	t.Helper()
	h := newBareHarness(t)
	h.openWindow(desk, o)
	return h
}

// newBareHarness is the harness before its window: the test app in the
// light theme, the scheduler the test goroutine drains and the clock.
func newBareHarness(t *testing.T) *harness {
	t.Helper()
	a := test.NewTempApp(t)
	a.Settings().SetTheme(NewVariantTheme(theme.VariantLight))
	return &harness{t: t, sched: make(chan func(), 4096), now: baseTime}
}

// openWindow opens the window over desk on the harness's scheduler and
// clock, its diff views synchronous (their workers would call fyne.Do
// inline off the test goroutine), and closes it when the test ends.
func (h *harness) openWindow(desk Desk, o WindowOptions) {
	o.Do = func(f func()) { h.sched <- f }
	o.Now, o.AfterFunc = h.clock, h.afterFunc
	o.NotifyDelay, o.AgeTick, o.ArmDelay = -1, -1, -1
	h.win = NewWindow(fyne.CurrentApp(), desk, o)
	h.win.Win.Resize(fyne.NewSize(1200, 700))
	h.win.View().SetSynchronous(true)
	if hv := h.win.history; hv != nil {
		hv.view.SetSynchronous(true)
		hv.synchronous = true
	}
	h.t.Cleanup(h.win.Close)
}

// settle runs the UI work already scheduled, and that of the hunk
// classifications under way once they post it (trivial.go; a test that
// holds them pending drains sched itself).
func (h *harness) settle() {
	for {
		select {
		case f := <-h.sched:
			f()
		default:
			h.WaitClassified()
			if len(h.sched) == 0 {
				return
			}
		}
	}
}

// Keys types s into the window as the person types it: each rune to the
// widget with the keyboard, else to the window's keys.
func (h *harness) Keys(s string) {
	h.t.Helper()
	for _, r := range s {
		h.press(r)
		h.settle()
	}
}

// Esc presses Escape.
func (h *harness) Esc() { h.pressKey(fyne.KeyEscape); h.settle() }

// Enter presses Return.
func (h *harness) Enter() { h.pressKey(fyne.KeyReturn); h.settle() }

// CtrlEnter presses Ctrl+Enter.
func (h *harness) CtrlEnter() { h.ctrlEnter(); h.settle() }

// Status is the status line under the decision bar as the person sees it
// ("" while it is hidden).
func (h *harness) Status() string {
	if l := h.win.detail.line.status; l.Visible() {
		return l.Text
	}
	return ""
}

// Message is the brief answer to a key under the decision bar.
func (h *harness) Message() string { return h.win.detail.line.message.Text }

// Say puts s in the message line, as a key's answer does, and lays the
// window out again.
func (h *harness) Say(s string) { h.win.detail.line.say(s); h.win.Win.Content().Refresh() }

// MessageWidget is the message line, for its size.
func (h *harness) MessageWidget() fyne.CanvasObject { return h.win.detail.line.message }

// StatusIsError reports whether the status line is red (an error).
func (h *harness) StatusIsError() bool {
	return h.win.detail.line.status.Importance == widget.DangerImportance
}

// Checks is the header's word on what the checkers found.
func (h *harness) Checks() string { return h.win.detail.head.checks.Text }

// Shown is the id of the proposal the pane shows ("" for none).
func (h *harness) Shown() string { return h.win.detail.id }

// Decided reports whether the pane shows what became of its proposal: an
// outcome that came while it was shown (decided here or elsewhere), or a
// decided proposal read again ([, ], the changeset's tree), whose status
// line says its outcome.
func (h *harness) Decided() bool {
	d := h.win.detail
	if d.outcome != nil {
		return true
	}
	if d.id == "" || d.deciding || d.p.State.Open() {
		return false
	}
	_, ok := h.win.desk.Outcome(d.id)
	return ok
}

// Keyboard is the line saying who has the keyboard.
func (h *harness) Keyboard() string { return h.win.detail.line.keyboard.Text }

// Header is the text above the diff: the title, state, the protected
// files and the agent's words, and the warning note, one per line.
func (h *harness) Header() string {
	d := h.win.detail
	var out []string
	for _, l := range []*widget.Label{d.head.title, d.head.state, d.head.intent, d.head.note} {
		if l.Visible() && l.Text != "" && (l != d.head.note || d.head.noteBox.Visible()) {
			out = append(out, l.Text)
		}
	}
	return strings.Join(out, "\n")
}

// PaneButtons are the visible buttons of the right pane (above, below and
// in the diff's place), "(off)" after a disabled one.
func (h *harness) PaneButtons() []string {
	var out []string
	for _, o := range shownObjects(h.win.detail.content) {
		if btn, ok := o.(*widget.Button); ok && btn.Text != "" {
			s := btn.Text
			if btn.Disabled() {
				s += " (off)"
			}
			out = append(out, s)
		}
	}
	return out
}

// ClickPane clicks the right pane's visible button whose label starts
// with label.
func (h *harness) ClickPane(label string) {
	h.t.Helper()
	for _, o := range shownObjects(h.win.detail.content) {
		if btn, ok := o.(*widget.Button); ok && strings.HasPrefix(btn.Text, label) && !btn.Disabled() {
			test.Tap(btn)
			h.settle()
			return
		}
	}
	h.t.Fatalf("no button %q in the pane: %q", label, h.PaneButtons())
}

// Center is what shows in the diff's place when it is not the diff (a
// failed edit, its candidates): its labels and [buttons], one per line.
func (h *harness) Center() string {
	var out []string
	for _, o := range shownObjects(h.win.detail.center) {
		switch x := o.(type) {
		case *widget.Label:
			if x.Text != "" {
				out = append(out, x.Text)
			}
		case *widget.Button:
			if x.Text != "" {
				out = append(out, "["+x.Text+"]")
			}
		}
	}
	return strings.Join(out, "\n")
}

// Tree is the changeset tree's text as drawn, one file a line.
func (h *harness) Tree() string {
	var out []string
	for _, o := range shownObjects(h.win.detail.tree.box) {
		if r, ok := o.(*treeRow); ok {
			var words []string
			for _, x := range shownObjects(r.content) {
				if t, ok := x.(*canvas.Text); ok && strings.TrimSpace(t.Text) != "" {
					words = append(words, strings.TrimSpace(t.Text))
				}
			}
			out = append(out, strings.Join(words, " "))
		}
	}
	return strings.Join(out, "\n")
}

// Empty is the empty pane's text ("" while a proposal shows).
func (h *harness) Empty() string {
	if !h.win.detail.empty.Visible() {
		return ""
	}
	return h.win.detail.empty.Text
}

// queueDriver is the queue on the left.
type queueDriver struct{ h *harness }

// Queue is the proposal queue.
func (h *harness) Queue() queueDriver { return queueDriver{h} }

// Rows are the queue's rows as drawn: "[agent · session · …]" for a
// changeset's heading, else a proposal's file names and its badge.
func (q queueDriver) Rows() []string {
	var out []string
	for _, r := range q.h.win.queue.rows {
		c := newQueueCell(nil)
		c.set(r, q.h.clock())
		if r.header != "" {
			out = append(out, "["+c.headerName+c.headerRest+"]") // in full: the cell here has no width to fit it to
			continue
		}
		s := strings.TrimSpace(c.fullName)
		if c.badge.Text != "" {
			s += " " + c.badge.Text
		}
		out = append(out, s)
	}
	return out
}

// Click clicks the row naming files (a proposal's first file as the queue
// shows it, badge aside) at its position now.
func (q queueDriver) Click(files string) {
	q.h.t.Helper()
	for i, r := range q.Rows() {
		if r == files || strings.HasPrefix(r, files+" ") {
			q.ClickRow(i)
			return
		}
	}
	q.h.t.Fatalf("no queue row %q in %q", files, q.Rows())
}

// Hover moves the pointer onto the row of the proposal naming files.
func (q queueDriver) Hover(files string) {
	q.h.t.Helper()
	for _, o := range shownObjects(q.h.win.queue.list) {
		if c, ok := o.(*queueCell); ok && c.item.Visible() && c.fullName == files {
			at := fyne.CurrentApp().Driver().AbsolutePositionForObject(c)
			test.MoveMouse(q.h.win.Win.Canvas(), at.Add(fyne.NewPos(c.Size().Width/2, c.Size().Height/2)))
			q.h.settle()
			return
		}
	}
	q.h.t.Fatalf("no queue row %q on screen in %q", files, q.Rows())
}

// HoverBelow moves the pointer onto the queue's empty space below its rows.
func (q queueDriver) HoverBelow() {
	l := q.h.win.queue.list
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(l)
	test.MoveMouse(q.h.win.Win.Canvas(), at.Add(fyne.NewPos(l.Size().Width/2, l.Size().Height-5)))
	q.h.settle()
}

// Leave moves the pointer off the queue, onto the diff, and lets the time
// pass after which the queue no longer holds still.
func (q queueDriver) Leave() {
	v := q.h.win.View()
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(v)
	test.MoveMouse(q.h.win.Win.Canvas(), at.Add(fyne.NewPos(v.Size().Width/2, v.Size().Height/2)))
	q.h.advance(time.Second)
	q.h.settle()
}

// Note is the line under the queue ("" when none shows).
func (q queueDriver) Note() string {
	if n := q.h.win.queue.hold.note; n.Visible() {
		return n.Text
	}
	return ""
}

// ClickRow clicks row i of the queue where it is drawn (scrolled to).
func (q queueDriver) ClickRow(i int) {
	q.h.t.Helper()
	q.h.Tap(q.rowAt(i))
}

// barDriver is the decision bar.
type barDriver struct{ h *harness }

// Bar is the decision bar under the diff.
func (h *harness) Bar() barDriver { return barDriver{h} }

// Buttons are the bar's visible buttons, left to right, "(off)" after a
// disabled one.
func (b barDriver) Buttons() []string {
	var out []string
	for _, o := range shownObjects(b.h.win.detail.bar.box) {
		if btn, ok := o.(*widget.Button); ok && btn.Visible() && btn.Text != "" {
			s := btn.Text
			if btn.Disabled() {
				s += " (off)"
			}
			out = append(out, s)
		}
	}
	return out
}

// Text is every label the bar shows (a protected file's warning is one).
func (b barDriver) Text() string {
	var out []string
	for _, o := range shownObjects(b.h.win.detail.bar.box) {
		if l, ok := o.(*widget.Label); ok && l.Visible() && l.Text != "" {
			out = append(out, l.Text)
		}
	}
	return strings.Join(out, "\n")
}

// Click clicks the bar's visible, enabled button whose label starts with
// label.
func (b barDriver) Click(label string) {
	b.h.t.Helper()
	for _, o := range shownObjects(b.h.win.detail.bar.box) {
		if btn, ok := o.(*widget.Button); ok && btn.Visible() && strings.HasPrefix(btn.Text, label) {
			if btn.Disabled() {
				b.h.t.Fatalf("button %q is disabled", btn.Text)
			}
			test.Tap(btn)
			b.h.settle()
			return
		}
	}
	b.h.t.Fatalf("no button %q in the bar: %q", label, b.Buttons())
}

// Button is the label of the bar's visible button starting with prefix
// ("" when none shows).
func (b barDriver) Button(prefix string) string {
	for _, s := range b.Buttons() {
		if strings.HasPrefix(s, prefix) {
			return s
		}
	}
	return ""
}

// ViewOptionsOpen reports whether the View button's pop-up is open.
func (b barDriver) ViewOptionsOpen() bool { return b.h.win.detail.bar.viewOptions.Visible() }

// Approve clicks Approve.
func (b barDriver) Approve() { b.Click("Approve") }

// diffDriver is the diff view.
type diffDriver struct{ h *harness }

// Diff is the diff view of the shown file.
func (h *harness) Diff() diffDriver { return diffDriver{h} }

// Counter is the line saying which hunk the view is at.
func (d diffDriver) Counter() string { return d.h.win.detail.line.counter.Text }

// Height is how tall the diff is on screen.
func (d diffDriver) Height() float32 { return d.h.win.View().Size().Height }

// Editing reports whether the right side is an editor.
func (d diffDriver) Editing() bool { return d.h.win.detail.view.Editor() != nil }

// Labels are the hunk labels drawn in the view, "; "-joined in hunk order.
func (d diffDriver) Labels() string {
	v := d.h.win.View()
	var out []string
	for _, hk := range v.Hunks() {
		if n := v.Marks().Note(hk.ID); n.Text != "" {
			out = append(out, n.Text)
		}
	}
	return strings.Join(out, "; ")
}

// Show clicks the option of a stale file's view choice (Disk vs merged
// proposal, What changed on disk, What the agent sent).
func (d diffDriver) Show(option string) {
	c := d.h.win.detail.stale.choice
	if !c.Visible() {
		d.h.t.Fatalf("no choice of views to show %q in", option)
	}
	c.SetSelected(option)
	d.h.settle()
}

// Showing is the stale file's view chosen ("" when there is no choice).
func (d diffDriver) Showing() string {
	if c := d.h.win.detail.stale.choice; c.Visible() {
		return c.Selected
	}
	return ""
}

// dialogDriver is the dialog on top of the window, if any.
type dialogDriver struct{ h *harness }

// Dialog is the dialog on top of the window.
func (h *harness) Dialog() dialogDriver { return dialogDriver{h} }

// Open reports whether a dialog covers the window.
func (g dialogDriver) Open() bool { return g.h.win.Win.Canvas().Overlays().Top() != nil }

// Text is every label, entry and button text of the dialog on top, one per
// line ("" without one).
func (g dialogDriver) Text() string {
	top := g.h.win.Win.Canvas().Overlays().Top()
	if top == nil {
		return ""
	}
	var out []string
	for _, o := range shownObjects(top) {
		switch x := o.(type) {
		case *widget.Label:
			if x.Visible() && x.Text != "" {
				out = append(out, x.Text)
			}
		case *widget.Entry:
			if x.Text != "" {
				out = append(out, x.Text)
			}
		case *dialogEntry:
			if x.Text != "" {
				out = append(out, x.Text)
			}
		case *widget.Button:
			if x.Visible() && x.Text != "" {
				out = append(out, "["+x.Text+"]")
			}
		}
	}
	return strings.Join(out, "\n")
}

// Click clicks the dialog's button whose label starts with label.
func (g dialogDriver) Click(label string) {
	g.h.t.Helper()
	top := g.h.win.Win.Canvas().Overlays().Top()
	if top == nil {
		g.h.t.Fatalf("no dialog open to click %q in", label)
	}
	for _, o := range shownObjects(top) {
		if btn, ok := o.(*widget.Button); ok && btn.Visible() && strings.HasPrefix(btn.Text, label) {
			if btn.Disabled() {
				g.h.t.Fatalf("button %q of the dialog is disabled", btn.Text)
			}
			test.Tap(btn)
			g.h.settle()
			return
		}
	}
	g.h.t.Fatalf("no button %q in the dialog:\n%s", label, g.Text())
}

// Buttons are the visible buttons of the dialog on top, "(off)" after a
// disabled one.
func (g dialogDriver) Buttons() []string {
	var out []string
	for _, o := range shownObjects(g.h.win.Win.Canvas().Overlays().Top()) {
		if btn, ok := o.(*widget.Button); ok && btn.Visible() && btn.Text != "" {
			s := btn.Text
			if btn.Disabled() {
				s += " (off)"
			}
			out = append(out, s)
		}
	}
	return out
}

// shownObjects are o and the objects inside it that are shown: none inside
// a hidden one.
func shownObjects(o fyne.CanvasObject) []fyne.CanvasObject {
	if o == nil || !o.Visible() {
		return nil
	}
	out := []fyne.CanvasObject{o}
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			out = append(out, shownObjects(c)...)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			out = append(out, shownObjects(c)...)
		}
	}
	return out
}

// pickerDriver is the picker of a failed or ambiguous block: its
// candidates in the diff's place and the Mark lines… dialog.
type pickerDriver struct{ h *harness }

// Picker is the shown proposal's picker.
func (h *harness) Picker() pickerDriver { return pickerDriver{h} }

// Open reports whether the candidates (or Mark lines…) show in the diff's
// place.
func (k pickerDriver) Open() bool { return shownIn(k.h.win.detail.content, k.h.win.detail.pick.box) }

// shownIn reports whether o shows inside root: it and everything it is in
// visible.
func shownIn(root, o fyne.CanvasObject) bool {
	for _, x := range shownObjects(root) {
		if x == o {
			return true
		}
	}
	return false
}

// Title is what the picker says above the candidates.
func (k pickerDriver) Title() string { return k.h.win.detail.pick.title.Text }

// Candidates are the candidates listed, each as its heading says it
// ("1.  lines 4–5 · 80% similar").
func (k pickerDriver) Candidates() []string {
	var out []string
	for _, row := range k.h.win.detail.pick.rows.Objects {
		for _, o := range shownObjects(row) {
			if l, ok := o.(*widget.Label); ok && l.TextStyle.Bold {
				out = append(out, l.Text)
			}
		}
	}
	return out
}

// Choose picks candidate n (1–9) with its key.
func (k pickerDriver) Choose(n int) { k.h.Keys(strconv.Itoa(n)) }

// Mark opens the Mark lines… dialog.
func (k pickerDriver) Mark() { k.h.ClickPane("Mark lines…") }

// MarkLines types the first and last line into the open Mark lines…
// dialog.
func (k pickerDriver) MarkLines(from, to string) {
	k.h.t.Helper()
	p := k.h.win.detail.pick
	if p.from == nil {
		k.h.t.Fatal("no Mark lines… dialog open")
	}
	p.from.SetText(from)
	p.to.SetText(to)
}

// MarkProblem is what the Mark lines… dialog says is wrong with the lines
// typed ("" when nothing is, or no dialog is open), and whether it wraps
// by word (unwrapped, it widened the dialog past the window).
func (k pickerDriver) MarkProblem() (string, bool) {
	l := k.h.win.detail.pick.markProblem
	if l == nil || !l.Visible() {
		return "", true
	}
	return l.Text, l.Wrapping == fyne.TextWrapWord
}

// commentsDriver is the person's line comments: the dialog c opens and the
// list under the diff.
type commentsDriver struct{ h *harness }

// Comments are the shown proposal's line comments.
func (h *harness) Comments() commentsDriver { return commentsDriver{h} }

// Open reports whether the comment dialog is open.
func (c commentsDriver) Open() bool { return c.h.win.detail.comments.dialog != nil }

// Lines is the dialog's lines box ("12" or "12-14"; "" when closed).
func (c commentsDriver) Lines() string {
	if l := c.h.win.detail.comments.lines; l != nil {
		return l.Text
	}
	return ""
}

// SetLines types lines into the dialog's lines box.
func (c commentsDriver) SetLines(s string) {
	c.h.t.Helper()
	l := c.h.win.detail.comments.lines
	if l == nil {
		c.h.t.Fatal("no comment dialog open to type lines into")
	}
	l.SetText(s)
}

// Text is the comment typed so far ("" when closed).
func (c commentsDriver) Text() string {
	if t := c.h.win.detail.comments.text; t != nil {
		return t.Text
	}
	return ""
}

// TextFocused reports whether the comment's text box has the keyboard.
func (c commentsDriver) TextFocused() bool {
	t := c.h.win.detail.comments.text
	return t != nil && c.h.win.Win.Canvas().Focused() == fyne.Focusable(t)
}

// Hint is what the dialog says is wrong ("" when closed or nothing is).
func (c commentsDriver) Hint() string {
	if l := c.h.win.detail.comments.hint; l != nil {
		return l.Text
	}
	return ""
}

// Kept are proposal id's comments, to be sent with its decision.
func (c commentsDriver) Kept(id string) []decision.Comment { return c.h.win.detail.comments.of(id) }

// Listed is what the list under the diff says, a line per label ("" while
// it is hidden).
func (c commentsDriver) Listed() string {
	box := c.h.win.detail.comments.box
	var b strings.Builder
	for _, o := range test.LaidOutObjects(box) {
		if l, ok := o.(*widget.Label); ok && box.Visible() {
			b.WriteString(l.Text + "\n")
		}
	}
	return b.String()
}

// DeleteAll clicks the list's Delete of every comment listed.
func (c commentsDriver) DeleteAll() {
	for _, b := range tappables(c.h.win.detail.comments.box) {
		if btn, ok := b.(*widget.Button); ok && btn.Text == "Delete" {
			test.Tap(btn)
		}
	}
}

// ChecksColour is the colour of the header's word on the checkers: "red"
// (new problems), "amber" (a checker failed), "" for plain or hidden.
func (h *harness) ChecksColour() string {
	l := h.win.detail.head.checks
	switch {
	case !l.Visible():
		return ""
	case l.Importance == widget.DangerImportance:
		return "red"
	case l.Importance == widget.WarningImportance:
		return "amber"
	}
	return ""
}

// Problems is what shows under the diff about the current hunk's problems
// and the checkers' errors ("" while hidden).
func (h *harness) Problems() string {
	if l := h.win.detail.checks.problems; l.Visible() {
		return l.Text
	}
	return ""
}

// EditMode reports whether the shown proposal is in edit mode (e), the
// editor focused or not.
func (h *harness) EditMode() bool { return h.win.detail.editing }

// ShownFile is the shown file's path as the pane names it ("" for none).
func (h *harness) ShownFile() string {
	d := h.win.detail
	if d.file >= len(d.p.Files) {
		return ""
	}
	return d.cur().Rel
}

// State is how the bar shows the button labelled label: "on" (shown and
// enabled), "off" (shown, disabled), "" (not shown).
func (b barDriver) State(label string) string {
	for _, s := range b.Buttons() {
		switch s {
		case label:
			return "on"
		case label + " (off)":
			return "off"
		}
	}
	return ""
}

// FollowShown reports whether the bar shows Follow (a stream's).
func (b barDriver) FollowShown() bool { return b.h.win.detail.bar.follow.Visible() }

// ShownState is the state of the proposal the pane shows, as the pane has
// it (the desk's may be ahead of it until its event arrives).
func (h *harness) ShownState() review.State { return h.win.detail.p.State }

// ShownProposal is the proposal the pane shows, as the pane has it.
func (h *harness) ShownProposal() review.Proposal { return h.win.detail.p }

// SetShownDiskHash makes the pane's copy of the shown proposal's file i
// say the disk held sha when the person looked: as if the disk moved on
// since, unseen by the window.
func (h *harness) SetShownDiskHash(i int, sha string) { h.win.detail.p.Files[i].Disk.SHA256 = sha }

// PaneLabels are the right pane's shown labels whose text contains sub.
func (h *harness) PaneLabels(sub string) []*widget.Label {
	var out []*widget.Label
	for _, o := range shownObjects(h.win.detail.content) {
		if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, sub) {
			out = append(out, l)
		}
	}
	return out
}

// PaneLabel is the right pane's first shown label starting with prefix,
// for its look (the test fails when none shows).
func (h *harness) PaneLabel(prefix string) *widget.Label {
	h.t.Helper()
	for _, o := range shownObjects(h.win.detail.content) {
		if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, prefix) {
			return l
		}
	}
	h.t.Fatalf("no label %q in the pane:\n%s", prefix, objectsText(h.win.detail.content))
	return nil
}

// looseCardText is the loose-match card as shown: its title, the agent's
// text, the heading over the file's lines and those lines.
type looseCardText struct {
	Shown                             bool
	Title, Expected, FoundHead, Found string
}

// LooseCard is the loose-match card over the diff.
func (h *harness) LooseCard() looseCardText {
	c := h.win.detail.loose
	if !c.box.Visible() {
		return looseCardText{}
	}
	return looseCardText{Shown: true, Title: c.title.Text, Expected: c.expected.Text, FoundHead: c.foundHead.Text, Found: c.found.Text}
}

// Title is the window's title.
func (h *harness) Title() string { return h.win.Win.Title() }

// Classified reports whether the shown proposal's hunks are classified
// (trivial or not: what t and the labels wait for).
func (h *harness) Classified() bool { return !h.win.detail.trivial.pending() }

// HubAway tells the window its hub at url went away (away) or came back,
// as the hub's link reports it.
func (h *harness) HubAway(url string, away bool) { h.win.hubState(url, away) }

// FirstLineOnScreen is the first line (1-based) of the right side whose
// row is on screen, the larger part of it at least (0 for none).
func (d diffDriver) FirstLineOnScreen() int {
	v := d.h.win.View()
	for i := 0; i < v.Lines(); i++ {
		y, _ := v.LineY(i)
		next, _ := v.LineY(i + 1)
		if i+1 == v.Lines() || y+(next-y)/2 > 0 {
			return i + 1
		}
	}
	return 0
}

// The window's actions and readings only tests use (the keys and buttons
// call the pane's own).

// View is the diff view of the selected proposal.
func (w *Window) View() *diffview.DiffView { return w.detail.view }

// ApproveMerged writes a stale proposal merged into the disk's content.
func (w *Window) ApproveMerged() { w.detail.ApproveMerged() }

// Reject rejects the selected proposal with reason, without the dialog.
func (w *Window) Reject(reason string) { w.detail.Reject(reason) }

// ShowHistory switches the window to its History tab (which loads the
// timeline afresh). It does nothing without one (WindowOptions.History).
func (w *Window) ShowHistory() {
	if w.tabs != nil {
		w.tabs.SelectIndex(1)
	}
}

// Waiting returns how many proposals wait for a decision.
func (w *Window) Waiting() int { return w.waiting }

// Message is the comparison's line under the diff: the answer to the last key.
func (c *Compare) Message() string { return c.message.Text }

// Note is what the comparison says above the diff: a new, deleted or
// identical file, bytes that are not UTF-8.
func (c *Compare) Note() string { return c.note.Text }

// View is the comparison's diff view.
func (c *Compare) View() *diffview.DiffView { return c.view }
