package diffview

import (
	"sort"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// In wrap mode some rows are taller than one line. Finding a row's offset
// (rowY) and the row at an offset (rowAtY) walked every row above it, and
// every bound row asked (the overview's frame, seen lines): with a 20,000-
// line file wrapped, w froze the window for minutes (QA in the real
// window: the UI thread at 100 %, the agents cut off when it was killed).
// wrapIndex answers both by binary search over the wrapped rows alone.

// wrapIndex holds the wrapped rows in order and the visual lines each adds
// beyond its first, summed: rowY(i) = (i + the extra lines of the wrapped
// rows above i) · line.
type wrapIndex struct {
	rows  []int // wrapped rows, ascending
	extra []int // extra[k]: the extra lines of rows[0..k], summed
}

// build indexes w (row → visual lines).
func (x *wrapIndex) build(w map[int]int) {
	x.rows = x.rows[:0]
	for i := range w {
		x.rows = append(x.rows, i)
	}
	sort.Ints(x.rows)
	x.extra = x.extra[:0]
	sum := 0
	for _, i := range x.rows {
		sum += w[i] - 1
		x.extra = append(x.extra, sum)
	}
}

// y returns the offset of row i.
func (x *wrapIndex) y(i int, line float32) float32 {
	k := sort.SearchInts(x.rows, i) // wrapped rows above i
	if k == 0 {
		return float32(i) * line
	}
	return float32(i+x.extra[k-1]) * line
}

// at returns the row at offset y among n rows: the last row whose offset
// is at most y.
func (x *wrapIndex) at(y float32, n int, line float32) int {
	if n == 0 {
		return 0
	}
	i := sort.Search(n, func(i int) bool { return x.y(i, line) > y }) - 1
	return min(max(i, 0), n-1)
}

// newList makes the view's row list. The list is made anew when many row
// heights change at once (wrapping.set): Fyne's List refreshes itself, all of
// it, on each SetItemHeight once it is on screen, which made turning wrap
// on quadratic in the rows; a list not yet drawn takes heights for free.
func (v *DiffView) newList() *widget.List {
	l := widget.NewList(
		func() int { return v.model.Len() },
		func() fyne.CanvasObject { v.rows.created++; return newDiffRow(&v.parts) },
		func(id widget.ListItemID, o fyne.CanvasObject) { o.(*diffRow).bind(id) },
	)
	l.HideSeparators = true
	return l
}

// rowList is the list of rows (made anew by replaceList).
func (v *DiffView) rowList() *widget.List { return v.list }

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
	return v.wr.rowAtY(v.list.GetScrollOffset() + 1)
}

// manyHeights is how many row heights wrapping.set changes one by one before
// it makes the list anew instead.
const manyHeights = 64

// replaceList puts a new list, with the heights of w, in place of the
// view's, at the same scroll offset.
func (v *DiffView) replaceList(w map[int]int) {
	keep := v.list.GetScrollOffset()
	l := v.newList()
	for i, n := range w {
		l.SetItemHeight(i, float32(n)*v.metric.line)
	}
	v.list = l
	v.listBox = container.NewThemeOverride(l, tightTheme{})
	v.Refresh() // lays the new list out
	v.list.ScrollToOffset(keep)
}
