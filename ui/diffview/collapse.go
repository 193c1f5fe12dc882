package diffview

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
	return shape{inline: v.folds.inline, fold: v.folds.on, open: v.folds.open}
}

// reshape rebuilds the rows in the view's shape, keeping the line on top
// of the view on top and the current change current.
func (v *DiffView) reshape() { v.reshapeAt(false) }

// reshapeAt is reshape; with atCurrent, the current change, while on
// screen, keeps its place on screen instead of the line on top (z and i
// change the whole view: the change the person reads stays before them).
func (v *DiffView) reshapeAt(atCurrent bool) {
	m := v.model
	curY := float32(-1)
	if atCurrent && v.CurrentOnScreen() {
		curY = v.rowY(v.nav.cur) - v.list.GetScrollOffset()
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
	cur := v.CurrentHunk()
	m.reshape(v.shape())
	if cur >= 0 {
		v.nav.cur = m.changeRow(cur)
	}
	v.show(m)
	switch {
	case curY >= 0 && v.nav.cur >= 0:
		v.list.ScrollToOffset(max(v.rowY(v.nav.cur)-curY, 0))
	case anchorB >= 0:
		v.list.ScrollToOffset(v.rowY(m.RowOfB(anchorB)))
	case anchorA >= 0:
		v.list.ScrollToOffset(v.rowY(m.RowOfA(anchorA)))
	}
}

// SetCollapse collapses unchanged regions to foldContext lines either
// side of each change (on; the default) or shows every line (off). It also
// closes what the person opened.
func (v *DiffView) SetCollapse(on bool) {
	if v.folds.on == on && len(v.folds.open) == 0 {
		return
	}
	v.folds.on = on
	v.folds.open = map[int][2]int{}
	v.reshapeAt(true)
}

// Folds returns how many collapsed regions the view shows.
func (v *DiffView) Folds() int {
	n := 0
	for _, s := range v.model.segs {
		if s.fold {
			n++
		}
	}
	return n
}

// openFold opens the fold of segment k foldStep lines in direction dir
// (foldDown, foldUp) or whole (foldAll).
func (v *DiffView) openFold(k int, dir int) {
	m := v.model
	if k < 0 || k >= len(m.segs) || !m.segs[k].fold {
		return
	}
	s := m.segs[k]
	o := v.folds.open[s.src]
	switch dir {
	case foldDown:
		o[0] += foldStep
	case foldUp:
		o[1] += foldStep
	default:
		o[0] += s.op.A1 - s.op.A0
	}
	v.folds.open[s.src] = o
	v.reshape()
}

// foldNear returns the segment of the fold that the change j and k went
// to borders (dir foldUp: the fold above it; foldDown: below it), or with
// no current change the first fold on screen; -1 for none.
func (v *DiffView) foldNear(dir int) int {
	m := v.model
	if v.nav.cur >= 0 && v.nav.cur < m.Len() {
		k := m.segAt(v.nav.cur)
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
	top := v.topRow()
	for k := m.segAt(top); k < len(m.segs) && m.segs[k].row0 < top+v.visibleRows(); k++ {
		if m.segs[k].fold {
			return k
		}
	}
	return -1
}

// ExpandAbove shows foldStep more unchanged lines above the change j and
// k went to (with none, at the first collapsed region on screen); it
// reports false when nothing there is collapsed.
func (v *DiffView) ExpandAbove() bool { return v.expandNear(foldUp) }

// ExpandBelow shows foldStep more unchanged lines below the change j and
// k went to (with none, at the first collapsed region on screen).
func (v *DiffView) ExpandBelow() bool { return v.expandNear(foldDown) }

func (v *DiffView) expandNear(dir int) bool {
	k := v.foldNear(dir)
	if k < 0 {
		return false
	}
	v.openFold(k, dir)
	return true
}

// revealLine opens the fold hiding line i of side (0 a, 1 b), if any, and
// returns the line's row.
func (v *DiffView) revealLine(side, i int) int {
	m := v.model
	r := m.rowOf(side, i)
	if r < m.Len() && m.Row(r).kind == rowFold {
		v.openFold(m.segAt(r), foldAll)
		r = v.model.rowOf(side, i)
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

// foldLabels are the parts of a fold row's text, in order: what is
// hidden, then the three ways to open it, "" for a way that would do
// nothing more than another: no "↓" at the top of the file (no rows above
// to go on from), no "↑" at its end, and only "show all" when it hides no
// more than one step. The row draws them from the text column; a tap on
// one opens the fold that way.
func (v *DiffView) foldLabels(s segment) [4]string {
	hidden := s.op.A1 - s.op.A0
	l := [4]string{"⋯ " + itoa(hidden) + " unchanged lines", "↓ " + itoa(foldStep) + " more", "↑ " + itoa(foldStep) + " more", "show all"}
	switch {
	case hidden <= foldStep:
		l[1], l[2] = "", ""
	case s.src == 0:
		l[1] = ""
	case v.model != nil && s.src == len(v.model.ops)-1:
		l[2] = ""
	}
	return l
}

// foldGap is the space between fold labels, in cells.
const foldGap = 3

// folds are the unchanged regions the view folds to a few lines of
// context (SetCollapse), and the lines the person opened in them.
type folds struct {
	on     bool
	inline bool           // SetInline
	open   map[int][2]int // lines the person opened per equal op: shape.open
}
