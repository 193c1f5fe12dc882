package diffview

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/engine/words"
	"github.com/diffdesk/diffdesk/ui/diffview/textbuf"
)

// rowKind says what one aligned side-by-side row shows.
type rowKind uint8

const (
	rowEqual    rowKind = iota // the same line on both sides
	rowDeleted                 // a line only on the left; filler on the right
	rowInserted                // a line only on the right; filler on the left
	rowChanged                 // a removed line beside the added line that replaced it
	rowFold                    // unchanged lines collapsed into one row (segment.fold)
)

// row is one aligned row of a side-by-side diff. Line indexes are 0-based;
// -1 marks a filler cell.
type row struct {
	kind   rowKind
	a, b   int  // line of the left (a) and right (b) text, -1 for filler (and for a fold)
	wa, wb int  // paired: the lines word spans compare (inline, one of them is on another row)
	seg    int  // index of the segment (op) the row belongs to
	hunk   int  // index of the change in Hunks order, -1 for equal rows
	head   bool // first row of its change: the hunk gutter shows the toggle here
	paired bool // a changed row whose two lines were paired: word spans apply
}

// lineSet is the lines of one side: head, then mid, then tail. A streaming
// proposal is its done lines, the partial line and the original's tail;
// other texts use head alone. Lines may end in "\n".
type lineSet struct {
	head, mid, tail []string
	tailStart       int // a stream's tail: the original's line of tail[0]
}

// Len returns the number of lines.
func (s *lineSet) Len() int { return len(s.head) + len(s.mid) + len(s.tail) }

// Line returns line i (0-based) without its line ending, as the view
// shows it: cut by shownLine when it is very long.
func (s *lineSet) Line(i int) string { return shownLine(trimEOL(s.rawLine(i))) }

// rawLine returns line i (0-based) with its line ending.
func (s *lineSet) rawLine(i int) string {
	switch {
	case i < len(s.head):
		return s.head[i]
	case i < len(s.head)+len(s.mid):
		return s.mid[i-len(s.head)]
	}
	return s.tail[i-len(s.head)-len(s.mid)]
}

// maxShownLine is the most of one line the view shows and works on
// (cells, colours, word spans, wrap, search). Every row drawn takes a cell
// index per byte of its line and the colours and word spans a few more:
// a 200 MB one-line file streaming in took the window past 8 GB.
const maxShownLine = 1 << 20

// shownLine returns l, or, past maxShownLine bytes, its start (cut
// before a rune) and a note of what is not shown. Hunks, the texts
// approved and the editor keep the whole line.
func shownLine(l string) string {
	if len(l) <= maxShownLine {
		return l
	}
	cut := maxShownLine
	for cut > 0 && !utf8.RuneStart(l[cut]) {
		cut--
	}
	return l[:cut] + " … (line of " + strconv.Itoa(len(l)) + " bytes: the rest is not shown)"
}

// raw returns the lines as one slice (with line endings), for hashing.
func (s *lineSet) raw() []string {
	if len(s.mid) == 0 && len(s.tail) == 0 {
		return s.head
	}
	out := make([]string, 0, s.Len())
	return append(append(append(out, s.head...), s.mid...), s.tail...)
}

func trimEOL(l string) string {
	l = strings.TrimSuffix(l, "\n")
	return strings.TrimSuffix(l, "\r")
}

// segment is the rows of one op of the diff, or of part of an equal op
// that folds split.
type segment struct {
	op   engine.Op // the op, or the part of an equal op the segment shows
	src  int       // index of the op in the model's ops
	row0 int       // first row
	rows int
	hunk int // index of the change, -1 for an equal op
	// align gives, for a replace op, each row's line offsets into the op's
	// removed (ia) and added (ib) lines, -1 for filler; nil for other ops.
	align []alignRow
	fold  bool // one row standing for op's lines, collapsed
}

// alignRow is one row of a replace op: offsets into its removed and added
// lines (-1 for filler) and whether PairLines paired them; inline, a
// paired row shows one line and mate is the offset of its pair's other
// line.
type alignRow struct {
	ia, ib, mate int32
	paired       bool
}

// shape is how a model's rows present its ops.
type shape struct {
	inline bool // one column: a change's removed lines, then its added lines
	fold   bool // unchanged regions collapse to foldContext lines either side
	// open is, per equal op (by index in ops), how many more lines than
	// foldContext show at its top and at its bottom.
	open map[int][2]int
}

const (
	foldContext = 3 // unchanged lines shown either side of a change
	minFold     = 4 // fewer hidden lines than this show instead
)

// rowModel is the aligned rows of a diff from a to b. It holds one segment
// per op, so building it costs O(ops), not O(lines); rows are computed on
// demand. Word spans are computed lazily, for the rows asked about, and
// cached.
type rowModel struct {
	a, b    lineSet
	ops     []engine.Op
	segs    []segment
	n       int    // rows
	growing [2]int // lines b[growing[0]:growing[1]] are still being written
	stable  int    // lines of b before it never change (word-span cache key)
	pairs   map[engine.Op][]alignRow
	words   map[[2]int32]wordPair
	changes int   // non-equal ops
	shape   shape // how the rows present the ops
}

// newRowModel builds the rows of ops, a diff from a to b. pairs caches
// replace alignments across rebuilds (nil to start afresh); the op whose
// added lines reach into growing is aligned by position, not cached.
func newRowModel(a, b lineSet, ops []engine.Op, growing [2]int, pairs map[engine.Op][]alignRow) *rowModel {
	if pairs == nil {
		pairs = map[engine.Op][]alignRow{}
	}
	m := &rowModel{a: a, b: b, ops: ops, growing: growing, pairs: pairs, stable: b.Len()}
	if growing[1] > growing[0] {
		m.stable = growing[0]
	}
	m.build()
	return m
}

// reshape rebuilds the rows in shape sh; the ops and the caches stay.
func (m *rowModel) reshape(sh shape) {
	m.shape = sh
	m.build()
}

// build makes the segments of the ops in the model's shape: O(ops).
func (m *rowModel) build() {
	m.segs, m.n, m.changes = m.segs[:0], 0, 0
	fold := false
	for _, op := range m.ops {
		fold = fold || (m.shape.fold && op.Kind != engine.OpEqual) // a file without changes shows whole
	}
	for k, op := range m.ops {
		s := segment{op: op, src: k, hunk: -1}
		switch op.Kind {
		case engine.OpEqual:
			if fold && m.addFolded(k, op) {
				continue
			}
			s.rows = op.A1 - op.A0
		case engine.OpDelete:
			s.rows = op.A1 - op.A0
		case engine.OpInsert:
			s.rows = op.B1 - op.B0
		case engine.OpReplace:
			s.align = m.align(op)
			if m.shape.inline {
				s.align = inlineAlign(s.align)
			}
			s.rows = len(s.align)
		}
		if op.Kind != engine.OpEqual {
			s.hunk = m.changes
			m.changes++
		}
		m.add(s)
	}
}

// add appends segment s unless it has no rows.
func (m *rowModel) add(s segment) {
	if s.rows == 0 {
		return
	}
	s.row0 = m.n
	m.n += s.rows
	m.segs = append(m.segs, s)
}

// addFolded adds equal op k as context, a fold and context, and reports
// whether it folded: an op with fewer than minFold lines beyond its
// context (foldContext either side, none at the file's ends, more where
// the person opened it) shows whole.
func (m *rowModel) addFolded(k int, op engine.Op) bool {
	top, bottom := foldContext, foldContext
	if k == 0 {
		top = 0
	}
	if k == len(m.ops)-1 {
		bottom = 0
	}
	if o, ok := m.shape.open[k]; ok {
		top, bottom = top+o[0], bottom+o[1]
	}
	n := op.A1 - op.A0
	if n-top-bottom < minFold {
		return false
	}
	part := func(i0, i1 int) engine.Op {
		return engine.Op{Kind: engine.OpEqual, A0: op.A0 + i0, A1: op.A0 + i1, B0: op.B0 + i0, B1: op.B0 + i1}
	}
	m.add(segment{op: part(0, top), src: k, hunk: -1, rows: top})
	m.add(segment{op: part(top, n-bottom), src: k, hunk: -1, rows: 1, fold: true})
	m.add(segment{op: part(n-bottom, n), src: k, hunk: -1, rows: bottom})
	return true
}

// inlineAlign returns the rows of a replace op in one column: its removed
// lines, then its added lines, each paired line knowing its mate.
func inlineAlign(al []alignRow) []alignRow {
	out := make([]alignRow, 0, 2*len(al))
	for _, r := range al {
		if r.ia >= 0 {
			out = append(out, alignRow{ia: r.ia, ib: -1, mate: r.ib, paired: r.paired})
		}
	}
	for _, r := range al {
		if r.ib >= 0 {
			out = append(out, alignRow{ia: -1, ib: r.ib, mate: r.ia, paired: r.paired})
		}
	}
	return out
}

// align returns the rows of a replace op: unpaired removed and added lines
// share rows side by side, lines PairLines pairs share a row of their own.
func (m *rowModel) align(op engine.Op) []alignRow {
	grow := m.growing[1] > m.growing[0] && op.B1 > m.growing[0]
	if !grow {
		if al, ok := m.pairs[op]; ok {
			return al
		}
	}
	nd, ni := op.A1-op.A0, op.B1-op.B0
	var pairs [][2]int
	if grow {
		for k := range min(nd, ni) {
			pairs = append(pairs, [2]int{k, k})
		}
	} else {
		del, ins := make([]string, nd), make([]string, ni)
		for k := range del {
			del[k] = m.a.Line(op.A0 + k)
		}
		for k := range ins {
			ins[k] = m.b.Line(op.B0 + k)
		}
		pairs = words.PairLines(del, ins)
	}
	al := make([]alignRow, 0, max(nd, ni))
	i, j := 0, 0
	gap := func(di, dj int) {
		for k := range max(di-i, dj-j) {
			r := alignRow{ia: -1, ib: -1}
			if i+k < di {
				r.ia = int32(i + k)
			}
			if j+k < dj {
				r.ib = int32(j + k)
			}
			al = append(al, r)
		}
		i, j = di, dj
	}
	for _, p := range pairs {
		gap(p[0], p[1])
		al = append(al, alignRow{ia: int32(p[0]), ib: int32(p[1]), paired: !grow}) // positional pairs get no word spans
		i, j = p[0]+1, p[1]+1
	}
	gap(nd, ni)
	if !grow {
		m.pairs[op] = al
	}
	return al
}

// Len returns the number of rows.
func (m *rowModel) Len() int { return m.n }

// segAt returns the index of the segment holding row i.
func (m *rowModel) segAt(i int) int {
	return sort.Search(len(m.segs), func(k int) bool { return m.segs[k].row0+m.segs[k].rows > i })
}

// Row returns row i (0 ≤ i < Len()).
func (m *rowModel) Row(i int) row {
	k := m.segAt(i)
	s := &m.segs[k]
	off := i - s.row0
	r := row{seg: k, hunk: s.hunk, head: off == 0 && s.hunk >= 0, a: -1, b: -1, wa: -1, wb: -1}
	if s.fold {
		r.kind = rowFold
		return r
	}
	switch s.op.Kind {
	case engine.OpEqual:
		r.kind, r.a, r.b = rowEqual, s.op.A0+off, s.op.B0+off
	case engine.OpDelete:
		r.kind, r.a = rowDeleted, s.op.A0+off
	case engine.OpInsert:
		r.kind, r.b = rowInserted, s.op.B0+off
	case engine.OpReplace:
		al := s.align[off]
		if al.ia >= 0 {
			r.a = s.op.A0 + int(al.ia)
		}
		if al.ib >= 0 {
			r.b = s.op.B0 + int(al.ib)
		}
		switch {
		case r.a >= 0 && r.b >= 0:
			r.kind, r.paired = rowChanged, al.paired
			r.wa, r.wb = r.a, r.b
		case r.a >= 0:
			r.kind, r.paired = rowDeleted, al.paired && al.mate >= 0
			if r.paired {
				r.wa, r.wb = r.a, s.op.B0+int(al.mate)
			}
		default:
			r.kind, r.paired = rowInserted, al.paired && al.mate >= 0
			if r.paired {
				r.wa, r.wb = s.op.A0+int(al.mate), r.b
			}
		}
	}
	return r
}

// eachIn calls fn with every row of segments k0:k1: its index and its
// left and right lines (-1 for filler), in order.
func (m *rowModel) eachIn(k0, k1 int, fn func(i, a, b int)) {
	for _, s := range m.segs[k0:k1] {
		if s.fold {
			fn(s.row0, -1, -1)
			continue
		}
		for off := range s.rows {
			a, b := -1, -1
			switch s.op.Kind {
			case engine.OpEqual:
				a, b = s.op.A0+off, s.op.B0+off
			case engine.OpDelete:
				a = s.op.A0 + off
			case engine.OpInsert:
				b = s.op.B0 + off
			case engine.OpReplace:
				if al := s.align[off]; al.ia >= 0 {
					a = s.op.A0 + int(al.ia)
				}
				if al := s.align[off]; al.ib >= 0 {
					b = s.op.B0 + int(al.ib)
				}
			}
			fn(s.row0+off, a, b)
		}
	}
}

// Growing reports whether row r shows a line that is still being written.
func (m *rowModel) Growing(r row) bool {
	return r.b >= 0 && r.b >= m.growing[0] && r.b < m.growing[1]
}

// longSpan is the length (bytes) from which a changed token is narrowed
// to the characters that differ (narrowLong).
const longSpan = 24

// RowOfB returns the row showing line j of b (the row of the nearest line
// before it when j is past the end).
func (m *rowModel) RowOfB(j int) int { return m.rowOf(1, j) }

// RowOfA returns the row showing line i of a (the row of the nearest
// line before it when i is past the end); inline, an unchanged line's row
// is its right side's.
func (m *rowModel) RowOfA(i int) int { return m.rowOf(0, i) }

// rowOf returns the row showing line j of side 0 (a) or 1 (b).
func (m *rowModel) rowOf(side, j int) int {
	span := func(op engine.Op) (int, int) {
		if side == 0 {
			return op.A0, op.A1
		}
		return op.B0, op.B1
	}
	only := engine.OpInsert // the op that has lines on this side alone
	if side == 0 {
		only = engine.OpDelete
	}
	k := sort.Search(len(m.segs), func(k int) bool { _, end := span(m.segs[k].op); return end > j })
	if k == len(m.segs) {
		return max(m.n-1, 0)
	}
	s := &m.segs[k]
	start, _ := span(s.op)
	switch {
	case s.fold:
	case s.op.Kind == engine.OpEqual, s.op.Kind == only:
		return s.row0 + max(j-start, 0)
	case s.op.Kind == engine.OpReplace:
		for off, al := range s.align {
			at := al.ia
			if side == 1 {
				at = al.ib
			}
			if at >= 0 && start+int(at) >= j {
				return s.row0 + off
			}
		}
	}
	return s.row0
}

// changeRow returns the first row of change k (its index in Hunks), -1
// if there is none.
func (m *rowModel) changeRow(k int) int {
	for _, s := range m.segs {
		if s.hunk == k {
			return s.row0
		}
	}
	return -1
}

// ChangeRows returns the first row of every change, in order: the rows
// next/previous hunk jump to and the overview strip marks.
func (m *rowModel) ChangeRows() []int {
	var out []int
	for _, s := range m.segs {
		if s.hunk >= 0 {
			out = append(out, s.row0)
		}
	}
	return out
}

// Hunks returns the hunks of the diff, computed from the texts (their IDs
// hash the changed lines, as engine.ApplyHunks expects).
func (m *rowModel) Hunks() []engine.Hunk {
	return engine.Hunks(m.a.raw(), m.b.raw(), m.ops, 3)
}

// spliceLine inserts one line (the partial line of a stream) into ops as an
// insertion at line at of b, shifting the b lines after it. ops must cover
// b with a boundary at at.
func spliceLine(ops []engine.Op, at int) []engine.Op {
	out := make([]engine.Op, 0, len(ops)+2)
	inserted := false
	for _, op := range ops {
		if !inserted && op.Kind == engine.OpEqual && op.B0 < at && at < op.B1 {
			n := at - op.B0
			out = append(out, engine.Op{Kind: engine.OpEqual, A0: op.A0, A1: op.A0 + n, B0: op.B0, B1: at})
			op.A0, op.B0 = op.A0+n, at
		}
		if !inserted && (op.B0 > at || (op.B0 == at && op.B1 > at)) {
			out = append(out, engine.Op{Kind: engine.OpInsert, A0: op.A0, A1: op.A0, B0: at, B1: at + 1})
			inserted = true
		}
		if inserted {
			op.B0++
			op.B1++
		}
		out = append(out, op)
	}
	if !inserted {
		a := 0
		if len(out) > 0 {
			a = out[len(out)-1].A1
		}
		out = append(out, engine.Op{Kind: engine.OpInsert, A0: a, A1: a, B0: at, B1: at + 1})
	}
	return out
}

// columns maps byte offsets of a line to display cells, tabs expanded:
// cols[i] is the cell where byte i starts; cols[len(s)] is the width.
// Continuation bytes of a rune share their rune's cell; a wide rune (CJK)
// takes two cells and a combining mark none (textbuf.RuneWidth).
func columns(s string, cols []int32) []int32 {
	cols = cols[:0]
	c := int32(0)
	for i := 0; i < len(s); {
		b := s[i]
		switch {
		case b == '\t':
			cols = append(cols, c)
			c += textbuf.TabWidth - c%textbuf.TabWidth
			i++
		case b < 0x80:
			cols = append(cols, c)
			c++
			i++
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			for range n {
				cols = append(cols, c)
			}
			c += int32(textbuf.RuneWidth(r))
			i += n
		}
	}
	return append(cols, c)
}
