package present

import (
	"fmt"

	"github.com/diffdesk/diffdesk/review"
)

// RejectPlaceholder is the reject box's hint: the agent reads the reason,
// unless p came through a door that tells it only the verdict (the Claude
// Code and Gemini IDE doors: review.Proposal.VerdictOnly), where the reason
// is kept in the history alone (real window: "The agent reads this" over a
// Claude Code diff whose rejection reached the model as a bare "STOP").
func RejectPlaceholder(p review.Proposal) string {
	if p.VerdictOnly {
		return "Why? Kept in the history only: " + p.Agent + "'s IDE door tells the agent no reason (optional)"
	}
	return "Why? The agent reads this (optional)"
}

// WrittenBy says who writes an approved outcome's files: "written" when the
// desk wrote them; when the agent writes them itself from the final text
// (the IDE doors and the hooks: no file of o Written), that the text went
// to the agent, which writes it. The desk cannot see that write (real
// window: "Approved and written (checkpoint 16)." while claude, killed as
// the person approved, wrote nothing).
func WrittenBy(p review.Proposal, o review.Outcome) string {
	if len(o.Files) == 0 {
		return "written"
	}
	for _, f := range o.Files {
		if f.Written {
			return "written"
		}
	}
	agent := p.Agent
	if agent == "" {
		agent = "the agent"
	}
	return "sent to " + agent + ", which writes the file itself"
}

// CommentsHeading heads the list of n comments waiting under the diff:
// sent with the decision, or, through an IDE door, kept in the history
// only (real window: "Comments for the agent (1), sent with your
// decision" over a Claude Code diff, whose answer carries no comment).
func CommentsHeading(p review.Proposal, n int) string {
	if p.VerdictOnly {
		return fmt.Sprintf("Comments (%d), kept in the history with your decision: %s's IDE door cannot send them to the agent", n, p.Agent)
	}
	return fmt.Sprintf("Comments for the agent (%d), sent with your decision:", n)
}

// CommentIntro is the comment dialog's first line, for the file rel.
func CommentIntro(p review.Proposal, rel string) string {
	if p.VerdictOnly {
		return "Comment on " + rel + ": kept in the history; " + p.Agent + "'s IDE door cannot send it to the agent."
	}
	return "Comment on " + rel + ": the agent reads it after the lines quoted here."
}

// CommentKept is the message line once a comment is saved.
func CommentKept(p review.Proposal) string {
	if p.VerdictOnly {
		return "Comment kept in the history with your decision; " + p.Agent + "'s IDE door cannot send it to the agent."
	}
	return "Comment kept: it goes to the agent with your decision."
}
