package diffview

import "strconv"

// Collapsed unchanged regions and the inline layout: both change only how
// the model's rows present its ops (rowModel.reshape), never the ops, the
// hunks or their IDs.

// foldStep is how many lines one "more lines" click or key shows.
const foldStep = 20

// Directions a fold opens in.
const (
	foldDown = iota // its top lines: more below the rows above it
	foldUp          // its bottom lines: more above the rows below it
	foldAll         // all of it
)

// shape returns how the rows should present the diff: a stream and the
// editor show every line side by side.
func (v *DiffView) shape() shape {
	if v.ed != nil || v.feed.st != nil {
		return shape{}
	}
	return v.folds.shape()
}

// reshapeAt rebuilds the rows in the view's shape, keeping the line on top
// of the view on top and the current change current; with atCurrent, the current change, while on
// screen, keeps its place on screen instead of the line on top (z and i
// change the whole view: the change the person reads stays before them).
func (v *DiffView) reshapeAt(atCurrent bool) {
	m := v.model
	curY := float32(-1)
	if atCurrent && v.CurrentOnScreen() {
		curY = v.wr.rowY(v.nav.cur) - v.list.GetScrollOffset()
	}
	top := v.topRow()
	anchorA, anchorB := -1, -1
	if top < m.Len() {
		rw := m.Row(top)
		anchorA, anchorB = rw.a, rw.b
		if rw.kind == rowFold {
			anchorB = m.segs[rw.seg].op.B0
		}
	}
	cur := v.nav.CurrentHunk()
	m.reshape(v.shape())
	if cur >= 0 {
		v.nav.cur = m.changeRow(cur)
	}
	v.show(m)
	switch {
	case curY >= 0 && v.nav.cur >= 0:
		v.list.ScrollToOffset(max(v.wr.rowY(v.nav.cur)-curY, 0))
	case anchorB >= 0:
		v.list.ScrollToOffset(v.wr.rowY(m.RowOfB(anchorB)))
	case anchorA >= 0:
		v.list.ScrollToOffset(v.wr.rowY(m.RowOfA(anchorA)))
	}
}

// Folds are the unchanged regions the view folds to a few lines of
// context (Collapse), the lines the person opened in them, and the inline
// layout (SetInline). It reaches the view only through foldHost.
type Folds struct {
	host   foldHost
	nav    *Nav // the change j/k went to
	on     bool
	inline bool           // DiffView.SetInline
	open   map[int][2]int // lines the person opened per equal op: shape.open
}

// foldHost is what folds need of their view: the rows, the rows on
// screen, and the rows rebuilt in a new shape keeping the reader's place
// (or, atCurrent, the current change's).
type foldHost interface {
	shown() *rowModel
	topRow() int
	visibleRows() int
	reshapeAt(atCurrent bool)
}

// shape is how the rows present the diff as far as folds say.
func (f *Folds) shape() shape { return shape{inline: f.inline, fold: f.on, open: f.open} }

// closeAll forgets what the person opened (other texts).
func (f *Folds) closeAll() { f.open = map[int][2]int{} }

// Collapse collapses unchanged regions to foldContext lines either side
// of each change (on; the default) or shows every line (off). It also
// closes what the person opened.
func (f *Folds) Collapse(on bool) {
	if f.on == on && len(f.open) == 0 {
		return
	}
	f.on = on
	f.closeAll()
	f.host.reshapeAt(true)
}

// Count returns how many collapsed regions the view shows.
func (f *Folds) Count() int {
	n := 0
	for _, s := range f.host.shown().segs {
		if s.fold {
			n++
		}
	}
	return n
}

// openAt opens the fold of segment k foldStep lines in direction dir
// (foldDown, foldUp) or whole (foldAll).
func (f *Folds) openAt(k int, dir int) {
	m := f.host.shown()
	if k < 0 || k >= len(m.segs) || !m.segs[k].fold {
		return
	}
	s := m.segs[k]
	o := f.open[s.src]
	switch dir {
	case foldDown:
		o[0] += foldStep
	case foldUp:
		o[1] += foldStep
	default:
		o[0] += s.op.A1 - s.op.A0
	}
	f.open[s.src] = o
	f.host.reshapeAt(false)
}

// near returns the segment of the fold that the change j and k went to
// borders (dir foldUp: the fold above it; foldDown: below it), or with no
// current change the first fold on screen; -1 for none.
func (f *Folds) near(dir int) int {
	m := f.host.shown()
	if cur := f.nav.cur; cur >= 0 && cur < m.Len() {
		k := m.segAt(cur)
		if dir == foldUp {
			for k--; k >= 0 && m.segs[k].hunk < 0; k-- {
				if m.segs[k].fold {
					return k
				}
			}
			return -1
		}
		for k++; k < len(m.segs) && m.segs[k].hunk < 0; k++ {
			if m.segs[k].fold {
				return k
			}
		}
		return -1
	}
	top := f.host.topRow()
	for k := m.segAt(top); k < len(m.segs) && m.segs[k].row0 < top+f.host.visibleRows(); k++ {
		if m.segs[k].fold {
			return k
		}
	}
	return -1
}

// ExpandAbove shows foldStep more unchanged lines above the change j and
// k went to (with none, at the first collapsed region on screen); it
// reports false when nothing there is collapsed.
func (f *Folds) ExpandAbove() bool { return f.expand(foldUp) }

// ExpandBelow shows foldStep more unchanged lines below the change j and
// k went to (with none, at the first collapsed region on screen).
func (f *Folds) ExpandBelow() bool { return f.expand(foldDown) }

func (f *Folds) expand(dir int) bool {
	k := f.near(dir)
	if k < 0 {
		return false
	}
	f.openAt(k, dir)
	return true
}

// reveal opens the fold hiding line i of side (0 a, 1 b), if any, and
// returns the line's row.
func (f *Folds) reveal(side, i int) int {
	m := f.host.shown()
	r := m.rowOf(side, i)
	if r < m.Len() && m.Row(r).kind == rowFold {
		f.openAt(m.segAt(r), foldAll)
		r = f.host.shown().rowOf(side, i)
	}
	return r
}

// SetInline shows the diff in one column, each change's removed lines
// above its added lines (on), or side by side (off). The editor and a
// stream always show side by side.
func (v *DiffView) SetInline(on bool) {
	if v.folds.inline == on {
		return
	}
	v.folds.inline = on
	v.reshapeAt(true)
	v.redraw()
}

// Inline reports whether the view shows the inline layout.
func (v *DiffView) Inline() bool { return v.folds.inline }

// Folds are the view's folded unchanged regions.
func (v *DiffView) Folds() *Folds { return &v.folds }

// labels are the parts of a fold row's text, in order: what is
// hidden, then the three ways to open it, "" for a way that would do
// nothing more than another: no "↓" at the top of the file (no rows above
// to go on from), no "↑" at its end, and only "show all" when it hides no
// more than one step. The row draws them from the text column; a tap on
// one opens the fold that way.
func (f *Folds) labels(s segment) [4]string {
	hidden := s.op.A1 - s.op.A0
	l := [4]string{"⋯ " + strconv.Itoa(hidden) + " unchanged lines", "↓ " + strconv.Itoa(foldStep) + " more", "↑ " + strconv.Itoa(foldStep) + " more", "show all"}
	switch {
	case hidden <= foldStep:
		l[1], l[2] = "", ""
	case s.src == 0:
		l[1] = ""
	case s.src == len(f.host.shown().ops)-1:
		l[2] = ""
	}
	return l
}

// foldGap is the space between fold labels, in cells.
const foldGap = 3
