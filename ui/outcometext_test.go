package ui

import (
	"testing"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/journal"
)

// TestOutcomeTextEndsTheReason: the reason on the status line ends as a
// sentence before the count of comments (real window: "Reason sent to the
// agent: wrong func 2 comment(s) sent with it."), and a reason of several
// lines shows its first, not a status line lines high.
func TestOutcomeTextEndsTheReason(t *testing.T) {
	cs := []journal.Comment{{Text: "x"}, {Text: "y"}}
	for _, c := range []struct {
		o    review.Outcome
		want string
	}{
		{review.Outcome{Status: journal.Rejected, Feedback: "wrong func", Comments: cs},
			"Rejected; nothing was written. Reason sent to the agent: wrong func. 2 comment(s) sent with it."},
		{review.Outcome{Status: journal.Rejected, Feedback: "Why this?"},
			"Rejected; nothing was written. Reason sent to the agent: Why this?"},
		{review.Outcome{Status: journal.Rejected, Feedback: "too broad\nsplit it into two steps"},
			"Rejected; nothing was written. Reason sent to the agent: too broad …"},
	} {
		if got := outcomeText(c.o); got != c.want {
			t.Errorf("outcomeText = %q; want %q", got, c.want)
		}
	}
}
