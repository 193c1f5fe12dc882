package present

import (
	"fmt"
	"strings"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
)

// Streaming counts the proposals of cs still streaming in: their lines are
// not counted yet.
func Streaming(cs review.Changeset) int {
	n := 0
	for _, p := range cs.Proposals {
		if p.State == review.StateStreaming {
			n++
		}
	}
	return n
}

// ChangesetTitle heads the changeset's file tree.
func ChangesetTitle(cs review.Changeset) string {
	return fmt.Sprintf("Changeset · %d %s in %d %s · %s · %d open", len(cs.Files), Plural(len(cs.Files), "file", "files"),
		len(cs.Proposals), Plural(len(cs.Proposals), "proposal", "proposals"), LineCounts(cs.Added, cs.Removed, Streaming(cs), len(cs.Proposals)), cs.Open)
}

// ApproveAll is the question before A approves the open proposals of a
// changeset as proposed: how many, what of them was never on screen (u;
// zero when the person turned the question off), and their protected
// files, each named with why.
func ApproveAll(open []review.Proposal, u review.Unseen) (title, msg string) {
	files := 0
	var prot []string
	for _, p := range open {
		files += len(p.Files)
		prot = append(prot, ProtectedFiles(p)...)
	}
	msg = fmt.Sprintf("Approve all %d open proposals of this changeset (%d %s) as proposed?\nStale or streaming ones are left for you to decide.",
		len(open), files, Plural(files, "file", "files"))
	if u.Unseen > 0 {
		msg += fmt.Sprintf("\n%d of %d %s %s never on screen (%s).", u.Unseen, u.Total, Plural(u.Total, "hunk", "hunks"), Plural(u.Unseen, "was", "were"), strings.Join(u.Files, "; "))
	}
	if len(prot) == 0 {
		return "Approve the whole changeset?", msg
	}
	// As a asks of one: named, and why (QA: A wrote an .envrc running curl | sh unsaid).
	return "Approve the whole changeset, protected files included?", msg + fmt.Sprintf("\n\n%s protected; once written it can run code or change what happens without you:\n%s",
		Plural(len(prot), "This file is", "These files are"), strings.Join(prot, "\n"))
}

// ChangesetDecided says what a whole-changeset decision did: how many
// proposals it approved or rejected, and each it left open and why (name
// names a proposal).
func ChangesetDecided(res review.ChangesetResult, name func(id string) string) string {
	verb := "Approved"
	if len(res.Decided) > 0 && res.Decided[0].Status == decision.Rejected {
		verb = "Rejected"
	}
	s := fmt.Sprintf("%s %d %s of the changeset.", verb, len(res.Decided), Plural(len(res.Decided), "proposal", "proposals"))
	for _, sk := range res.Skipped {
		s += "\nLeft open: " + name(sk.ID) + " — " + sk.Reason
	}
	return s
}

// TrivialOthers says what t did to the changeset's other proposals: those
// approved, trivial throughout, those mixing trivial hunks with real ones,
// and each it did not approve and why (name names a proposal).
func TrivialOthers(res review.TrivialApproval, name func(id string) string) string {
	n, mixed := len(res.Approved), len(res.Mixed)
	s := fmt.Sprintf("Approved %d other %s of the changeset, trivial throughout.", n, Plural(n, "proposal", "proposals"))
	if mixed > 0 {
		s += fmt.Sprintf(" %d more mix trivial hunks with real ones: open each and press t.", mixed)
	}
	for _, sk := range res.Skipped {
		s += "\nNot approved: " + name(sk.ID) + ": " + sk.Reason
	}
	return s
}

// ProtectedQuestion asks before an approval writes the protected files
// (ProtectedFiles).
func ProtectedQuestion(files []string) string {
	return fmt.Sprintf("%s protected:\n\n%s\n\nOnce written it can run code or change what happens without you. Approve it?",
		Plural(len(files), "This file is", "These files are"), strings.Join(files, "\n\n"))
}
