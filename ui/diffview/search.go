package diffview

import (
	"sort"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/engine"
)

// Search is the view's search bar (Show) and the matches of its query in
// the diff shown. It reaches the view only through searchHost.
type Search struct {
	host searchHost
	// OnClosed is called after the bar closed (Esc, its close button), so
	// the window can take the keyboard back.
	OnClosed func()
	bar      *fyne.Container
	entry    *searchEntry
	count    *widget.Label
	query    string
	matches  []match
	bySide   [2][]int32 // indexes into matches, per side, in order of line
	cur      int        // the match on show, -1 for none
	capped   bool       // more than maxMatches matched
}

// searchHost is what the search bar needs of its view: the rows it
// searches, the row on top, a match brought into view, room for the bar,
// the rows drawn again with their matches, the canvas for the keyboard.
type searchHost interface {
	shown() *rowModel
	topRow() int
	goToMatch(mt match)
	relayout()
	redrawRows()
	canvas() fyne.Canvas
}

// match is one occurrence of the query: bytes start:end of a line.
type match struct {
	side       uint8 // 0 the left text (a), 1 the right (b)
	line       int32
	start, end int32
}

// maxMatches bounds the matches a query keeps (and counts).
const maxMatches = 100_000

// newSearch builds a hidden search bar over host.
func newSearch(host searchHost) *Search {
	s := &Search{host: host, cur: -1}
	s.entry = &searchEntry{s: s}
	s.entry.ExtendBaseWidget(s.entry)
	s.entry.SetPlaceHolder("Search both sides (Enter: next, Shift+Enter: previous, Esc: close)")
	s.entry.OnChanged = s.Set
	s.count = widget.NewLabel("")
	prev := widget.NewButtonWithIcon("", theme.MoveUpIcon(), func() { s.Prev() })
	next := widget.NewButtonWithIcon("", theme.MoveDownIcon(), func() { s.Next() })
	closeBtn := widget.NewButtonWithIcon("", theme.CancelIcon(), s.Close)
	s.bar = container.NewBorder(nil, nil, nil, container.NewHBox(s.count, prev, next, closeBtn), s.entry)
	s.bar.Hide()
	return s
}

// searchEntry is the search bar's text box: Enter and F3 go to the next
// match, with Shift to the previous, Esc closes the bar.
type searchEntry struct {
	widget.Entry
	s     *Search
	shift bool
}

// KeyDown tracks Shift (Shift+Enter reaches TypedKey as Enter).
func (e *searchEntry) KeyDown(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		e.shift = true
	}
	e.Entry.KeyDown(k)
}

// KeyUp tracks Shift.
func (e *searchEntry) KeyUp(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		e.shift = false
	}
	e.Entry.KeyUp(k)
}

// TypedKey answers the search keys; others edit the query.
func (e *searchEntry) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyEscape:
		e.s.Close()
	case fyne.KeyReturn, fyne.KeyEnter, fyne.KeyF3:
		if e.shift {
			e.s.Prev()
		} else {
			e.s.Next()
		}
	default:
		e.Entry.TypedKey(k)
	}
}

// Show shows the search bar and gives it the keyboard (Ctrl+F).
func (s *Search) Show() {
	if !s.bar.Visible() {
		s.bar.Show()
		s.host.relayout()
	}
	if c := s.host.canvas(); c != nil {
		c.Focus(s.entry)
	}
	s.entry.SetText(s.query)
	// The last query selected: typing replaces it, Enter searches it again.
	s.entry.TypedShortcut(&fyne.ShortcutSelectAll{})
}

// Box is the search bar's text box.
func (s *Search) Box() fyne.Focusable { return s.entry }

// Query is what the search bar searches for.
func (s *Search) Query() string { return s.query }

// Open reports whether the search bar shows.
func (s *Search) Open() bool { return s.bar.Visible() }

// Close hides the search bar and its highlights and calls OnClosed (Esc).
func (s *Search) Close() {
	if !s.bar.Visible() {
		return
	}
	s.bar.Hide()
	if c := s.host.canvas(); c != nil && c.Focused() == s.entry {
		c.Unfocus()
	}
	s.host.relayout()
	s.host.redrawRows()
	if s.OnClosed != nil {
		s.OnClosed()
	}
}

// clear forgets the matches (new texts); the query stays for the next
// Show, and an open bar searches the new texts.
func (s *Search) clear() {
	s.matches, s.bySide, s.cur = nil, [2][]int32{}, -1
	if s.bar.Visible() && s.query != "" {
		s.findAll(s.query)
	}
	s.updateCount()
}

// relined searches an open bar's query again in new lines (the editor's).
func (s *Search) relined() {
	if s.bar.Visible() && s.query != "" {
		s.findAll(s.query)
		s.updateCount()
	}
}

// Set searches both sides for q (ignoring case when q has no capital
// letter) and shows the first match at or below the top of the view. On
// the left only removed lines count: an unchanged line is the same on both
// sides and counts once.
func (s *Search) Set(q string) {
	s.query = q
	if s.entry.Text != q {
		s.entry.SetText(q) // calls Set again, with the same q
		return
	}
	s.findAll(q)
	if len(s.matches) > 0 {
		top := s.host.topRow()
		k := sort.Search(len(s.matches), func(k int) bool { return s.matchRow(k) >= top })
		s.show(k % len(s.matches))
	}
	s.updateCount()
	s.host.redrawRows()
}

// findAll collects the matches of q in the order the rows show them.
func (s *Search) findAll(q string) {
	s.matches, s.bySide, s.cur, s.capped = s.matches[:0], [2][]int32{s.bySide[0][:0], s.bySide[1][:0]}, -1, false
	if q == "" {
		return
	}
	fold := strings.ToLower(q) == q
	m := s.host.shown()
	find := func(side uint8, i int, l string) {
		if fold && hasUpper(l) {
			if low := strings.ToLower(l); len(low) == len(l) {
				l = low
			}
		}
		for at := 0; ; {
			k := strings.Index(l[at:], q)
			if k < 0 || len(s.matches) >= maxMatches {
				s.capped = s.capped || k >= 0
				return
			}
			s.bySide[side] = append(s.bySide[side], int32(len(s.matches)))
			s.matches = append(s.matches, match{side: side, line: int32(i), start: int32(at + k), end: int32(at + k + len(q))})
			at += k + len(q)
		}
	}
	for _, op := range m.ops {
		if op.Kind != engine.OpEqual {
			for i := op.A0; i < op.A1; i++ {
				find(0, i, m.a.Line(i))
			}
		}
		for j := op.B0; j < op.B1; j++ {
			find(1, j, m.b.Line(j))
		}
	}
}

// hasUpper reports whether s may have an upper-case letter.
func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' || c >= 0x80 {
			return true
		}
	}
	return false
}

// matchRow returns the row of match k in the rows as they are (a fold's
// row for a hidden line).
func (s *Search) matchRow(k int) int {
	mt := s.matches[k]
	return s.host.shown().rowOf(int(mt.side), int(mt.line))
}

// Next shows the match after the one on show (after the last, the
// first); it reports false when nothing matches.
func (s *Search) Next() bool { return s.step(1) }

// Prev shows the match before the one on show.
func (s *Search) Prev() bool { return s.step(-1) }

func (s *Search) step(d int) bool {
	n := len(s.matches)
	if n == 0 {
		return false
	}
	k := s.cur + d
	if s.cur < 0 && d < 0 {
		k = n - 1
	}
	s.show((k + n) % n)
	s.updateCount()
	s.host.redrawRows()
	return true
}

// show makes match k the one on show.
func (s *Search) show(k int) {
	s.cur = k
	s.host.goToMatch(s.matches[k])
}

// goToMatch brings a search match into view: its fold opened, its row in
// view, its columns scrolled into view; a match in a change makes that
// change the current one (OnJumped).
func (v *DiffView) goToMatch(mt match) {
	r := v.folds.reveal(int(mt.side), int(mt.line))
	top := v.topRow()
	if r < top || r >= top+v.visibleRows()-1 {
		v.list.ScrollToOffset(v.nav.leadY(r))
	}
	if h := v.model.Row(r).hunk; h >= 0 && !v.whitespaceOnly(h) {
		// A match in a change makes it the current one, as j and k
		// do: the counter names it, Space ticks it, j goes on from it.
		v.nav.cur = v.model.changeRow(h)
	} else {
		// Outside a change the match's row is the place: the counter
		// says which hunks it lies between (it named the last hunk j went
		// to), and j goes on from here.
		v.nav.cur = r
	}
	v.jumped()
	if v.wr.on {
		return
	}
	set := &v.model.a
	if mt.side == 1 {
		set = &v.model.b
	}
	v.hbar.colBuf = columns(set.Line(int(mt.line)), v.hbar.colBuf)
	c0, c1 := int(v.hbar.colBuf[mt.start]), int(v.hbar.colBuf[mt.end])
	if c0 < v.hbar.off || c1 > v.hbar.off+v.metric.cols {
		v.setHOffset(c0 - min(8, v.metric.cols/4))
	}
}

// Count returns which match is on show (1-based, 0 for none) and how
// many there are (at most maxMatches).
func (s *Search) Count() (cur, n int) {
	return s.cur + 1, len(s.matches)
}

// updateCount shows "3 of 17" in the search bar.
func (s *Search) updateCount() {
	cur, n := s.Count()
	more := ""
	if s.capped {
		more = "+"
	}
	switch {
	case s.query == "":
		s.count.SetText("")
	case n == 0:
		s.count.SetText("no matches")
	case cur == 0:
		s.count.SetText(strconv.Itoa(n) + more + " matches")
	default:
		s.count.SetText(strconv.Itoa(cur) + " of " + strconv.Itoa(n) + more)
	}
}

// matchesOn returns the matches on line i of side (a line of b for an
// unchanged line of a: it counts once, on the right) while the bar shows,
// and which of them is on show (-1 for none).
func (s *Search) matchesOn(side, i int) ([]match, int) {
	if !s.bar.Visible() || len(s.matches) == 0 || i < 0 {
		return nil, -1
	}
	idx := s.bySide[side]
	k := sort.Search(len(idx), func(k int) bool { return int(s.matches[idx[k]].line) >= i })
	e := k
	for e < len(idx) && int(s.matches[idx[e]].line) == i {
		e++
	}
	if k == e {
		return nil, -1
	}
	first := int(idx[k])
	cur := -1
	if s.cur >= first && s.cur < first+e-k {
		cur = s.cur - first
	}
	return s.matches[first : first+e-k], cur // a line's matches are consecutive
}
