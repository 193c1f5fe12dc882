package diffview

import (
	"strings"
	"testing"
	"time"
)

// asyncTestView returns a test view whose SetTexts diffs big texts in a
// goroutine, and the queue that goroutine posts its result to: the test
// runs what arrives on its own goroutine, as fyne.Do would on the UI's.
func asyncTestView(t *testing.T) (*DiffView, chan func()) {
	t.Helper()
	v, _ := newTestView(t, 1000, 600)
	v.open.sync = false
	posted := make(chan func(), 4)
	v.open.post = func(f func()) { posted <- f }
	return v, posted
}

// runPosted runs the next function the view's goroutine posts.
func runPosted(t *testing.T, posted chan func()) {
	t.Helper()
	select {
	case f := <-posted:
		f()
	case <-time.After(2 * time.Minute):
		t.Fatal("the diff's goroutine posted nothing in 2 minutes")
	}
}

// bigPair returns texts too big to diff on the UI goroutine.
func bigPair(t *testing.T, change func(k int) bool) (old, new string) {
	t.Helper()
	old, new = goSource(70_000, nil), goSource(70_000, change)
	if len(old)+len(new) <= asyncBytes {
		t.Fatalf("%d bytes are not above asyncBytes", len(old)+len(new))
	}
	return old, new
}

func TestSetTextsBigDiffsOffTheUIGoroutine(t *testing.T) {
	v, posted := asyncTestView(t)
	old, new := bigPair(t, every20th)
	v.SetTexts("big.go", old, new)
	v.Nav().NextHunk() // as the window does: open at the first change
	if !v.Opening() || v.model.Len() != 0 {
		t.Fatalf("after SetTexts: Opening() = %v, %d rows; want the placeholder", v.Opening(), v.model.Len())
	}
	if got, want := v.banner.Text, "Diffing 70000 lines…"; !v.banner.Visible() || got != want {
		t.Errorf("banner %q (visible %v); want %q", got, v.banner.Visible(), want)
	}
	runPosted(t, posted)
	if v.Opening() || v.banner.Visible() {
		t.Errorf("after the diff: Opening() = %v, banner visible %v; want neither", v.Opening(), v.banner.Visible())
	}
	if n := len(v.Hunks()); n != 70_000/200 {
		t.Errorf("%d hunks; want %d", n, 70_000/200)
	}
	if k := v.Nav().CurrentHunk(); k != 0 {
		t.Errorf("CurrentHunk() = %d; want 0: NextHunk during the diff opens at the first change", k)
	}
}

func TestSetTextsSupersedesABigDiff(t *testing.T) {
	v, posted := asyncTestView(t)
	old, first := bigPair(t, every20th)
	_, second := bigPair(t, func(k int) bool { return k == 500 })
	v.SetTexts("first.go", old, first)
	v.SetTexts("second.go", old, second)
	runPosted(t, posted)
	runPosted(t, posted) // the first's goroutine, cancelled, posts a no-op
	if v.Opening() {
		t.Fatal("Opening() after both goroutines posted")
	}
	if n := len(v.Hunks()); n != 1 {
		t.Errorf("%d hunks; want 1, the second text's", n)
	}
	if got := v.model.b.Line(500); !strings.Contains(got, "edited") {
		t.Errorf("line 501 of the right side %q; want the second text's edit", got)
	}
}

func TestHunksWaitForABigDiff(t *testing.T) {
	v, posted := asyncTestView(t)
	old, new := bigPair(t, every20th)
	v.SetTexts("big.go", old, new)
	if n := len(v.Hunks()); n != 70_000/200 {
		t.Errorf("Hunks() during the diff: %d; want %d, waited for", n, 70_000/200)
	}
	runPosted(t, posted) // shown already: a no-op
	if v.Opening() || v.model.Len() == 0 {
		t.Errorf("Opening() = %v, %d rows; want the diff shown", v.Opening(), v.model.Len())
	}
}

func TestSetTextsSmallStaysSynchronous(t *testing.T) {
	v, _ := asyncTestView(t)
	v.SetTexts("small.go", goSource(1000, nil), goSource(1000, every20th))
	if v.Opening() || len(v.Hunks()) != 5 {
		t.Errorf("Opening() = %v, %d hunks; want the diff at once, 5 hunks", v.Opening(), len(v.Hunks()))
	}
}
