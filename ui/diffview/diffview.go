package diffview

import (
	"context"
	"image/color"
	"log"
	"math"
	"os"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

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
	Hooks

	// ReadOnly shows a diff that decides nothing (History): no hunk
	// toggles in the gutter, and ToggleHunk does nothing.
	ReadOnly bool

	doc    doc // the file on show
	model  *rowModel
	metric metrics

	dec    decisions // the hunks and which the person rejected (hunks.go)
	nav    Nav       // j/k, go-to-line, the page keys: the change they went to (nav.go)
	feed   feed      // a stream and following its growing edge (stream.go)
	marks  Marks     // stale conflicts, loose lines, checkers' problems, notes, moved blocks (marks.go)
	folds  Folds     // unchanged regions folded, those opened, the inline layout (collapse.go)
	ws     wsState   // whitespace ignored (whitespace.go)
	wr     wrapping  // wrapped rows (wrap.go)
	seen   *Seen     // which hunks were on screen (seen.go)
	search *Search   // the search bar and its matches (search.go)
	sel    Selection // a word selected outside edit mode (textsel.go)
	ed     *Editor   // non-nil while editable (editor.go)
	edit   editGlue  // what the view keeps for editing beside the Editor (editor.go)
	open   opener    // the diff SetTexts left computing (open.go)
	rows   rowSet    // the row widgets and what they were drawn from (row.go)
	parts  rowParts  // what the rows reach of the view (row.go)

	list     *widget.List
	listBox  fyne.CanvasObject
	overview *overview
	hbar     *hscroll // the horizontal scrollbar and offset both sides share
	banner   *widget.Label
	hl       *highlighter
}

// Hooks are the callbacks through which a DiffView tells its host what
// the person did; nil ones are not called.
type Hooks struct {
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
}

// doc is the file on show and the texts SetTexts last showed: shown
// again (out of edit mode), their opened folds stay open.
type doc struct {
	path  string
	texts [2]string
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
	width float32 // the rows' width
}

const (
	padText = 4  // space before a side's text
	stripW  = 14 // overview strip width
)

var monospace = fyne.TextStyle{Monospace: true}

// NewDiffView returns an empty diff view.
func NewDiffView() *DiffView {
	v := &DiffView{open: opener{post: fyne.Do}, feed: feed{on: true}, dec: decisions{rejected: map[string]bool{}}, folds: Folds{on: true, open: map[int][2]int{}}}
	v.folds.host, v.folds.nav, v.marks.host, v.sel.host = v, &v.nav, v, v
	v.wr.host, v.wr.mt = v, &v.metric
	v.nav = Nav{host: v, wr: &v.wr, folds: &v.folds, mt: &v.metric, cur: -1, wentTo: -1}
	v.FontCovers = fontCovers
	v.ExtendBaseWidget(v)
	v.model = newRowModel(lineSet{}, lineSet{}, nil, [2]int{}, nil)
	v.hl = newHighlighter(v.refreshTokens)
	v.rows.dark = darkBackground()
	v.overview = newOverview(v)
	v.seen = newSeen(v)
	v.search = newSearch(v)
	v.hbar = newHScroll(v, &v.metric)
	v.hbar.Hide()
	v.parts = rowParts{rowHost: v, rows: &v.rows, metric: &v.metric, marks: &v.marks, folds: &v.folds, search: v.search, sel: &v.sel, nav: &v.nav, wr: &v.wr, hbar: v.hbar}
	v.list = v.newList() // wrapindex.go
	v.listBox = container.NewThemeOverride(v.list, tightTheme{})
	v.feed.btn = widget.NewButtonWithIcon("Follow", theme.MoveDownIcon(), func() { v.SetFollow(true) })
	v.feed.btn.Importance = widget.HighImportance
	v.feed.btn.Hide()
	v.banner = widget.NewLabel("")
	v.banner.Wrapping = fyne.TextWrapWord
	v.banner.Hide()
	note := canvas.NewRectangle(theme.Color(theme.ColorNameOverlayBackground))
	note.CornerRadius = 4
	note.StrokeWidth = 1
	note.StrokeColor = coloursFor(false).mineMark
	v.edit.note = container.NewStack(note, widget.NewLabel(editNote))
	v.measure()
	return v
}

// editNote is the note over an editable view.
const editNote = "Editing: the right side is yours · your own changes are purple, the agent's green"

// CreateRenderer is part of fyne.Widget.
func (v *DiffView) CreateRenderer() fyne.WidgetRenderer {
	v.rows.theme = v.themeKey()
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
	objs := []fyne.CanvasObject{v.listBox, v.overview, v.hbar, v.banner, v.search.bar, v.feed.btn}
	if v.ed != nil {
		objs = append(objs, v.ed, v.edit.note)
	}
	return objs
}

func (r *diffViewRenderer) Refresh() {
	v := r.v
	if !v.rows.darkSet {
		v.rows.dark = darkBackground()
	}
	v.measure()
	r.Layout(v.Size())
	// The window refreshes the pane around the view often (each streamed
	// chunk): rows whose drawing would not change are not drawn again.
	// The view's own changes bump rows.gen (redraw); a theme's show here.
	if th := v.themeKey(); th != v.rows.theme {
		v.rows.theme = th
		v.rows.gen++
	}
	v.list.Refresh()
	v.overview.Refresh()
	v.banner.Refresh()
	v.edit.note.Objects[0].(*canvas.Rectangle).FillColor = theme.Color(theme.ColorNameOverlayBackground)
	v.edit.note.Refresh()
}

func (r *diffViewRenderer) Layout(size fyne.Size) { r.v.layout(size) }

// layout places the view's parts in size.
func (v *DiffView) layout(size fyne.Size) {
	top := float32(0)
	if v.banner.Visible() {
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
		s := v.edit.note.MinSize()
		s.Width = min(s.Width, listW-theme.ScrollBarSize())
		v.edit.note.Move(fyne.NewPos(listW-s.Width-theme.ScrollBarSize(), bottom-s.Height))
		v.edit.note.Resize(s)
	}
	if v.feed.btn.Visible() {
		s := v.feed.btn.MinSize()
		v.feed.btn.Move(fyne.NewPos(listW-s.Width-theme.ScrollBarSize()-8, bottom-s.Height-8))
		v.feed.btn.Resize(s)
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
	v.setWidth(v.metric.width)
}

// setWidth recomputes the column widths for a list of width w.
func (v *DiffView) setWidth(w float32) {
	m := &v.metric
	digits := len(strconv.Itoa(max(v.model.a.Len(), v.model.b.Len(), 999)))
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
	changed := cols != m.cols || w != v.metric.width
	m.cols, v.metric.width = cols, w
	if changed && v.wr.on {
		v.wr.apply()
	}
}

// show makes m the model on display.
func (v *DiffView) show(m *rowModel) {
	if sh := v.shape(); sh.inline || sh.fold || m.shape.inline || m.shape.fold {
		m.reshape(sh)
	}
	relined := v.model != m
	v.model = m
	v.dec.hunks, v.dec.ok = nil, false
	v.seen.rowsChanged()
	v.setWidth(v.metric.width)
	if v.wr.on {
		v.wr.apply()
	}
	v.updateHBar()
	if relined { // the editor's new lines: new matches
		v.search.relined()
	}
	v.overview.Refresh()
	if !v.rows.keep || relined && v.search.Open() || v.ws.ignore {
		v.rows.gen++
	}
	v.rows.shown++ // the list binds every row it shows again: those it does not are off screen
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
	ended := v.feed.st != nil && v.feed.st.path == path && v.feed.st.old == old
	keepY := v.list.GetScrollOffset()
	v.cancelOpening()
	v.stopEditing()
	v.feed.st, v.marks.stale, v.marks.conflicts = nil, false, nil
	v.banner.Hide()
	v.feed.btn.Hide()
	if path != v.doc.path || old != v.doc.texts[0] || new != v.doc.texts[1] {
		v.folds.closeAll() // what the person opened was of other texts
		v.sel.word = nil
	}
	v.doc.path, v.doc.texts = path, [2]string{old, new}
	v.search.clear()
	v.dec.rejected = map[string]bool{}
	v.marks.loose, v.marks.problems, v.marks.notes = nil, nil, nil
	v.hbar.off = 0
	v.hbar.set(0, v.hbar.max)
	if !v.open.sync && !ended && len(old)+len(new) > asyncBytes {
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
	v.marks.moves = r.moves
	// The model first: anything that binds rows from here on (scrolling
	// to the top) must see the new lines, or their tokens would be cached
	// under the new generation.
	v.model, v.dec.hunks, v.dec.ok = m, nil, false
	v.nav.forget()
	v.seen.rowsChanged()
	v.hl.reset(v.doc.path)
	v.hbar.maxW = r.maxW
	if !ended {
		v.list.ScrollToTop()
	}
	if script := missingScript(v.FontCovers, r); script != "" {
		v.banner.SetText("No installed font draws " + script + " text: it shows as boxes. Install a font that covers it " +
			"and restart DiffDesk (on Debian " + fontFallbackPackage + " covers Chinese and Japanese, fonts-noto-cjk Korean too).")
		v.banner.Show()
	}
	v.show(m)
	v.relayout()
	if ended {
		v.list.ScrollToOffset(keepY)
	}
	if frameLog && m.Len() > 0 {
		// The rows are drawn: the next frame shows them (test/windowbench
		// times a first paint from this line to that frame).
		log.Printf("diffview: rows drawn: %s, %d rows", v.doc.path, m.Len())
	}
}

// Search is the view's search bar.
func (v *DiffView) Search() *Search { return v.search }

// Seen is the view's seen coverage.
func (v *DiffView) Seen() *Seen { return v.seen }

// shown is the model on display.
func (v *DiffView) shown() *rowModel { return v.model }

// relayout lays the view's parts out again (a bar shown or hidden).
func (v *DiffView) relayout() { v.layout(v.Size()) }

// canvas is the canvas the view is on, nil before it is on one.
func (v *DiffView) canvas() fyne.Canvas { return fyne.CurrentApp().Driver().CanvasForObject(v) }

// frameLog ($DIFFDESK_FRAMELOG set) logs when a new diff's rows are drawn.
var frameLog = os.Getenv("DIFFDESK_FRAMELOG") != ""

// Lines returns the number of lines of the right side.
func (v *DiffView) Lines() int { return v.model.b.Len() }

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
