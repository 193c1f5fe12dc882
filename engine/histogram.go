package engine

// histogramMaxCount is the most times a line may occur in a region of a
// and still anchor the histogram diff there, as in git.
const histogramMaxCount = 64

// histogram holds the state of one histogram diff of id sequences (see
// DiffLines). The zero value is ready; its buffers are reused from region
// to region.
type histogram struct {
	count []int32 // per id: occurrences in the region of a being indexed; all zero between regions
	first []int32 // per id: 1 + the first line of the region of a with that id, 0 if none
	next  []int32 // per line of a: 1 + the next line of the region with its id, 0 if none
	m     myers   // for regions where every common line is too frequent
}

// region is a run of common lines: a[A0:A1] equals b[B0:B1].
type region struct {
	A0, A1, B0, B1 int
}

// diff marks in ca and cb the lines of a and b, id sequences with ids below
// n, that the histogram diff changes.
func (h *histogram) diff(a, b []int32, n int, ca, cb []bool) {
	h.reserve(n, len(a))
	h.region(a, b, ca, cb, 0, len(a), 0, len(b))
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
// what comes after it.
func (h *histogram) region(a, b []int32, ca, cb []bool, a0, a1, b0, b1 int) {
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
		h.region(a, b, ca, cb, a0, r.A0, b0, r.B0)
		a0, b0 = r.A1, r.B1
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
// inside a run already found are not tried again.
func (h *histogram) anchor(a, b []int32, a0, a1, b0, b1 int) (best region, found, common bool) {
	count, first, next := h.count, h.first, h.next
	for i := a1 - 1; i >= a0; i-- {
		id := a[i]
		next[i] = first[id]
		first[id] = int32(i + 1)
		count[id]++
	}
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
			if r.A1-r.A0 > bestLen || rc < bestCount {
				best, found, bestLen, bestCount = r, true, r.A1-r.A0, rc
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
