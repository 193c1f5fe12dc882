package diffview

// What a row draws of a line: its text in coloured runs, word spans,
// search matches, the editor's cursor and selection, fold rows.

import (
	"image/color"
	"sort"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"github.com/diffdesk/diffdesk/engine/words"
)

// fold draws a fold row: what it hides and the ways to open it
// (Folds.labels), from the left text column.
func (r *diffRow) fold(s segment, c diffColours, h float32) {
	mt := r.p.metric
	r.rect(c.filler, 0, 0, r.p.metric.width, h)
	x := mt.numW + padText
	for k, l := range r.p.folds.labels(s) {
		if l == "" {
			continue
		}
		col := theme.Color(theme.ColorNamePrimary)
		if k == 0 {
			col = theme.Color(theme.ColorNamePlaceHolder)
		}
		w := float32(utf8.RuneCountInString(l)) * mt.cell
		// Plain monospace, as every text a row draws: the theme has
		// no italic monospace (Fyne drew the first label upright), and
		// a style of its own cost Fyne a set of fonts parsed again
		// (7.8 MB of heap, issue 28) and the row a Fyne text above
		// its pictures.
		r.text(l, col, x, 0, w, fyne.TextAlignLeading, monospace)
		x += w + foldGap*mt.cell
	}
}

// foldLabelAt returns which of a fold row's labels is at x (0 the text,
// 1-3 foldDown, foldUp, foldAll + 1), -1 for none.
func (r *diffRow) foldLabelAt(s segment, x float32) int {
	mt := r.p.metric
	at := mt.numW + padText
	for k, l := range r.p.folds.labels(s) {
		if l == "" {
			continue
		}
		w := float32(utf8.RuneCountInString(l)) * mt.cell
		if x >= at-mt.cell && x < at+w+mt.cell {
			return k
		}
		at += w + foldGap*mt.cell
	}
	return -1
}

// matches draws the search matches ms on line s at x, the one on show
// (index cur) stronger.
func (r *diffRow) matches(s string, ms []match, cur int, x float32, c diffColours) {
	if len(ms) == 0 {
		return
	}
	mt := r.p.metric
	r.colBuf = columns(s, r.colBuf)
	wins := r.windows(s, r.colBuf)
	for k, m := range ms {
		col := c.match
		if k == cur {
			col = c.matchCur
		}
		c0, c1 := int(r.colBuf[min(int(m.start), len(s))]), int(r.colBuf[min(int(m.end), len(s))])
		for n, w := range wins {
			if lo, hi := max(c0, w[0]), min(c1, w[1]); lo < hi {
				r.rect(col, x+padText+float32(lo-w[0])*mt.cell, float32(n)*mt.line, float32(hi-lo)*mt.cell, mt.line)
			}
		}
	}
}

// windows returns the cell ranges of line s (cols are its cells) shown on
// each visual line: the horizontal window, or where wrapping breaks it.
func (r *diffRow) windows(s string, cols []int32) [][2]int {
	mt := r.p.metric
	if !r.p.wr.on {
		return append(r.winBuf[:0], [2]int{r.p.hbar.off, r.p.hbar.off + mt.cols})
	}
	r.winBuf = wrapWindows(s, cols, mt.cols, r.winBuf)
	return r.winBuf
}

// line draws one side's text: word-span backgrounds, then coloured runs.
func (r *diffRow) line(ts, ti int, s string, x float32, spans []words.Span, spanC, fg color.Color, pal *palette) {
	v := r.p
	mt := v.metric
	r.colBuf = columns(s, r.colBuf)
	cols := r.colBuf
	wins := r.windows(s, cols)
	x0 := x + padText
	for _, sp := range spans {
		c0, c1 := int(cols[sp.Start]), int(cols[sp.End])
		for k, w := range wins {
			lo, hi := max(c0, w[0]), min(c1, w[1])
			if lo < hi {
				r.rect(spanC, x0+float32(lo-w[0])*mt.cell, float32(k)*mt.line, float32(hi-lo)*mt.cell, mt.line)
			}
		}
	}
	if !v.wr.on && len(s) > 0 {
		r.offside(spans, cols, x, spanC)
	}
	if s == "" {
		return
	}
	toks, ok := v.lineTokens(ts, ti)
	if !ok {
		r.waitTok = true
	}
	// Runs: tokens with their colours, plain text between them; runs of
	// the same colour are merged.
	type run struct {
		b0, b1 int
		c      color.Color
	}
	var runs []run
	// Blanks draw nothing: a run of them is no text of its own, and runs of
	// one colour with only blanks between them are one text. Every text is
	// drawn again each frame (about a third fewer on a line of code).
	add := func(b0, b1 int, c color.Color) {
		if b0 >= b1 || blank(s[b0:b1]) {
			return
		}
		if c == nil {
			c = fg
		}
		if n := len(runs); n > 0 && runs[n-1].c == c && blank(s[runs[n-1].b1:b0]) {
			runs[n-1].b1 = b1
			return
		}
		runs = append(runs, run{b0, b1, c})
	}
	at := 0
	for _, t := range toks {
		b0, b1 := min(int(t.start), len(s)), min(int(t.end), len(s))
		add(at, b0, fg)
		tc := pal.colour(t.typ)
		if fg != theme.Color(theme.ColorNameForeground) {
			tc = fg // rejected: dimmed
		}
		add(b0, b1, tc)
		at = max(at, b1)
	}
	add(at, len(s), fg)
	for _, rn := range runs {
		c0, c1 := int(cols[rn.b0]), int(cols[rn.b1])
		for k, w := range wins {
			if max(c0, w[0]) < min(c1, w[1]) {
				r.run(s, cols, rn.b0, rn.b1, rn.c, w, x0, float32(k)*mt.line)
			}
		}
	}
}

// offside marks, at the side's edges, word spans that lie outside the
// columns scrolled into view: a change past the right edge (a price at
// column 80) is otherwise invisible.
func (r *diffRow) offside(spans []words.Span, cols []int32, x float32, spanC color.Color) {
	v := r.p
	mt := v.metric
	left, right := false, false
	for _, sp := range spans {
		c0, c1 := int(cols[sp.Start]), int(cols[sp.End])
		left = left || c0 < v.hbar.off
		right = right || c1 > v.hbar.off+mt.cols
	}
	mark := color.NRGBAModel.Convert(spanC).(color.NRGBA)
	mark.A = 0xff
	if left {
		r.rect(mark, x, 0, offsideW, mt.line)
	}
	if right {
		r.rect(mark, x+mt.sideW-offsideW, 0, offsideW, mt.line)
	}
}

// offsideW is the width of the marks offside draws.
const offsideW = 4

// run draws bytes b0:b1 of line s (cols are its cells) in colour c, the
// part inside window w, at x0 for the window's first cell. Narrow runes
// go in one text, tabs expanded; each wide rune (CJK) is a text of its
// own, centred on its two cells, so a fallback font's advance, which is
// not two monospace cells, never shifts the runes after it.
func (r *diffRow) run(s string, cols []int32, b0, b1 int, c color.Color, w [2]int, x0, y float32) {
	mt := r.p.metric
	at := func(cell int) float32 { return x0 + float32(cell-w[0])*mt.cell }
	// Only the bytes whose cells start inside the window (cols only
	// grow): a megabyte line costs the window's width, not its length.
	i0 := b0 + sort.Search(b1-b0, func(k int) bool { return int(cols[b0+k]) >= w[0] })
	b1 = i0 + sort.Search(b1-i0, func(k int) bool { return int(cols[i0+k]) >= w[1] })
	if b0 = i0; b0 >= b1 {
		return
	}
	if plain(s[b0:b1]) { // ASCII without tabs: one cell per byte
		c0 := int(cols[b0])
		lo, hi := max(c0, w[0]), min(int(cols[b1]), w[1])
		r.text(s[b0+lo-c0:b0+hi-c0], c, at(lo), y, float32(hi-lo)*mt.cell, fyne.TextAlignLeading, monospace)
		return
	}
	seg, segC := r.segBuf[:0], 0
	flush := func(end int) {
		if len(seg) > 0 {
			r.text(string(seg), c, at(segC), y, float32(end-segC)*mt.cell, fyne.TextAlignLeading, monospace)
		}
		seg = seg[:0]
	}
	for i := b0; i < b1; {
		ch, n := utf8.DecodeRuneInString(s[i:b1])
		c0, c1 := int(cols[i]), int(cols[i+n])
		i += n
		if c0 < w[0] || c1 > w[1] || c0 == c1 && len(seg) == 0 {
			continue // outside the window, or a mark whose base is
		}
		switch {
		case ch == '\t':
			if len(seg) == 0 {
				segC = c0
			}
			for range c1 - c0 {
				seg = append(seg, ' ')
			}
		case c1-c0 == 2:
			flush(c0)
			r.text(string(ch), c, at(c0), y, 2*mt.cell, fyne.TextAlignCenter, monospace)
		default:
			if len(seg) == 0 {
				segC = c0
			}
			seg = utf8.AppendRune(seg, ch)
		}
	}
	flush(min(int(cols[b1]), w[1]))
	r.segBuf = seg
}

// blank reports whether s is only spaces and tabs.
func blank(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' && s[i] != '\t' {
			return false
		}
	}
	return true
}

// plain reports whether s is ASCII without tabs.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] == '\t' {
			return false
		}
	}
	return true
}

// cellX returns the x of byte col of line s on the right side, and the
// visual line it falls on.
func (r *diffRow) cellX(s string, col int, x float32) (float32, float32, bool) {
	mt := r.p.metric
	r.colBuf = columns(s, r.colBuf)
	c := int(r.colBuf[min(col, len(s))])
	if r.p.wr.on {
		wins := r.windows(s, r.colBuf)
		k := windowOf(wins, c)
		return x + padText + float32(c-wins[k][0])*mt.cell, float32(k) * mt.line, true
	}
	if c < r.p.hbar.off || c > r.p.hbar.off+mt.cols {
		return 0, 0, false
	}
	return x + padText + float32(c-r.p.hbar.off)*mt.cell, 0, true
}

// cursor draws the editor's cursor on this row.
func (r *diffRow) cursor(line int, x float32) {
	ed := r.p.Editor()
	c := theme.Color(theme.ColorNamePrimary)
	if !ed.focused {
		c = theme.Color(theme.ColorNamePlaceHolder) // where typing will go once focused
	}
	s := ed.buf.Lines()[line]
	cx, cy, ok := r.cellX(s, ed.buf.Cursor().Col, x)
	if ok {
		r.rect(c, cx, cy, 2, r.p.metric.line)
	}
}

// selection draws the selected part of line on this row.
func (r *diffRow) selection(line int, x float32, c color.Color) {
	ed := r.p.Editor()
	from, to, ok := ed.buf.Selection()
	if !ok || line < from.Line || line > to.Line {
		return
	}
	s := ed.buf.Lines()[line]
	b0, b1 := 0, len(s)
	if line == from.Line {
		b0 = from.Col
	}
	if line == to.Line {
		b1 = to.Col
	}
	mt := r.p.metric
	r.colBuf = columns(s, r.colBuf)
	c0, c1 := int(r.colBuf[b0]), int(r.colBuf[b1])
	if line != to.Line {
		c1++ // the line end
	}
	wins := r.windows(s, r.colBuf)
	for k, w := range wins {
		if k == len(wins)-1 {
			w[1]++ // the line end
		}
		lo, hi := max(c0, w[0]), min(c1, w[1])
		if lo < hi {
			r.rect(c, x+padText+float32(lo-w[0])*mt.cell, float32(k)*mt.line, float32(hi-lo)*mt.cell, mt.line)
		}
	}
}

// wsSpansOut returns spans without those covering whitespace only (in
// the row's buffer for side, never the model's cached slice).
func (r *diffRow) wsSpansOut(spans []words.Span, s string, side int) []words.Span {
	out := r.wsBuf[side][:0]
	for _, sp := range spans {
		if strings.TrimSpace(s[sp.Start:sp.End]) != "" {
			out = append(out, sp)
		}
	}
	r.wsBuf[side] = out
	return out
}
