package diffview

// Paging: Page Down / Page Up move the rows by a screen less one line (the
// line that was at the bottom stays in sight at the top, as in every diff
// tool), Home and End go to the first and the last row. Like a scroll of
// the wheel, paging up from the growing edge of a stream stops following.

// PageDown scrolls one screen down; false when the view is at its end.
func (v *DiffView) PageDown() bool { return v.page(1) }

// PageUp scrolls one screen up; false when the view is at its top.
func (v *DiffView) PageUp() bool { return v.page(-1) }

func (v *DiffView) page(dir int) bool {
	h := v.list.Size().Height
	if h <= 0 || v.model.Len() == 0 {
		return false
	}
	step := max(h-v.metric.line, v.metric.line)
	return v.paged(v.scrollTo(v.list.GetScrollOffset() + float32(dir)*step))
}

// Home scrolls to the first row; false when it is at the top already.
func (v *DiffView) Home() bool { return v.paged(v.scrollTo(0)) }

// End scrolls to the last row; false when it is at the end already.
func (v *DiffView) End() bool {
	if v.model.Len() == 0 {
		return false
	}
	return v.paged(v.scrollTo(v.rowY(v.model.Len()-1) + v.rowHeight(v.model.Len()-1)))
}

// paged makes the place the counter names, and j goes on from, follow a
// page key that moved the view (QA in the real window: after End the
// counter still said "hunk 1 of 33"): the change j went to while it is
// still on screen, else the row hunkLead below the top — the change
// there, if there is one. It returns moved.
func (v *DiffView) paged(moved bool) bool {
	top := v.topRow()
	if !moved || v.nav.cur >= top && v.nav.cur < top+v.visibleRows() {
		return moved
	}
	v.nav.cur = min(top+hunkLead, v.model.Len()-1)
	if h := v.model.Row(v.nav.cur).hunk; h >= 0 && !v.whitespaceOnly(h) {
		v.nav.cur = v.model.changeRow(h)
	}
	v.refreshChangedRows() // the rows of the change now current: the scroll drew the rest
	if v.OnJumped != nil {
		v.OnJumped()
	}
	return moved
}

// scrollTo scrolls the rows to offset y, kept within the content; it
// reports whether the view moved.
func (v *DiffView) scrollTo(y float32) bool {
	bottom := float32(0)
	if n := v.model.Len(); n > 0 {
		bottom = max(v.rowY(n-1)+v.rowHeight(n-1)-v.list.Size().Height, 0)
	}
	y = min(max(y, 0), bottom)
	was := v.list.GetScrollOffset()
	if y == was {
		return false
	}
	v.list.ScrollToOffset(y)
	v.userScrolled(was - y) // up (dy > 0) from a stream's edge stops following
	return true
}

// refreshChangedRows draws again the rows on screen whose key changed
// since they were drawn (the current change's mark moved), only those.
func (v *DiffView) refreshChangedRows() {
	for _, r := range v.rows.widgets {
		if r.id < 0 || !r.Visible() {
			continue
		}
		if k := v.rowKeyOf(r.id); k != r.key {
			r.key = k
			r.Refresh()
		}
	}
}

// visibleRows returns how many rows fit in the view.
func (v *DiffView) visibleRows() int {
	if v.metric.line <= 0 {
		return 50
	}
	return int(v.list.Size().Height/v.metric.line) + 1
}

// topRow returns the row at the top of the visible rows.
func (v *DiffView) topRow() int {
	if v.metric.line <= 0 {
		return 0
	}
	return v.rowAtY(v.list.GetScrollOffset() + 1)
}

// hunkLead is how many rows above a hunk NextHunk and PrevHunk leave.
const hunkLead = 3

// hunkRef returns the row next/previous hunk count from: the change
// last jumped to while it is still on screen, else the row hunkLead below
// the top of the view (before the first row at the very top).
func (v *DiffView) hunkRef() int {
	top := v.topRow()
	if v.nav.cur >= 0 && v.nav.cur >= top && v.nav.cur < top+v.visibleRows() {
		return v.nav.cur
	}
	if v.list.GetScrollOffset() <= 0 {
		return -1
	}
	return top + hunkLead
}

// NextHunk scrolls to the next change: after the one last jumped to, or
// below the top of the view. It reports false when there is none.
func (v *DiffView) NextHunk() bool {
	if v.open.job != nil {
		v.open.job.firstHunk = true // when the diff arrives
		return true
	}
	ref := v.hunkRef()
	for _, r := range v.changeRows() {
		if r > ref {
			v.scrollToRow(r)
			return true
		}
	}
	return false
}

// PrevHunk scrolls to the change before the one last jumped to (or
// before the top of the view). It reports false when there is none.
func (v *DiffView) PrevHunk() bool {
	ref := v.hunkRef()
	if ref < 0 {
		return false
	}
	rows := v.changeRows()
	for k := len(rows) - 1; k >= 0; k-- {
		if rows[k] < ref {
			v.scrollToRow(rows[k])
			return true
		}
	}
	return false
}

// LastHunk scrolls to the last change; false when there is none.
func (v *DiffView) LastHunk() bool {
	rows := v.changeRows()
	if len(rows) == 0 {
		return false
	}
	v.scrollToRow(rows[len(rows)-1])
	return true
}

// leadY is the offset that puts row r hunkLead lines below the top of the
// view: lines, not rows, since with wrap a row above it may be hundreds of
// lines tall and would push r off the bottom.
func (v *DiffView) leadY(r int) float32 {
	return max(v.rowY(r)-hunkLead*v.metric.line, 0)
}

// scrollToRow puts row r hunkLead lines below the top of the view, and
// the change starting there into view horizontally.
func (v *DiffView) scrollToRow(r int) {
	was := v.nav.cur
	v.nav.cur = r
	v.list.ScrollToOffset(v.leadY(r))
	v.revealChange(r)
	// Rows the scroll bound are drawn; of those on screen before, only the
	// rows of the change left and of the one gone to show the mark.
	m := v.model
	v.refreshRowsOf(func(i int) bool {
		if i >= m.Len() {
			return false
		}
		s := m.segs[m.segAt(i)].row0
		return s == r || s == was
	})
	v.userScrolled(1) // away from a stream's edge
}

// CurrentHunk returns the index in Hunks of the change NextHunk or
// PrevHunk last went to, or -1 when there is none.
func (v *DiffView) CurrentHunk() int {
	if v.nav.cur < 0 || v.nav.cur >= v.model.Len() {
		return -1
	}
	return v.model.Row(v.nav.cur).hunk
}

// GoToLine scrolls to line n (1-based) of the right side, as NextHunk
// scrolls to a change; j and k go on from there. It reports false when the
// right side has no line n.
func (v *DiffView) GoToLine(n int) bool {
	if n < 1 || n > v.model.b.Len() {
		return false
	}
	v.nav.wentTo = n - 1 // its number stands out: the eye finds the line
	v.scrollToRow(v.folds.reveal(1, n-1))
	v.redrawRows()
	return true
}

// nav is where j/k and go-to-line left the reader.
type nav struct {
	cur    int // first row of the change NextHunk/PrevHunk went to; -1 for none
	wentTo int // the right side's line GoToLine went to, its number marked; -1 for none
}

// ShowHunk scrolls to the hunk with the given ID, as j does to the next
// one; false when the diff shown has no such hunk.
func (v *DiffView) ShowHunk(id string) bool {
	for k, h := range v.Hunks() {
		if h.ID != id {
			continue
		}
		for _, s := range v.model.segs {
			if s.hunk == k {
				v.scrollToRow(s.row0)
				return true
			}
		}
	}
	return false
}
