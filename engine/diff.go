package engine

import (
	"hash/maphash"
	"math"
)

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

// DiffLines returns a near-minimal line diff from a to b: ops that cover
// both slices in order, alternating Equal runs with changes. It is empty
// when both are empty.
//
// The algorithm is Myers' O(ND) search in linear space (the middle-snake
// divide and conquer) on interned line ids, with the two tricks of git's
// xdiff that keep it fast on very different inputs: lines that occur
// nowhere in the other slice are changes and are left out of the search,
// and after max(256, √(N+M)) edit steps a search splits at its
// furthest-reaching point instead of insisting on the minimum. The common
// prefix and suffix are trimmed first, and changes are then slid along
// repeated lines as git does (see slideChanges). The result is minimal or
// close to it, and diffing two unrelated 100k-line files costs about 1.5×
// git's histogram diff. go-diff's line mode and plain Myers were ruled out:
// both take seconds there (../shared/docs/perf-baselines.md §1).
func DiffLines(a, b []string) []Op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ia, ib, n := internLines(a[pre:len(a)-suf], b[pre:len(b)-suf])
	ca, cb := markChanges(ia, ib, n)
	mid := slideChanges(appendOps(nil, ca, cb, 0, 0), ia, ib)
	ops := make([]Op, 0, len(mid)+2)
	if pre > 0 {
		ops = append(ops, Op{OpEqual, 0, pre, 0, pre})
	}
	for _, op := range mid {
		op.A0, op.A1, op.B0, op.B1 = op.A0+pre, op.A1+pre, op.B0+pre, op.B1+pre
		if op.Kind == OpEqual {
			ops = appendEqual(ops, op.A0, op.A1, op.B0, op.B1)
		} else {
			ops = append(ops, op)
		}
	}
	if suf > 0 {
		ops = appendEqual(ops, len(a)-suf, len(a), len(b)-suf, len(b))
	}
	return ops
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

// slideChanges moves pure insertions and deletions of ops, a diff of id
// sequences a to b, along repeated elements without changing what the diff
// keeps: next to another change when that is possible (so the two read as
// one replacement), else as far down as possible, as git does, so that an
// inserted function follows the closing brace of the one before it. It
// modifies ops.
func slideChanges(ops []Op, a, b []int32) []Op {
	out := make([]Op, 0, len(ops))
	for n := 0; n < len(ops); n++ {
		op := ops[n]
		if op.Kind != OpDelete && op.Kind != OpInsert {
			if op.Kind == OpEqual {
				out = appendEqual(out, op.A0, op.A1, op.B0, op.B1)
			} else {
				out = append(out, op)
			}
			continue
		}
		seq, lo, hi := a, op.A0, op.A1
		if op.Kind == OpInsert {
			seq, lo, hi = b, op.B0, op.B1
		}
		down, next := 0, 0 // how far op can slide down; lines in the Equal op after it
		if n+1 < len(ops) {
			next = ops[n+1].A1 - ops[n+1].A0
			for down < next && seq[lo+down] == seq[hi+down] {
				down++
			}
		}
		up, prev := 0, 0 // how far op can slide up; lines in the Equal op before it
		if k := len(out); k >= 2 && out[k-1].Kind == OpEqual {
			prev = out[k-1].A1 - out[k-1].A0
			for up < prev && seq[lo-1-up] == seq[hi-1-up] {
				up++
			}
		}
		switch {
		case down == next && n+2 < len(ops):
			// Join the change after the Equal op.
			c := &ops[n+2]
			c.A0, c.B0 = op.A0+down, op.B0+down
			c.Kind = changeKind(c.A0, c.A1, c.B0, c.B1)
			out = appendEqual(out, op.A0, op.A0+down, op.B0, op.B0+down)
			n++ // the Equal op is now empty
		case up == prev && prev > 0:
			// Join the change before the Equal op.
			out = out[:len(out)-1]
			c := &out[len(out)-1]
			c.A1, c.B1 = op.A1-up, op.B1-up
			c.Kind = changeKind(c.A0, c.A1, c.B0, c.B1)
			out = appendEqual(out, op.A1-up, op.A1, op.B1-up, op.B1)
		default:
			if down > 0 {
				out = appendEqual(out, op.A0, op.A0+down, op.B0, op.B0+down)
				ops[n+1].A0 += down
				ops[n+1].B0 += down
			}
			op.A0, op.A1, op.B0, op.B1 = op.A0+down, op.A1+down, op.B0+down, op.B1+down
			out = append(out, op)
			if n+1 < len(ops) && ops[n+1].A0 == ops[n+1].A1 {
				n++ // slid to the end
			}
		}
	}
	return out
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

// markChanges diffs two sequences of ids below n and reports, for each
// element, whether it is changed (not part of the common subsequence).
func markChanges(a, b []int32, n int) (ca, cb []bool) {
	ca = make([]bool, len(a))
	cb = make([]bool, len(b))
	var s myers
	s.counts = make([]int32, 2*n)
	s.run(a, b, ca, cb)
	return ca, cb
}

// myers holds the state of one diff of id sequences. The zero value is
// ready; a myers may be reused, keeping its buffers.
type myers struct {
	counts  []int32 // per id: occurrences in a at 2*id, in b at 2*id+1; all zero between runs
	a, b    []int32 // the ids left in the search (see leaveOut)
	ra, rb  []int32 // index in the full sequence of each element of a, b
	ca, cb  []bool  // changes found in a, b
	kf, kb  []int32 // furthest x per diagonal k, forward and backward, at index k+koff
	koff    int
	maxCost int
}

// run marks in ca and cb the elements of a and b that a near-minimal edit
// script changes. counts must be zero and hold 2 entries per id.
func (s *myers) run(a, b []int32, ca, cb []bool) {
	cnt := s.counts
	for _, id := range a {
		cnt[2*id]++
	}
	for _, id := range b {
		cnt[2*id+1]++
	}
	s.a, s.ra = s.leaveOut(a, 1, ca, s.a[:0], s.ra[:0])
	s.b, s.rb = s.leaveOut(b, 0, cb, s.b[:0], s.rb[:0])
	for _, id := range a {
		cnt[2*id] = 0
	}
	for _, id := range b {
		cnt[2*id+1] = 0
	}

	n, m := len(s.a), len(s.b)
	s.ca = resetBools(s.ca, n)
	s.cb = resetBools(s.cb, m)
	if k := n + m + 3; cap(s.kf) < k {
		s.kf = make([]int32, k)
		s.kb = make([]int32, k)
	} else {
		s.kf, s.kb = s.kf[:k], s.kb[:k]
	}
	s.koff = m + 1
	s.maxCost = max(256, int(math.Sqrt(float64(n+m))))
	s.compare(0, n, 0, m, false)
	for i, c := range s.ca {
		if c {
			ca[s.ra[i]] = true
		}
	}
	for j, c := range s.cb {
		if c {
			cb[s.rb[j]] = true
		}
	}
}

// leaveOut appends to keep the ids of seq that occur on the other side, and
// to at their indexes, and marks the others changed in c: a line that occurs
// nowhere on the other side is a change, and leaving it out of the search
// shortens it a lot on very different inputs, as in xdiff. other is 0 or 1:
// where s.counts holds the other side's counts.
func (s *myers) leaveOut(seq []int32, other int, c []bool, keep, at []int32) ([]int32, []int32) {
	for i, id := range seq {
		if s.counts[2*int(id)+other] == 0 {
			c[i] = true
			continue
		}
		keep = append(keep, id)
		at = append(at, int32(i))
	}
	return keep, at
}

func resetBools(v []bool, n int) []bool {
	if cap(v) < n {
		return make([]bool, n)
	}
	v = v[:n]
	clear(v)
	return v
}

// compare marks the changes between a[off1:lim1] and b[off2:lim2]. When
// minimal is set, the cost cap is not applied.
func (s *myers) compare(off1, lim1, off2, lim2 int, minimal bool) {
	a, b := s.a, s.b
	for off1 < lim1 && off2 < lim2 && a[off1] == b[off2] {
		off1++
		off2++
	}
	for off1 < lim1 && off2 < lim2 && a[lim1-1] == b[lim2-1] {
		lim1--
		lim2--
	}
	switch {
	case off1 == lim1:
		for j := off2; j < lim2; j++ {
			s.cb[j] = true
		}
	case off2 == lim2:
		for i := off1; i < lim1; i++ {
			s.ca[i] = true
		}
	default:
		x, y, minLo, minHi := s.split(off1, lim1, off2, lim2, minimal)
		s.compare(off1, x, off2, y, minLo)
		s.compare(x, lim1, y, lim2, minHi)
	}
}

// kbUnreached marks a diagonal no backward path has reached.
const kbUnreached = math.MaxInt32

// split finds a point (x, y) on an optimal (or, past the cost cap, good)
// path through a[off1:lim1] × b[off2:lim2], both non-empty and differing in
// their first and last elements. minLo and minHi say whether the halves
// before and after the point must be diffed minimally.
//
// Diagonal k holds the points with x-y == k. kf[k+o] is the largest x a
// forward path of the current cost reaches on k, kb[k+o] the smallest x a
// backward path reaches; -1 and kbUnreached mark diagonals not reached.
func (s *myers) split(off1, lim1, off2, lim2 int, minimal bool) (x, y int, minLo, minHi bool) {
	af, bf := s.a[:lim1], s.b[:lim2] // snakes stay below lim1 and lim2
	kf, kb, o := s.kf, s.kb, s.koff
	dmin, dmax := off1-lim2, lim1-off2
	fmid, bmid := off1-off2, lim1-lim2
	odd := (fmid-bmid)&1 != 0
	fmin, fmax, bmin, bmax := fmid, fmid, bmid, bmid
	kf[fmid+o] = int32(off1)
	kb[bmid+o] = int32(lim1)
	for ec := 1; ; ec++ {
		if fmin > dmin {
			fmin--
			kf[fmin-1+o] = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			kf[fmax+1+o] = -1
		} else {
			fmax--
		}
		for k := fmax; k >= fmin; k -= 2 {
			x := -1
			if l := int(kf[k-1+o]); l >= 0 && l+1 <= lim1 {
				x = l + 1 // a step right, from diagonal k-1
			}
			if u := int(kf[k+1+o]); u >= 0 && u-k <= lim2 && u > x {
				x = u // a step down, from diagonal k+1
			}
			if x < 0 {
				kf[k+o] = -1
				continue
			}
			y := x - k
			for x < len(af) && y < len(bf) && af[x] == bf[y] {
				x++
				y++
			}
			kf[k+o] = int32(x)
			if odd && bmin <= k && k <= bmax && int(kb[k+o]) <= x {
				return x, y, true, true
			}
		}

		if bmin > dmin {
			bmin--
			kb[bmin-1+o] = kbUnreached
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			kb[bmax+1+o] = kbUnreached
		} else {
			bmax--
		}
		for k := bmax; k >= bmin; k -= 2 {
			x := kbUnreached
			if r := int(kb[k+1+o]); r != kbUnreached && r-1 >= off1 {
				x = r - 1 // a step left, from diagonal k+1
			}
			if d := int(kb[k-1+o]); d != kbUnreached && d-k >= off2 && d < x {
				x = d // a step up, from diagonal k-1
			}
			if x == kbUnreached {
				kb[k+o] = kbUnreached
				continue
			}
			y := x - k
			for x > off1 && y > off2 && af[x-1] == bf[y-1] {
				x--
				y--
			}
			kb[k+o] = int32(x)
			if !odd && fmin <= k && k <= fmax && x <= int(kf[k+o]) {
				return x, y, true, true
			}
		}

		if minimal || ec < s.maxCost {
			continue
		}
		// Past the cost cap: split at the point, forward or backward, that
		// got furthest, and diff the half it bounds minimally.
		fbest, fx := -1, 0
		for k := fmax; k >= fmin; k -= 2 {
			if x := int(kf[k+o]); x >= 0 && 2*x-k > fbest {
				fbest, fx = 2*x-k, x
			}
		}
		bbest, bx := math.MaxInt, 0
		for k := bmax; k >= bmin; k -= 2 {
			if x := int(kb[k+o]); x != kbUnreached && 2*x-k < bbest {
				bbest, bx = 2*x-k, x
			}
		}
		if lim1+lim2-bbest < fbest-(off1+off2) {
			return fx, fbest - fx, true, false
		}
		return bx, bbest - bx, false, true
	}
}
