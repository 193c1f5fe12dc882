package diffview

import (
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/engine"
)

// search is the view's search bar (ShowSearch) and the matches of its
// query in the diff shown.
type search struct {
	bar     *fyne.Container
	entry   *searchEntry
	count   *widget.Label
	query   string
	matches []match
	bySide  [2][]int32 // indexes into matches, per side, in order of line
	cur     int        // the match on show, -1 for none
	capped  bool       // more than maxMatches matched
}

// match is one occurrence of the query: bytes start:end of a line.
type match struct {
	side       uint8 // 0 the left text (a), 1 the right (b)
	line       int32
	start, end int32
}

// maxMatches bounds the matches a query keeps (and counts).
const maxMatches = 100_000

// newSearch builds the hidden search bar of v.
func newSearch(v *DiffView) *search {
	s := &search{cur: -1}
	s.entry = newSearchEntry(v)
	s.entry.SetPlaceHolder("Search both sides (Enter: next, Shift+Enter: previous, Esc: close)")
	s.entry.OnChanged = v.SetSearch
	s.count = widget.NewLabel("")
	prev := widget.NewButtonWithIcon("", theme.MoveUpIcon(), func() { v.PrevMatch() })
	next := widget.NewButtonWithIcon("", theme.MoveDownIcon(), func() { v.NextMatch() })
	closeBtn := widget.NewButtonWithIcon("", theme.CancelIcon(), v.CloseSearch)
	s.bar = container.NewBorder(nil, nil, nil, container.NewHBox(s.count, prev, next, closeBtn), s.entry)
	s.bar.Hide()
	return s
}

// searchEntry is the search bar's text box: Enter and F3 go to the next
// match, with Shift to the previous, Esc closes the bar.
type searchEntry struct {
	widget.Entry
	v     *DiffView
	shift bool
}

func newSearchEntry(v *DiffView) *searchEntry {
	e := &searchEntry{v: v}
	e.ExtendBaseWidget(e)
	return e
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
		e.v.CloseSearch()
	case fyne.KeyReturn, fyne.KeyEnter, fyne.KeyF3:
		if e.shift {
			e.v.PrevMatch()
		} else {
			e.v.NextMatch()
		}
	default:
		e.Entry.TypedKey(k)
	}
}

// ShowSearch shows the search bar and gives it the keyboard (Ctrl+F).
func (v *DiffView) ShowSearch() {
	s := v.search
	if !s.bar.Visible() {
		s.bar.Show()
		v.layout(v.Size())
	}
	if c := fyne.CurrentApp().Driver().CanvasForObject(v); c != nil {
		c.Focus(s.entry)
	}
	s.entry.SetText(s.query)
	// The last query selected: typing replaces it, Enter searches it again.
	s.entry.TypedShortcut(&fyne.ShortcutSelectAll{})
}

// SearchBox is the search bar's text box.
func (v *DiffView) SearchBox() fyne.Focusable { return v.search.entry }

// SearchQuery is what the search bar searches for.
func (v *DiffView) SearchQuery() string { return v.search.query }

// Searching reports whether the search bar shows.
func (v *DiffView) Searching() bool { return v.search.bar.Visible() }

// CloseSearch hides the search bar and its highlights and calls
// OnSearchClosed, so the window takes the keyboard back (Esc).
func (v *DiffView) CloseSearch() {
	s := v.search
	if !s.bar.Visible() {
		return
	}
	s.bar.Hide()
	if c := fyne.CurrentApp().Driver().CanvasForObject(v); c != nil && c.Focused() == s.entry {
		c.Unfocus()
	}
	v.layout(v.Size())
	v.refreshRows()
	if v.OnSearchClosed != nil {
		v.OnSearchClosed()
	}
}

// clearSearch forgets the matches (new texts); the query stays for the
// next ShowSearch, and an open bar searches the new texts.
func (v *DiffView) clearSearch() {
	s := v.search
	s.matches, s.bySide, s.cur = nil, [2][]int32{}, -1
	if s.bar.Visible() && s.query != "" {
		v.findAll(s.query)
	}
	v.updateCount()
}

// SetSearch searches both sides for q (ignoring case when q has no
// capital letter) and shows the first match at or below the top of the
// view. On the left only removed lines count: an unchanged line is the
// same on both sides and counts once.
func (v *DiffView) SetSearch(q string) {
	s := v.search
	s.query = q
	if s.entry.Text != q {
		s.entry.SetText(q) // calls SetSearch again, with the same q
		return
	}
	v.findAll(q)
	if len(s.matches) > 0 {
		top := v.topRow()
		k := sort.Search(len(s.matches), func(k int) bool { return v.matchRow(k) >= top })
		v.showMatch(k % len(s.matches))
	}
	v.updateCount()
	v.refreshRows()
}

// findAll collects the matches of q in the order the rows show them.
func (v *DiffView) findAll(q string) {
	s := v.search
	s.matches, s.bySide, s.cur, s.capped = s.matches[:0], [2][]int32{s.bySide[0][:0], s.bySide[1][:0]}, -1, false
	if q == "" {
		return
	}
	fold := strings.ToLower(q) == q
	m := v.model
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
func (v *DiffView) matchRow(k int) int {
	mt := v.search.matches[k]
	return v.model.rowOf(int(mt.side), int(mt.line))
}

// NextMatch shows the match after the one on show (after the last, the
// first); it reports false when nothing matches.
func (v *DiffView) NextMatch() bool { return v.stepMatch(1) }

// PrevMatch shows the match before the one on show.
func (v *DiffView) PrevMatch() bool { return v.stepMatch(-1) }

func (v *DiffView) stepMatch(d int) bool {
	s := v.search
	n := len(s.matches)
	if n == 0 {
		return false
	}
	k := s.cur + d
	if s.cur < 0 && d < 0 {
		k = n - 1
	}
	v.showMatch((k + n) % n)
	v.updateCount()
	v.refreshRows()
	return true
}

// showMatch makes match k the one on show: its fold opened, its row in
// view, its columns scrolled into view; a match in a change makes that
// change the current one (OnJumped).
func (v *DiffView) showMatch(k int) {
	s := v.search
	s.cur = k
	mt := s.matches[k]
	r := v.revealLine(int(mt.side), int(mt.line))
	top := v.topRow()
	if r < top || r >= top+v.visibleRows()-1 {
		v.list.ScrollToOffset(v.leadY(r))
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
	if v.OnJumped != nil {
		v.OnJumped()
	}
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

// SearchCount returns which match is on show (1-based, 0 for none) and
// how many there are (at most maxMatches).
func (v *DiffView) SearchCount() (cur, n int) {
	return v.search.cur + 1, len(v.search.matches)
}

// updateCount shows "3 of 17" in the search bar.
func (v *DiffView) updateCount() {
	s := v.search
	cur, n := v.SearchCount()
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
		s.count.SetText(itoa(n) + more + " matches")
	default:
		s.count.SetText(itoa(cur) + " of " + itoa(n) + more)
	}
}

// matchesOn returns the matches on line i of side (a line of b for an
// unchanged line of a: it counts once, on the right) while the bar shows,
// and which of them is on show (-1 for none).
func (v *DiffView) matchesOn(side, i int) ([]match, int) {
	s := v.search
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
