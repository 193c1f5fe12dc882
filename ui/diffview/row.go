package diffview

import (
	"fmt"
	"image/color"
	"log"
	"runtime/debug"
	"sort"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/engine/words"
	"github.com/diffdesk/diffdesk/ui/diffview/textbuf"
)

// diffColours are the backgrounds of a diff for one theme variant. They are
// translucent so they sit on Fyne's own background.
type diffColours struct {
	del, delWord, ins, insWord, filler, grow, conflict, sel, accepted, rejected color.Color
	mine, mineMark                                                              color.Color // the person's own edits in the editor
	loose                                                                       color.Color // original lines a loose match replaced
	moved, movedMark                                                            color.Color // lines of a block moved elsewhere
	match, matchCur                                                             color.Color // search matches, the one on show
}

func coloursFor(dark bool) diffColours {
	a, w := uint8(0x2c), uint8(0x70)
	if dark {
		a, w = 0x38, 0xa0
	}
	return diffColours{
		del:       color.NRGBA{R: 0xf8, G: 0x51, B: 0x49, A: a},
		delWord:   color.NRGBA{R: 0xf8, G: 0x51, B: 0x49, A: w},
		ins:       color.NRGBA{R: 0x2e, G: 0xa0, B: 0x43, A: a},
		insWord:   color.NRGBA{R: 0x2e, G: 0xa0, B: 0x43, A: w},
		filler:    color.NRGBA{R: 0x80, G: 0x80, B: 0x80, A: 0x1c},
		grow:      color.NRGBA{R: 0x38, G: 0x8b, B: 0xfd, A: 0x22},
		conflict:  color.NRGBA{R: 0xff, G: 0x98, B: 0x00, A: 0x50},
		sel:       color.NRGBA{R: 0x38, G: 0x8b, B: 0xfd, A: 0x55},
		accepted:  color.NRGBA{R: 0x2e, G: 0xa0, B: 0x43, A: 0xff},
		rejected:  color.NRGBA{R: 0x90, G: 0x90, B: 0x90, A: 0xff},
		mine:      color.NRGBA{R: 0xa3, G: 0x71, B: 0xf7, A: a + 0x10},
		mineMark:  color.NRGBA{R: 0x8a, G: 0x4f, B: 0xf0, A: 0xff},
		loose:     color.NRGBA{R: 0xe0, G: 0x8a, B: 0x00, A: 0xff},
		moved:     color.NRGBA{R: 0x1f, G: 0xb5, B: 0xc4, A: a + 0x08},
		movedMark: color.NRGBA{R: 0x0e, G: 0x9c, B: 0xab, A: 0xff},
		match:     color.NRGBA{R: 0xff, G: 0xd0, B: 0x30, A: 0x90},
		matchCur:  color.NRGBA{R: 0xff, G: 0x8c, B: 0x00, A: 0xd0},
	}
}

// diffRow is one visible row of a DiffView: both sides' line numbers and
// text, backgrounds and the hunk gutter, drawn with pooled canvas objects on
// a monospace cell grid.
type diffRow struct {
	widget.BaseWidget
	v  *DiffView
	id int

	objs    []fyne.CanvasObject
	texts   []*canvas.Text
	rects   []*canvas.Rectangle
	nText   int
	nRect   int
	colBuf  []int32
	winBuf  [][2]int        // windows: the visual lines of the line drawn
	segBuf  []byte          // run: the narrow runes of a text
	wsBuf   [2][]words.Span // wsSpansOut's spans, per side
	drag    bool
	waitTok bool   // drawn without the syntax colours of a line: refreshTokens
	key     rowKey // what the row was last bound to
	bound   bool   // in v.rowWidgets
	ok, no  *canvas.Image
	dragRow int
}

func newDiffRow(v *DiffView) *diffRow {
	r := &diffRow{v: v, id: -1}
	r.ExtendBaseWidget(r)
	return r
}

// CreateRenderer is part of fyne.Widget.
func (r *diffRow) CreateRenderer() fyne.WidgetRenderer { return &diffRowRenderer{r: r} }

// diffRowRenderer shows a row as one raster of its display list and the
// objects the raster does not draw above it (rowpaint.go).
type diffRowRenderer struct {
	r      *diffRow
	raster *canvas.Raster
	objs   []fyne.CanvasObject // the raster, then the objects above it
}

func (rr *diffRowRenderer) Destroy() {}
func (rr *diffRowRenderer) Layout(s fyne.Size) {
	if rr.raster != nil {
		rr.raster.Resize(s)
	}
}
func (rr *diffRowRenderer) MinSize() fyne.Size { return fyne.NewSize(0, rr.r.v.metric.line) }
func (rr *diffRowRenderer) Objects() []fyne.CanvasObject {
	if rr.raster == nil {
		rr.layer()
	}
	return rr.objs
}
func (rr *diffRowRenderer) Refresh() {
	rr.r.build()
	rr.layer()
	canvas.Refresh(rr.r)
}

// bind shows row id.
func (r *diffRow) bind(id int) {
	if !r.bound { // the list makes rows it never binds too (to measure one)
		r.bound = true
		r.v.rowWidgets = append(r.v.rowWidgets, r)
		if len(r.v.rowWidgets) > 4*r.v.visibleRows()+16 {
			r.v.pruneRows()
		}
	}
	r.id = id
	if r.v.onBind != nil {
		r.v.onBind(id)
	}
	if k := r.v.rowKeyOf(id); k != r.key || r.waitTok {
		r.key = k
		r.Refresh()
	}
	r.v.markSeen(id)
	r.v.overview.viewportMoved()
	r.v.tokensAhead()
}

// pruneRows forgets the row widgets far from the screen. Fyne's list
// pools the rows it hides in a sync.Pool, which a GC empties, and makes
// new ones: kept here, every row ever made stayed alive with its pooled
// texts, and a session's memory grew with the proposals reviewed. A row
// forgotten and then taken from the pool again is bound again, and kept.
func (v *DiffView) pruneRows() {
	top, vis := v.topRow(), v.visibleRows()
	keep := v.rowWidgets[:0]
	for _, r := range v.rowWidgets {
		if r.id >= top-vis && r.id <= top+2*vis {
			keep = append(keep, r)
		} else {
			r.bound = false
		}
	}
	clear(v.rowWidgets[len(keep):])
	v.rowWidgets = keep
}

// tokensReady reports whether the syntax colours of every line the row
// shows are cached.
func (r *diffRow) tokensReady() bool {
	v := r.v
	if r.id < 0 || r.id >= v.model.Len() {
		return true
	}
	rw := v.model.Row(r.id)
	for side, l := range [2]int{rw.a, rw.b} {
		if get, n := v.lineGetter(side); l < 0 || l >= n || get(l) == "" {
			continue // an empty line asks for no colours
		}
		if _, ok := v.hl.tokens(v.rowTokenLine(rw, side)); !ok {
			return false
		}
	}
	return true
}

func (r *diffRow) rect(c color.Color, x, y, w, h float32) {
	if r.nRect == len(r.rects) {
		r.rects = append(r.rects, canvas.NewRectangle(nil))
	}
	o := r.rects[r.nRect]
	r.nRect++
	o.FillColor = c
	o.Move(fyne.NewPos(x, y))
	o.Resize(fyne.NewSize(w, h))
	r.objs = append(r.objs, o)
}

func (r *diffRow) text(s string, c color.Color, x, y, w float32, align fyne.TextAlign, style fyne.TextStyle) {
	if r.nText == len(r.texts) {
		r.texts = append(r.texts, canvas.NewText("", nil))
	}
	o := r.texts[r.nText]
	r.nText++
	o.Text, o.Color, o.Alignment, o.TextStyle = s, c, align, style
	o.TextSize = r.v.metric.size
	o.Move(fyne.NewPos(x, y))
	o.Resize(fyne.NewSize(w, r.v.metric.line))
	r.objs = append(r.objs, o)
}

// unavailable replaces whatever the row had drawn when drawing it
// panicked with a line saying so, and logs the panic (once per view and
// cause, with the stack: the same row is drawn again on every frame).
func (r *diffRow) unavailable(p any) {
	r.objs, r.nText, r.nRect = r.objs[:0], 0, 0
	msg := fmt.Sprint(p)
	if r.v.drawFailures == nil {
		r.v.drawFailures = map[string]bool{}
	}
	r.v.unavailable++
	if !r.v.drawFailures[msg] {
		r.v.drawFailures[msg] = true
		log.Printf("diffview: drawing row %d failed (shown as unavailable): %v\n%s", r.id, p, debug.Stack())
	}
	r.text("⚠ this row could not be drawn (logged); the proposal itself is unaffected", theme.Color(theme.ColorNameError),
		r.v.metric.numW, 0, r.v.width, fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
}

// icon draws the hunk toggle: a tick when accepted, a cross when not.
func (r *diffRow) icon(ok bool, x, y, s float32) {
	r.icons()
	o := r.ok
	if !ok {
		o = r.no
	}
	o.Move(fyne.NewPos(x, y))
	o.Resize(fyne.NewSize(s, s))
	r.objs = append(r.objs, o)
}

// icons makes the hunk toggle's two images once per row.
func (r *diffRow) icons() {
	if r.ok == nil {
		r.ok = canvas.NewImageFromResource(theme.NewSuccessThemedResource(theme.ConfirmIcon()))
		r.no = canvas.NewImageFromResource(theme.NewErrorThemedResource(theme.CancelIcon()))
	}
}

// build lays out the row's objects for the view's current state. A panic
// while drawing one row shows that row as unavailable and is logged: the
// desk lives in the window's process, and a bug in drawing one line must
// not end every waiting agent's connection.
func (r *diffRow) build() {
	defer func() {
		if p := recover(); p != nil {
			r.unavailable(p)
		}
	}()
	r.draw()
}

// draw lays out the row's objects; build guards it.
func (r *diffRow) draw() {
	v := r.v
	r.objs, r.nText, r.nRect = r.objs[:0], 0, 0
	r.waitTok = false
	m := v.model
	if r.id < 0 || r.id >= m.Len() {
		return
	}
	v.drawn++
	rw := m.Row(r.id)
	mt := v.metric
	c := coloursFor(v.dark)
	h := v.rowHeight(r.id)
	if rw.kind == rowFold {
		r.fold(m.segs[rw.seg], c, h)
		return
	}
	xTextL := mt.numW
	xGut := mt.leftW
	xNumR := xGut + mt.gutW
	xTextR := xNumR + mt.numW
	inline := m.shape.inline
	if inline { // numbers, numbers, gutter, text
		xNumR, xTextL = mt.numW, xGut+mt.gutW
		xTextR = xTextL
	}
	rejected := rw.hunk >= 0 && v.stream == nil && v.ed == nil && len(v.rejected) > 0 && v.rejected[v.hunkID(rw.hunk)]
	faded := v.whitespaceOnly(rw.hunk)
	movedL, movedR := v.movedOn(rw, 0), v.movedOn(rw, 1)

	// Backgrounds.
	var bgL, bgR color.Color
	switch rw.kind {
	case rowDeleted:
		bgL, bgR = c.del, c.filler
	case rowInserted:
		bgL, bgR = c.filler, c.ins
	case rowChanged:
		bgL, bgR = c.del, c.ins
	}
	if rejected && bgR != nil {
		bgR = c.filler
	}
	if movedL >= 0 {
		bgL = c.moved
	}
	if movedR >= 0 {
		bgR = c.moved
	}
	if faded {
		bgL, bgR = c.filler, c.filler
	}
	if v.stale && rw.b >= 0 && v.inConflict(rw.b) {
		bgR = c.conflict
	}
	growing := m.Growing(rw)
	if growing && bgR == nil {
		bgR = c.grow
	}
	var mine, mineDel bool
	if v.ed != nil && rw.b >= 0 {
		mine, mineDel = v.ed.edit(rw.b)
		if mine {
			bgR = c.mine
		}
	}
	switch {
	case inline && rw.kind == rowDeleted:
		r.rect(bgL, 0, 0, v.width, h)
	case inline && rw.kind == rowInserted:
		r.rect(bgR, 0, 0, v.width, h)
	case inline:
	default:
		if bgL != nil && xGut > 0 {
			r.rect(bgL, 0, 0, xGut, h)
		}
		if bgR != nil {
			r.rect(bgR, xNumR, 0, mt.numW+mt.sideW, h)
		}
	}
	// A bar beside a moved line's number: tap the number to jump to the
	// block's other end.
	if movedL >= 0 {
		r.rect(c.movedMark, mt.numW-3, 0, 3, h)
	}
	if movedR >= 0 {
		r.rect(c.movedMark, xNumR+mt.numW-3, 0, 3, h)
	}
	if growing {
		r.rect(theme.Color(theme.ColorNamePrimary), xNumR, 0, 3, h)
	}
	if rw.a >= 0 && v.LooseLine(rw.a) { // a loose match replaced this line: a bar at the left edge
		r.rect(c.loose, 0, 0, 4, h)
	}
	if mine { // the person's line: a bar beside its number
		r.rect(c.mineMark, xNumR, 0, 3, h)
	}
	if mineDel { // the person deleted lines of the proposal here
		r.rect(c.mineMark, xNumR, 0, mt.numW+mt.sideW, 2)
	}
	r.problemMark(rw.b, xTextR, h)

	// Hunk gutter.
	if rw.hunk >= 0 {
		gc := c.accepted
		if rejected {
			gc = c.rejected
		}
		if s := m.segs[rw.seg]; s.row0 == v.curRow {
			r.rect(theme.Color(theme.ColorNamePrimary), xGut+mt.gutW/2-2, 0, 4, h) // the change j/k went to
		} else {
			r.rect(gc, xGut+mt.gutW/2-1, 0, 2, h)
		}
		if rw.head && v.stream == nil && v.ed == nil && !v.ReadOnly {
			x, w := xGut+padText, mt.gutW-2*padText
			if m.segs[rw.seg].row0 == v.curRow {
				// The change j/k went to: its bar would hide behind the
				// tick, and a one-line change has no other row to show it.
				r.rect(theme.Color(theme.ColorNamePrimary), x-2, 0, w+4, mt.line)
			}
			r.rect(theme.Color(theme.ColorNameBackground), x, 0, w, mt.line)
			r.icon(!rejected, xGut+(mt.gutW-mt.line)/2, 0, mt.line)
		}
	}

	// Selection under the right side's text.
	if v.ed != nil && rw.b >= 0 {
		r.selection(rw.b, xTextR, c.sel)
	}
	r.readSelection(rw, xTextL, xTextR, inline, c.sel) // a word double-clicked outside edit mode (textsel.go)

	fg := theme.Color(theme.ColorNameForeground)
	dim := theme.Color(theme.ColorNamePlaceHolder)
	num := func(n int, x float32) {
		r.text(itoa(n+1), dim, x, 0, mt.numW-padText, fyne.TextAlignTrailing, monospace)
	}
	words := m.Words(rw)
	if faded || movedL >= 0 || movedR >= 0 {
		// A moved line's counterpart is at the block's other end: beside
		// it stands another line, and words set against that would say
		// one was edited into the other.
		words = wordPair{}
	}
	if v.ignoreWS && rw.paired {
		// Whitespace ignored: a change that also re-indents emphasises its
		// words, not the indentation of every line.
		words.del = r.wsSpansOut(words.del, m.a.Line(rw.wa), 0)
		words.ins = r.wsSpansOut(words.ins, m.b.Line(rw.wb), 1)
	}
	pal := paletteFor(v.dark)
	if rw.a >= 0 {
		num(rw.a, 0)
		if !inline || rw.b < 0 {
			ms, cur := v.matchesOn(0, rw.a)
			if rw.kind == rowEqual {
				ms, cur = v.matchesOn(1, rw.b) // counted once, on the right
			}
			r.matches(m.a.Line(rw.a), ms, cur, xTextL, c)
			tc := fg
			if faded {
				tc = dim
			}
			ts, ti := v.rowTokenLine(rw, 0)
			r.line(ts, ti, m.a.Line(rw.a), xTextL, words.del, c.delWord, tc, pal)
		}
	}
	if rw.b >= 0 {
		if rw.b == v.wentTo && v.ed == nil {
			r.text(itoa(rw.b+1), theme.Color(theme.ColorNamePrimary), xNumR, 0, mt.numW-padText, fyne.TextAlignTrailing, fyne.TextStyle{Monospace: true, Bold: true})
		} else {
			num(rw.b, xNumR)
		}
		tc := fg
		if rejected || faded {
			tc = dim
		}
		ms, cur := v.matchesOn(1, rw.b)
		r.matches(m.b.Line(rw.b), ms, cur, xTextR, c)
		ts, ti := v.rowTokenLine(rw, 1)
		r.line(ts, ti, m.b.Line(rw.b), xTextR, words.ins, c.insWord, tc, pal)
		if growing && rw.b == m.growing[1]-1 {
			r.text("writing…", theme.Color(theme.ColorNamePrimary), xTextR, h-mt.line, mt.sideW-padText,
				fyne.TextAlignTrailing, fyne.TextStyle{Italic: true})
		}
		if v.ed != nil && v.ed.buf.Cursor().Line == rw.b {
			r.cursor(rw.b, xTextR)
		}
	}
	if rw.hunk >= 0 {
		r.hunkNote(rw, xTextL, xTextR, inline)
		r.eolNote(rw, xTextL, xTextR, inline)
	}
}

// fold draws a fold row: what it hides and the ways to open it
// (foldLabels), from the left text column.
func (r *diffRow) fold(s segment, c diffColours, h float32) {
	mt := r.v.metric
	r.rect(c.filler, 0, 0, r.v.width, h)
	x := mt.numW + padText
	for k, l := range r.v.foldLabels(s) {
		if l == "" {
			continue
		}
		col := theme.Color(theme.ColorNamePrimary)
		if k == 0 {
			col = theme.Color(theme.ColorNamePlaceHolder)
		}
		w := float32(utf8.RuneCountInString(l)) * mt.cell
		r.text(l, col, x, 0, w, fyne.TextAlignLeading, fyne.TextStyle{Monospace: true, Italic: k == 0})
		x += w + foldGap*mt.cell
	}
}

// foldLabelAt returns which of a fold row's labels is at x (0 the text,
// 1-3 foldDown, foldUp, foldAll + 1), -1 for none.
func (r *diffRow) foldLabelAt(s segment, x float32) int {
	mt := r.v.metric
	at := mt.numW + padText
	for k, l := range r.v.foldLabels(s) {
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
	mt := r.v.metric
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
	mt := r.v.metric
	if !r.v.wrap {
		return append(r.winBuf[:0], [2]int{r.v.hoff, r.v.hoff + mt.cols})
	}
	r.winBuf = wrapWindows(s, cols, mt.cols, r.winBuf)
	return r.winBuf
}

// line draws one side's text: word-span backgrounds, then coloured runs.
func (r *diffRow) line(ts, ti int, s string, x float32, spans []words.Span, spanC, fg color.Color, pal *palette) {
	v := r.v
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
	if !v.wrap && len(s) > 0 {
		r.offside(spans, cols, x, spanC)
	}
	if s == "" {
		return
	}
	toks, ok := v.hl.tokens(ts, ti)
	if !ok {
		// A stream's edge is tokenised again at every chunk: there the
		// worker does it, off the UI goroutine.
		v.hl.noSync = v.stream != nil
		v.wantTokens(ts, ti)
		if toks, ok = v.hl.tokens(ts, ti); !ok { // not tokenised at once (highlight.go: small)
			r.waitTok = true
		}
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
	v := r.v
	mt := v.metric
	left, right := false, false
	for _, sp := range spans {
		c0, c1 := int(cols[sp.Start]), int(cols[sp.End])
		left = left || c0 < v.hoff
		right = right || c1 > v.hoff+mt.cols
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
	mt := r.v.metric
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
	mt := r.v.metric
	r.colBuf = columns(s, r.colBuf)
	c := int(r.colBuf[min(col, len(s))])
	if r.v.wrap {
		wins := r.windows(s, r.colBuf)
		k := windowOf(wins, c)
		return x + padText + float32(c-wins[k][0])*mt.cell, float32(k) * mt.line, true
	}
	if c < r.v.hoff || c > r.v.hoff+mt.cols {
		return 0, 0, false
	}
	return x + padText + float32(c-r.v.hoff)*mt.cell, 0, true
}

// cursor draws the editor's cursor on this row.
func (r *diffRow) cursor(line int, x float32) {
	ed := r.v.ed
	c := theme.Color(theme.ColorNamePrimary)
	if !ed.focused {
		c = theme.Color(theme.ColorNamePlaceHolder) // where typing will go once focused
	}
	s := ed.buf.Lines()[line]
	cx, cy, ok := r.cellX(s, ed.buf.Cursor().Col, x)
	if ok {
		r.rect(c, cx, cy, 2, r.v.metric.line)
	}
}

// selection draws the selected part of line on this row.
func (r *diffRow) selection(line int, x float32, c color.Color) {
	ed := r.v.ed
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
	mt := r.v.metric
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

// Tapped toggles a hunk in the gutter, or places the editor's cursor.
func (r *diffRow) Tapped(ev *fyne.PointEvent) {
	v := r.v
	if r.id < 0 || r.id >= v.model.Len() {
		return
	}
	v.ClearSelection() // a click elsewhere ends a word's selection (textsel.go)
	mt := v.metric
	xGut := mt.leftW
	rw := v.model.Row(r.id)
	if rw.kind == rowFold {
		if k := r.foldLabelAt(v.model.segs[rw.seg], ev.Position.X); k > 0 {
			v.openFold(rw.seg, k-1)
		}
		return
	}
	if ev.Position.X >= xGut && ev.Position.X < xGut+mt.gutW {
		if rw.hunk >= 0 {
			v.ToggleHunk(rw.hunk)
		}
		return
	}
	if k, side := r.onNumber(rw, ev.Position.X); k >= 0 {
		v.jumpFromSide(rw, k, side)
		return
	}
	if v.ed != nil {
		v.ed.focus()
		v.ed.move(r.posAt(r.id, ev.Position), v.ed.shiftHeld())
	}
}

// onNumber returns the move and side of the moved line whose number x
// is on in row rw, or -1.
func (r *diffRow) onNumber(rw row, x float32) (int, int) {
	v := r.v
	mt := v.metric
	for side := range 2 {
		k := v.movedOn(rw, side)
		if k < 0 {
			continue
		}
		x0 := float32(0)
		if side == 1 {
			x0 = mt.leftW + mt.gutW
			if v.model.shape.inline {
				x0 = mt.numW
			}
		}
		if x >= x0 && x < x0+mt.numW {
			return k, side
		}
	}
	return -1, 0
}

// posAt returns the editor position at p (relative to row id's top left).
func (r *diffRow) posAt(id int, p fyne.Position) textbuf.Pos {
	v := r.v
	ed := v.ed
	mt := v.metric
	m := v.model
	if id < 0 {
		return textbuf.Pos{}
	}
	end := func() textbuf.Pos {
		if ed != nil {
			return ed.buf.End()
		}
		return textbuf.Pos{Line: max(m.b.Len()-1, 0)}
	}
	if id >= m.Len() {
		return end()
	}
	rw := m.Row(id)
	line := rw.b
	if line < 0 {
		// A filler cell: the next line of the right side.
		for k := id + 1; k < m.Len() && k < id+10000; k++ {
			if b := m.Row(k).b; b >= 0 {
				return textbuf.Pos{Line: b}
			}
		}
		return end()
	}
	xTextR := mt.leftW + mt.gutW + mt.numW + padText
	if m.shape.inline {
		xTextR = mt.leftW + mt.gutW + padText
	}
	cell := max(int((p.X-xTextR+mt.cell/2)/mt.cell), 0)
	var s string
	if ed != nil {
		s = ed.buf.Lines()[line]
	} else {
		s = m.b.Line(line) // not editing yet: the proposal's line (a double tap starts the editor here)
	}
	r.colBuf = columns(s, r.colBuf)
	if v.wrap {
		wins := r.windows(s, r.colBuf)
		k := min(max(int(p.Y/mt.line), 0), len(wins)-1)
		cell += wins[k][0]
		if k < len(wins)-1 {
			cell = min(cell, wins[k][1]-1) // past a visual line's end: its last cell
		}
	} else {
		cell += v.hoff
	}
	col := len(s)
	for i := 0; i < len(s); i++ {
		if int(r.colBuf[i]) >= cell {
			col = i
			break
		}
	}
	for col > 0 && col < len(s) && !utf8.RuneStart(s[col]) {
		col--
	}
	return textbuf.Pos{Line: line, Col: col}
}

// DoubleTapped selects the word under the pointer: in the editor, or
// read-only outside edit mode (textsel.go), which never edits.
func (r *diffRow) DoubleTapped(ev *fyne.PointEvent) {
	v := r.v
	if r.id < 0 || r.id >= v.model.Len() {
		return
	}
	if v.ed != nil {
		v.ed.selectWord(r.posAt(r.id, ev.Position))
		return
	}
	r.doubleTapText(ev.Position)
}

// Dragged selects text in the editor.
func (r *diffRow) Dragged(ev *fyne.DragEvent) {
	v := r.v
	if v.ed == nil || r.id < 0 {
		return
	}
	if !r.drag {
		r.drag, r.dragRow = true, r.id
		start := ev.Position.Subtract(ev.Dragged)
		v.ed.focus()
		v.ed.move(r.posAt(r.id, start), false)
	}
	// The row where the drag started keeps the events; find the row under
	// the pointer from its offset.
	y := v.rowY(r.dragRow) + ev.Position.Y
	id := v.rowAtY(y)
	v.ed.move(r.posAt(id, fyne.NewPos(ev.Position.X, y-v.rowY(id))), true)
}

// DragEnd is part of fyne.Draggable.
func (r *diffRow) DragEnd() { r.drag = false }

// Scrolled scrolls the rows: vertically, or horizontally with Shift or a
// horizontal wheel.
func (r *diffRow) Scrolled(ev *fyne.ScrollEvent) {
	v := r.v
	dx, dy := ev.Scrolled.DX, ev.Scrolled.DY
	if d, ok := fyne.CurrentApp().Driver().(desktop.Driver); ok && d.CurrentKeyModifiers()&fyne.KeyModifierShift != 0 && dx == 0 {
		dx, dy = dy, 0
	}
	if dx != 0 && !v.wrap {
		// Three cells per wheel notch's worth of pixels; fractions add up.
		v.hacc -= 3 * dx / v.metric.cell
		step := int(v.hacc)
		v.hacc -= float32(step)
		v.setHOffset(v.hoff + step)
	}
	if dy != 0 {
		v.list.ScrollToOffset(v.list.GetScrollOffset() - dy)
		v.userScrolled(dy)
	}
}

var (
	_ fyne.Tappable       = (*diffRow)(nil)
	_ fyne.DoubleTappable = (*diffRow)(nil)
	_ fyne.Draggable      = (*diffRow)(nil)
	_ fyne.Scrollable     = (*diffRow)(nil)
)

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

// UnavailableRows returns how many times drawing a row panicked and the
// row was shown as unavailable instead.
func (v *DiffView) UnavailableRows() int { return v.unavailable }
