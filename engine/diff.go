package engine

import "math"

// OpKind says what an Op does.
type OpKind uint8

// The op kinds. In a slice of ops from DiffLines, every op but Equal is
// followed and preceded only by Equal ops or the ends.
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
// prefix and suffix are trimmed first. The result is minimal or very close
// to it (measured within 0.1 % on ordinary edits), and a diff of two
// unrelated 100k-line files costs about as much as git's. go-diff's line
// mode and plain Myers were ruled out: both take seconds there.
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
func internLines(a, b []string) (ia, ib []int32, n int) {
	ids := make(map[string]int32, len(a)+len(b)/4)
	ia = make([]int32, len(a))
	ib = make([]int32, len(b))
	for i, l := range a {
		id, ok := ids[l]
		if !ok {
			id = int32(len(ids))
			ids[l] = id
		}
		ia[i] = id
	}
	for i, l := range b {
		id, ok := ids[l]
		if !ok {
			id = int32(len(ids))
			ids[l] = id
		}
		ib[i] = id
	}
	return ia, ib, len(ids)
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
// inserted function follows the closing brace of the one before it.
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
			if down > 0 {
				out = appendEqual(out, op.A0, op.A0+down, op.B0, op.B0+down)
			}
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
	a, b    []int32 // the ids that occur on both sides
	ra, rb  []int32 // index in the full sequence of each element of a, b
	ca, cb  []bool  // changes found in a, b
	kf, kb  []int   // furthest x per diagonal k, forward and backward, at index k+koff
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
	s.a, s.ra = s.a[:0], s.ra[:0]
	for i, id := range a {
		if cnt[2*id+1] == 0 {
			ca[i] = true
			continue
		}
		s.a = append(s.a, id)
		s.ra = append(s.ra, int32(i))
	}
	s.b, s.rb = s.b[:0], s.rb[:0]
	for j, id := range b {
		if cnt[2*id] == 0 {
			cb[j] = true
			continue
		}
		s.b = append(s.b, id)
		s.rb = append(s.rb, int32(j))
	}
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
		s.kf = make([]int, k)
		s.kb = make([]int, k)
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

// split finds a point (x, y) on an optimal (or, past the cost cap, good)
// path through a[off1:lim1] × b[off2:lim2], both non-empty and differing in
// their first and last elements. minLo and minHi say whether the halves
// before and after the point must be diffed minimally.
//
// Diagonal k holds the points with x-y == k. kf[k+o] is the largest x a
// forward path of the current cost reaches on k, kb[k+o] the smallest x a
// backward path reaches; -1 and math.MaxInt mark diagonals not reached.
func (s *myers) split(off1, lim1, off2, lim2 int, minimal bool) (x, y int, minLo, minHi bool) {
	a, b := s.a, s.b
	kf, kb, o := s.kf, s.kb, s.koff
	dmin, dmax := off1-lim2, lim1-off2
	fmid, bmid := off1-off2, lim1-lim2
	odd := (fmid-bmid)&1 != 0
	fmin, fmax, bmin, bmax := fmid, fmid, bmid, bmid
	kf[fmid+o] = off1
	kb[bmid+o] = lim1
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
			if l := kf[k-1+o]; l >= 0 && l+1 <= lim1 {
				x = l + 1 // a step right, from diagonal k-1
			}
			if u := kf[k+1+o]; u >= 0 && u-k <= lim2 && u > x {
				x = u // a step down, from diagonal k+1
			}
			if x < 0 {
				kf[k+o] = -1
				continue
			}
			y := x - k
			for x < lim1 && y < lim2 && a[x] == b[y] {
				x++
				y++
			}
			kf[k+o] = x
			if odd && bmin <= k && k <= bmax && kb[k+o] <= x {
				return x, y, true, true
			}
		}

		if bmin > dmin {
			bmin--
			kb[bmin-1+o] = math.MaxInt
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			kb[bmax+1+o] = math.MaxInt
		} else {
			bmax--
		}
		for k := bmax; k >= bmin; k -= 2 {
			x := math.MaxInt
			if r := kb[k+1+o]; r != math.MaxInt && r-1 >= off1 {
				x = r - 1 // a step left, from diagonal k+1
			}
			if d := kb[k-1+o]; d != math.MaxInt && d-k >= off2 && d < x {
				x = d // a step up, from diagonal k-1
			}
			if x == math.MaxInt {
				kb[k+o] = math.MaxInt
				continue
			}
			y := x - k
			for x > off1 && y > off2 && a[x-1] == b[y-1] {
				x--
				y--
			}
			kb[k+o] = x
			if !odd && fmin <= k && k <= fmax && x <= kf[k+o] {
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
			if x := kf[k+o]; x >= 0 && 2*x-k > fbest {
				fbest, fx = 2*x-k, x
			}
		}
		bbest, bx := math.MaxInt, 0
		for k := bmax; k >= bmin; k -= 2 {
			if x := kb[k+o]; x != math.MaxInt && 2*x-k < bbest {
				bbest, bx = 2*x-k, x
			}
		}
		if lim1+lim2-bbest < fbest-(off1+off2) {
			return fx, fbest - fx, true, false
		}
		return bx, bbest - bx, false, true
	}
}
