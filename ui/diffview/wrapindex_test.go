package diffview

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestWrapIndexAgreesWithTheWalk: row offsets and the row at an offset,
// by binary search over the wrapped rows, are what walking every row
// gives, on random wrapped rows.
func TestWrapIndexAgreesWithTheWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 28))
	const line = 17
	for range 200 {
		n := rng.IntN(300) + 1
		w := map[int]int{}
		for range rng.IntN(n + 1) {
			w[rng.IntN(n)] = rng.IntN(5) + 2
		}
		var x wrapIndex
		x.build(w)
		ys := make([]float32, n+1) // the walk
		for i := range n {
			h := 1
			if k, ok := w[i]; ok {
				h = k
			}
			ys[i+1] = ys[i] + float32(h*line)
		}
		for i := range n {
			if got := x.y(i, line); got != ys[i] {
				t.Fatalf("%v: y(%d) = %v; the walk gives %v", w, i, got, ys[i])
			}
			for _, y := range []float32{ys[i], ys[i] + 1, ys[i+1] - 1} {
				if got := x.at(y, n, line); got != i {
					t.Fatalf("%v: at(%v) = %d; the walk gives %d", w, y, got, i)
				}
			}
		}
	}
}

// TestWrapOnABigFileRefreshesTheListOnce: w on a 20,000-line file whose
// every line wraps froze the window for minutes: each row's new height
// refreshed the whole list (Fyne's List makes a row to measure on every
// refresh, so the rows made count the refreshes). The heights go to a new
// list at once.
func TestWrapOnABigFileRefreshesTheListOnce(t *testing.T) {
	v, _ := newTestView(t, 600, 400)
	long := strings.Repeat("the quick brown fox jumps over the lazy dog ", 4)
	old := numbered(20000, func(k int) string { return "line " + strconv.Itoa(k) + ": " + long + "\n" })
	new := numbered(20000, func(k int) string {
		if k%600 == 0 {
			return "CHANGED " + strconv.Itoa(k) + ": " + long + "\n"
		}
		return "line " + strconv.Itoa(k) + ": " + long + "\n"
	})
	v.SetTexts("big.txt", old, new)
	before := v.rows.created
	v.SetWrap(true)
	if made := v.rows.created - before; made > 200 {
		t.Errorf("w on 20,000 wrapping rows made %d rows (a list refresh each); want the list refreshed a bounded number of times", made)
	}
	if v.wr.rowHeight(5) <= v.metric.line {
		t.Fatal("a long row does not wrap")
	}
	v.nav.scrollTo(v.wr.rowY(15000))
	if top := v.topRow(); top < 14990 || top > 15010 {
		t.Errorf("scrolled to row 15000's offset: top row %d", top)
	}
	before = v.rows.created
	v.SetWrap(false)
	if made := v.rows.created - before; made > 200 {
		t.Errorf("w off made %d rows", made)
	}
	if v.wr.rowHeight(5) != v.metric.line {
		t.Error("wrap off: a row keeps its wrapped height")
	}
}
