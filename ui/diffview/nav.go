package diffview

import (
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/engine"
)

// Nav is where the keys take the reader: j/k to the next or previous
// change (the one they went to is the current change, the counter's
// "hunk 3 of 9"), go-to-line (its line's number marked), Page Down / Page
// Up (a screen less one line: the line that was at the bottom stays in
// sight at the top, as in every diff tool), Home and End. Like a scroll
// of the wheel, paging up from the growing edge of a stream stops
// following. It reaches the view only through navHost, and the row
// offsets through wrapping.
type Nav struct {
	host   navHost
	wr     *wrapping // row offsets (wrap.go)
	folds  *Folds    // a line in a fold is opened before it is gone to
	mt     *metrics
	cur    int // first row of the change NextHunk/PrevHunk went to; -1 for none
	wentTo int // the right side's line GoToLine went to, its number marked; -1 for none
}

// navHost is what Nav needs of its view: the rows and their list, the
// rows on screen, the changes j/k go to, a stream's edge left, the
// current change's columns brought into view, the rows whose mark moved
// drawn again, and the host told of a jump.
type navHost interface {
	shown() *rowModel
	rowList() *widget.List
	topRow() int
	visibleRows() int
	changeRows() []int
	Hunks() []engine.Hunk
	whitespaceOnly(k int) bool
	userScrolled(dy float32)
	revealChange(r int)
	refreshChangedRows()
	redrawRows()
	jumped()
	awaitFirstHunk() bool
}

// Nav is the view's navigation: j/k, go-to-line and the page keys.
func (v *DiffView) Nav() *Nav { return &v.nav }

// PageDown scrolls one screen down; false when the view is at its end.
func (n *Nav) PageDown() bool { return n.page(1) }

// PageUp scrolls one screen up; false when the view is at its top.
func (n *Nav) PageUp() bool { return n.page(-1) }

func (n *Nav) page(dir int) bool {
	h := n.host.rowList().Size().Height
	if h <= 0 || n.host.shown().Len() == 0 {
		return false
	}
	step := max(h-n.mt.line, n.mt.line)
	return n.paged(n.scrollTo(n.host.rowList().GetScrollOffset() + float32(dir)*step))
}

// Home scrolls to the first row; false when it is at the top already.
func (n *Nav) Home() bool { return n.paged(n.scrollTo(0)) }

// End scrolls to the last row; false when it is at the end already.
func (n *Nav) End() bool {
	last := n.host.shown().Len() - 1
	if last < 0 {
		return false
	}
	return n.paged(n.scrollTo(n.wr.rowY(last) + n.wr.rowHeight(last)))
}

// paged makes the place the counter names, and j goes on from, follow a
// page key that moved the view (QA in the real window: after End the
// counter still said "hunk 1 of 33"): the change j went to while it is
// still on screen, else the row hunkLead below the top — the change
// there, if there is one. It returns moved.
func (n *Nav) paged(moved bool) bool {
	top := n.host.topRow()
	if !moved || n.cur >= top && n.cur < top+n.host.visibleRows() {
		return moved
	}
	m := n.host.shown()
	n.cur = min(top+hunkLead, m.Len()-1)
	if h := m.Row(n.cur).hunk; h >= 0 && !n.host.whitespaceOnly(h) {
		n.cur = m.changeRow(h)
	}
	n.host.refreshChangedRows() // the rows of the change now current: the scroll drew the rest
	n.host.jumped()
	return moved
}

// scrollTo scrolls the rows to offset y, kept within the content; it
// reports whether the view moved.
func (n *Nav) scrollTo(y float32) bool {
	l := n.host.rowList()
	bottom := float32(0)
	if k := n.host.shown().Len(); k > 0 {
		bottom = max(n.wr.rowY(k-1)+n.wr.rowHeight(k-1)-l.Size().Height, 0)
	}
	y = min(max(y, 0), bottom)
	was := l.GetScrollOffset()
	if y == was {
		return false
	}
	l.ScrollToOffset(y)
	n.host.userScrolled(was - y) // up (dy > 0) from a stream's edge stops following
	return true
}

// hunkLead is how many rows above a hunk NextHunk and PrevHunk leave.
const hunkLead = 3

// ref returns the row next/previous hunk count from: the change last
// jumped to while it is still on screen, else the row hunkLead below the
// top of the view (before the first row at the very top).
func (n *Nav) ref() int {
	top := n.host.topRow()
	if n.cur >= 0 && n.cur >= top && n.cur < top+n.host.visibleRows() {
		return n.cur
	}
	if n.host.rowList().GetScrollOffset() <= 0 {
		return -1
	}
	return top + hunkLead
}

// NextHunk scrolls to the next change: after the one last jumped to, or
// below the top of the view. It reports false when there is none. While
// the view is still diffing its texts (Opening), it opens at the first
// change once they arrive.
func (n *Nav) NextHunk() bool {
	if n.host.awaitFirstHunk() {
		return true
	}
	ref := n.ref()
	for _, r := range n.host.changeRows() {
		if r > ref {
			n.toRow(r)
			return true
		}
	}
	return false
}

// PrevHunk scrolls to the change before the one last jumped to (or
// before the top of the view). It reports false when there is none.
func (n *Nav) PrevHunk() bool {
	ref := n.ref()
	if ref < 0 {
		return false
	}
	rows := n.host.changeRows()
	for k := len(rows) - 1; k >= 0; k-- {
		if rows[k] < ref {
			n.toRow(rows[k])
			return true
		}
	}
	return false
}

// LastHunk scrolls to the last change; false when there is none.
func (n *Nav) LastHunk() bool {
	rows := n.host.changeRows()
	if len(rows) == 0 {
		return false
	}
	n.toRow(rows[len(rows)-1])
	return true
}

// leadY is the offset that puts row r hunkLead lines below the top of the
// view: lines, not rows, since with wrap a row above it may be hundreds of
// lines tall and would push r off the bottom.
func (n *Nav) leadY(r int) float32 {
	return max(n.wr.rowY(r)-hunkLead*n.mt.line, 0)
}

// toRow makes row r current and puts it hunkLead lines below the top of
// the view, and the change starting there into view horizontally.
func (n *Nav) toRow(r int) {
	n.cur = r
	n.host.rowList().ScrollToOffset(n.leadY(r))
	n.host.revealChange(r)
	// Rows the scroll bound are drawn; of those on screen before, only the
	// rows of the change left and of the one gone to show the mark.
	n.host.refreshChangedRows()
	n.host.userScrolled(1) // away from a stream's edge
}

// CurrentHunk returns the index in Hunks of the change NextHunk or
// PrevHunk last went to, or -1 when there is none.
func (n *Nav) CurrentHunk() int {
	m := n.host.shown()
	if n.cur < 0 || n.cur >= m.Len() {
		return -1
	}
	return m.Row(n.cur).hunk
}

// GoToLine scrolls to line k (1-based) of the right side, as NextHunk
// scrolls to a change; j and k go on from there. It reports false when the
// right side has no line k.
func (n *Nav) GoToLine(k int) bool {
	if k < 1 || k > n.host.shown().b.Len() {
		return false
	}
	n.wentTo = k - 1 // its number stands out: the eye finds the line
	n.toRow(n.folds.reveal(1, k-1))
	n.host.redrawRows()
	return true
}

// ShowHunk scrolls to the hunk with the given ID, as j does to the next
// one; false when the diff shown has no such hunk.
func (n *Nav) ShowHunk(id string) bool {
	for k, h := range n.host.Hunks() {
		if h.ID != id {
			continue
		}
		for _, s := range n.host.shown().segs {
			if s.hunk == k {
				n.toRow(s.row0)
				return true
			}
		}
	}
	return false
}

// forget leaves no change current and no line marked (new rows).
func (n *Nav) forget() { n.cur, n.wentTo = -1, -1 }

// HunkCount returns the changes j and k go to: how many (count) and which
// of them they last went to (1-based; 0 for none), and how many changes
// SetIgnoreWhitespace faded (still in Hunks, still approved unless
// unticked).
func (n *Nav) HunkCount() (cur, count, faded int) {
	k := n.CurrentHunk()
	for i := range n.host.Hunks() {
		if n.host.whitespaceOnly(i) {
			faded++
			continue
		}
		count++
		if i == k {
			cur = count
		}
	}
	return cur, count, faded
}

// HunksAbove is how many of the hunks HunkCount counts start at or above
// the current row: where go-to-line or a search match outside a change
// left the view, between two hunks; -1 before the view went anywhere.
func (n *Nav) HunksAbove() int {
	m := n.host.shown()
	if n.cur < 0 || n.cur >= m.Len() {
		return -1
	}
	k, last := 0, -1
	for _, r := range n.host.changeRows() {
		if r > n.cur {
			break
		}
		if h := m.Row(r).hunk; h != last && !n.host.whitespaceOnly(h) {
			k, last = k+1, h
		}
	}
	return k
}
