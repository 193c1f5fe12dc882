package present

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
)

// State is the short state line beside the title.
func State(p review.Proposal) string {
	a, r := p.Counts()
	counts := fmt.Sprintf("+%d −%d", a, r)
	switch p.State {
	case review.StateStreaming:
		if len(p.Files) > 0 && p.Files[0].Growing.End > 0 {
			return fmt.Sprintf("streaming… line %d", p.Files[0].Growing.End)
		}
		return "streaming…"
	case review.StatePending:
		if p.Failure != nil {
			return "write failed; " + counts
		}
		return "waiting · " + counts
	case review.StateStale:
		return "stale · " + counts
	case review.StateHeld:
		return "did not match · the agent waits for you"
	case review.StateFailed:
		return "failed"
	case review.StateDecided:
		return "writing…"
	case review.StateWithdrawn:
		return "withdrawn"
	case review.StateReported:
		return "decided"
	}
	return string(p.State)
}

// Intent is what heads p's diff beside its title: each protected file and
// why no rule may approve it, then the agent's own account of the edit,
// one a line; "" when neither.
func Intent(p review.Proposal) string {
	var lines []string
	for _, f := range p.Files {
		if !f.Protected.IsZero() {
			lines = append(lines, "Protected, no rule may approve it: "+f.Rel+" — "+f.Protected.String())
		}
	}
	if p.Instruction != "" {
		lines = append(lines, "The agent says: "+p.Instruction)
	}
	return strings.Join(lines, "\n")
}

// Failed heads a failed proposal: the agent was told, or (a held failure)
// it waits for the person.
func Failed(p review.Proposal) string {
	if p.State == review.StateHeld {
		return "This edit did not apply, and nothing was written. Its agent waits for you: use the lines it was meant for and review the diff, or Dismiss to send it the explanation below."
	}
	return "This edit did not apply, and nothing was written. The agent was told:"
}

// The three views of a stale file: what Approve merged writes over the
// disk, what changed on disk, and what the agent proposed, each against
// the base the agent read.
const (
	StaleMerged   = "Disk vs merged proposal"
	StaleDisk     = "What changed on disk" // base vs disk; short, so a 1024-wide window keeps the queue (narrow_test.go)
	StaleProposal = "What the agent sent"  // base vs proposal
)

// Stale is the note over a stale file's view, given its merge m.
func Stale(f review.File, m engine.MergeResult) string {
	s := f.Rel + " changed on disk after the agent read it, so the proposal is stale. "
	switch {
	case f.Base.Exists && !f.Disk.Exists: // it said "changed", and showed the whole file as one conflict
		s = f.Rel + " was deleted on disk after the agent read it, so the proposal is stale. "
	case StaleFromStart(f):
		s = f.Rel + " on disk is not the version the agent read, so the proposal is stale from the start: the desk never had that version, and what changed since it cannot be shown (" + strconv.Quote(StaleDisk) + " shows nothing). "
	}
	if n := len(m.Conflicts); n > 0 {
		return s + fmt.Sprintf("Merging it into the disk's content gives %d %s: Edit to resolve them, or Reject.", n, Plural(n, "conflict", "conflicts"))
	}
	return s + "Approve merged writes the proposal merged into the disk's content, and only while the disk still holds what is shown."
}

// StaleFromStart reports whether f was stale when proposed: the agent read
// a version of it the desk never had, so the base is the disk.
func StaleFromStart(f review.File) bool {
	return f.Stale() && f.Disk.SHA256 == f.Base.SHA256
}

// HunkWhere says where the view is among total hunks: in hunk k (1-based
// in the shown file, whose hunks follow offset others), or, with k 0 and
// above (this file's hunks above the place, -1: unknown) known, between
// two of them: after go-to-line or a search, the counter says where the
// person is, not the hunk j last went to.
func HunkWhere(k, above, offset, total int) string {
	switch {
	case k > 0:
		return fmt.Sprintf("hunk %d of %d", offset+k, total)
	case above < 0 || total == 0:
		return fmt.Sprintf("%d %s", total, Plural(total, "hunk", "hunks"))
	case offset+above == 0:
		return fmt.Sprintf("above hunk 1 of %d", total)
	case offset+above >= total:
		return fmt.Sprintf("below hunk %d of %d", total, total)
	}
	return fmt.Sprintf("between hunks %d and %d of %d", offset+above, offset+above+1, total)
}

// Plural is one when n is 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Counter is what the counter line says of the view: where it is among the
// hunks of the shown file, of the proposal's files and of its changeset,
// and the trivial hunks t would approve.
type Counter struct {
	K, Above, N int  // hunk K of the file's N (0: between hunks, Above of them above the place: HunkWhere)
	Faded       int  // whitespace-only hunks the view fades: still approved unless unticked
	NotKnown    bool // the view shows the disk of a file stale from the start: what changed is not known
	File, Files int  // the file shown (0-based) of the proposal's
	// In a changeset of several proposals, the file shown (0-based) of its
	// CsFiles, and its hunks before that file and in all; CsFiles 0 when
	// the changeset has one proposal.
	CsFile, CsFiles, CsBefore, CsTotal int
	Trivial                            int // trivial hunks t has not approved; -1 while big files are classified
}

// String is the counter line.
func (c Counter) String() string {
	hidden := ""
	if c.Faded > 0 { // the person must know the faded hunks are still part of the decision
		hidden = fmt.Sprintf(" (+%d whitespace-only, faded: approved too unless unticked)", c.Faded)
	}
	var s string
	switch {
	case c.N+c.Faded == 0 && c.NotKnown:
		s = "not known: the agent read a version this desk never had"
	case c.N+c.Faded == 0:
		s = "no changes"
	default:
		s = HunkWhere(c.K, c.Above, 0, c.N) + hidden
	}
	if c.CsFiles > 0 && c.N+c.Faded > 0 {
		s = fmt.Sprintf("%s · file %d of %d in the changeset", HunkWhere(c.K, c.Above, c.CsBefore, c.CsTotal), c.CsFile+1, c.CsFiles) + hidden
	} else if c.Files > 1 {
		s = fmt.Sprintf("%s · file %d of %d", s, c.File+1, c.Files)
	}
	switch {
	case c.Trivial < 0:
		s += " · classifying hunks…"
	case c.Trivial > 0:
		s += fmt.Sprintf(" · %d trivial (t approves)", c.Trivial)
	}
	return s
}
