package diffview

import (
	"unicode/utf8"

	"fyne.io/fyne/v2/widget"

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
func (w *wrapping) rowAtY(y float32) int {
	n := w.host.shown().Len()
	if !w.on || len(w.rows) == 0 {
		return min(max(int(y/w.mt.line), 0), max(n-1, 0))
	}
	return w.idx.at(y, n, w.mt.line)
}

// rowY returns the offset of row i in the list's content.
func (w *wrapping) rowY(i int) float32 {
	if !w.on || len(w.rows) == 0 {
		return float32(i) * w.mt.line
	}
	return w.idx.y(i, w.mt.line)
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
		curY = v.wr.rowY(v.nav.cur) - v.list.GetScrollOffset()
	}
	v.wr.on = on
	v.hbar.off = 0
	if on {
		v.wr.apply()
	} else {
		v.wr.set(nil)
	}
	v.redraw()
	if curY >= 0 {
		v.list.ScrollToOffset(max(v.wr.rowY(v.nav.cur)-curY, 0))
		return
	}
	v.list.ScrollToOffset(v.wr.rowY(top))
}

// rowHeight returns the height of row i: taller than a line when it wraps.
func (w *wrapping) rowHeight(i int) float32 {
	if n, ok := w.rows[i]; ok {
		return float32(n) * w.mt.line
	}
	return w.mt.line
}

// visualLines returns how many lines row r takes when wrapped.
func (w *wrapping) visualLines(r row) int {
	m := w.host.shown()
	n := 1
	lines := func(s string) int {
		w.colBuf = columns(s, w.colBuf)
		w.winBuf = wrapWindows(s, w.colBuf, w.mt.cols, w.winBuf)
		return len(w.winBuf)
	}
	if r.a >= 0 {
		n = max(n, lines(m.a.Line(r.a)))
	}
	if r.b >= 0 {
		n = max(n, lines(m.b.Line(r.b)))
	}
	return n
}

// wrapRows records in rows the rows among segments k0:k1 that wrap.
func (w *wrapping) wrapRows(rows map[int]int, k0, k1 int) {
	cols := w.mt.cols
	m := w.host.shown()
	m.eachIn(k0, k1, func(i, a, b int) {
		// A line of n bytes takes at most n*TabWidth cells.
		long := (a >= 0 && len(m.a.Line(a))*textbuf.TabWidth > cols) || (b >= 0 && len(m.b.Line(b))*textbuf.TabWidth > cols)
		if long {
			if n := w.visualLines(row{a: a, b: b}); n > 1 {
				rows[i] = n
			}
		}
	})
}

// set makes rows the wrapped rows, telling the list only about the rows
// whose height changed.
func (w *wrapping) set(rows map[int]int) {
	old := w.rows
	w.rows = rows
	w.idx.build(rows)
	changed := 0
	for i := range old {
		if _, ok := rows[i]; !ok {
			changed++
		}
	}
	for i, n := range rows {
		if old[i] != n {
			changed++
		}
	}
	if changed > manyHeights {
		w.host.replaceList(rows)
		return
	}
	l := w.host.rowList()
	for i := range old {
		if _, ok := rows[i]; !ok {
			l.SetItemHeight(i, w.mt.line)
		}
	}
	for i, n := range rows {
		if old[i] != n {
			l.SetItemHeight(i, float32(n)*w.mt.line)
		}
	}
}

// rewrapEdit updates the wrapped rows after an edit changed segments k0:k1
// of the model and the number of rows by d: rows before them keep their
// heights, rows after them move by d.
func (w *wrapping) rewrapEdit(k0, k1, d int) {
	m := w.host.shown()
	r0, r1 := m.n, m.n
	if k0 < len(m.segs) {
		r0 = m.segs[k0].row0
	}
	if k1 > 0 && k1 <= len(m.segs) {
		r1 = m.segs[k1-1].row0 + m.segs[k1-1].rows
	}
	rows := make(map[int]int, len(w.rows))
	for i, n := range w.rows {
		switch {
		case i < r0:
			rows[i] = n
		case i >= r1-d:
			rows[i+d] = n
		}
	}
	w.wrapRows(rows, k0, k1)
	w.set(rows)
}

// apply sets the height of every row that wraps.
func (w *wrapping) apply() {
	rows := map[int]int{}
	w.wrapRows(rows, 0, len(w.host.shown().segs))
	w.set(rows)
}

// wrapHost is what wrapping needs of its view: the rows, and the list
// whose row heights it sets (made anew when many change: replaceList).
type wrapHost interface {
	shown() *rowModel
	rowList() *widget.List
	replaceList(rows map[int]int)
}

// wrapping is wrap mode: the rows taller than one line, and the offsets
// of rows it makes (rowY, rowAtY, rowHeight). It reaches the view only
// through wrapHost.
type wrapping struct {
	host   wrapHost
	mt     *metrics // the view's cell sizes
	on     bool
	rows   map[int]int // rows taller than one line → lines
	idx    wrapIndex   // rows, for offsets by binary search (wrapindex.go)
	colBuf []int32     // visualLines
	winBuf [][2]int    // visualLines
}
