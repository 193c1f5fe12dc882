package present

import (
	"fmt"
	"strings"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
)

// HistoryBadge is the decision badge of a history entry and its colour.
func HistoryBadge(e journal.Entry) (string, Tone) {
	if e.Kind == journal.EntryRestore {
		return "restore", Accent
	}
	switch e.Decision {
	case decision.Approved, decision.Partial:
		return string(e.Decision), Success
	case decision.Rejected, decision.Failed:
		return string(e.Decision), Danger
	case decision.Stale, decision.Withdrawn:
		return string(e.Decision), Warning
	case "":
		return e.Kind, Normal
	}
	return string(e.Decision), Normal
}

// HistoryTime shows t as a clock time today, or with its date otherwise.
func HistoryTime(t, now time.Time) string {
	t, now = t.Local(), now.Local()
	if y, m, d := t.Date(); now.Year() == y && now.Month() == m && now.Day() == d {
		return t.Format("15:04:05")
	}
	return t.Format("2006-01-02 15:04")
}

// Ref names a history entry: its checkpoint, or its decision when it
// wrote nothing.
func Ref(r journal.Ref) string {
	if c := r.Checkpoint(); c > 0 {
		return fmt.Sprintf("checkpoint %d", c)
	}
	return fmt.Sprintf("decision %d", r.Decision())
}

// EntryTitle is the heading of entry e: what was decided and by whom (the
// person or a rule, as det says, once read: "" before), and which agent
// proposed it; a restore is the person's, by the name it was made under.
func EntryTitle(e journal.Entry, det journal.Detail) string {
	badge, _ := HistoryBadge(e)
	when := e.Time.Local().Format("2006-01-02 15:04:05")
	if e.Kind == journal.EntryRestore {
		return fmt.Sprintf("%s — %s by %s, %s", Ref(e.Ref), badge, AgentSession(e.Agent, e.Session), when)
	}
	switch {
	case det.DecidedBy == "":
	case det.DecidedByRule:
		badge += " by the rule " + review.Printable(det.DecidedBy)
	default:
		badge += " by the person (" + review.Printable(det.DecidedBy) + ")"
	}
	return fmt.Sprintf("%s — %s — proposed by %s, %s", Ref(e.Ref), badge, AgentSession(e.Agent, e.Session), when)
}

// AgentSession names who made an entry: "agent/session", or the agent
// alone when it gave no session.
func AgentSession(agent, session string) string {
	if session == "" {
		return agent
	}
	return agent + "/" + session
}

// EntryDiff names what the History tab's diff of entry e shows: what its
// checkpoint changed, or what was proposed when nothing was written.
func EntryDiff(e journal.Entry) string {
	if e.Ref.Checkpoint() == 0 {
		return fmt.Sprintf("What was proposed (%s: nothing was written)", e.Decision)
	}
	return "What " + Ref(e.Ref) + " changed"
}

// DiffNote is the note over the History tab's diff once its files are
// read: what names them; an edit that did not apply says so, as it
// proposed no text (its files are shown as they were).
func DiffNote(what string, diffs []review.HistoryFile) string {
	if len(diffs) == 0 {
		return what + ": no differences."
	}
	for _, d := range diffs {
		if !d.NotApplied {
			return what + "."
		}
	}
	return "The edit did not apply (" + string(decision.Failed) + "): it proposed no text and nothing was written; its files are shown as they were."
}

// writeStateText says how a checkpoint's write ended.
var writeStateText = map[journal.WriteState]string{
	journal.WriteIntended:    "write begun, not known to have finished",
	journal.WriteWritten:     "written to disk",
	journal.WriteInterrupted: "write interrupted: the files kept their old content",
	journal.WriteConflicted:  "write conflicted: the files hold neither the old nor the new content",
}

// EntryInfo is the decision's text: feedback, what a restore did, the
// proposal and the write's state; and what of its proposal was on screen
// before the decision, once read (nil: nobody tracked it, or not read yet).
func EntryInfo(e journal.Entry, seen []decision.HunkSeen) string {
	var parts []string
	if e.ProposalID != "" {
		parts = append(parts, "Proposal "+e.ProposalID)
	}
	if e.RestoredFrom > 0 {
		parts = append(parts, fmt.Sprintf("Restored to before checkpoint %d", e.RestoredFrom))
	}
	if e.State != "" {
		parts = append(parts, writeStateText[e.State])
	}
	s := strings.Join(parts, " · ")
	if e.Feedback != "" {
		s += "\nFeedback: " + e.Feedback
	}
	if e.Note != "" {
		s += "\n" + e.Note
	}
	s = strings.TrimSpace(s)
	if seen != nil {
		s += "\nSeen: " + decision.SeenSummary(seen) + " before the decision."
	}
	return s
}

// RestorePlan is the dry run as the restore dialog lists it: one line per
// file with its action, lines added and removed, and the reason.
func RestorePlan(plan journal.RestorePlan, rel func(string) string) string {
	var b strings.Builder
	what := "before"
	if plan.Request.Target != "" {
		what = string(plan.Request.Target)
	}
	fmt.Fprintf(&b, "Restore these files to their content %s checkpoint %d:\n\n", what, plan.Request.Checkpoint)
	for _, f := range plan.Files {
		fmt.Fprintf(&b, "%-8s %s  +%d −%d", f.Action, rel(f.Path), f.Added, f.Removed)
		if f.Reason != "" {
			fmt.Fprintf(&b, "\n         %s", f.Reason)
		}
		b.WriteString("\n")
	}
	if refused := plan.Refused(); len(refused) > 0 {
		var names []string
		for _, f := range refused {
			names = append(names, rel(f.Path))
		}
		fmt.Fprintf(&b, "\nRefused: %s. Nothing is written while a file is refused; Force… restores them anyway (their current content is kept in the journal)", strings.Join(names, ", "))
		if len(refused) < len(plan.Files) {
			b.WriteString(", or leave them out and restore the others")
		}
		b.WriteString(".")
	} else if plan.Request.Force {
		b.WriteString("\nForced: files changed since the journal saw them are replaced; their current content is kept in the journal.")
	}
	return b.String()
}

// RestoreDirection says which way the restore dialog's diff of f reads:
// the disk now on the left, what the restore leaves on the right.
func RestoreDirection(f journal.RestoreFile, req journal.RestoreRequest, rel func(string) string) string {
	what := "before"
	if req.Target != "" {
		what = string(req.Target)
	}
	to := fmt.Sprintf("%s as it was %s checkpoint %d", rel(f.Path), what, req.Checkpoint)
	switch f.Action {
	case journal.RestoreDelete:
		to = fmt.Sprintf("nothing: %s did not exist %s checkpoint %d, and is removed", rel(f.Path), what, req.Checkpoint)
	case journal.RestoreUnchanged:
		return fmt.Sprintf("%s already holds its content %s checkpoint %d: the restore leaves it as it is.", rel(f.Path), what, req.Checkpoint)
	}
	from := rel(f.Path) + " on disk now"
	if !f.Disk.Exists {
		from = rel(f.Path) + ": missing on disk now"
	}
	return "Left: " + from + ". Right: after the restore, " + to + "."
}

// The History tab's filters' choices of everything.
const (
	AllAgents    = "All agents"
	AllSessions  = "All sessions"
	AllDecisions = "All decisions"
	AllTime      = "All time"
)

// HistorySince are the History tab's choices of how far back it reaches.
var HistorySince = []struct {
	Label string
	D     time.Duration
}{
	{"Last hour", time.Hour},
	{"Last 24 hours", 24 * time.Hour},
	{"Last 7 days", 7 * 24 * time.Hour},
	{AllTime, 0},
}

// HistoryDecisions are the History tab's choices of decision after AllDecisions.
var HistoryDecisions = []string{
	string(decision.Approved), string(decision.Overwritten), string(decision.Partial), string(decision.Rejected),
	string(decision.Withdrawn), string(decision.Failed), string(decision.Stale), journal.EntryRestore,
}
