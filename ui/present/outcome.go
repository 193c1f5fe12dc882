package present

import (
	"fmt"
	"strings"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/decision"
)

// ReasonLine is a reason as the status line quotes it: its first line,
// "…" when there is more, ending as a sentence does (the count of comments
// that follows ran on from it: "wrong func 2 comment(s) sent with it").
func ReasonLine(r string) string {
	r = strings.TrimSpace(r)
	if i := strings.IndexByte(r, '\n'); i >= 0 {
		return strings.TrimSpace(r[:i]) + " …"
	}
	if !strings.HasSuffix(r, ".") && !strings.HasSuffix(r, "!") && !strings.HasSuffix(r, "?") {
		r += "."
	}
	return r
}

// Outcome is the status line for the outcome o of proposal p: what
// was written, who decided when a rule did, and what reached the agent.
func Outcome(p review.Proposal, o review.Outcome) string {
	var b strings.Builder
	written := WrittenBy(p, o)
	switch o.Status {
	case decision.Approved:
		if o.DecidedBy == review.DecidedByRule { // no person decided (real window: it read as the person's approval)
			b.WriteString("Approved without you by the " + o.Rule + ", and " + written)
		} else {
			b.WriteString("Approved and " + written)
		}
		for _, f := range o.Files {
			if f.DiskEdits != "" {
				b.WriteString(", merged into the change made on disk")
				break
			}
		}
	case decision.ApprovedEdited:
		b.WriteString("Your edited version was " + written)
	case decision.Overwritten: // a reviewer's explicit overwrite (the protocol's decide overwrite)
		b.WriteString("Approved over the change made on disk, as the reviewer chose, and " + written + "; what it replaced can be restored")
	case decision.Partial:
		b.WriteString("Only the hunks left ticked were " + written)
		if len(o.Files) > 1 {
			b.WriteString(" (" + perFile(p, o) + ")")
		}
	case decision.Rejected:
		b.WriteString("Rejected")
		if o.Unfinished {
			b.WriteString(" while it streamed (shown as far as it had come)")
		}
		b.WriteString("; nothing was written")
	case decision.Withdrawn:
		b.WriteString(withdrawn(o))
	case decision.Failed:
		b.WriteString(failedHow(o.Failure))
	default:
		b.WriteString(string(o.Status))
	}
	if o.Checkpoint != 0 {
		fmt.Fprintf(&b, " (checkpoint %d)", o.Checkpoint)
	}
	b.WriteString(".")
	switch reason := agenttext.Reason(o); {
	case reason == "":
	case o.Status == decision.Withdrawn: // the desk's reason, sent to no one
		b.WriteString(" Why: " + ReasonLine(reason))
	case p.VerdictOnly:
		b.WriteString(" " + p.Agent + " was told only the verdict (its IDE door carries no reason); your reason is kept in the history: " + ReasonLine(reason))
	default:
		b.WriteString(" Reason sent to the agent: " + ReasonLine(reason))
	}
	if n := len(o.Comments); n > 0 && p.VerdictOnly {
		fmt.Fprintf(&b, " %d comment(s) kept in the history, not sent: the IDE door carries none.", n)
	} else if n > 0 {
		fmt.Fprintf(&b, " %d comment(s) sent with it.", n)
	}
	b.WriteString(Problems(p, o)) // problemsnote.go
	for _, g := range o.Unrecorded {
		b.WriteString(" " + journalGap(g))
	}
	for _, f := range o.Files {
		switch {
		case f.FormatterError != "":
			b.WriteString("\nThe formatter failed on " + f.Path + "; it was written unformatted: " + f.FormatterError)
		case f.AutoFormatEdits != "":
			b.WriteString("\nThe formatter changed " + f.Path + " (shown above).")
		}
	}
	return b.String()
}

// withdrawn says who withdrew a proposal (its reason follows): the agent
// (it cancelled, its tool answered elsewhere or went away) or the desk (it
// closed, a budget stopped the stream); a far desk sends only the reason.
func withdrawn(o review.Outcome) string {
	var who, unfinished string
	switch f := o.Failure; {
	case f == nil || f.Kind != review.FailWithdrawn:
		who, unfinished = "This proposal was withdrawn", " before its agent had finished sending it"
	case f.Why.ByDesk():
		who, unfinished = "The desk withdrew this proposal", " before its agent had finished sending it"
	default:
		who, unfinished = "The agent withdrew this proposal", " before it had finished sending it"
	}
	if o.Unfinished {
		return who + unfinished + " (shown as far as it had come)"
	}
	return who
}

// journalGap says what the journal could not record of an outcome.
func journalGap(g review.JournalGap) string {
	what := "this outcome (the history may lack it)"
	if g.What == review.GapArrived {
		what = "what had arrived of the stream"
	}
	return "The journal could not record " + what + ": " + strings.TrimSuffix(g.Err, ".") + "."
}

// failedHow says how a failed proposal ended: an approval not carried
// out (the edit applied, and the person approved it), or an edit that did
// not apply.
func failedHow(f *review.Failure) string {
	switch {
	case f == nil:
	case f.Kind == review.FailNotWritten:
		text, _, _ := strings.Cut(agenttext.Failure(f), "\n") // not what the agent said, which follows
		return strings.TrimSuffix(text, ".")
	case f.Kind == review.FailPath && f.Path != "":
		return "Approved, but not written: the desk refused to write " + f.Path + ": " + strings.TrimSuffix(f.Err, ".")
	case f.Kind == review.FailPath:
		return "Approved, but not written: " + strings.TrimSuffix(f.Err, ".")
	}
	return "The edit did not apply"
}

// perFile says, for each file of a partial approval, what became of it:
// saved whole, k of n hunks, or not written (every file read "only part
// of your edit", a file accepted whole too).
func perFile(p review.Proposal, o review.Outcome) string {
	var parts []string
	for _, f := range o.Files {
		acc := 0
		for _, h := range f.Hunks {
			if h.Accepted {
				acc++
			}
		}
		switch n := len(f.Hunks); {
		case acc == 0 && n > 0:
			parts = append(parts, RelOf(p, f.Path)+": not written")
		case acc == n:
			parts = append(parts, RelOf(p, f.Path)+": whole")
		default:
			parts = append(parts, fmt.Sprintf("%s: %d of %d hunks", RelOf(p, f.Path), acc, n))
		}
	}
	return strings.Join(parts, "; ")
}

// RelOf is path relative to its root as the proposal names it.
func RelOf(p review.Proposal, path string) string {
	for _, f := range p.Files {
		if f.Path == path {
			return f.Rel
		}
	}
	return path
}

// Unsure warns that a file's edit was cut short or did not match the
// file exactly, saying where it went and what the agent expected there;
// "" for an exact, complete edit.
func Unsure(f review.File) string {
	var b strings.Builder
	if in := f.Incomplete; in != nil {
		fmt.Fprintf(&b, "CUT SHORT: the agent's edit ends inside block %d (%s); it was applied as far as it went. Check the result before approving.", in.Block, in.Reason)
	}
	for _, m := range f.Loose() {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "Matched loosely: block %d was found by %s", m.Block, m.How())
		if first, _, _ := strings.Cut(strings.TrimSpace(m.Searched), "\n"); first != "" {
			fmt.Fprintf(&b, "; the agent expected: %s", first)
		}
		b.WriteString(".")
	}
	return b.String()
}
