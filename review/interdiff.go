package review

import (
	"strings"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/decision"
)

// Interdiff is a file of a proposal beside the previous proposal of the
// same file from the same agent session: what the agent changed since the
// person last answered it, and which of that answer's comments the new
// version touched.
type Interdiff struct {
	PreviousID string           // the previous proposal
	Status     decision.Verdict // how it ended: rejected, approved, partial, …
	Path       string           // the file, absolute
	Previous   string           // the previous proposal's text of the file
	Current    string           // this proposal's text of the file
	Comments   []TouchedComment
}

// TouchedComment is a comment of the previous proposal's decision on the
// file, and whether the new proposal touched it.
type TouchedComment struct {
	decision.Comment
	// Touched says the new proposal changed what the comment was about:
	// for a comment on the proposed ("new") side, a line it covers (or a
	// line added right beside them) differs between the previous proposal
	// and this one; for one on the file as it was ("old" side), the quoted
	// lines are in one proposal's text and not in the other's (kept once,
	// removed now, or the reverse).
	Touched bool
}

// Interdiff returns proposal id's file path (absolute; "" for its first
// file) beside the most recent earlier proposal of that file from the same
// agent and session that ended with a decision, as the desk still holds it
// (the newest few hundred ended proposals). ok is false when there is none.
func (d *Desk) Interdiff(id, path string) (Interdiff, bool) {
	d.mu.Lock()
	e, ok := d.entries[id]
	var ended []Ended
	for _, o := range d.entries {
		if ok && o != e && o.hasOutcome() && o.p.Agent == e.p.Agent && o.p.Session == e.p.Session {
			ended = append(ended, Ended{Proposal: copyProposal(o.p), Outcome: o.outcome})
		}
	}
	var p Proposal
	if ok {
		p = copyProposal(e.p) // the desk changes its files' checks while it works
	}
	d.mu.Unlock()
	if !ok {
		return Interdiff{}, false
	}
	return InterdiffOf(p, path, ended)
}

// Ended is a proposal that ended, with its outcome.
type Ended struct {
	Proposal Proposal
	Outcome  Outcome
}

// InterdiffOf is Desk.Interdiff for proposal p among the ended proposals
// in hand (a window reviewing a desk on another machine holds those).
func InterdiffOf(p Proposal, path string, ended []Ended) (Interdiff, bool) {
	if len(p.Files) == 0 {
		return Interdiff{}, false
	}
	cur, ok := fileOf(p, path)
	if !ok || cur.Delete {
		return Interdiff{}, false
	}
	var prev *Ended
	var prevFile File
	for i := range ended {
		o := &ended[i]
		if o.Proposal.ID == p.ID || o.Proposal.Agent != p.Agent || o.Proposal.Session != p.Session || !o.Proposal.Before(p) || !o.Outcome.Status.Decidable() {
			continue
		}
		f, ok := fileOf(o.Proposal, cur.Path)
		if !ok || f.Delete || prev != nil && !prev.Proposal.Before(o.Proposal) {
			continue
		}
		prev, prevFile = o, f
	}
	if prev == nil {
		return Interdiff{}, false
	}
	in := Interdiff{PreviousID: prev.Proposal.ID, Status: prev.Outcome.Status, Path: cur.Path, Previous: prevFile.Proposed, Current: cur.Proposed}
	ops := engine.Diff(in.Previous, in.Current)
	for _, c := range prev.Outcome.Comments {
		if c.Path != cur.Path {
			continue
		}
		t := TouchedComment{Comment: c}
		if c.Side == decision.SideOld {
			t.Touched = strings.Contains(in.Previous, c.Quote) != strings.Contains(in.Current, c.Quote)
		} else {
			t.Touched = opsTouch(ops, c.Line, max(c.EndLine, c.Line))
		}
		in.Comments = append(in.Comments, t)
	}
	return in, true
}

// fileOf returns p's file at path (absolute), or its first file for "".
func fileOf(p Proposal, path string) (File, bool) {
	for _, f := range p.Files {
		if path == "" || f.Path == path {
			return f, true
		}
	}
	return File{}, false
}

// opsTouch reports whether a change of ops (a diff from a to b) covers any
// of a's lines first–last (1-based), or adds lines right beside them.
func opsTouch(ops []engine.Op, first, last int) bool {
	for _, op := range ops {
		if op.Kind == engine.OpEqual {
			continue
		}
		if op.A0 == op.A1 { // lines added at A0
			if op.A0 >= first-1 && op.A0 <= last {
				return true
			}
			continue
		}
		if op.A0 < last && op.A1 > first-1 {
			return true
		}
	}
	return false
}
