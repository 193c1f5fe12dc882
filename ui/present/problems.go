package present

import (
	"fmt"
	"strings"

	"github.com/diffdesk/diffdesk/review"
)

// Problems is what the status line adds when the checkers found new
// problems in what an approval wrote: how many, the first, and that the
// agent was told of them ("New problems detected", with the outcome).
// Without it the status line said only "Approved and written" while the
// problem marks went with the proposal (real window: a checker's error on
// line 2, approved; the agent was told, the person was not reminded).
// Through an IDE door (Proposal.VerdictOnly) the outcome's text does not
// reach the agent, so nothing is said about telling it. "" when none.
func Problems(p review.Proposal, o review.Outcome) string {
	n := 0
	var first string
	for _, f := range o.Files {
		for _, pr := range f.NewProblems {
			if n == 0 {
				first = ReasonLine(fmt.Sprintf("%s: %s", pr.Source, pr.Message))
				if pr.Line > 0 {
					first = fmt.Sprintf("line %d, %s", pr.Line, first)
				}
			}
			n++
		}
	}
	if n == 0 {
		return ""
	}
	s := fmt.Sprintf(" The checkers found %d new problem(s) in what was written (%s)", n, strings.TrimSuffix(first, "."))
	if p.VerdictOnly {
		return s + "."
	}
	return s + "; the agent was told."
}
