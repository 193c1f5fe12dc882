package diffview

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
// was bound meanwhile counts when a question is asked (SeenHunks, SeenIn)
// with the rows on screen. A stale view's
// changes (disk against the merge) count under their own IDs, which are the
// proposal's wherever the merge kept a change as the agent wrote it. In
// edit mode the rows show the person's text against the original: an
// agent's change they left as it was keeps its ID there, and counts when
// it comes on screen (approving the edit asks about those never shown).

// markSeen records the hunk of row i, when it is a change on screen, and
// of the edge row, when it has come on screen since.
func (v *DiffView) markSeen(i int) {
	if v.sight.edgeRow != i {
		v.lookAtEdge()
	}
	if v.feed.st != nil || v.open.job != nil || !v.Visible() || v.Showing != nil && !v.Showing() || i < 0 || i >= v.model.Len() {
		return
	}
	k := v.model.Row(i).hunk
	if k < 0 {
		return
	}
	if !v.onScreen(i) {
		v.sight.edgeRow = i // bound, but not yet on screen
		return
	}
	id := v.hunkID(k)
	if id == "" {
		return
	}
	set := v.sight.seen[v.doc.path]
	if set == nil {
		set = map[string]bool{}
		v.sight.seen[v.doc.path] = set
	}
	if set[id] {
		return
	}
	// A hunk is seen once every line it changes has been on screen: a
	// 5,000-line new file of which 42 lines were shown was "seen".
	rw := v.model.Row(i)
	lines := v.sight.lines[v.doc.path][id]
	if lines == nil {
		if v.sight.lines[v.doc.path] == nil {
			v.sight.lines[v.doc.path] = map[string]*lineSeen{}
		}
		lines = &lineSeen{on: map[int]bool{}, total: v.changedLines(k)}
		v.sight.lines[v.doc.path][id] = lines
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
	if v.OnHunkSeen != nil {
		v.OnHunkSeen(id)
	}
}

// lineSeen is which lines of a hunk have been on screen (the right
// side's by their index, the left's by -1-index) and how many it changes.
type lineSeen struct {
	on    map[int]bool
	total int
}

// changedLines is how many lines change k removes and adds: its rows'
// lines, whatever the layout.
func (v *DiffView) changedLines(k int) int {
	n, last := 0, -1
	for _, sg := range v.model.segs {
		if sg.hunk != k || sg.src == last {
			continue
		}
		last = sg.src
		n += (sg.op.A1 - sg.op.A0) + (sg.op.B1 - sg.op.B0)
	}
	return max(n, 1)
}

// LinesSeen returns, for each hunk of the file at path that has had some
// but not all of its changed lines on screen, how many of them were on
// screen and how many it changes.
func (v *DiffView) LinesSeen(path string) map[string][2]int {
	if path == v.doc.path {
		v.lookAtViewport()
	}
	out := map[string][2]int{}
	for id, l := range v.sight.lines[path] {
		if !v.sight.seen[path][id] {
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

// SeenHunks returns the IDs of the shown diff's hunks (Hunks) that have
// had a changed row on screen, in order.
func (v *DiffView) SeenHunks() []string { return v.hunksSeen(true) }

// UnseenHunks returns the IDs of the shown diff's hunks never on screen,
// in order.
func (v *DiffView) UnseenHunks() []string { return v.hunksSeen(false) }

func (v *DiffView) hunksSeen(want bool) []string {
	v.lookAtViewport()
	set := v.sight.seen[v.doc.path]
	var out []string
	for _, h := range v.Hunks() {
		if set[h.ID] == want {
			out = append(out, h.ID)
		}
	}
	return out
}

// SeenIn returns the IDs of the hunks of the file at path that have been
// on screen since ForgetSeen, whichever diff of it showed them (a copy).
func (v *DiffView) SeenIn(path string) map[string]bool {
	if path == v.doc.path {
		v.lookAtViewport()
	}
	out := make(map[string]bool, len(v.sight.seen[path]))
	for id := range v.sight.seen[path] {
		out[id] = true
	}
	return out
}

// lookAtEdge records the edge row's hunk if a scroll has since brought it
// on screen.
func (v *DiffView) lookAtEdge() {
	if e := v.sight.edgeRow; e >= 0 {
		v.sight.edgeRow = -1
		v.markSeen(e)
	}
}

// lookAtViewport records the hunks of the rows on screen now: rows bound
// while something hid the view (Showing false) count once it shows them.
func (v *DiffView) lookAtViewport() {
	v.lookAtEdge()
	h := v.list.Size().Height
	if h <= 0 || v.model.Len() == 0 || v.metric.line <= 0 {
		return
	}
	off := v.list.GetScrollOffset()
	for i := v.rowAtY(off); i < v.model.Len() && i <= v.rowAtY(off+h-1); i++ {
		v.markSeen(i)
	}
}

// ForgetSeen forgets every hunk seen, of every path (a new proposal).
func (v *DiffView) ForgetSeen() {
	v.sight.seen = map[string]map[string]bool{}
	v.sight.lines = map[string]map[string]*lineSeen{}
}

// ShowHunk scrolls to the hunk with the given ID, as j does to the next
// one; false when the diff shown has no such hunk.
func (v *DiffView) ShowHunk(id string) bool {
	for k, h := range v.Hunks() {
		if h.ID != id {
			continue
		}
		for _, s := range v.model.segs {
			if s.hunk == k {
				v.scrollToRow(s.row0)
				return true
			}
		}
	}
	return false
}

// sight is which hunks of the files shown had their changed lines on
// screen: the view's seen coverage, kept per path across SetTexts.
type sight struct {
	seen map[string]map[string]bool // path → IDs of hunks that had every changed line on screen
	// lines are, per path and hunk ID, the lines of hunks partly on
	// screen so far.
	lines   map[string]map[string]*lineSeen
	edgeRow int // a change's row bound just under the bottom edge, -1 for none
}
