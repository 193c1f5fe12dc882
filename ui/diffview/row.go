package diffview

import (
	"fmt"
	"image/color"
	"log"
	"runtime/debug"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/engine/words"
)

// diffRow is one visible row of a DiffView: both sides' line numbers and
// text, backgrounds and the hunk gutter, drawn with pooled canvas objects on
// a monospace cell grid.
type diffRow struct {
	widget.BaseWidget
	p  *rowParts
	id int
	// shown is rows.shown when the row was last bound: older, the list no
	// longer shows it
	shown uint64

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
	bound   bool   // in v.rows.widgets
	ok, no  *canvas.Image
	dragRow int
}

// rowParts are what the rows draw from and act on: the view's parts, each
// with its own small surface, and the view itself only through rowHost.
type rowParts struct {
	rowHost
	rows   *rowSet
	metric *metrics
	marks  *Marks
	folds  *Folds
	search *Search
	sel    *Selection
	nav    *Nav
	wr     *wrapping
	hbar   *hscroll
}

// rowHost is what a row needs of its view beyond its parts: the rows and
// the editor on show, the view's modes, a hunk's state, the syntax
// colours, the rows' bookkeeping as one is bound, and what a tap, a
// double tap or the wheel does.
type rowHost interface {
	shown() *rowModel
	Editor() *Editor
	streaming() bool
	readOnly() bool
	IgnoreWhitespace() bool
	hunkID(k int) string
	rejected(k int) bool
	whitespaceOnly(k int) bool
	lineGetter(side int) (func(int) string, int)
	rowTokenLine(rw row, side int) (int, int)
	lineTokens(side, line int) ([]token, bool)
	rowKeyOf(id int) rowKey
	visibleRows() int
	pruneRows()
	rowBound(id int)
	refreshChangedRows()
	ToggleHunk(k int)
	jumpFromSide(r row, k, side int) bool
	editAt(line, col int)
	scrollBy(dy float32)
	setHOffset(c int)
}

func newDiffRow(p *rowParts) *diffRow {
	r := &diffRow{p: p, id: -1}
	r.ExtendBaseWidget(r)
	return r
}

// CreateRenderer is part of fyne.Widget.
func (r *diffRow) CreateRenderer() fyne.WidgetRenderer { return &diffRowRenderer{r: r} }

// diffRowRenderer shows a row as two rasters of its display list, one
// per side, and the objects the rasters do not draw above them
// (rowpaint.go).
type diffRowRenderer struct {
	r     *diffRow
	sides [2]rowRaster
	objs  []fyne.CanvasObject // the rasters, then the objects above them
}

func (rr *diffRowRenderer) Destroy() {}
func (rr *diffRowRenderer) Layout(s fyne.Size) {
	for k := range rr.sides {
		rr.sides[k].place(s.Height)
	}
}
func (rr *diffRowRenderer) MinSize() fyne.Size { return fyne.NewSize(0, rr.r.p.metric.line) }
func (rr *diffRowRenderer) Objects() []fyne.CanvasObject {
	if rr.sides[0].raster == nil {
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
		r.p.rows.widgets = append(r.p.rows.widgets, r)
		if len(r.p.rows.widgets) > 4*r.p.visibleRows()+16 {
			r.p.pruneRows()
		}
	}
	r.id = id
	r.shown = r.p.rows.shown
	if r.p.rows.onBind != nil {
		r.p.rows.onBind(id)
	}
	if k := r.p.rowKeyOf(id); k != r.key || r.waitTok {
		r.key = k
		r.Refresh()
	}
	r.p.rowBound(id)
}

// pruneRows forgets the row widgets far from the screen, and those the list
// did not bind again when the view last showed new rows (show): a row of an
// earlier proposal kept an id near the top, and was never forgotten, so a
// session of small files kept every row it ever made. Fyne's list
// pools the rows it hides in a sync.Pool, which a GC empties, and makes
// new ones: kept here, every row ever made stayed alive with its pooled
// texts, and a session's memory grew with the proposals reviewed. A row
// forgotten and then taken from the pool again is bound again, and kept.
func (v *DiffView) pruneRows() {
	top, vis := v.topRow(), v.visibleRows()
	keep := v.rows.widgets[:0]
	for _, r := range v.rows.widgets {
		if r.id >= top-vis && r.id <= top+2*vis && r.shown == v.rows.shown {
			keep = append(keep, r)
		} else {
			r.forget()
		}
	}
	clear(v.rows.widgets[len(keep):])
	v.rows.widgets = keep
}

// SetDeviceIsMobile does nothing: with it Fyne takes the row for a theme
// override of its own and leaves it out of its theme-override cache, which
// stores every object under the list's tightTheme (the rows' own colours
// and sizes do not come from it) and never lets go of a primitive such as
// the row's raster: every row the list ever made stayed alive, with its
// texts and rectangles, about 200 KiB for each proposal shown (issue 28).
func (r *diffRow) SetDeviceIsMobile(bool) {}

// forget drops a row no longer bound from the view's rows, and its key's
// lines and its texts' strings, each cut from a whole file: Fyne keeps a
// row it no longer shows for a minute (its renderer cache), and each kept
// the file it last showed alive (a session benchmark of 300 proposals
// reviewed in 50 s: 331 MB of heap). Bound again, the row is drawn anew
// (its key no longer matches).
func (r *diffRow) forget() {
	r.bound = false
	r.key = rowKey{}
	for _, t := range r.texts {
		t.Text = "" // not on screen (pruneRows): bound again, it is drawn anew
	}
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
	o.TextSize = r.p.metric.size
	o.Move(fyne.NewPos(x, y))
	o.Resize(fyne.NewSize(w, r.p.metric.line))
	r.objs = append(r.objs, o)
}

// unavailable replaces whatever the row had drawn when drawing it
// panicked with a line saying so, and logs the panic (once per view and
// cause, with the stack: the same row is drawn again on every frame).
func (r *diffRow) unavailable(p any) {
	r.objs, r.nText, r.nRect = r.objs[:0], 0, 0
	msg := fmt.Sprint(p)
	if r.p.rows.failures == nil {
		r.p.rows.failures = map[string]bool{}
	}
	r.p.rows.unavailable++
	if !r.p.rows.failures[msg] {
		r.p.rows.failures[msg] = true
		log.Printf("diffview: drawing row %d failed (shown as unavailable): %v\n%s", r.id, p, debug.Stack())
	}
	r.text("⚠ this row could not be drawn (logged); the proposal itself is unaffected", theme.Color(theme.ColorNameError),
		r.p.metric.numW, 0, r.p.metric.width, fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
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
	v := r.p
	ed := v.Editor() // nil outside edit mode
	r.objs, r.nText, r.nRect = r.objs[:0], 0, 0
	r.waitTok = false
	m := v.shown()
	if r.id < 0 || r.id >= m.Len() {
		return
	}
	v.rows.drawn++
	rw := m.Row(r.id)
	mt := v.metric
	c := coloursFor(v.rows.dark)
	h := v.wr.rowHeight(r.id)
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
	rejected := !v.streaming() && ed == nil && v.rejected(rw.hunk)
	faded := v.whitespaceOnly(rw.hunk)
	movedL, movedR := v.marks.movedOn(rw, 0), v.marks.movedOn(rw, 1)

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
	if v.marks.stale && rw.b >= 0 && v.marks.inConflict(rw.b) {
		bgR = c.conflict
	}
	growing := m.Growing(rw)
	if growing && bgR == nil {
		bgR = c.grow
	}
	var mine, mineDel bool
	if ed != nil && rw.b >= 0 {
		mine, mineDel = ed.edit(rw.b)
		if mine {
			bgR = c.mine
		}
	}
	switch {
	case inline && rw.kind == rowDeleted:
		r.rect(bgL, 0, 0, v.metric.width, h)
	case inline && rw.kind == rowInserted:
		r.rect(bgR, 0, 0, v.metric.width, h)
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
	if rw.a >= 0 && v.marks.LooseLine(rw.a) { // a loose match replaced this line: a bar at the left edge
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
		switch {
		case rejected:
			gc = c.rejected
		case ed != nil && ed.ownRow(rw, m.segs[rw.seg].op):
			gc = c.mineMark // the person's own line, as the strip marks it
		}
		if s := m.segs[rw.seg]; s.row0 == v.nav.cur {
			r.rect(theme.Color(theme.ColorNamePrimary), xGut+mt.gutW/2-2, 0, 4, h) // the change j/k went to
		} else {
			r.rect(gc, xGut+mt.gutW/2-1, 0, 2, h)
		}
		if rw.head && !v.streaming() && ed == nil && !v.readOnly() {
			x, w := xGut+padText, mt.gutW-2*padText
			if m.segs[rw.seg].row0 == v.nav.cur {
				// The change j/k went to: its bar would hide behind the
				// tick, and a one-line change has no other row to show it.
				r.rect(theme.Color(theme.ColorNamePrimary), x-2, 0, w+4, mt.line)
			}
			r.rect(theme.Color(theme.ColorNameBackground), x, 0, w, mt.line)
			r.icon(!rejected, xGut+(mt.gutW-mt.line)/2, 0, mt.line)
		}
	}

	// Selection under the right side's text.
	if ed != nil && rw.b >= 0 {
		r.selection(rw.b, xTextR, c.sel)
	}
	r.readSelection(rw, xTextL, xTextR, inline, c.sel) // a word double-clicked outside edit mode (textsel.go)

	fg := theme.Color(theme.ColorNameForeground)
	dim := theme.Color(theme.ColorNamePlaceHolder)
	num := func(n int, x float32) {
		r.text(strconv.Itoa(n+1), dim, x, 0, mt.numW-padText, fyne.TextAlignTrailing, monospace)
	}
	words := m.Words(rw)
	if faded || movedL >= 0 || movedR >= 0 {
		// A moved line's counterpart is at the block's other end: beside
		// it stands another line, and words set against that would say
		// one was edited into the other.
		words = wordPair{}
	}
	if v.IgnoreWhitespace() && rw.paired {
		// Whitespace ignored: a change that also re-indents emphasises its
		// words, not the indentation of every line.
		words.del = r.wsSpansOut(words.del, m.a.Line(rw.wa), 0)
		words.ins = r.wsSpansOut(words.ins, m.b.Line(rw.wb), 1)
	}
	pal := paletteFor(v.rows.dark)
	if rw.a >= 0 {
		num(rw.a, 0)
		if !inline || rw.b < 0 {
			ms, cur := v.search.matchesOn(0, rw.a)
			if rw.kind == rowEqual {
				ms, cur = v.search.matchesOn(1, rw.b) // counted once, on the right
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
		if rw.b == v.nav.wentTo && ed == nil {
			// Marked by its colour: the theme has no bold monospace
			// (Fyne drew it regular) and a style of its own cost a set
			// of fonts parsed again (rowtext.go's fold labels).
			r.text(strconv.Itoa(rw.b+1), theme.Color(theme.ColorNamePrimary), xNumR, 0, mt.numW-padText, fyne.TextAlignTrailing, monospace)
		} else {
			num(rw.b, xNumR)
		}
		tc := fg
		if rejected || faded {
			tc = dim
		}
		ms, cur := v.search.matchesOn(1, rw.b)
		r.matches(m.b.Line(rw.b), ms, cur, xTextR, c)
		ts, ti := v.rowTokenLine(rw, 1)
		r.line(ts, ti, m.b.Line(rw.b), xTextR, words.ins, c.insWord, tc, pal)
		if growing && rw.b == m.growing[1]-1 {
			r.text("writing…", theme.Color(theme.ColorNamePrimary), xTextR, h-mt.line, mt.sideW-padText,
				fyne.TextAlignTrailing, fyne.TextStyle{Italic: true})
		}
		if ed != nil && ed.buf.Cursor().Line == rw.b {
			r.cursor(rw.b, xTextR)
		}
	}
	if rw.hunk >= 0 {
		r.hunkNote(rw, xTextL, xTextR, inline)
		r.eolNote(rw, xTextL, xTextR, inline)
	}
}

// rowBound counts row id as seen, moves the strip's frame and asks for the
// syntax colours of the pages around it: a row was bound.
func (v *DiffView) rowBound(id int) {
	v.seen.mark(id)
	v.overview.viewportMoved()
	v.tokensAhead()
}

// streaming reports whether a proposal is streaming in (SetStream).
func (v *DiffView) streaming() bool { return v.feed.st != nil }

// readOnly is ReadOnly: no hunk toggles.
func (v *DiffView) readOnly() bool { return v.ReadOnly }

// UnavailableRows returns how many times drawing a row panicked and the
// row was shown as unavailable instead.
func (v *DiffView) UnavailableRows() int { return v.rows.unavailable }

// redrawRows draws every visible row again (a new offset, new marks).
func (v *DiffView) redrawRows() {
	v.rows.gen++
	v.list.Refresh()
}

// redraw refreshes the whole view, every row drawn again.
func (v *DiffView) redraw() {
	v.rows.gen++
	v.Refresh()
}

// rowKey is what a row's drawing depends on besides the view's state as a
// whole (rows.gen): a row bound again with the same key is left as drawn.
type rowKey struct {
	gen           uint64
	id            int
	rw            row
	a, b          string
	growing, edge bool
	cur, readOnly bool
	rejected      bool // its hunk's
	width, hoff   float32
	cols          int
	caret         int     // the editor's cursor on the row's line: its byte column, else -1
	focused       bool    // the editor has the keyboard (the caret's colour)
	sel           [2]int  // the editor's selection on the row's line, bytes
	rsel          readSel // the word selected outside edit mode, on the row's line
}

// rowKeyOf returns the key of row id as it would be drawn now.
func (v *DiffView) rowKeyOf(id int) rowKey {
	k := rowKey{gen: v.rows.gen, id: id, width: v.metric.width, hoff: float32(v.hbar.off), cols: v.metric.cols, readOnly: v.ReadOnly, caret: -1}
	m := v.model
	if id < 0 || id >= m.Len() {
		return k
	}
	rw := m.Row(id)
	k.rw = rw
	if rw.a >= 0 && rw.a < m.a.Len() {
		k.a = m.a.Line(rw.a)
	}
	if rw.b >= 0 && rw.b < m.b.Len() {
		k.b = m.b.Line(rw.b)
	}
	k.growing = m.Growing(rw)
	k.edge = k.growing && rw.b == m.growing[1]-1
	k.cur = m.segs[rw.seg].row0 == v.nav.cur
	k.rejected = v.rejected(rw.hunk)
	if s := v.sel.word; s != nil && (s.side == 0 && rw.a == s.line || s.side == 1 && rw.b == s.line) {
		k.rsel = *s
	}
	if ed := v.ed; ed != nil && rw.b >= 0 {
		if c := ed.buf.Cursor(); c.Line == rw.b {
			k.caret, k.focused = c.Col, ed.focused
		}
		if from, to, ok := ed.buf.Selection(); ok && rw.b >= from.Line && rw.b <= to.Line {
			k.sel = [2]int{-1, -1}
			if rw.b == from.Line {
				k.sel[0] = from.Col
			}
			if rw.b == to.Line {
				k.sel[1] = to.Col
			}
		}
	}
	return k
}

// tokensReady reports whether the syntax colours of every line row id
// shows are cached.
func (v *DiffView) tokensReady(id int) bool {
	if id < 0 || id >= v.model.Len() {
		return true
	}
	rw := v.model.Row(id)
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

// refreshTokens redraws the rows drawn without the syntax colours that
// have since arrived, only those.
func (v *DiffView) refreshTokens() {
	for _, r := range v.rows.widgets {
		if r.waitTok && v.tokensReady(r.id) {
			r.Refresh()
		}
	}
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

// rowSet is the row widgets the list made and what they were drawn from.
type rowSet struct {
	widgets     []*diffRow      // every row widget the list made (shown or pooled)
	shown       uint64          // bumped each time the list binds every row it shows again (show)
	gen         uint64          // bumped by every change of what rows show beyond their own rowKey
	keep        bool            // show: the new model's rows are told apart by their rowKey (a stream's chunk)
	theme       themeKey        // the theme the rows were drawn with
	dark        bool            // the rows' colours are for a dark theme
	darkSet     bool            // SetDark was called: no following the theme
	picture     rowPicture      // what rows paint into (rowpaint.go)
	failures    map[string]bool // panics in drawing a row, logged once each (diffRow.unavailable)
	unavailable int             // rows drawn as unavailable (a panic caught), ever
	created     int             // row widgets created (tests: only visible rows exist)
	drawn       int             // rows drawn, ever (tests: what a change costs)
	onBind      func(row int)   // tests: called for every row bound to a widget
}
