package diffview

import (
	"unicode/utf8"

	"github.com/diffdesk/diffdesk/ui/diffview/textbuf"
)

// wrapWindows returns the cell ranges of line s shown on each visual line
// when it wraps at n cells (cols are its cells, from columns). A line
// breaks after the last space or tab that lets the visual line fit; a
// word longer than n cells breaks where the cells run out (never inside a
// rune). Each range is [first cell, end cell); the last ends at the
// line's width. out is reused.
func wrapWindows(s string, cols []int32, n int, out [][2]int) [][2]int {
	out = out[:0]
	n = max(n, 1)
	width := int(cols[len(s)])
	for i := 0; ; {
		st := int(cols[i])
		if width-st <= n {
			return append(out, [2]int{st, width})
		}
		hard, soft := i, -1
		for j := i + 1; j < len(s) && int(cols[j])-st <= n; j++ {
			if !utf8.RuneStart(s[j]) || zeroWidth(s[j:], cols[j:]) {
				continue // inside a rune, or before a combining mark
			}
			hard = j
			if b := s[j-1]; b == ' ' || b == '\t' {
				soft = j
			}
		}
		next := hard
		if soft > i {
			next = soft
		}
		if next == i { // one rune wider than n cells: it takes a line
			_, w := utf8.DecodeRuneInString(s[i:])
			next = i + w
		}
		out = append(out, [2]int{st, int(cols[next])})
		i = next
	}
}

// windowOf returns the visual line among wins that shows cell c: the
// line a range starts, except that the end of the text stays on the last.
func windowOf(wins [][2]int, c int) int {
	for k, w := range wins {
		if c < w[1] {
			return k
		}
	}
	return len(wins) - 1
}

// zeroWidth reports whether the rune s starts with takes no cell (cols are
// its cells onwards).
func zeroWidth(s string, cols []int32) bool {
	_, n := utf8.DecodeRuneInString(s)
	return cols[n] == cols[0]
}

// rowAtY returns the row at offset y of the list's content.
func (v *DiffView) rowAtY(y float32) int {
	if !v.wr.on || len(v.wr.rows) == 0 {
		return min(max(int(y/v.metric.line), 0), max(v.model.Len()-1, 0))
	}
	return v.wr.idx.at(y, v.model.Len(), v.metric.line)
}

// rowY returns the offset of row i in the list's content.
func (v *DiffView) rowY(i int) float32 {
	if !v.wr.on || len(v.wr.rows) == 0 {
		return float32(i) * v.metric.line
	}
	return v.wr.idx.y(i, v.metric.line)
}

// SetWrap wraps long lines (on) or scrolls them horizontally (off). The
// change j/k went to, while on screen, stays where it is; else the row on
// top of the view stays on top.
func (v *DiffView) SetWrap(on bool) {
	if v.wr.on == on {
		return
	}
	top := v.topRow()
	curY := float32(-1)
	if v.CurrentOnScreen() { // the change j/k went to stays where it is on screen
		curY = v.rowY(v.nav.cur) - v.list.GetScrollOffset()
	}
	v.wr.on = on
	v.hbar.off = 0
	if on {
		v.applyWrap()
	} else {
		v.setWrapped(nil)
	}
	v.redraw()
	if curY >= 0 {
		v.list.ScrollToOffset(max(v.rowY(v.nav.cur)-curY, 0))
		return
	}
	v.list.ScrollToOffset(v.rowY(top))
}

// wrapped holds the rows taller than one line in wrap mode.
func (v *DiffView) rowHeight(i int) float32 {
	if n, ok := v.wr.rows[i]; ok {
		return float32(n) * v.metric.line
	}
	return v.metric.line
}

// visualLines returns how many lines row r takes when wrapped.
func (v *DiffView) visualLines(r row) int {
	n := 1
	lines := func(s string) int {
		v.wr.colBuf = columns(s, v.wr.colBuf)
		v.wr.winBuf = wrapWindows(s, v.wr.colBuf, v.metric.cols, v.wr.winBuf)
		return len(v.wr.winBuf)
	}
	if r.a >= 0 {
		n = max(n, lines(v.model.a.Line(r.a)))
	}
	if r.b >= 0 {
		n = max(n, lines(v.model.b.Line(r.b)))
	}
	return n
}

// wrapRows records in w the rows among segments k0:k1 that wrap.
func (v *DiffView) wrapRows(w map[int]int, k0, k1 int) {
	cols := v.metric.cols
	m := v.model
	m.eachIn(k0, k1, func(i, a, b int) {
		// A line of n bytes takes at most n*TabWidth cells.
		long := (a >= 0 && len(m.a.Line(a))*textbuf.TabWidth > cols) || (b >= 0 && len(m.b.Line(b))*textbuf.TabWidth > cols)
		if long {
			if n := v.visualLines(row{a: a, b: b}); n > 1 {
				w[i] = n
			}
		}
	})
}

// setWrapped makes w the wrapped rows, telling the list only about the
// rows whose height changed.
func (v *DiffView) setWrapped(w map[int]int) {
	old := v.wr.rows
	v.wr.rows = w
	v.wr.idx.build(w)
	changed := 0
	for i := range old {
		if _, ok := w[i]; !ok {
			changed++
		}
	}
	for i, n := range w {
		if old[i] != n {
			changed++
		}
	}
	if changed > manyHeights {
		v.replaceList(w)
		return
	}
	for i := range old {
		if _, ok := w[i]; !ok {
			v.list.SetItemHeight(i, v.metric.line)
		}
	}
	for i, n := range w {
		if old[i] != n {
			v.list.SetItemHeight(i, float32(n)*v.metric.line)
		}
	}
}

// rewrapEdit updates the wrapped rows after an edit changed segments k0:k1
// of the model and the number of rows by d: rows before them keep their
// heights, rows after them move by d.
func (v *DiffView) rewrapEdit(k0, k1, d int) {
	m := v.model
	r0, r1 := m.n, m.n
	if k0 < len(m.segs) {
		r0 = m.segs[k0].row0
	}
	if k1 > 0 && k1 <= len(m.segs) {
		r1 = m.segs[k1-1].row0 + m.segs[k1-1].rows
	}
	w := make(map[int]int, len(v.wr.rows))
	for i, n := range v.wr.rows {
		switch {
		case i < r0:
			w[i] = n
		case i >= r1-d:
			w[i+d] = n
		}
	}
	v.wrapRows(w, k0, k1)
	v.setWrapped(w)
}

// applyWrap sets the height of every row that wraps.
func (v *DiffView) applyWrap() {
	w := map[int]int{}
	v.wrapRows(w, 0, len(v.model.segs))
	v.setWrapped(w)
}

// wrapping is wrap mode's rows taller than one line.
type wrapping struct {
	on     bool
	rows   map[int]int // rows taller than one line → lines
	idx    wrapIndex   // rows, for offsets by binary search (wrapindex.go)
	colBuf []int32     // visualLines
	winBuf [][2]int    // visualLines
}
