package present

import (
	"fmt"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
)

// Badge is the state badge a proposal shows in the queue, and its colour;
// "" for a plain pending proposal. A protected file leads it while the
// proposal is open.
func Badge(p review.Proposal) (string, Tone) {
	b, tone := stateBadge(p)
	if p.State.Open() {
		for _, f := range p.Files {
			if !f.Protected.IsZero() {
				if b != "" {
					b = " · " + b
				}
				return "protected" + b, Danger
			}
		}
	}
	return b, tone
}

func stateBadge(p review.Proposal) (string, Tone) {
	if p.Unreachable { // its desk dropped: kept, decided by nothing until it is back
		return "unreachable", Danger
	}
	if p.State == review.StateHeld {
		return "pick lines", Warning
	}
	switch p.State {
	case review.StateStreaming:
		return "streaming", Accent
	case review.StateStale:
		return "stale", Warning
	case review.StateFailed:
		return "failed", Danger
	case review.StateDecided:
		return "writing", Accent
	}
	if p.Failure != nil {
		return "write failed", Danger
	}
	return "", Normal
}

// TreeFile is what the changeset tree knows of one of its files: the file,
// its proposal when the desk still has it, its outcome once decided, and
// how many of its hunks the person left ticked ("" when all).
type TreeFile struct {
	File     review.ChangesetFile
	Proposal *review.Proposal
	Outcome  *review.Outcome
	Ticks    string // "1 of 2 ticked", "none ticked" (TicksNote)
}

// FileState names a changeset file's state for the tree, and its colour:
// a decided proposal's verdict, else its state.
func FileState(t TreeFile) (string, Tone) {
	f, p := t.File, t.Proposal
	switch f.State {
	case review.StateFailed, review.StateHeld:
		if p != nil && p.State == review.StateHeld {
			return Badge(*p) // waits for the person to pick its lines, as the queue says
		}
		return "failed", Danger
	case review.StatePending:
		if t.Ticks != "" {
			return "waiting · " + t.Ticks, Accent
		}
		return "waiting", Accent
	case review.StateStale:
		// Only the files that changed on disk are stale; the others of
		// the proposal wait with it.
		if p != nil && f.Index < len(p.Files) && !p.Files[f.Index].Stale() {
			return "waiting · unchanged on disk", Accent
		}
		return "stale", Warning
	case review.StateStreaming:
		return "streaming", Accent
	case review.StateDecided:
		return "writing", Accent
	case review.StateWithdrawn:
		return "withdrawn", Muted
	}
	o := t.Outcome
	if o == nil {
		return "decided", Muted
	}
	switch o.Status {
	case decision.Partial:
		return partialFile(*o, f.Path)
	case decision.Approved, decision.ApprovedEdited:
		return string(o.Status), Success
	case decision.Rejected, decision.Failed, decision.Stale:
		return string(o.Status), Danger
	}
	return string(o.Status), Muted
}

// partialFile names what a partial approval o did to the file at path,
// as the status line says it per file: "approved" (written whole),
// "partial k of n", or "not written" (QA: "partial" beside every file).
func partialFile(o review.Outcome, path string) (string, Tone) {
	for _, f := range o.Files {
		if f.Path != path || len(f.Hunks) == 0 {
			continue
		}
		acc := 0
		for _, h := range f.Hunks {
			if h.Accepted {
				acc++
			}
		}
		switch n := len(f.Hunks); acc {
		case 0:
			return "not written", Muted
		case n:
			return string(decision.Approved), Success
		default:
			return fmt.Sprintf("partial %d of %d", acc, n), Success
		}
	}
	return string(decision.Partial), Success
}

// TicksNote is what the tree adds to a waiting file's state when the
// person left ticked of its n hunks: "1 of 2 ticked", "none ticked"; ""
// when every hunk is (or n is not known).
func TicksNote(ticked, n int) string {
	switch {
	case n == 0 || ticked >= n:
		return ""
	case ticked == 0:
		return "none ticked"
	}
	return fmt.Sprintf("%d of %d ticked", ticked, n)
}
