package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
)

// TestApproveMergedAsksAboutHunksNeverOnScreen: a stale proposal (a save
// on disk mid-review) approved merged asks about the agent's hunks the
// merge writes that were never on screen, as every approval does (in the
// real window a 33-hunk file with 28 never shown was written at once).
func TestApproveMergedAsksAboutHunksNeverOnScreen(t *testing.T) {
	h := newHarness(t)
	var old, prop strings.Builder
	for i := range 600 {
		fmt.Fprintf(&old, "line %d\n", i)
		if i%100 == 50 {
			fmt.Fprintf(&prop, "line %d CHANGED\n", i)
		} else {
			fmt.Fprintf(&prop, "line %d\n", i)
		}
	}
	h.write("big.txt", old.String())
	p := h.propose("claude-code", "s", engine.FormatWrite, "big.txt", prop.String())
	h.win.Select(p.ID)
	h.settle()
	h.write("big.txt", strings.Replace(old.String(), "line 0\n", "line 0 by hand\n", 1))
	h.until("big.txt turns stale", func() bool { q, _ := h.desk.Get(p.ID); return q.State == review.StateStale })
	h.settle()
	h.Keys("a")
	if !strings.Contains(h.Dialog().Text(), "never on screen") {
		q, _ := h.desk.Get(p.ID)
		t.Fatalf("approve merged with hunks never shown asked:\n%s\n(proposal %s); want the question", h.Dialog().Text(), q.State)
	}
	h.Dialog().Click("Approve anyway")
	o := h.outcome(p.ID)
	if !o.Status.Wrote() {
		t.Fatalf("outcome %s", o.Status)
	}
	if got := h.read("big.txt"); !strings.HasPrefix(got, "line 0 by hand\n") || strings.Count(got, "CHANGED") != 6 {
		t.Errorf("big.txt is not the merge of the save and the proposal")
	}
	seen := journalDetail(t, h, p.ID).Seen
	if never, _, ok := decision.SeenLines(seen); !ok || never == 0 {
		t.Errorf("journal: %s; want lines never on screen", decision.SeenSummary(seen))
	}
}
