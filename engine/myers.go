package engine

import "math"

// myers is Myers' O(ND) search in linear space (the middle-snake divide
// and conquer) on interned line ids, with the two tricks of git's xdiff
// that keep it fast on very different inputs: lines that occur nowhere in
// the other sequence are changes and are left out of the search, and after
// max(256, √(N+M)) edit steps a search splits at its furthest-reaching
// point instead of insisting on the minimum. The result is minimal or close
// to it. DiffLines uses it, as git's histogram diff uses xdiff's Myers,
// where no common line is rare enough to anchor on, and on the groups that
// compacting joined.
//
// A myers holds the state of one diff of id sequences. The zero value is
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
