package engine

import "testing"

// TestHistogramSpreadIsNearLinear holds the anchor searches on many small
// changes spread evenly through a file to a few passes over it: one anchor
// per search, as in git, goes over the rest of the file after every hunk
// (issue 15: 1,000,000 lines took minutes).
func TestHistogramSpreadIsNearLinear(t *testing.T) {
	a, b := spreadPair(40_000)
	ia, ib, n := internLines(a, b)
	ca, cb := make([]bool, len(a)), make([]bool, len(b))
	var h histogram
	h.diff(ia, ib, n, ca, cb)
	if limit := 2 * histogramRescans * (len(a) + len(b)); h.searched > limit {
		t.Errorf("the anchor searches went over %d lines of two %d-line texts; want at most %d", h.searched, len(a), limit)
	}
	changed := 0
	for i := range ca {
		if ca[i] {
			changed++
		}
		if cb[i] {
			changed++
		}
	}
	if want := 2 * 3 * len(a) / 200; changed != want {
		t.Errorf("%d changed lines; want %d (3 in 200, on both sides)", changed, want)
	}
}
