package engine

import "hash/maphash"

// OpKind says what an Op does.
type OpKind uint8

// The op kinds. In the ops of DiffLines, a change (any kind but OpEqual)
// has an OpEqual op or an end of the slice on either side.
const (
	OpEqual   OpKind = iota // lines A0:A1 of a are lines B0:B1 of b, unchanged
	OpDelete                // lines A0:A1 of a are removed; B0 == B1 is where they were
	OpInsert                // lines B0:B1 of b are added; A0 == A1 is where they go
	OpReplace               // lines A0:A1 of a are replaced by lines B0:B1 of b
)

var opKindNames = [...]string{"equal", "delete", "insert", "replace"}

// String returns "equal", "delete", "insert" or "replace".
func (k OpKind) String() string {
	if int(k) < len(opKindNames) {
		return opKindNames[k]
	}
	return "OpKind(?)"
}

// Op is one step of a line diff from a to b. Ranges are 0-based and
// half-open, in lines: A0:A1 of a, B0:B1 of b.
type Op struct {
	Kind   OpKind
	A0, A1 int // lines of a
	B0, B1 int // lines of b
}

// Diff splits a and b into lines, each keeping its "\n", and diffs them
// with DiffLines.
func Diff(a, b string) []Op { return DiffLines(splitLines(a), splitLines(b)) }

// CountLines returns how many lines the ops add and remove.
func CountLines(ops []Op) (added, removed int) {
	for _, op := range ops {
		if op.Kind != OpEqual {
			added += op.B1 - op.B0
			removed += op.A1 - op.A0
		}
	}
	return added, removed
}

// DiffLines returns a line diff from a to b: ops that cover both slices in
// order, alternating Equal runs with changes. It is empty when both are
// empty.
//
// The algorithm is git's histogram diff (xdiff's xhistogram.c, from JGit),
// so that a reviewer sees what `git diff --histogram` shows: in a region of
// both files it finds the longest run of common lines that contains the
// rarest line of a (one that occurs at most 64 times there), keeps it,
// and diffs the regions before and after it the same way; a region whose
// common lines all repeat more often is diffed with Myers' algorithm
// (myers.go), and a region with no common line is all changed. Anchoring on
// rare lines is what keeps a moved block of repetitive code a deletion
// plus an insertion: Myers' algorithm, minimal in theory, gives up its
// minimality after a cost cap on big inputs, and on a 5,000-line block
// moved within 100,000 lines of such code reported 5 to 7 times the
// 10,000 changed lines (issue 15; corpus.RepetitiveMove). Then, as in git, every run of changed lines that can
// slide along equal lines is slid (compact.go): to line up with a change on
// the other side when it can, else to where git's indent heuristic scores
// the split best. The hunks are git's, or change fewer lines where git's
// own Myers stops short of the minimum and git before 2.54 does not diff a
// joined group again (diff_git_test.go runs the git binary). Where git's
// search would be quadratic, many small changes spread through a big file,
// it keeps many anchors per search (histogram.go).
func DiffLines(a, b []string) []Op {
	ia, ib, n := internLines(a, b)
	ca, cb := make([]bool, len(a)), make([]bool, len(b))
	var h histogram
	h.diffCompacted(ia, ib, a, b, n, ca, cb)
	return appendOps(nil, ca, cb, 0, 0)
}

// internLines gives every distinct line of a and b a small id, the same on
// both sides, and returns the id sequences and the number of ids.
//
// Interning is most of the cost of a line diff with few changes, so it uses
// an open-addressing table of 8-byte slots (32 bits of hash, 32 bits of id)
// with no pointers for the garbage collector to scan, rather than a
// map[string]int32, which on 100k-line files spent most of its time on
// cache misses; and it first checks whether a line of b is the line of a
// where the last one was found.
func internLines(a, b []string) (ia, ib []int32, n int) {
	t := newLineTable(a, b)
	ia = make([]int32, len(a))
	ib = make([]int32, len(b))
	for i, l := range a {
		id := t.intern(l, i)
		ia[i] = id
		t.at[id] = int32(i) // the latest place in a
	}
	off := 0 // b[j] is likely a[j+off]
	for j, l := range b {
		if i := j + off; i >= 0 && i < len(a) && a[i] == l {
			ib[j] = ia[i]
			continue
		}
		id := t.intern(l, len(a)+j)
		ib[j] = id
		if at := int(t.at[id]); at < len(a) {
			off = at - j
		}
	}
	return ia, ib, len(t.at)
}

// lineTable maps the lines of a and b to ids 0, 1, 2, … in order of first
// sight.
type lineTable struct {
	a, b  []string
	seed  maphash.Seed
	slots []uint64 // 0 if free, else the hash's top 32 bits << 32 | id+1
	mask  uint64
	at    []int32 // per id, a line with that id: a[at], or b[at-len(a)]
}

func newLineTable(a, b []string) *lineTable {
	n := len(a) + len(b)
	size := 16
	for size < 2*n {
		size *= 2
	}
	return &lineTable{a: a, b: b, seed: maphash.MakeSeed(), slots: make([]uint64, size), mask: uint64(size - 1), at: make([]int32, 0, n)}
}

// intern returns the id of s, which is line at of a followed by b.
func (t *lineTable) intern(s string, at int) int32 {
	h := maphash.String(t.seed, s)
	tag := h >> 32
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		v := t.slots[i]
		if v == 0 {
			id := int32(len(t.at))
			t.at = append(t.at, int32(at))
			t.slots[i] = tag<<32 | uint64(id+1)
			return id
		}
		if v>>32 == tag {
			id := int32(v&0xffffffff) - 1
			if k := int(t.at[id]); k < len(t.a) && t.a[k] == s || k >= len(t.a) && t.b[k-len(t.a)] == s {
				return id
			}
		}
	}
}

// appendOps appends the ops described by change marks ca (over a, starting
// at line a0) and cb (over b, starting at b0), merging a leading Equal run
// into a trailing Equal op of ops.
func appendOps(ops []Op, ca, cb []bool, a0, b0 int) []Op {
	i, j := 0, 0
	for i < len(ca) || j < len(cb) {
		i0, j0 := i, j
		for i < len(ca) && j < len(cb) && !ca[i] && !cb[j] {
			i++
			j++
		}
		if i > i0 {
			ops = appendEqual(ops, a0+i0, a0+i, b0+j0, b0+j)
			continue
		}
		for i < len(ca) && ca[i] {
			i++
		}
		for j < len(cb) && cb[j] {
			j++
		}
		ops = append(ops, Op{changeKind(i0, i, j0, j), a0 + i0, a0 + i, b0 + j0, b0 + j})
	}
	return ops
}

// changeKind returns the kind of a change of lines a0:a1 into b0:b1.
func changeKind(a0, a1, b0, b1 int) OpKind {
	switch {
	case a0 == a1:
		return OpInsert
	case b0 == b1:
		return OpDelete
	}
	return OpReplace
}

// appendEqual appends an Equal op, extending the last op if it is Equal and
// ends where this one starts.
func appendEqual(ops []Op, a0, a1, b0, b1 int) []Op {
	if n := len(ops); n > 0 && ops[n-1].Kind == OpEqual && ops[n-1].A1 == a0 && ops[n-1].B1 == b0 {
		ops[n-1].A1, ops[n-1].B1 = a1, b1
		return ops
	}
	return append(ops, Op{OpEqual, a0, a1, b0, b1})
}
