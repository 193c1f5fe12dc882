package ui

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/ui/present"
)

// TestHistoryHeadingNamesWhoDecided (QA finding 18): the heading of a
// decision the person made says the person decided it and the agent
// proposed it, never "approved by" the agent.
func TestHistoryHeadingNamesWhoDecided(t *testing.T) {
	h := newHistoryHarness(t)
	h.write("a.txt", "one\ntwo\n")
	h.approve("a.txt", "two\n", "TWO\n")
	hist := h.History()
	hist.Open(1)
	h.until("the heading says who decided", func() bool { return strings.Contains(hist.Title(), "by the person (") })
	got := hist.Title()
	if !strings.Contains(got, "approved by the person (") || !strings.Contains(got, "— proposed by claude-code/s1,") || strings.Contains(got, "approved by claude-code") {
		t.Errorf("heading %q; want it approved by the person, proposed by claude-code/s1", got)
	}
}

// TestHistoryHeadingOfARuleAndARestore: a rule's decision is the rule's;
// a restore is by whoever made it; before who decided is read, the
// heading names only the proposer.
func TestHistoryHeadingOfARuleAndARestore(t *testing.T) {
	e := journal.Entry{Ref: "7", Kind: journal.EntryWrite, Agent: "claude-code", Session: "vv", Decision: decision.Approved, Time: baseTime}
	for _, c := range []struct {
		e    journal.Entry
		det  journal.Detail
		want string
	}{
		{e, journal.Detail{DecidedBy: "docs-only", DecidedByRule: true}, "checkpoint 7 — approved by the rule docs-only — proposed by claude-code/vv,"},
		{e, journal.Detail{DecidedBy: "ann@box"}, "checkpoint 7 — approved by the person (ann@box) — proposed by claude-code/vv,"},
		{e, journal.Detail{}, "checkpoint 7 — approved — proposed by claude-code/vv,"},
		{journal.Entry{Ref: "8", Kind: journal.EntryRestore, Agent: "person", Session: "history", Time: baseTime}, journal.Detail{}, "checkpoint 8 — restore by person/history,"},
	} {
		if got := present.EntryTitle(c.e, c.det); !strings.HasPrefix(got, c.want) {
			t.Errorf("EntryTitle(%s, %+v) = %q; want it to start %q", c.e.Ref, c.det, got, c.want)
		}
	}
}
