package diffview

// The view's side of syntax highlighting: which line of which side holds a
// row's tokens, and asking the highlighter for the lines on screen and the
// pages around them (highlight.go tokenises).

import "slices"

// tokenLine returns where the tokens of line i of side live: a streaming
// proposal's tail is the original's lines, so it uses theirs.
func (v *DiffView) tokenLine(side, i int) (int, int) {
	b := &v.model.b
	if side == 1 && v.feed.st != nil && len(b.tail) > 0 {
		if k := i - len(b.head) - len(b.mid); k >= 0 {
			return 0, b.tailStart + k
		}
	}
	return side, i
}

// rowTokenLine returns where the tokens of row rw's line on side live: an
// unchanged line's right side is the same text as its left, so it uses
// the left's (one tokenising for both), and a stream's tail the
// original's (tokenLine).
func (v *DiffView) rowTokenLine(rw row, side int) (int, int) {
	if side == 1 && rw.kind == rowEqual && rw.a >= 0 && v.ed == nil {
		return 0, rw.a
	}
	if side == 0 {
		return 0, rw.a
	}
	return v.tokenLine(1, rw.b)
}

// lineTokens returns the syntax colours of line of side, asking for them
// (wantTokens) when they are not cached: false when they are not there
// yet (the row is drawn again when they are: refreshTokens).
func (v *DiffView) lineTokens(side, line int) ([]token, bool) {
	if toks, ok := v.hl.tokens(side, line); ok {
		return toks, true
	}
	// A stream's edge is tokenised again at every chunk: there the
	// worker does it, off the UI goroutine.
	v.hl.noSync = v.feed.st != nil
	v.wantTokens(side, line)
	return v.hl.tokens(side, line) // not tokenised at once (highlight.go: small)
}

// wantTokens asks for the syntax colours of line of side (a row drawn
// without them), with the other lines of that side on screen and a margin
// of hlMargin rows.
func (v *DiffView) wantTokens(side, line int) {
	get, n := v.lineGetter(side)
	v.hl.want(side, line, func() []int {
		top := v.topRow()
		return v.tokenLinesIn(top-hlMargin, top+v.visibleRows()+hlMargin)[side]
	}, get, n)
}

// lineGetter returns line i of side as the highlighter reads it, and the
// number of lines.
func (v *DiffView) lineGetter(side int) (func(int) string, int) {
	if side == 1 {
		if v.ed != nil {
			lines := v.ed.buf.Lines()
			return func(i int) string { return lines[i] }, len(lines)
		}
		return v.model.b.Line, v.model.b.Len()
	}
	return v.model.a.Line, v.model.a.Len()
}

// tokenLinesIn returns, per side, the lines (ascending, as tokenLine maps
// them) of rows r0:r1.
func (v *DiffView) tokenLinesIn(r0, r1 int) [2][]int {
	var out [2][]int
	m := v.model
	r0, r1 = max(r0, 0), min(r1, m.Len())
	_, nb := v.lineGetter(1)
	for i := r0; i < r1; i++ {
		rw := m.Row(i)
		if rw.a >= 0 && rw.a < m.a.Len() {
			out[0] = append(out[0], rw.a)
		}
		if rw.b >= 0 && rw.b < nb {
			s, l := v.rowTokenLine(rw, 1)
			out[s] = append(out[s], l)
		}
	}
	for s := range out {
		slices.Sort(out[s])
		out[s] = slices.Compact(out[s])
	}
	return out
}

// tokensAhead asks the highlighter for the lines of the page above and the
// page below the rows on screen, off the UI goroutine, so that a page
// scroll finds its colours ready; only when the view has moved out of what
// it asked for last.
func (v *DiffView) tokensAhead() {
	if v.hl.inline {
		return
	}
	top, vis := v.topRow(), v.visibleRows()
	lo, hi := top-vis-hlMargin, top+2*vis+hlMargin
	if v.hl.asked.m == v.model && v.hl.asked.gen == v.hl.generation() && top-hlMargin >= v.hl.asked.r[0] && top+vis+hlMargin <= v.hl.asked.r[1] {
		return
	}
	v.hl.asked.m, v.hl.asked.gen, v.hl.asked.r = v.model, v.hl.generation(), [2]int{lo, hi}
	lines := v.tokenLinesIn(lo, hi)
	for s := range 2 {
		get, n := v.lineGetter(s)
		v.hl.ahead(s, lines[s], get, n)
	}
}
