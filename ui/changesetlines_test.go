package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/decision"
)

// TestChangesetApprovalRecordsLinesOfProposalsShownBefore: a 500-line new
// file shown one screen, then another proposal of the changeset shown, then
// A: the journal records the lines of the first that were on screen (it
// recorded none once another proposal had the pane).
func TestChangesetApprovalRecordsLinesOfProposalsShownBefore(t *testing.T) {
	h := newHarness(t)
	var b strings.Builder
	for i := range 500 {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	big := h.propose("claude-code", "s1", engine.FormatWrite, "big.txt", b.String())
	h.write("small.txt", "s\n")
	small := h.propose("claude-code", "s1", engine.FormatWrite, "small.txt", "S\n")
	h.win.Select(big.ID)
	h.settle()
	h.win.Select(small.ID)
	h.settle()
	h.Keys("A")
	if !h.Dialog().Open() {
		t.Fatal("A asked nothing")
	}
	h.Dialog().Click("Approve")
	h.outcome(big.ID)
	seen := journalDetail(t, h, big.ID).Seen
	if len(seen) != 1 || seen[0].Seen || seen[0].LinesSeen < 10 || seen[0].LinesSeen >= 500 {
		t.Fatalf("journal's seen for big.txt: %+v; want its one hunk not seen whole, one screen of its 500 lines seen", seen)
	}
	if s := decision.SeenSummary(seen); !strings.Contains(s, "of 500 changed lines never on screen") {
		t.Errorf("summary %q", s)
	}
}
