package review

import (
	"context"
	"fmt"
	"slices"

	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/trivial"
)

// TrivialApproval is what Desk.ApproveTrivial did.
type TrivialApproval struct {
	Key string `json:"key"`
	// Approved are the outcomes of the proposals trivial throughout, each
	// approved on its own.
	Approved []Outcome `json:"approved"`
	// Mixed are the ids of the proposals with some trivial hunks and some
	// real ones: the person's to open.
	Mixed []string `json:"mixed"`
	// Skipped are proposals classified trivial throughout but not approved,
	// with why (changed since classified, stale, a failed write).
	Skipped []ChangesetSkip `json:"skipped"`
}

// afterTrivialClassified, when set (tests), runs between classifying a
// proposal and approving it.
var afterTrivialClassified func(d *Desk, id string)

// ApproveTrivial classifies the waiting proposals of changeset key (all
// but those in except: the one the person has open) and approves, each on
// its own, those whose every hunk is trivial: whitespace only, comment
// only (trivial.Classify) or formatting only (File.Formatting). A proposal
// whose text changed after it was classified, or that is stale or
// streaming by then, is not approved (Skipped): what is approved is what
// was classified. Proposals with some trivial hunks are listed in Mixed.
// dec gives who decides (By) and the hunks seen; its verdict is ignored.
func (d *Desk) ApproveTrivial(ctx context.Context, key string, dec ChangesetDecision, except ...string) (TrivialApproval, error) {
	cs, ok := d.Changeset(key)
	if !ok {
		return TrivialApproval{}, fmt.Errorf("%w %q", ErrUnknownChangeset, key)
	}
	res := TrivialApproval{Key: key, Approved: []Outcome{}, Mixed: []string{}, Skipped: []ChangesetSkip{}}
	for _, p := range cs.Proposals {
		if p.State != StatePending || anyFileStale(p) || slices.Contains(except, p.ID) {
			continue
		}
		trivial, hunks := classifyProposal(p)
		switch {
		case trivial == 0:
			continue
		case trivial < hunks:
			res.Mixed = append(res.Mixed, p.ID)
			continue
		}
		if afterTrivialClassified != nil {
			afterTrivialClassified(d, p.ID)
		}
		classified := map[string]string{}
		for _, f := range p.Files {
			classified[f.Path] = f.Proposed
		}
		o, err := d.Decide(ctx, p.ID, Decision{Verdict: decision.Approved, Seen: dec.Seen[p.ID], SeenLines: dec.SeenLines[p.ID], By: dec.By, classified: classified})
		if err != nil {
			res.Skipped = append(res.Skipped, ChangesetSkip{p.ID, err.Error()})
			continue
		}
		res.Approved = append(res.Approved, o)
	}
	return res, nil
}

// classifyProposal counts the trivial hunks of p's files, and all of them.
func classifyProposal(p Proposal) (trivials, hunks int) {
	for _, f := range p.Files {
		hs := f.Hunks()
		kinds := trivial.Classify(f.Path, f.BaseText(), f.Proposed, hs)
		for _, id := range f.Formatting {
			kinds[id] = trivial.Formatting
		}
		for _, h := range hs {
			hunks++
			if _, ok := kinds[h.ID]; ok {
				trivials++
			}
		}
	}
	return trivials, hunks
}
