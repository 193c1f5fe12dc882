package engine

import (
	"cmp"
	"math"
	"slices"
)

// histogramMaxCount is the most times a line may occur in a region of a
// and still anchor the histogram diff there, as in git.
const histogramMaxCount = 64

// histogramRescans is how many times over the lines of a region the
// searches for its anchors may go, one anchor per search as in git, before
// region keeps many anchors per search (see alsoKept).
const histogramRescans = 8

// histogram holds the state of one histogram diff of id sequences (see
// DiffLines). The zero value is ready; its buffers are reused from region
// to region.
type histogram struct {
	count []int32  // per id: occurrences in the region of a being indexed; all zero between regions
	first []int32  // per id: 1 + the first line of the region of a with that id, 0 if none
	next  []int32  // per line of a: 1 + the next line of the region with its id, 0 if none
	runs  []run    // the runs the last anchor search tried
	keep  []region // the runs regions are split at, a stack shared by the nested calls
	m     myers    // for regions where every common line is too frequent

	searched int // lines the anchor searches went over, in a and b, for tests
}

// region is a run of common lines: a[A0:A1] equals b[B0:B1].
type region struct {
	A0, A1, B0, B1 int
}

// run is a run of common lines that an anchor search tried, with its
// rarity: the least count in the region of a of its lines.
type run struct {
	region
	rarity int32
	clear  bool // for alsoKept
}

// diff marks in ca and cb the lines of a and b, id sequences with ids below
// n, that the histogram diff changes.
func (h *histogram) diff(a, b []int32, n int, ca, cb []bool) {
	h.reserve(n, len(a))
	h.region(a, b, ca, cb, 0, len(a), 0, len(b))
}

// diffCompacted is diff followed by compacting both sides (compact.go);
// la and lb are the lines whose ids a and b hold.
func (h *histogram) diffCompacted(a, b []int32, la, lb []string, n int, ca, cb []bool) {
	h.diff(a, b, n, ca, cb)
	sa, sb := side{a, ca, la}, side{b, cb, lb}
	h.compact(sa, sb)
	h.compact(sb, sa)
}

// reserve makes the buffers big enough for n ids and na lines of a.
func (h *histogram) reserve(n, na int) {
	h.count = grow(h.count, n)
	h.first = grow(h.first, n)
	h.m.counts = grow(h.m.counts, 2*n)
	if len(h.next) < na {
		h.next = make([]int32, na)
	}
}

// grow returns v, lengthened with zeros to at least n elements.
func grow(v []int32, n int) []int32 {
	if len(v) < n {
		v = append(v, make([]int32, n-len(v))...)
	}
	return v
}

// region diffs a[a0:a1] against b[b0:b1]: it anchors on the best run of
// common lines, diffs what comes before it the same way, and goes on with
// what comes after it. Once its searches have gone over the region
// histogramRescans times, it also anchors on the runs alsoKept adds.
func (h *histogram) region(a, b []int32, ca, cb []bool, a0, a1, b0, b1 int) {
	size, work := a1-a0+b1-b0, 0 // lines in the region, and searched so far
	for {
		switch {
		case a0 == a1:
			markAll(cb[b0:b1])
			return
		case b0 == b1:
			markAll(ca[a0:a1])
			return
		}
		r, found, common := h.anchor(a, b, a0, a1, b0, b1)
		switch {
		case !found && common:
			// Every common line is too frequent to anchor on.
			h.m.run(a[a0:a1], b[b0:b1], ca[a0:a1], cb[b0:b1])
			return
		case !found:
			markAll(ca[a0:a1])
			markAll(cb[b0:b1])
			return
		}
		base := len(h.keep)
		if work += a1 - a0 + b1 - b0; work > histogramRescans*size {
			h.alsoKept(r)
		} else {
			h.keep = append(h.keep, r.region)
		}
		for k := base; k < len(h.keep); k++ {
			r := h.keep[k] // by index: the nested calls grow h.keep
			h.region(a, b, ca, cb, a0, r.A0, b0, r.B0)
			a0, b0 = r.A1, r.B1
		}
		h.keep = h.keep[:base]
	}
}

// alsoKept pushes on h.keep, in order, best and every other run of
// h.runs as rare as best that neither crosses nor overlaps any run of
// h.runs.
//
// git anchors on one run per search and searches again all that comes
// after it, which is quadratic when many small changes are spread evenly
// through a big file: 15,000 changed lines in 1,000,000 took git 302 s
// (issue 15). A run in the way of none of the runs tried is kept by git's
// later searches of the smaller regions too, unless one of them finds a
// run that crosses it and is rarer there, where counts are lower; keeping
// all such runs at once makes the work near-linear. region waits for a few
// passes before it does, so that ordinary inputs get git's hunks exactly.
func (h *histogram) alsoKept(best run) {
	rs := h.runs[:0]
	for _, r := range h.runs {
		if r.rarity == best.rarity {
			rs = append(rs, r)
		}
	}
	slices.SortFunc(rs, func(x, y run) int { return cmp.Or(x.B0-y.B0, x.A0-y.A0) })
	// A run is in the way of none when every run sorted before it ends
	// before it on both sides and every run after it starts after it.
	// clear marks the second half of that test.
	minA0, minB0 := math.MaxInt, math.MaxInt
	for k := len(rs) - 1; k >= 0; k-- {
		r := &rs[k]
		r.clear = r.A1 <= minA0 && r.B1 <= minB0
		minA0, minB0 = min(minA0, r.A0), min(minB0, r.B0)
	}
	maxA1, maxB1 := 0, 0
	for _, r := range rs {
		if r.region == best.region || r.clear && maxA1 <= r.A0 && maxB1 <= r.B0 {
			h.keep = append(h.keep, r.region)
		}
		maxA1, maxB1 = max(maxA1, r.A1), max(maxB1, r.B1)
	}
}

// anchor finds the run of common lines to keep in a[a0:a1] × b[b0:b1]:
// among the runs through a line of b that occurs at most histogramMaxCount
// times in a[a0:a1], the one whose rarest line is rarest, and of those the
// longest (the first found on a tie). A run's rarity is the least count in
// a of its lines. It also reports whether the two share any line at all.
//
// As in git, each line of b is tried at every place of a that has it,
// skipping the places inside a run found just before, and lines of b
// inside a run already found are not tried again. The runs tried are left
// in h.runs.
func (h *histogram) anchor(a, b []int32, a0, a1, b0, b1 int) (best run, found, common bool) {
	count, first, next := h.count, h.first, h.next
	for i := a1 - 1; i >= a0; i-- {
		id := a[i]
		next[i] = first[id]
		first[id] = int32(i + 1)
		count[id]++
	}
	h.runs = h.runs[:0]
	h.searched += a1 - a0 + b1 - b0
	bestCount := int32(histogramMaxCount + 1)
	bestLen := 1 // a one-line run must be rarer than the best to win
	for j := b0; j < b1; {
		jnext := j + 1
		c := count[b[j]]
		if c > 0 {
			common = true
		}
		if c == 0 || c > bestCount {
			j = jnext
			continue
		}
		for i := int(first[b[j]]) - 1; i >= 0; {
			r := region{i, i + 1, j, j + 1}
			rc := c // the run's least count
			for r.A0 > a0 && r.B0 > b0 && a[r.A0-1] == b[r.B0-1] {
				r.A0--
				r.B0--
				rc = min(rc, count[a[r.A0]])
			}
			for r.A1 < a1 && r.B1 < b1 && a[r.A1] == b[r.B1] {
				rc = min(rc, count[a[r.A1]])
				r.A1++
				r.B1++
			}
			jnext = max(jnext, r.B1)
			h.runs = append(h.runs, run{region: r, rarity: rc})
			if r.A1-r.A0 > bestLen || rc < bestCount {
				best, found, bestLen, bestCount = run{region: r, rarity: rc}, true, r.A1-r.A0, rc
			}
			i = int(next[i]) - 1
			for i >= 0 && i < r.A1 {
				i = int(next[i]) - 1
			}
		}
		j = jnext
	}
	for _, id := range a[a0:a1] {
		count[id], first[id] = 0, 0
	}
	return best, found && bestCount <= histogramMaxCount, common
}

// markAll marks every line of c changed.
func markAll(c []bool) {
	for i := range c {
		c[i] = true
	}
}
