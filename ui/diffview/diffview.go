package diffview

import (
	"context"
	"image/color"
	"log"
	"math"
	"os"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/engine/words"
	"github.com/diffdesk/diffdesk/ui/diffview/textbuf"
)

// DiffView is a side-by-side diff of one file: line numbers, syntax
// colours, changed-line backgrounds with word-level emphasis, aligned filler
// rows, a hunk gutter with accept/reject toggles and an overview strip. Rows
// are virtualised: only the visible ones exist as canvas objects, so a
// 100k-line file costs what a 100-line one does on screen. One list holds
// both sides, so they scroll together by construction.
//
// The view shows one of three things: a complete proposal (SetTexts),
// a proposal still streaming in (SetStream) or a stale file (SetStale: the
// file on disk now against the proposal merged onto it, conflicts marked).
// With SetEditable the right side becomes a code editor whose diff against
// the original recomputes as the person types.
//
// Long lines either wrap (SetWrap(true)) or scroll horizontally: both
// sides share one horizontal offset, driven by the scrollbar under the
// view or by Shift+wheel (or a horizontal wheel) over the rows.
type DiffView struct {
	widget.BaseWidget

	drawFailures map[string]bool // panics in drawing a row, logged once each (diffRow.unavailable)
	unavailable  int             // rows drawn as unavailable (a panic caught), ever

	// OnHunkToggled is called after the person accepted or rejected a hunk
	// in the gutter (not for SetHunkAccepted).
	OnHunkToggled func(id string, accepted bool)
	// OnEdited is called after the person changed the editable right side
	// and the diff against the original was recomputed.
	OnEdited func()
	// OnFollowChanged is called when following the growing edge of a stream
	// turns on or off, by SetFollow or by the person scrolling away.
	OnFollowChanged func(on bool)
	// FontCovers reports whether some font draws rune r; SetTexts warns in
	// the view's banner about text no font covers. NewDiffView sets it to
	// look at Fyne's bundled fonts and the installed ones; nil checks
	// nothing.
	FontCovers func(r rune) bool
	// OnOpened is called when a diff SetTexts computed off the UI goroutine
	// (Opening) is shown: what shows its hunks can look again.
	OnOpened func()
	// OnEditorFocus is called when the editor gains (true) or loses the
	// keyboard.
	OnEditorFocus func(focused bool)
	// OnShortcut is called with a shortcut typed in the editor that the
	// editor does not use (Ctrl+Enter), so the window's own work there.
	OnShortcut func(fyne.Shortcut)
	// OnSearchClosed is called after the search bar closed (Esc, its
	// close button), so the window can take the keyboard back.
	OnSearchClosed func()
	// OnHunkSeen is called when a hunk's changed row is first on screen
	// (seen.go).
	OnHunkSeen func(id string)
	// OnJumped is called after a tap on the overview strip or a search
	// match went to a change, making it the current one (CurrentHunk), as
	// j and k do.
	OnJumped func()
	// OnEditAt is called when the person double-taps a line of the
	// proposal (0-based line and byte column of the right side) while the
	// view is not editable: the window starts editing there (place.go).
	OnEditAt func(line, col int)
	// Showing reports whether the view is on screen as far as its own
	// Visible cannot tell (a hidden tab holds it); nil: always. Seen
	// coverage counts nothing while it is false.
	Showing func() bool
	// ReadOnly shows a diff that decides nothing (History): no hunk
	// toggles in the gutter, and ToggleHunk does nothing.
	ReadOnly bool

	path     string
	model    *rowModel
	rsel     *readSel      // a word selected outside edit mode (textsel.go)
	hunks    []engine.Hunk // of model, computed on demand
	hunksOK  bool
	rejected map[string]bool     // hunk IDs the person rejected
	sight    sight               // which hunks were on screen (seen.go)
	notes    map[string]HunkNote // hunk ID → note at its first row: SetHunkNotes
	loose    [][2]int            // lines of the left text (0-based, half-open) loose matches replaced: SetLooseLines
	problems map[int]LineProblem // lines of the right text (0-based) with a checker's problem: SetProblems
	maxW     int                 // widest line in cells, both sides

	stream    *streamState
	following bool
	followY   float32 // list offset the view last scrolled to while following

	conflicts [][2]int // stale view: rows of b inside conflict markers
	stale     bool

	darkSet bool // SetDark was called: no following the theme
	wrap    bool

	folds    folds         // unchanged regions folded, and those opened (collapse.go)
	inline   bool          // SetInline
	ignoreWS bool          // SetIgnoreWhitespace
	wsOnly   []bool        // per change of wsFor: only whitespace differs
	wsFor    *rowModel     // the model wsOnly describes
	moves    []engine.Move // blocks moved (complete texts only)
	search   *search       // the search bar and its matches
	wrapped  map[int]int   // wrap mode: rows taller than one line → lines
	wrapIdx  wrapIndex     // wrapped, for offsets by binary search (wrapindex.go)
	dark     bool
	hoff     int       // horizontal offset in cells (no wrap)
	hacc     float32   // wheel movement not yet a whole cell
	curRow   int       // first row of the change NextHunk/PrevHunk went to; -1 for none
	wentTo   int       // the right side's line GoToLine went to, its number marked; -1 for none
	texts    [2]string // the texts SetTexts last showed: shown again (out of edit mode), their opened folds stay open
	width    float32
	metric   metrics

	picture    rowPicture // what rows paint into (rowpaint.go)
	ed         *Editor    // non-nil while editable
	colBufEd   []int32
	colBufWrap []int32  // visualLines
	winBufWrap [][2]int // visualLines
	// manualRediff stops the editor's re-diff timer: only flush re-diffs
	// (SetSynchronous, tests, benchmarks).
	manualRediff bool

	list      *widget.List
	listBox   fyne.CanvasObject
	overview  *overview
	hbar      *hscroll
	followBtn *widget.Button
	banner    *widget.Label
	editNote  *fyne.Container // over the rows while editable
	hl        *highlighter
	hlAhead   struct {
		m   *rowModel
		gen [2]uint64
		r   [2]int // rows asked for ahead
	}

	opening  *opening     // the diff SetTexts left computing; nil when none
	syncOpen bool         // SetTexts diffs on the caller's goroutine whatever the size: SetSynchronous
	post     func(func()) // runs a function on the UI goroutine: fyne.Do, or a test's queue

	created    int           // row widgets created (tests: only visible rows exist)
	drawn      int           // rows drawn, ever (tests: what a change costs)
	rowWidgets []*diffRow    // every row widget the list made (shown or pooled)
	drawGen    uint64        // bumped by every change of what rows show beyond their own rowKey
	keepRows   bool          // show: the new model's rows are told apart by their rowKey (a stream's chunk)
	drawTheme  themeKey      // the theme the rows were drawn with
	onBind     func(row int) // tests: called for every row bound to a widget
}

// streamState is what SetStream keeps between updates of one stream.
type streamState struct {
	path, old string
	a         []string
	live      *engine.LiveDiff
	pairs     map[engine.Op][]alignRow
	head      int // len(Done) at the last update
	headArr   *string
}

// metrics are the monospace cell sizes rows are laid out on.
type metrics struct {
	size  float32 // text size
	cell  float32 // width of one monospace cell
	line  float32 // height of one text line
	numW  float32 // width of a line-number column
	gutW  float32 // width of the hunk gutter
	sideW float32 // width of one side's text area
	leftW float32 // width of the left side (numbers and text); 0 for a new file
	cols  int     // cells visible per side
}

const (
	padText = 4  // space before a side's text
	stripW  = 14 // overview strip width
)

var monospace = fyne.TextStyle{Monospace: true}

// NewDiffView returns an empty diff view.
func NewDiffView() *DiffView {
	v := &DiffView{post: defaultPost, following: true, rejected: map[string]bool{}, sight: sight{seen: map[string]map[string]bool{}, lines: map[string]map[string]*lineSeen{}, edgeRow: -1}, curRow: -1, wentTo: -1, FontCovers: fontCovers, folds: folds{on: true, open: map[int][2]int{}}}
	v.ExtendBaseWidget(v)
	v.model = newRowModel(lineSet{}, lineSet{}, nil, [2]int{}, nil)
	v.hl = newHighlighter(v.refreshTokens)
	v.dark = darkBackground()
	v.list = v.newList() // wrapindex.go
	v.listBox = container.NewThemeOverride(v.list, tightTheme{})
	v.overview = newOverview(v)
	v.search = newSearch(v)
	v.hbar = newHScroll(v)
	v.hbar.Hide()
	v.followBtn = widget.NewButtonWithIcon("Follow", theme.MoveDownIcon(), func() { v.SetFollow(true) })
	v.followBtn.Importance = widget.HighImportance
	v.followBtn.Hide()
	v.banner = widget.NewLabel("")
	v.banner.Wrapping = fyne.TextWrapWord
	v.banner.Hide()
	note := canvas.NewRectangle(theme.Color(theme.ColorNameOverlayBackground))
	note.CornerRadius = 4
	note.StrokeWidth = 1
	note.StrokeColor = coloursFor(false).mineMark
	v.editNote = container.NewStack(note, widget.NewLabel(editNote))
	v.measure()
	return v
}

// editNote is the note over an editable view.
const editNote = "Editing: the right side is yours · your own changes are purple, the agent's green"

// CreateRenderer is part of fyne.Widget.
func (v *DiffView) CreateRenderer() fyne.WidgetRenderer {
	v.drawTheme = v.themeKey()
	return &diffViewRenderer{v: v}
}

// diffViewRenderer lays out the banner, the rows, the overview strip, the
// horizontal scrollbar and the follow button.
type diffViewRenderer struct{ v *DiffView }

func (r *diffViewRenderer) Destroy() {}

func (r *diffViewRenderer) MinSize() fyne.Size {
	return fyne.NewSize(200, 4*r.v.metric.line)
}

func (r *diffViewRenderer) Objects() []fyne.CanvasObject {
	v := r.v
	objs := []fyne.CanvasObject{v.listBox, v.overview, v.hbar, v.banner, v.search.bar, v.followBtn}
	if v.ed != nil {
		objs = append(objs, v.ed, v.editNote)
	}
	return objs
}

func (r *diffViewRenderer) Refresh() {
	v := r.v
	if !v.darkSet {
		v.dark = darkBackground()
	}
	v.measure()
	r.Layout(v.Size())
	// The window refreshes the pane around the view often (each streamed
	// chunk): rows whose drawing would not change are not drawn again.
	// The view's own changes bump drawGen (redraw); a theme's show here.
	if th := v.themeKey(); th != v.drawTheme {
		v.drawTheme = th
		v.drawGen++
	}
	v.list.Refresh()
	v.overview.Refresh()
	v.banner.Refresh()
	v.editNote.Objects[0].(*canvas.Rectangle).FillColor = theme.Color(theme.ColorNameOverlayBackground)
	v.editNote.Refresh()
}

func (r *diffViewRenderer) Layout(size fyne.Size) { r.v.layout(size) }

// layout places the view's parts in size.
func (v *DiffView) layout(size fyne.Size) {
	top := float32(0)
	if v.banner.Visible() {
		v.banner.Resize(fyne.NewSize(size.Width, v.banner.MinSize().Height))
		h := v.banner.MinSize().Height
		v.banner.Move(fyne.NewPos(0, 0))
		v.banner.Resize(fyne.NewSize(size.Width, h))
		top = h
	}
	if v.search.bar.Visible() {
		h := v.search.bar.MinSize().Height
		v.search.bar.Move(fyne.NewPos(0, top))
		v.search.bar.Resize(fyne.NewSize(size.Width, h))
		top += h
	}
	listW := size.Width - stripW
	v.setWidth(listW - theme.ScrollBarSize())
	bottom := size.Height
	v.updateHBar()
	if v.hbar.Visible() {
		h := v.hbar.MinSize().Height
		bottom -= h
		v.hbar.Move(fyne.NewPos(v.metric.numW, bottom))
		v.hbar.Resize(fyne.NewSize(listW-v.metric.numW, h))
	}
	v.listBox.Move(fyne.NewPos(0, top))
	v.listBox.Resize(fyne.NewSize(listW, bottom-top))
	v.overview.Move(fyne.NewPos(listW, top))
	v.overview.Resize(fyne.NewSize(stripW, bottom-top))
	if v.ed != nil {
		// The edit note floats over the rows' bottom right corner: a
		// banner above them would push them down under the pointer.
		s := v.editNote.MinSize()
		s.Width = min(s.Width, listW-theme.ScrollBarSize())
		v.editNote.Move(fyne.NewPos(listW-s.Width-theme.ScrollBarSize(), bottom-s.Height))
		v.editNote.Resize(s)
	}
	if v.followBtn.Visible() {
		s := v.followBtn.MinSize()
		v.followBtn.Move(fyne.NewPos(listW-s.Width-theme.ScrollBarSize()-8, bottom-s.Height-8))
		v.followBtn.Resize(s)
	}
	if v.ed != nil {
		v.ed.Move(fyne.NewPos(0, top))
		v.ed.Resize(fyne.NewSize(0, 0))
	}
}

// measure takes the monospace cell size from the theme.
func (v *DiffView) measure() {
	size := theme.TextSize()
	if v.metric.size == size {
		return
	}
	m := fyne.MeasureText("M", size, monospace)
	// Whole pixels a line (rowpaint.go: a row's picture spans its row
	// exactly, no seam or blur between rows).
	v.metric.size, v.metric.cell, v.metric.line = size, m.Width, float32(math.Ceil(float64(m.Height)))
	v.setWidth(v.width)
}

// setWidth recomputes the column widths for a list of width w.
func (v *DiffView) setWidth(w float32) {
	m := &v.metric
	digits := len(itoa(max(v.model.a.Len(), v.model.b.Len(), 999)))
	m.numW = float32(digits)*m.cell + 2*padText
	m.gutW = 2*m.cell + 2*padText
	m.sideW = max((w-2*m.numW-m.gutW)/2, m.cell)
	m.leftW = m.numW + m.sideW
	if v.model.shape.inline {
		// One column: both line numbers, the gutter, the text.
		m.leftW = 2 * m.numW
		m.sideW = max(w-2*m.numW-m.gutW, m.cell)
	} else if v.model.a.Len() == 0 && v.model.b.Len() > 0 {
		// A new file: nothing to show on the left, the right takes it all.
		m.leftW = 0
		m.sideW = max(w-m.numW-m.gutW, m.cell)
	}
	cols := max(int((m.sideW-padText)/m.cell), 1)
	changed := cols != m.cols || w != v.width
	m.cols, v.width = cols, w
	if changed && v.wrap {
		v.applyWrap()
	}
}

// tokenLine returns where the tokens of line i of side live: a streaming
// proposal's tail is the original's lines, so it uses theirs.
func (v *DiffView) tokenLine(side, i int) (int, int) {
	b := &v.model.b
	if side == 1 && v.stream != nil && len(b.tail) > 0 {
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
	if v.hlAhead.m == v.model && v.hlAhead.gen == v.hl.generation() && top-hlMargin >= v.hlAhead.r[0] && top+vis+hlMargin <= v.hlAhead.r[1] {
		return
	}
	v.hlAhead.m, v.hlAhead.gen, v.hlAhead.r = v.model, v.hl.generation(), [2]int{lo, hi}
	lines := v.tokenLinesIn(lo, hi)
	for s := range 2 {
		get, n := v.lineGetter(s)
		v.hl.ahead(s, lines[s], get, n)
	}
}

// visibleRows returns how many rows fit in the view.
func (v *DiffView) visibleRows() int {
	if v.metric.line <= 0 {
		return 50
	}
	return int(v.list.Size().Height/v.metric.line) + 1
}

// refreshRows redraws the visible rows (a toggled hunk, a new offset).
func (v *DiffView) refreshRows() { v.redrawRows() }

// redrawRows draws every visible row again.
func (v *DiffView) redrawRows() {
	v.drawGen++
	v.list.Refresh()
}

// redraw refreshes the whole view, every row drawn again.
func (v *DiffView) redraw() {
	v.drawGen++
	v.Refresh()
}

// themeKey is what of the theme the rows are drawn with.
type themeKey struct {
	dark   bool
	size   float32
	fg, bg color.Color
}

func (v *DiffView) themeKey() themeKey {
	return themeKey{v.dark, v.metric.size, theme.Color(theme.ColorNameForeground), theme.Color(theme.ColorNameBackground)}
}

// rowKey is what a row's drawing depends on besides the view's state as a
// whole (drawGen): a row bound again with the same key is left as drawn.
type rowKey struct {
	gen            uint64
	id             int
	rw             row
	a, b           string
	growing, edge  bool
	cur, readOnly  bool
	width, hoff    float32
	cols, rejected int
}

// rowKeyOf returns the key of row id as it would be drawn now.
func (v *DiffView) rowKeyOf(id int) rowKey {
	k := rowKey{gen: v.drawGen, id: id, width: v.width, hoff: float32(v.hoff), cols: v.metric.cols, readOnly: v.ReadOnly, rejected: len(v.rejected)}
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
	k.cur = m.segs[rw.seg].row0 == v.curRow
	return k
}

// refreshTokens redraws the rows drawn without the syntax colours that
// have since arrived, only those.
func (v *DiffView) refreshTokens() {
	for _, r := range v.rowWidgets {
		if r.waitTok && r.tokensReady() {
			r.Refresh()
		}
	}
}

// refreshRowsOf redraws the rows on screen for which redraw(row) is true
// (the rows of the change j left and of the one it went to), not every row.
func (v *DiffView) refreshRowsOf(redraw func(row int) bool) {
	for _, r := range v.rowWidgets {
		if r.id >= 0 && r.Visible() && redraw(r.id) {
			r.Refresh()
		}
	}
}

// show makes m the model on display.
func (v *DiffView) show(m *rowModel) {
	if sh := v.shape(); sh.inline || sh.fold || m.shape.inline || m.shape.fold {
		m.reshape(sh)
	}
	relined := v.model != m
	v.model = m
	v.hunks, v.hunksOK, v.sight.edgeRow = nil, false, -1
	v.setWidth(v.width)
	if v.wrap {
		v.applyWrap()
	}
	v.updateHBar()
	if relined && v.search.bar.Visible() && v.search.query != "" { // the editor's new lines: new matches
		v.findAll(v.search.query)
		v.updateCount()
	}
	v.overview.Refresh()
	if !v.keepRows || relined && v.search.bar.Visible() || v.ignoreWS {
		v.drawGen++
	}
	v.list.Refresh()
}

// widest returns the widest of lines in cells.
func widest(s *lineSet, from int) int {
	w := 0
	for i := from; i < s.Len(); i++ {
		l := s.Line(i)
		if len(l) <= w {
			continue
		}
		w = max(w, textbuf.Width(l))
	}
	return w
}

// SetTexts shows a complete proposal: the diff from old to new of the file
// at path (its extension chooses the syntax colours). Every hunk starts
// accepted; the view leaves edit mode, stream and stale views. The view
// opens at the top, except at the end of a stream of the same file and
// original, where it stays where following (or the person) left it.
func (v *DiffView) SetTexts(path, old, new string) {
	ended := v.stream != nil && v.stream.path == path && v.stream.old == old
	keepY := v.list.GetScrollOffset()
	v.cancelOpening()
	v.stopEditing()
	v.stream, v.stale, v.conflicts = nil, false, nil
	v.banner.Hide()
	v.followBtn.Hide()
	if path != v.path || old != v.texts[0] || new != v.texts[1] {
		v.folds.open = map[int][2]int{} // what the person opened was of other texts
		v.rsel = nil
	}
	v.path, v.texts = path, [2]string{old, new}
	v.clearSearch()
	v.rejected = map[string]bool{}
	v.loose, v.problems, v.notes = nil, nil, nil
	v.hoff = 0
	v.hbar.set(0, v.hbar.max)
	if !v.syncOpen && !ended && len(old)+len(new) > asyncBytes {
		v.openAsync(old, new)
		return
	}
	r, _ := openTexts(context.Background(), old, new, v.shape())
	v.install(r, ended, keepY)
}

// install shows r, the diff of the texts SetTexts was given: at the top,
// or at keepY when a stream ended.
func (v *DiffView) install(r opened, ended bool, keepY float32) {
	m := r.m
	v.moves = r.moves
	// The model first: anything that binds rows from here on (scrolling
	// to the top) must see the new lines, or their tokens would be cached
	// under the new generation.
	v.model, v.hunks, v.hunksOK, v.curRow, v.sight.edgeRow, v.wentTo = m, nil, false, -1, -1, -1
	v.hl.reset(v.path)
	v.maxW = r.maxW
	if !ended {
		v.list.ScrollToTop()
	}
	if script := v.missingScriptIn(r); script != "" {
		v.banner.SetText("No installed font draws " + script + " text: it shows as boxes. Install a font that covers it " +
			"and restart DiffDesk (on Debian " + fontFallbackPackage + " covers Chinese and Japanese, fonts-noto-cjk Korean too).")
		v.banner.Show()
	}
	v.show(m)
	v.layout(v.Size())
	if ended {
		v.list.ScrollToOffset(keepY)
	}
	if frameLog && m.Len() > 0 {
		// The rows are drawn: the next frame shows them (test/windowbench
		// times a first paint from this line to that frame).
		log.Printf("diffview: rows drawn: %s, %d rows", v.path, m.Len())
	}
}

// frameLog ($DIFFDESK_FRAMELOG set) logs when a new diff's rows are drawn.
var frameLog = os.Getenv("DIFFDESK_FRAMELOG") != ""

// SetStream shows a proposal that is still streaming in. Successive calls
// for the same path and old update the view incrementally (engine.LiveDiff
// re-diffs only near the frontier); the growing region (p.Growing) is
// marked and followed while Following is true. When the stream ends, call
// SetTexts with the final text.
func (v *DiffView) SetStream(path, old string, p engine.Preview) {
	st := v.stream
	if st == nil || st.path != path || st.old != old {
		v.cancelOpening()
		v.stopEditing()
		v.stale, v.conflicts = false, nil
		v.banner.Hide()
		a := engine.SplitLines(old)
		st = &streamState{path: path, old: old, a: a, live: engine.NewLiveDiff(a), pairs: map[engine.Op][]alignRow{}}
		v.stream = st
		v.moves = nil
		v.clearSearch()
		v.path = path
		v.curRow, v.wentTo = -1, -1
		v.rejected = map[string]bool{}
		v.hoff = 0
		v.hl.reset(path)
		v.maxW = widest(&lineSet{head: a}, 0)
		if !v.following {
			v.following = true
			if v.OnFollowChanged != nil {
				v.OnFollowChanged(true)
			}
		}
		v.followY = -1
	}
	// A new backing array for Done (an out-of-order block) or fewer lines
	// means earlier lines changed: their tokens and spans go.
	newArr := len(p.Done) > 0 && &p.Done[0] != st.headArr
	from := st.head
	if newArr && st.headArr != nil || len(p.Done) < st.head {
		from = 0
		st.pairs = map[engine.Op][]alignRow{}
	}
	if len(p.Done) > 0 {
		st.headArr = &p.Done[0]
	}
	st.live.Update(p.Done, p.TailStart)
	ops := st.live.Ops()
	// The tail as the live diff takes it, the original from TailStart:
	// p.Tail is that sub-slice, but the zero Preview of a stream before
	// its first chunk has none while it stands for the whole original.
	tailStart := min(max(p.TailStart, 0), len(st.a))
	b := lineSet{head: p.Done, tail: st.a[tailStart:], tailStart: tailStart}
	if p.Partial != "" {
		ops = spliceLine(ops, len(p.Done))
		b.mid = []string{p.Partial}
	}
	var grow [2]int
	if p.Growing.End >= p.Growing.Start && p.Growing.Start > 0 {
		grow = [2]int{p.Growing.Start - 1, p.Growing.End}
	}
	m := newRowModel(lineSet{head: st.a}, b, ops, grow, st.pairs)
	if old := v.model; old != nil && from > 0 && old.words != nil {
		m.words = old.words // done lines never change: their spans stay
	}
	v.model = m
	v.hl.invalidateFrom(1, from)
	st.head = len(p.Done)
	v.maxW = max(v.maxW, widest(&lineSet{head: p.Done[min(from, len(p.Done)):], mid: b.mid}, 0))
	// Rows whose lines and marks stay as they were (above the growing
	// edge) are not drawn again for each chunk.
	v.keepRows = from > 0
	v.show(m)
	v.keepRows = false
	v.followEdge()
}

// followEdge scrolls to the growing edge while following; an offset other
// than the one it last set means the person scrolled away.
func (v *DiffView) followEdge() {
	if !v.following || v.stream == nil {
		v.followBtn.Hide()
		return
	}
	if v.followY >= 0 && v.list.GetScrollOffset() != v.followY {
		v.setFollowing(false)
		return
	}
	edge := v.model.Len() - 1
	if v.model.growing[1] > v.model.growing[0] {
		edge = v.model.RowOfB(v.model.growing[1] - 1)
	}
	cur, y := v.list.GetScrollOffset(), v.rowY(edge+1)-v.list.Size().Height
	if y > cur || v.rowY(edge) < cur {
		v.list.ScrollToOffset(max(y, 0))
	}
	v.followY = v.list.GetScrollOffset()
}

func (v *DiffView) setFollowing(on bool) {
	if v.following == on {
		return
	}
	v.following = on
	if on {
		v.followY = -1
		v.followBtn.Hide()
	} else if v.stream != nil {
		v.followBtn.Show()
	}
	v.redraw()
	if v.OnFollowChanged != nil {
		v.OnFollowChanged(on)
	}
}

// SetStale shows a stale file: disk is the file as it is now, res the
// proposal's changes merged onto it (the desk's merge). The left side is
// the disk; the right side the merge, with conflict regions marked; a
// banner says so.
func (v *DiffView) SetStale(disk string, res engine.MergeResult) {
	v.SetTexts(v.path, disk, res.Text)
	v.settle() // the conflicts are rows of the diff
	v.stale = true
	for _, c := range res.Conflicts {
		v.conflicts = append(v.conflicts, [2]int{c.Line0, c.Line1})
	}
	msg := "Stale: left is the file on disk now, right the proposal's changes merged onto it"
	switch n := len(res.Conflicts); n {
	case 0:
		msg += " (no conflicts)."
	case 1:
		msg += "; 1 conflict (orange)."
	default:
		msg += "; " + itoa(n) + " conflicts (orange)."
	}
	v.banner.SetText(msg)
	v.banner.Show()
	v.redraw()
}

// SetLooseLines marks lines of the left text (0-based, half-open ranges)
// that an edit replaced by a loose match — not the agent's exact text — with
// a bar at the left edge. SetTexts clears the marks.
func (v *DiffView) SetLooseLines(ranges [][2]int) {
	v.loose = ranges
	v.refreshRows()
}

// LooseLine reports whether line a (0-based) of the left text is marked
// loose.
func (v *DiffView) LooseLine(a int) bool {
	for _, r := range v.loose {
		if a >= r[0] && a < r[1] {
			return true
		}
	}
	return false
}

// Stale reports whether the view shows a stale file (SetStale).
func (v *DiffView) Stale() bool { return v.stale }

// inConflict reports whether line b of the right side is in a conflict.
func (v *DiffView) inConflict(b int) bool {
	for _, c := range v.conflicts {
		if b >= c[0] && b < c[1] {
			return true
		}
	}
	return false
}

// topRow returns the row at the top of the visible rows.
func (v *DiffView) topRow() int {
	if v.metric.line <= 0 {
		return 0
	}
	return v.rowAtY(v.list.GetScrollOffset() + 1)
}

// rowAtY returns the row at offset y of the list's content.
func (v *DiffView) rowAtY(y float32) int {
	if !v.wrap || len(v.wrapped) == 0 {
		return min(max(int(y/v.metric.line), 0), max(v.model.Len()-1, 0))
	}
	return v.wrapIdx.at(y, v.model.Len(), v.metric.line)
}

// rowY returns the offset of row i in the list's content.
func (v *DiffView) rowY(i int) float32 {
	if !v.wrap || len(v.wrapped) == 0 {
		return float32(i) * v.metric.line
	}
	return v.wrapIdx.y(i, v.metric.line)
}

// hunkLead is how many rows above a hunk NextHunk and PrevHunk leave.
const hunkLead = 3

// hunkRef returns the row next/previous hunk count from: the change
// last jumped to while it is still on screen, else the row hunkLead below
// the top of the view (before the first row at the very top).
func (v *DiffView) hunkRef() int {
	top := v.topRow()
	if v.curRow >= 0 && v.curRow >= top && v.curRow < top+v.visibleRows() {
		return v.curRow
	}
	if v.list.GetScrollOffset() <= 0 {
		return -1
	}
	return top + hunkLead
}

// NextHunk scrolls to the next change: after the one last jumped to, or
// below the top of the view. It reports false when there is none.
func (v *DiffView) NextHunk() bool {
	if v.opening != nil {
		v.opening.firstHunk = true // when the diff arrives
		return true
	}
	ref := v.hunkRef()
	for _, r := range v.changeRows() {
		if r > ref {
			v.scrollToRow(r)
			return true
		}
	}
	return false
}

// PrevHunk scrolls to the change before the one last jumped to (or
// before the top of the view). It reports false when there is none.
func (v *DiffView) PrevHunk() bool {
	ref := v.hunkRef()
	if ref < 0 {
		return false
	}
	rows := v.changeRows()
	for k := len(rows) - 1; k >= 0; k-- {
		if rows[k] < ref {
			v.scrollToRow(rows[k])
			return true
		}
	}
	return false
}

// LastHunk scrolls to the last change; false when there is none.
func (v *DiffView) LastHunk() bool {
	rows := v.changeRows()
	if len(rows) == 0 {
		return false
	}
	v.scrollToRow(rows[len(rows)-1])
	return true
}

// leadY is the offset that puts row r hunkLead lines below the top of the
// view: lines, not rows, since with wrap a row above it may be hundreds of
// lines tall and would push r off the bottom.
func (v *DiffView) leadY(r int) float32 {
	return max(v.rowY(r)-hunkLead*v.metric.line, 0)
}

// scrollToRow puts row r hunkLead lines below the top of the view, and
// the change starting there into view horizontally.
func (v *DiffView) scrollToRow(r int) {
	was := v.curRow
	v.curRow = r
	v.list.ScrollToOffset(v.leadY(r))
	v.revealChange(r)
	// Rows the scroll bound are drawn; of those on screen before, only the
	// rows of the change left and of the one gone to show the mark.
	m := v.model
	v.refreshRowsOf(func(i int) bool {
		if i >= m.Len() {
			return false
		}
		s := m.segs[m.segAt(i)].row0
		return s == r || s == was
	})
	if v.stream != nil && v.following {
		v.setFollowing(false)
	}
}

// revealChange scrolls horizontally (without wrap) so that the word spans
// of the change starting at row r are in view: from the lines' start when
// the spans begin in the first three quarters of the pane, else where they
// begin, with a little context before them, unless they are in view
// already. A change
// without word spans (whole lines added or removed) shows from the lines'
// start. Only the rows on screen are looked at.
func (v *DiffView) revealChange(r int) {
	if v.wrap {
		return
	}
	m := v.model
	seg := m.segs[m.segAt(r)]
	c0, c1 := -1, -1
	for i := r; i < min(seg.row0+seg.rows, r+v.visibleRows()); i++ {
		rw := m.Row(i)
		w := m.Words(rw)
		span := func(s string, sps []words.Span) {
			if len(sps) == 0 {
				return
			}
			v.colBufEd = columns(s, v.colBufEd)
			lo, hi := int(v.colBufEd[sps[0].Start]), int(v.colBufEd[sps[len(sps)-1].End])
			if c0 < 0 || lo < c0 {
				c0 = lo
			}
			c1 = max(c1, hi)
		}
		if rw.a >= 0 {
			span(m.a.Line(rw.a), w.del)
		}
		if rw.b >= 0 {
			span(m.b.Line(rw.b), w.ins)
		}
	}
	cols := v.metric.cols
	switch {
	case c0 < 0 || c1 <= cols || c0 < cols*3/4:
		// Nothing to show, or its start fits with the lines' start: a
		// reader keeps the left margin rather than the change's end.
		v.setHOffset(0)
	case c0 >= v.hoff && min(c1, c0+cols) <= v.hoff+cols:
		// in view already
	default:
		v.setHOffset(c0 - min(8, cols/4))
	}
}

// Hunks returns the hunks of the diff shown, in order (each with 3 lines
// of context; IDs as engine.Hunks gives them, so engine.ApplyHunks with
// AcceptedHunks applies the person's choice). In edit mode they describe
// the edited text, compared without line endings.
func (v *DiffView) Hunks() []engine.Hunk {
	v.settle()
	if !v.hunksOK {
		v.hunks, v.hunksOK = v.model.Hunks(), true
	}
	return v.hunks
}

// SetHunkAccepted accepts or rejects the hunk with the given ID.
func (v *DiffView) SetHunkAccepted(id string, ok bool) {
	if ok {
		delete(v.rejected, id)
	} else {
		v.rejected[id] = true
	}
	v.refreshRows()
	v.overview.Refresh()
}

// AcceptedHunks returns the IDs of the accepted hunks, in order.
func (v *DiffView) AcceptedHunks() []string {
	var out []string
	for _, h := range v.Hunks() {
		if !v.rejected[h.ID] {
			out = append(out, h.ID)
		}
	}
	return out
}

// hunkID returns the ID of change k (its index in Hunks order).
func (v *DiffView) hunkID(k int) string {
	hs := v.Hunks()
	if k < 0 || k >= len(hs) {
		return ""
	}
	return hs[k].ID
}

// ToggleHunk flips hunk k (its index in Hunks) from accepted to rejected
// or back, as a tap in the gutter does, and calls OnHunkToggled. It does
// nothing while a stream runs or the view is editable.
func (v *DiffView) ToggleHunk(k int) {
	if v.stream != nil || v.ed != nil || v.ReadOnly {
		return // decisions wait for the stream's end; edits replace hunks
	}
	id := v.hunkID(k)
	if id == "" {
		return
	}
	ok := v.rejected[id]
	v.SetHunkAccepted(id, ok)
	if v.OnHunkToggled != nil {
		v.OnHunkToggled(id, ok)
	}
}

// CurrentHunk returns the index in Hunks of the change NextHunk or
// PrevHunk last went to, or -1 when there is none.
func (v *DiffView) CurrentHunk() int {
	if v.curRow < 0 || v.curRow >= v.model.Len() {
		return -1
	}
	return v.model.Row(v.curRow).hunk
}

// GoToLine scrolls to line n (1-based) of the right side, as NextHunk
// scrolls to a change; j and k go on from there. It reports false when the
// right side has no line n.
func (v *DiffView) GoToLine(n int) bool {
	if n < 1 || n > v.model.b.Len() {
		return false
	}
	v.wentTo = n - 1 // its number stands out: the eye finds the line
	v.scrollToRow(v.revealLine(1, n-1))
	v.refreshRows()
	return true
}

// Lines returns the number of lines of the right side.
func (v *DiffView) Lines() int { return v.model.b.Len() }

// SetFollow turns following the growing edge of a stream on or off.
func (v *DiffView) SetFollow(on bool) {
	v.setFollowing(on)
	if on {
		v.followEdge()
	}
}

// Following reports whether the view follows the growing edge of a stream.
func (v *DiffView) Following() bool { return v.following }

// userScrolled is called when the person scrolls the rows; scrolling up
// during a stream stops following.
func (v *DiffView) userScrolled(dy float32) {
	if dy > 0 && v.stream != nil && v.following {
		v.setFollowing(false)
	}
}

// SetWrap wraps long lines (on) or scrolls them horizontally (off). The
// change j/k went to, while on screen, stays where it is; else the row on
// top of the view stays on top.
func (v *DiffView) SetWrap(on bool) {
	if v.wrap == on {
		return
	}
	top := v.topRow()
	curY := float32(-1)
	if v.CurrentOnScreen() { // the change j/k went to stays where it is on screen
		curY = v.rowY(v.curRow) - v.list.GetScrollOffset()
	}
	v.wrap = on
	v.hoff = 0
	if on {
		v.applyWrap()
	} else {
		v.clearWrap()
	}
	v.redraw()
	if curY >= 0 {
		v.list.ScrollToOffset(max(v.rowY(v.curRow)-curY, 0))
		return
	}
	v.list.ScrollToOffset(v.rowY(top))
}

// SetDark chooses the syntax and diff colours for a dark (or light) theme.
// Until it is called, the view follows the luminance of the theme's
// background colour.
func (v *DiffView) SetDark(dark bool) {
	v.darkSet = true
	if v.dark == dark {
		return
	}
	v.dark = dark
	v.redraw()
}

// Dark reports whether the view uses its colours for a dark theme.
func (v *DiffView) Dark() bool { return v.dark }

// darkBackground reports whether the current theme's background is dark.
func darkBackground() bool {
	if fyne.CurrentApp() == nil {
		return false
	}
	r, g, b, _ := theme.Color(theme.ColorNameBackground).RGBA()
	return 299*r+587*g+114*b < 500*0xffff
}

// setHOffset scrolls both sides horizontally to cell c.
func (v *DiffView) setHOffset(c int) {
	c = min(max(c, 0), max(v.maxW-v.metric.cols+1, 0))
	if c == v.hoff {
		return
	}
	v.hoff = c
	v.hbar.set(c, v.hbar.max)
	v.refreshRows()
}

// updateHBar shows the horizontal scrollbar when lines overflow.
func (v *DiffView) updateHBar() {
	over := v.maxW - v.metric.cols + 1
	if v.wrap || over <= 0 {
		if v.hbar.Visible() {
			v.hbar.Hide()
		}
		return
	}
	v.hbar.set(min(v.hoff, over), over)
	if !v.hbar.Visible() {
		v.hbar.Show()
	}
}

// wrapped holds the rows taller than one line in wrap mode.
func (v *DiffView) rowHeight(i int) float32 {
	if n, ok := v.wrapped[i]; ok {
		return float32(n) * v.metric.line
	}
	return v.metric.line
}

// visualLines returns how many lines row r takes when wrapped.
func (v *DiffView) visualLines(r row) int {
	n := 1
	lines := func(s string) int {
		v.colBufWrap = columns(s, v.colBufWrap)
		v.winBufWrap = wrapWindows(s, v.colBufWrap, v.metric.cols, v.winBufWrap)
		return len(v.winBufWrap)
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
	old := v.wrapped
	v.wrapped = w
	v.wrapIdx.build(w)
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
	w := make(map[int]int, len(v.wrapped))
	for i, n := range v.wrapped {
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

func (v *DiffView) clearWrap() {
	old := v.wrapped
	v.wrapped = nil
	v.wrapIdx.build(nil)
	if len(old) > manyHeights {
		v.replaceList(nil)
		return
	}
	for i := range old {
		v.list.SetItemHeight(i, v.metric.line)
	}
}

// SetOpenPoster makes SetTexts diff big texts off the caller's goroutine
// and hand the result back through post (fyne.Do by default, for a view
// made SetSynchronous): a host running its own loop, or a test, passes
// its own.
func (v *DiffView) SetOpenPoster(post func(func())) {
	v.syncOpen = false
	v.post = post
}

// SetSynchronous keeps the view's work on the calling goroutine: SetTexts
// diffs texts of any size before it returns, syntax
// colours are computed as soon as rows ask for them, and the editor's full
// re-diff after a typing pause is left out (the diff is still patched
// around each edit at once). For tests on Fyne's test driver, whose
// fyne.Do runs on the caller's goroutine, so the view's own goroutines
// would race the test.
func (v *DiffView) SetSynchronous(on bool) {
	v.hl.inline = on
	v.manualRediff = on
	v.syncOpen = on
}

// tightTheme removes the padding between list rows.
type tightTheme struct{}

func (tightTheme) Color(n fyne.ThemeColorName, vr fyne.ThemeVariant) color.Color {
	return fyne.CurrentApp().Settings().Theme().Color(n, vr)
}
func (tightTheme) Font(s fyne.TextStyle) fyne.Resource {
	return fyne.CurrentApp().Settings().Theme().Font(s)
}
func (tightTheme) Icon(n fyne.ThemeIconName) fyne.Resource {
	return fyne.CurrentApp().Settings().Theme().Icon(n)
}
func (tightTheme) Size(n fyne.ThemeSizeName) float32 {
	if n == theme.SizeNamePadding {
		return 0
	}
	return fyne.CurrentApp().Settings().Theme().Size(n)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
