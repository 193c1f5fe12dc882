package ui

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/decision"
)

// TestSeenMeansTheLinesWereOnScreen: a 500-line new file of which one
// screen was shown is not "seen": a asks, counting the changed lines never
// on screen, and the journal records its one hunk as not on screen (it was
// approved with 42 lines of 5,000 shown, "1 of 1 hunks on screen").
func TestSeenMeansTheLinesWereOnScreen(t *testing.T) {
	h := newHarness(t)
	var b strings.Builder
	for i := range 500 {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	p := h.propose("claude", "s", engine.FormatWrite, "new.txt", b.String())
	h.win.Select(p.ID)
	h.settle()
	h.Keys("a")
	got := h.Dialog().Text()
	if !strings.Contains(got, "1 of 1 hunk was never on screen (new.txt)") {
		t.Fatalf("a with one screen of 500 new lines shown asks:\n%s\nwant the hunk counted as never on screen", got)
	}
	m := regexp.MustCompile(`(\d+) of 500 changed lines were never on screen`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("the question says:\n%s\nwant how many of the 500 changed lines were never on screen", got)
	}
	if n, _ := strconv.Atoi(m[1]); n < 400 || n >= 500 {
		t.Errorf("%d of 500 lines never on screen; want all but the screen shown", n)
	}
	h.Dialog().Click("Approve anyway")
	if o := h.outcome(p.ID); o.Status != decision.Approved {
		t.Fatalf("outcome %s", o.Status)
	}
	if s, n := decision.SeenCount(h.historyDetail(p.ID).Seen); s != 0 || n != 1 {
		t.Errorf("journal: %d of %d hunks on screen; want 0 of 1", s, n)
	}
}
