package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
)

// staleFromStart proposes, in the window, an edit of c.go whose agent read
// a version the desk never had (stale from the start), its one change on
// screen in the "Disk vs merged proposal" view.
func staleFromStart(t *testing.T, h *harness) review.Proposal {
	t.Helper()
	h.write("c.go", "a\nb\nc\nd\ne\nf\ng\nwrite = 10\ni\n")
	p, err := h.desk.Propose(context.Background(), review.Request{Agent: "aider", Session: "s", Format: engine.FormatSearchReplace, Path: "c.go",
		Payload: srBlock("write = 10\n", "write = 30\n"), ReadSHA256: strings.Repeat("0", 64)})
	if err != nil {
		t.Fatal(err)
	}
	h.advance(time.Minute)
	h.until("the window shows it", func() bool { return h.InQueue(p.ID) })
	h.win.Select(p.ID)
	h.settle()
	h.advance(time.Second) // the person looks at the whole (short) file
	h.settle()
	if !strings.Contains(h.Header(), "stale from the start") {
		t.Fatalf("header:\n%s\nwant stale from the start", h.Header())
	}
	return p
}

// TestStaleFromStartChangeOnScreenIsSeen: the one change of a stale-from-
// the-start file, on screen in the disk-vs-merged view, was seen: Approve
// merged asked "1 of 1 hunk was never on screen".
func TestStaleFromStartChangeOnScreenIsSeen(t *testing.T) {
	h := newHarness(t)
	p := staleFromStart(t, h)
	h.win.Approve() // Approve merged
	if h.Dialog().Open() {
		if got := h.Dialog().Text(); strings.Contains(got, "never on screen") {
			t.Fatalf("Approve merged with the change on screen asked:\n%s", got)
		}
	}
	o := h.outcome(p.ID)
	if o.Status != decision.Approved || h.read("c.go") != "a\nb\nc\nd\ne\nf\ng\nwrite = 30\ni\n" {
		t.Fatalf("approve merged: %s, file %q", o.Status, h.read("c.go"))
	}
	if s, n := decision.SeenCount(journalDetail(t, h, p.ID).Seen); n == 0 || s != n {
		t.Errorf("journal: %d of %d hunks seen; want all", s, n)
	}
}

// TestStaleFromStartRejectRecordsSeen: rejecting it records the change as
// seen (History said "2 of 2 changed lines never on screen").
func TestStaleFromStartRejectRecordsSeen(t *testing.T) {
	h := newHarness(t)
	p := staleFromStart(t, h)
	h.win.Reject("no")
	o := h.outcome(p.ID)
	if o.Status != decision.Rejected {
		t.Fatalf("reject: %s", o.Status)
	}
	seen := journalDetail(t, h, p.ID).Seen
	if s, n := decision.SeenCount(seen); n == 0 || s != n {
		t.Errorf("journal: %d of %d hunks seen (%s); want all", s, n, decision.SeenSummary(seen))
	}
}
