package agenttext

import (
	"fmt"
	"strings"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/internal/fence"
)

// writeComments lists the person's line comments for the agent, grouped
// by file (the desk keeps them in file order), each with the lines it is
// on: the agent reads where and what before the comment itself.
func writeComments(b *strings.Builder, cs []decision.Comment) {
	if len(cs) == 0 {
		return
	}
	n := "a comment"
	if len(cs) > 1 {
		n = fmt.Sprintf("%d comments", len(cs))
	}
	fmt.Fprintf(b, "\nThe person left %s on lines of your edit. Line numbers count from 1 in your proposal as you sent it, or in the file as it was before your edit, as each says.\n", n)
	path := ""
	for _, c := range cs {
		if c.Path != path {
			fmt.Fprintf(b, "\nIn %s:\n", c.Path)
			path = c.Path
		}
		lines := "Line " + c.Lines()
		if c.EndLine > c.Line {
			lines = "Lines " + c.Lines()
		}
		where := "of your proposed text"
		if c.Side == decision.SideOld {
			where = "of the file before your edit"
		}
		fmt.Fprintf(b, "\n%s %s:\n", lines, where)
		fence.Write(b, c.Quote)
		if !strings.Contains(c.Text, "\n") {
			fmt.Fprintf(b, "Comment: %s\n", c.Text)
			continue
		}
		b.WriteString("Comment:\n")
		for _, l := range strings.Split(c.Text, "\n") {
			b.WriteString(strings.TrimRight("> "+l, " ") + "\n")
		}
	}
}

// answerTo names what a rejection with comments gave the agent to go on:
// the comments, or the reason and the comments.
func answerTo(o review.Outcome) string {
	if o.Feedback == "" {
		return "the comments"
	}
	return "the reason and the comments"
}
