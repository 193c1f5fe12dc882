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
	if !moved || v.curRow >= top && v.curRow < top+v.visibleRows() {
		return moved
	}
	v.curRow = min(top+hunkLead, v.model.Len()-1)
	if h := v.model.Row(v.curRow).hunk; h >= 0 && !v.whitespaceOnly(h) {
		v.curRow = v.model.changeRow(h)
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
	for _, r := range v.rowWidgets {
		if r.id < 0 || !r.Visible() {
			continue
		}
		if k := v.rowKeyOf(r.id); k != r.key {
			r.key = k
			r.Refresh()
		}
	}
}
