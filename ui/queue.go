package ui

import (
	"fmt"
	"image/color"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/ui/present"
)

// queueRow is one row of the queue: a changeset's header (agent ·
// session) or a proposal.
type queueRow struct {
	header string // "agent · session" for a header row; "" for a proposal
	key    string // header: the changeset's key
	count  int    // header: proposals in the group
	// header: the group's files, lines added and removed, and proposals
	// waiting for a decision.
	files, added, removed, open, streaming int
	p                                      review.Proposal
	gone                                   bool   // the proposal left the queue while the pointer held it still
	where                                  string // header: its workspaces, when the desk serves several (labelWorkspaces)
}

// queueRows lays the changesets of ps out as the queue shows them
// (review.Changesets: groups in the order of their oldest proposal, and
// within a group oldest first, the order the agent made them in: as the
// changeset's tree lists them, as a decision moves on to the next, and as
// n goes). New work goes below what is there: a group arriving never moves
// the rows the person is about to click (a group on top did: a click meant
// for one proposal opened another).
func queueRows(ps []review.Proposal) []queueRow {
	var rows []queueRow
	for _, cs := range review.Changesets(ps) {
		h := headerRow(cs)
		rows = append(rows, h)
		for _, p := range cs.Proposals {
			rows = append(rows, queueRow{p: p})
		}
	}
	return rows
}

// headerRow is the heading row of changeset cs.
func headerRow(cs review.Changeset) queueRow {
	return queueRow{header: present.GroupName(cs.Proposals[0]), key: cs.Key, count: len(cs.Proposals), files: len(cs.Files),
		added: cs.Added, removed: cs.Removed, open: cs.Open, streaming: present.Streaming(cs)}
}

// heldRows is rows, the queue as shown, brought up to date with ps without
// moving a row: a proposal still there shows as it is now, one gone stays
// (marked gone), a heading keeps its place with its changeset's counts;
// added counts the proposals of ps not shown.
func heldRows(rows []queueRow, ps []review.Proposal) (out []queueRow, added int) {
	byID := make(map[string]review.Proposal, len(ps))
	for _, p := range ps {
		byID[p.ID] = p
	}
	byKey := map[string]review.Changeset{}
	for _, cs := range review.Changesets(ps) {
		byKey[cs.Key] = cs
	}
	out = make([]queueRow, len(rows))
	shown := map[string]bool{}
	for i, r := range rows {
		switch {
		case r.header != "":
			r.where = "" // labelWorkspaces says it again
			if cs, ok := byKey[r.key]; ok {
				r = headerRow(cs)
			}
		default:
			shown[r.p.ID] = true
			if p, ok := byID[r.p.ID]; ok {
				r.p, r.gone = p, false
			} else {
				r.gone = true
			}
		}
		out[i] = r
	}
	for _, p := range ps {
		if !shown[p.ID] {
			added++
		}
	}
	return out, added
}

// badge is the state badge a proposal shows in the queue, and its colour;
// "" for a plain pending proposal (present.Badge).
func badge(p review.Proposal) (string, fyne.ThemeColorName) {
	b, tone := present.Badge(p)
	return b, toneColor(tone)
}

// queueView is the left pane: every open proposal (and failed ones until
// dismissed), grouped by agent and session.
type queueView struct {
	list     *queueList
	content  fyne.CanvasObject // the list, over the hover area, and the held note
	rows     []queueRow
	order    []string // every proposal in the queue's order, held rows or not
	now      func() time.Time
	selected string
	// synced is the row syncSelection last scrolled to (-1: none), and same
	// whether setProposals has left the rows as they were since.
	synced int
	same   bool
	// onSelected is called when the person selects a proposal.
	onSelected func(id string)
	// onTapped is called after a row is clicked (the selected row
	// included) or chosen with the keyboard (Tab into the list, Space).
	onTapped func()
	quiet    bool // selecting programmatically: do not call onSelected
	hold     *queueHold
	// workspaces names the desk's roots in the headings (workspaceLabels).
	workspaces map[string]string
}

// queueHold holds the queue still while the pointer is over it (issue 25
// point 9): what the person is about to click never moves. New proposals
// wait below a note that counts them, and rows of proposals that left stay
// (marked done), until the pointer has left the queue for leaveDelay.
type queueHold struct {
	over   bool              // the pointer is over the queue
	latest []review.Proposal // the proposals to show once it leaves; nil when nothing is held
	note   *widget.Label     // "2 new proposals below once the pointer leaves the queue"
	after  func(time.Duration, func()) (stop func() bool)
	do     func(func())
	stop   func() bool // the pending release; nil if none
	area   *queueHoverArea
}

// queueLeaveDelay is how long the pointer stays off the queue before held
// rows move: passing from one row to the next is not leaving.
const queueLeaveDelay = 300 * time.Millisecond

func newQueueView(now func() time.Time, after func(time.Duration, func()) func() bool, do func(func())) *queueView {
	q := &queueView{now: now, synced: -1, hold: &queueHold{after: after, do: do, note: widget.NewLabel("")}}
	q.hold.note.Wrapping = fyne.TextWrapWord
	q.hold.note.Importance = widget.WarningImportance
	q.hold.note.Hide()
	q.list = &queueList{}
	q.list.Length = func() int { return len(q.rows) }
	q.list.CreateItem = func() fyne.CanvasObject { return newQueueCell(q) }
	q.list.UpdateItem = func(i widget.ListItemID, o fyne.CanvasObject) {
		if i < len(q.rows) {
			c := o.(*queueCell)
			c.row = i
			c.set(q.rows[i], q.now())
		}
	}
	q.list.ExtendBaseWidget(q.list)
	q.list.OnSelected = func(i widget.ListItemID) {
		if i >= len(q.rows) {
			return
		}
		if q.rows[i].header != "" { // a header selects its first proposal
			if i+1 < len(q.rows) {
				q.list.Select(i + 1)
			}
			return
		}
		id := q.rows[i].p.ID
		if id == q.selected {
			return
		}
		q.selected = id
		if !q.quiet && q.onSelected != nil {
			q.onSelected(id)
		}
		q.tapped()
	}
	q.hold.area = newQueueHoverArea(q)
	q.content = container.NewBorder(nil, q.hold.note, nil, nil, container.NewStack(q.hold.area, q.list))
	return q
}

// queueList is the queue's list. With the keyboard (Tab into the queue,
// the arrows), Space chooses the highlighted row on its character, not on
// its key as Fyne's list does: the row chosen hands the keyboard back to
// the window, which then got the Space's character and unticked a hunk of
// the proposal just shown.
// While it has the keyboard, the other keys do nothing (a row highlighted
// is not the proposal shown: a or r would decide another than the person
// looks at), the keyboard line says so, and Esc gives the keys back.
type queueList struct {
	widget.List
	focusChanged func() // the keyboard came or went
	escape       func()
}

// TypedKey is part of fyne.Focusable.
func (l *queueList) TypedKey(e *fyne.KeyEvent) {
	switch e.Name {
	case fyne.KeySpace: // TypedRune chooses
	case fyne.KeyEscape:
		if l.escape != nil {
			l.escape()
		}
	default:
		l.List.TypedKey(e)
	}
}

// FocusGained is part of fyne.Focusable.
func (l *queueList) FocusGained() {
	l.List.FocusGained()
	if l.focusChanged != nil {
		l.focusChanged()
	}
}

// FocusLost is part of fyne.Focusable.
func (l *queueList) FocusLost() {
	l.List.FocusLost()
	if l.focusChanged != nil {
		l.focusChanged()
	}
}

// TypedRune is part of fyne.Focusable.
func (l *queueList) TypedRune(r rune) {
	if r == ' ' {
		l.List.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	}
}

// tapped hands the keyboard back after a row is chosen.
func (q *queueView) tapped() {
	if q.onTapped != nil && !q.quiet {
		q.onTapped()
	}
}

// setProposals replaces the queue's content, keeping the selection; while
// the pointer is over the queue, the rows hold still (queueHold).
func (q *queueView) setProposals(ps []review.Proposal) {
	old := q.rows
	rows := queueRows(ps)
	labelWorkspaces(rows, q.workspaces)
	q.order = q.order[:0]
	for _, r := range rows {
		if r.header == "" {
			q.order = append(q.order, r.p.ID)
		}
	}
	if q.hold.over && q.rows != nil {
		var added int
		q.hold.latest = ps
		q.rows, added = heldRows(q.rows, ps)
		labelWorkspaces(q.rows, q.workspaces)
		q.hold.say(added)
	} else {
		q.hold.latest = nil
		q.rows = rows
		q.hold.say(0)
	}
	if q.same = q.refreshChanged(old); !q.same {
		q.list.Refresh()
	}
	q.syncSelection()
}

// refreshChanged redraws only the rows whose look changed from old, the
// rows shown before, when the queue still lists the same rows in the same
// order (a streamed chunk changes one proposal's line count; refreshing
// every row was a third of a chunk's UI work: issue 28); it reports false
// when the rows themselves changed, for a full refresh.
func (q *queueView) refreshChanged(old []queueRow) bool {
	if len(old) != len(q.rows) {
		return false
	}
	for i := range old {
		if old[i].key != q.rows[i].key || old[i].p.ID != q.rows[i].p.ID {
			return false
		}
	}
	for i := range old {
		if old[i].look() != q.rows[i].look() {
			q.list.RefreshItem(i)
		}
	}
	return true
}

// look is what a row shows, as queueCell.set draws it, but its age (the
// age ticker refreshes the list).
func (r queueRow) look() string {
	if r.header != "" {
		return fmt.Sprint(r.header, r.where, r.files, r.added, r.removed, r.streaming, r.count, r.open)
	}
	b, col := badge(r.p)
	a, d := r.p.Counts()
	return fmt.Sprint(present.FileNames(r.p), b, col, a, d, r.p.State, r.p.Created.UnixNano(), r.gone)
}

// say shows how many new proposals wait for the pointer to leave.
func (h *queueHold) say(added int) {
	if added == 0 {
		h.note.Hide()
		return
	}
	h.note.SetText(fmt.Sprintf("%d new %s below once the pointer leaves the queue.", added, present.Plural(added, "proposal", "proposals")))
	h.note.Show()
}

// pointerIn is the pointer entering the queue (a row, or the space below).
func (q *queueView) pointerIn() {
	q.hold.over = true
	if q.hold.stop != nil {
		q.hold.stop()
		q.hold.stop = nil
	}
}

// pointerOut is the pointer leaving a part of the queue: unless it enters
// another part meanwhile, the held rows move after queueLeaveDelay.
func (q *queueView) pointerOut() {
	q.hold.over = false
	if q.hold.stop != nil {
		q.hold.stop()
	}
	q.hold.stop = q.hold.after(queueLeaveDelay, func() { q.hold.do(q.release) })
}

// release shows what was held, once the pointer has stayed off the queue.
func (q *queueView) release() {
	q.hold.stop = nil
	if q.hold.over || q.hold.latest == nil {
		return
	}
	q.setProposals(q.hold.latest)
}

// queueHoverArea lies under the list: the pointer over the queue's space
// below the rows is over the queue too (a row arriving there would move
// under it).
type queueHoverArea struct {
	widget.BaseWidget
	q *queueView
}

func newQueueHoverArea(q *queueView) *queueHoverArea {
	a := &queueHoverArea{q: q}
	a.ExtendBaseWidget(a)
	return a
}

// CreateRenderer is part of fyne.Widget.
func (a *queueHoverArea) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(canvas.NewRectangle(color.Transparent))
}

// MouseIn is part of desktop.Hoverable.
func (a *queueHoverArea) MouseIn(*desktop.MouseEvent) { a.q.pointerIn() }

// MouseMoved is part of desktop.Hoverable.
func (a *queueHoverArea) MouseMoved(*desktop.MouseEvent) {}

// MouseOut is part of desktop.Hoverable.
func (a *queueHoverArea) MouseOut() { a.q.pointerOut() }

// selectID selects the proposal's row without calling onSelected ("" clears).
func (q *queueView) selectID(id string) {
	q.selected = id
	q.syncSelection()
}

func (q *queueView) syncSelection() {
	i := q.index(q.selected)
	q.quiet = true
	defer func() { q.quiet = false }()
	if i < 0 {
		q.list.UnselectAll()
		q.synced = -1
		return
	}
	q.list.Select(i)
	if i != q.synced || !q.same {
		q.list.ScrollTo(i) // it refreshes every row: not while the same rows and selection stay
	}
	q.synced = i
}

// index is the row of proposal id, or -1.
func (q *queueView) index(id string) int {
	if id == "" {
		return -1
	}
	for i, r := range q.rows {
		if r.header == "" && r.p.ID == id {
			return i
		}
	}
	return -1
}

// ids lists the proposals in the queue's order (those held back while the
// pointer is over the queue too: n and p reach them).
func (q *queueView) ids() []string { return append([]string(nil), q.order...) }

// labelWorkspaces sets each changeset heading's workspace: the labels of
// the roots its proposals' files lie in, in the order they first appear
// ("app", "app + lib"). Nothing when labels is nil.
func labelWorkspaces(rows []queueRow, labels map[string]string) {
	if labels == nil {
		return
	}
	head := -1
	var seen map[string]bool
	for i, r := range rows {
		if r.header != "" {
			head, seen = i, map[string]bool{}
			continue
		}
		if head < 0 {
			continue
		}
		for _, f := range r.p.Files {
			l, ok := labels[f.Root]
			if !ok || seen[l] {
				continue
			}
			seen[l] = true
			if rows[head].where != "" {
				rows[head].where += " + "
			}
			rows[head].where += l
		}
	}
}
