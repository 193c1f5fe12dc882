package diffview

import (
	"fmt"
	"slices"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
)

// seenDiff is 1,000 lines with a change every 100 lines (10 hunks, far
// apart): a window 300 px high shows one at a time.
func seenDiff() (string, string) {
	return numbered(1000, nil), numbered(1000, func(k int) string {
		if k%100 == 50 {
			return fmt.Sprintf("changed %d\n", k)
		}
		return ""
	})
}

// TestSeenOnlyHunksOnScreen: opening shows the top, where no change is;
// j goes to each change in turn, and only the changes brought on screen
// count, in Hunks' IDs.
func TestSeenOnlyHunksOnScreen(t *testing.T) {
	v, _ := newTestView(t, 900, 300)
	old, new := seenDiff()
	v.SetTexts("a.txt", old, new)
	hs := v.Hunks()
	if len(hs) != 10 {
		t.Fatalf("%d hunks; want 10", len(hs))
	}
	if got := v.Seen().Hunks(); len(got) != 0 {
		t.Fatalf("at the top, before any change: seen %v; want none", got)
	}
	if got := v.Seen().Unseen(); len(got) != 10 {
		t.Fatalf("unseen %d; want all 10", len(got))
	}
	v.Nav().NextHunk()
	v.Nav().NextHunk()
	v.Nav().NextHunk()
	want := []string{hs[0].ID, hs[1].ID, hs[2].ID}
	if got := v.Seen().Hunks(); !slices.Equal(got, want) {
		t.Fatalf("after three j: seen %v; want the first three %v", got, want)
	}
	if got := v.Seen().Unseen(); !slices.Equal(got, ids(hs[3:])) {
		t.Errorf("after three j: unseen %v; want the last seven", got)
	}
	// The end: the last change only, nothing between.
	v.Nav().LastHunk()
	if got := v.Seen().Hunks(); !slices.Equal(got, append(want, hs[9].ID)) {
		t.Errorf("after the last hunk: seen %v; want the first three and the last", got)
	}
	// ShowHunk goes straight to one hunk.
	if !v.Nav().ShowHunk(hs[6].ID) || !slices.Contains(v.Seen().Hunks(), hs[6].ID) || len(v.Seen().Hunks()) != 5 {
		t.Errorf("after ShowHunk(hunk 7): seen %v; want it too", v.Seen().Hunks())
	}
	if v.Nav().ShowHunk("nothere") {
		t.Error("ShowHunk(an unknown id) = true")
	}
	// The same texts again (a re-render): what was seen stays seen.
	v.SetTexts("a.txt", old, new)
	if got := len(v.Seen().Hunks()); got != 5 {
		t.Errorf("after showing the same diff again: %d seen; want 5", got)
	}
	// Another file with the same change has not been seen.
	v.SetTexts("b.txt", old, new)
	if got := v.Seen().Hunks(); len(got) != 0 {
		t.Errorf("b.txt: seen %v; want none (seen is per file)", got)
	}
	if got := len(v.Seen().In("a.txt")); got != 5 {
		t.Errorf("SeenIn(a.txt) has %d; want 5", got)
	}
	v.Seen().Forget()
	if got := len(v.Seen().In("a.txt")); got != 0 {
		t.Errorf("after ForgetSeen: %d seen", got)
	}
}

func ids(hs []engine.Hunk) []string {
	var out []string
	for _, h := range hs {
		out = append(out, h.ID)
	}
	return out
}

// TestSeenByScrollingNotPastTheEdge: a change one row under the bottom
// edge is not seen; one pixel more of scrolling shows it.
func TestSeenByScrollingNotPastTheEdge(t *testing.T) {
	v, _ := newTestView(t, 900, 300)
	old, new := seenDiff()
	v.SetTexts("a.txt", old, new)
	h := v.list.Size().Height
	line := v.metric.line
	// Row 50 is the first change: put its top exactly at the bottom edge.
	v.list.ScrollToOffset(50*line - h)
	if got := v.Seen().Hunks(); len(got) != 0 {
		t.Fatalf("change just under the bottom edge: seen %v; want none", got)
	}
	v.list.ScrollToOffset(50*line - h + 1)
	if got := v.Seen().Hunks(); len(got) != 1 {
		t.Fatalf("change one pixel on screen: seen %v; want it", got)
	}
}

// TestSeenInlineAndFolded: in the inline layout with unchanged lines
// folded, a jump to the end shows the last change only.
func TestSeenInlineAndFolded(t *testing.T) {
	v, _ := newTestView(t, 900, 200)
	v.Folds().Collapse(true)
	v.SetInline(true)
	old, new := seenDiff()
	v.SetTexts("a.txt", old, new)
	hs := v.Hunks()
	if got := v.Seen().Hunks(); len(got) == 0 || len(got) == len(hs) {
		t.Fatalf("folded and inline at the top: seen %d of %d; want some, not all", len(got), len(hs))
	}
	v.list.ScrollToBottom()
	got := v.Seen().Hunks()
	if !slices.Contains(got, hs[len(hs)-1].ID) || len(got) > 4 {
		t.Errorf("after scrolling to the bottom: seen %d of %d (%v); want the last hunk, not those between", len(got), len(hs), got)
	}
}

// TestSeenNeedsAVisibleView: a hidden view records nothing; shown, it
// does.
func TestSeenNeedsAVisibleView(t *testing.T) {
	v, _ := newTestView(t, 900, 300)
	v.Hide()
	old := "a\nb\n"
	v.SetTexts("a.txt", old, "a\nB\n")
	if got := v.Seen().Hunks(); len(got) != 0 {
		t.Fatalf("hidden: seen %v", got)
	}
	v.Show()
	v.Refresh()
	if got := v.Seen().Hunks(); len(got) != 1 {
		t.Fatalf("shown: seen %v; want the one hunk", got)
	}
}

// TestSeenStreamCountsOnlyTheFinalText: nothing counts while a proposal
// streams; when it ends the rows on screen count, and a change whose text
// differs from one seen before is a new hunk, unseen.
func TestSeenStreamCountsOnlyTheFinalText(t *testing.T) {
	v, _ := newTestView(t, 900, 300)
	old := "a\nb\nc\n"
	s, err := engine.NewStream(old, engine.FormatWrite)
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Feed("a\nB\nc\n")
	if err != nil {
		t.Fatal(err)
	}
	v.SetStream("a.txt", old, p)
	if got := len(v.seen.byPath["a.txt"]); got != 0 {
		t.Fatalf("while streaming: %d hunks recorded seen; want none", got)
	}
	v.SetTexts("a.txt", old, "a\nB\nc\n")
	if got := v.Seen().Hunks(); len(got) != 1 {
		t.Fatalf("after the stream ended: seen %v; want its one hunk", got)
	}
	v.Hide() // the next text arrives while nothing is on screen
	v.SetTexts("a.txt", old, "a\nBB\nc\n")
	if got := v.Seen().Unseen(); len(got) != 1 {
		t.Errorf("the change's text changed: unseen %v; want it (a new hunk)", got)
	}
}

// TestSeenWaitsWhileNotShowing: while Showing says the view is hidden (a
// tab over it) nothing counts; once it shows, the rows on screen count
// when asked, without a scroll.
func TestSeenWaitsWhileNotShowing(t *testing.T) {
	v, _ := newTestView(t, 900, 300)
	showing := false
	v.Showing = func() bool { return showing }
	old, new := seenDiff()
	v.SetTexts("a.txt", old, new)
	v.Nav().NextHunk()
	if got := len(v.Seen().In("a.txt")); got != 0 {
		t.Fatalf("not showing: %d seen; want none", got)
	}
	showing = true
	if got := v.Seen().Hunks(); len(got) != 1 || got[0] != v.Hunks()[0].ID {
		t.Errorf("showing: seen %v; want the first hunk, on screen", got)
	}
}

// TestSeenOnlyOnceEveryLineWasOnScreen: a change taller than the view is
// not seen when its first rows are: Lines counts how many of its lines
// were on screen, and it is seen once paging has shown the rest.
func TestSeenOnlyOnceEveryLineWasOnScreen(t *testing.T) {
	v, _ := newTestView(t, 900, 300)
	old := numbered(400, nil)
	new := numbered(400, func(k int) string {
		if k >= 100 && k < 200 {
			return fmt.Sprintf("changed %d\n", k)
		}
		return ""
	})
	v.SetTexts("a.txt", old, new)
	if hs := v.Hunks(); len(hs) != 1 {
		t.Fatalf("%d hunks; want 1", len(hs))
	}
	v.Nav().NextHunk()
	if got := v.Seen().Hunks(); len(got) != 0 {
		t.Fatalf("its first rows on screen: seen %v; want none yet", got)
	}
	part := v.Seen().Lines("a.txt")[v.Hunks()[0].ID]
	if part[1] != 200 || part[0] <= 0 || part[0] >= part[1] {
		t.Fatalf("its first rows on screen: %d of %d lines seen; want some of 200", part[0], part[1])
	}
	for range 20 {
		v.Nav().PageDown()
	}
	if got := v.Seen().Hunks(); len(got) != 1 {
		t.Errorf("paged through it: seen %v; want it", got)
	}
	if left := v.Seen().Lines("a.txt"); len(left) != 0 {
		t.Errorf("paged through it: partly seen %v; want none", left)
	}
}
