package diffview

import "github.com/diffdesk/diffdesk/engine"

// Seen coverage: which hunks had every changed line on screen.
//
// A row is on screen when the view is visible and the row lies, at least
// in part, inside the rows' viewport: the list binds exactly those rows
// (and, without wrap, possibly one row just under the bottom edge, which
// onScreen leaves out and keeps as the edge row: a scroll that shows it
// binds no row of its own until the next row comes, so the next bind, and
// every question about what was seen, looks at it again). Every way a row
// reaches the screen goes through binding it — scrolling, j and k, search, go-to-line, the overview strip,
// opening a fold, switching to the inline layout — so bind is the one
// place that records it. Either side counts: a change's row shows its
// removed and added lines together.
//
// The record is by hunk ID, per path. IDs derive from the change's
// content, so a change whose text differs from what was on screen is a
// different hunk, unseen until it is shown: nothing is recorded while a
// proposal streams (its growing text is not what will be decided; when it
// ends, SetTexts shows the final text and the rows then on screen count),
// nor while
// Showing says something hides the view (the window's other tab); what
// was bound meanwhile counts when a question is asked (Seen.Hunks, Seen.In)
// with the rows on screen. A stale view's
// changes (disk against the merge) count under their own IDs, which are the
// proposal's wherever the merge kept a change as the agent wrote it. In
// edit mode the rows show the person's text against the original: an
// agent's change they left as it was keeps its ID there, and counts when
// it comes on screen (approving the edit asks about those never shown).

// Seen is the view's seen coverage: which hunks of the files shown had
// every changed line on screen, kept per path across SetTexts. It reaches
// the view only through seenHost.
type Seen struct {
	host   seenHost
	byPath map[string]map[string]bool // path → IDs of hunks that had every changed line on screen
	// lines are, per path and hunk ID, the lines of hunks partly on
	// screen so far.
	lines   map[string]map[string]*lineSeen
	edgeRow int // a change's row bound just under the bottom edge, -1 for none
}

// seenHost is what seen coverage needs of its view: whether rows on
// screen count now (nothing streams or opens, the view shows), the rows
// and their file, the hunks' IDs, and which rows are on screen.
type seenHost interface {
	counting() bool
	shown() *rowModel
	Path() string
	Hunks() []engine.Hunk
	hunkID(k int) string
	onScreen(i int) bool
	rowsOnScreen() (first, last int)
}

func newSeen(host seenHost) *Seen {
	return &Seen{host: host, byPath: map[string]map[string]bool{}, lines: map[string]map[string]*lineSeen{}, edgeRow: -1}
}

// rowsChanged forgets the edge row: the rows are new.
func (s *Seen) rowsChanged() { s.edgeRow = -1 }

// mark records the hunk of row i, when it is a change on screen, and of
// the edge row, when it has come on screen since.
func (s *Seen) mark(i int) {
	if s.edgeRow != i {
		s.lookAtEdge()
	}
	m := s.host.shown()
	if !s.host.counting() || i < 0 || i >= m.Len() {
		return
	}
	k := m.Row(i).hunk
	if k < 0 {
		return
	}
	if !s.host.onScreen(i) {
		s.edgeRow = i // bound, but not yet on screen
		return
	}
	id := s.host.hunkID(k)
	if id == "" {
		return
	}
	path := s.host.Path()
	set := s.byPath[path]
	if set == nil {
		set = map[string]bool{}
		s.byPath[path] = set
	}
	if set[id] {
		return
	}
	// A hunk is seen once every line it changes has been on screen: a
	// 5,000-line new file of which 42 lines were shown was "seen".
	rw := m.Row(i)
	lines := s.lines[path][id]
	if lines == nil {
		if s.lines[path] == nil {
			s.lines[path] = map[string]*lineSeen{}
		}
		lines = &lineSeen{on: map[int]bool{}, total: changedLines(m, k)}
		s.lines[path][id] = lines
	}
	if rw.a >= 0 {
		lines.on[-1-rw.a] = true // the left side's lines, apart from the right's
	}
	if rw.b >= 0 {
		lines.on[rw.b] = true
	}
	if len(lines.on) < lines.total {
		return
	}
	set[id] = true
}

// lineSeen is which lines of a hunk have been on screen (the right
// side's by their index, the left's by -1-index) and how many it changes.
type lineSeen struct {
	on    map[int]bool
	total int
}

// changedLines is how many lines change k of m removes and adds: its
// rows' lines, whatever the layout.
func changedLines(m *rowModel, k int) int {
	n, last := 0, -1
	for _, sg := range m.segs {
		if sg.hunk != k || sg.src == last {
			continue
		}
		last = sg.src
		n += (sg.op.A1 - sg.op.A0) + (sg.op.B1 - sg.op.B0)
	}
	return max(n, 1)
}

// Lines returns, for each hunk of the file at path that has had some but
// not all of its changed lines on screen, how many of them were on screen
// and how many it changes.
func (s *Seen) Lines(path string) map[string][2]int {
	if path == s.host.Path() {
		s.lookAtViewport()
	}
	out := map[string][2]int{}
	for id, l := range s.lines[path] {
		if !s.byPath[path][id] {
			out[id] = [2]int{len(l.on), l.total}
		}
	}
	return out
}

// onScreen reports whether row i lies at least in part inside the rows'
// viewport. With wrap the list lays rows out by their own heights and
// binds only those it shows; without, it may bind one row past the bottom.
func (v *DiffView) onScreen(i int) bool {
	h := v.list.Size().Height
	if h <= 0 || v.metric.line <= 0 {
		return false
	}
	if v.wr.on && len(v.wr.rows) > 0 {
		return true
	}
	off := v.list.GetScrollOffset()
	y := float32(i) * v.metric.line
	return y < off+h && y+v.metric.line > off
}

// rowsOnScreen returns the first and last row on screen (first > last:
// none).
func (v *DiffView) rowsOnScreen() (first, last int) {
	h := v.list.Size().Height
	if h <= 0 || v.model.Len() == 0 || v.metric.line <= 0 {
		return 0, -1
	}
	off := v.list.GetScrollOffset()
	return v.wr.rowAtY(off), min(v.wr.rowAtY(off+h-1), v.model.Len()-1)
}

// counting reports whether the rows on screen count as seen: not while a
// proposal streams or opens, nor while the view is hidden.
func (v *DiffView) counting() bool {
	return v.feed.st == nil && v.open.job == nil && v.Visible() && (v.Showing == nil || v.Showing())
}

// Hunks returns the IDs of the shown diff's hunks (DiffView.Hunks) that
// have had every changed line on screen, in order.
func (s *Seen) Hunks() []string { return s.hunks(true) }

// Unseen returns the IDs of the shown diff's hunks never seen whole, in
// order.
func (s *Seen) Unseen() []string { return s.hunks(false) }

func (s *Seen) hunks(want bool) []string {
	s.lookAtViewport()
	set := s.byPath[s.host.Path()]
	var out []string
	for _, h := range s.host.Hunks() {
		if set[h.ID] == want {
			out = append(out, h.ID)
		}
	}
	return out
}

// In returns the IDs of the hunks of the file at path that have been on
// screen since Forget, whichever diff of it showed them (a copy).
func (s *Seen) In(path string) map[string]bool {
	if path == s.host.Path() {
		s.lookAtViewport()
	}
	out := make(map[string]bool, len(s.byPath[path]))
	for id := range s.byPath[path] {
		out[id] = true
	}
	return out
}

// lookAtEdge records the edge row's hunk if a scroll has since brought it
// on screen.
func (s *Seen) lookAtEdge() {
	if e := s.edgeRow; e >= 0 {
		s.edgeRow = -1
		s.mark(e)
	}
}

// lookAtViewport records the hunks of the rows on screen now: rows bound
// while something hid the view (Showing false) count once it shows them.
func (s *Seen) lookAtViewport() {
	s.lookAtEdge()
	first, last := s.host.rowsOnScreen()
	for i := first; i <= last; i++ {
		s.mark(i)
	}
}

// Forget forgets every hunk seen, of every path (a new proposal).
func (s *Seen) Forget() {
	s.byPath = map[string]map[string]bool{}
	s.lines = map[string]map[string]*lineSeen{}
}
