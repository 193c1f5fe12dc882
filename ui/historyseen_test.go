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

// TestSeenIsRecordedByLines: a 500-line new file approved with one screen
// of it shown is recorded by lines — the journal and the History tab say
// "N of 500 changed lines never on screen", N the lines the question
// counted (the journal said "1 of 1 hunks on screen" of a 5,000-line file
// shown 42 lines).
func TestSeenIsRecordedByLines(t *testing.T) {
	h := newHistoryHarness(t)
	var b strings.Builder
	for i := range 500 {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	p := h.propose("claude", "s", engine.FormatWrite, "new.txt", b.String())
	h.win.Select(p.ID)
	h.settle()
	h.Keys("a")
	m := regexp.MustCompile(`(\d+) of 500 changed lines were never on screen`).FindStringSubmatch(h.Dialog().Text())
	if m == nil {
		t.Fatalf("the question says:\n%s\nwant the changed lines never on screen", h.Dialog().Text())
	}
	n, _ := strconv.Atoi(m[1])
	h.Dialog().Click("Approve anyway")
	if o := h.outcome(p.ID); o.Status != decision.Approved {
		t.Fatalf("outcome %s", o.Status)
	}
	want := fmt.Sprintf("%d of 500 changed lines never on screen (0 of 1 hunks seen whole)", n)
	if got := decision.SeenSummary(h.historyDetail(p.ID).Seen); got != want {
		t.Errorf("journal: %q; want %q", got, want)
	}
	hist := h.History()
	hist.Open(1)
	h.until("the History tab says what was on screen", func() bool { return strings.Contains(hist.Info(), want) })
}
