package ui

import (
	"testing"

	"github.com/diffdesk/diffdesk/review"
)

// In a window over several desks each changeset's heading names the desk
// holding it, two desks' proposals of the same agent session are two
// changesets, and a proposal whose desk dropped is badged unreachable.
func TestQueueNamesEachProposalsDesk(t *testing.T) {
	mk := func(id, where string, down bool) review.Proposal {
		return review.Proposal{ID: id, Agent: "claude-code", Session: "s1", State: review.StatePending, Created: baseTime,
			Files: []review.File{{Rel: "a.go"}}, Where: where, Unreachable: down}
	}
	rows := queueRows([]review.Proposal{mk("0:p1", "dev@box:~/api", false), mk("1:p1", "ci@runner:~/api", true)})
	heads := rowHeadings(rows)
	if len(heads) != 2 || heads[0] != "claude-code · s1 @ dev@box:~/api" || heads[1] != "claude-code · s1 @ ci@runner:~/api" {
		t.Fatalf("headings %q; want one per desk, each naming it", heads)
	}
	if b, _ := badge(mk("1:p1", "ci@runner:~/api", true)); b != "unreachable" {
		t.Errorf("badge of a proposal whose desk dropped: %q; want unreachable", b)
	}
	if b, _ := badge(mk("0:p1", "dev@box:~/api", false)); b != "" {
		t.Errorf("badge of a reachable desk's pending proposal: %q; want none", b)
	}
}
