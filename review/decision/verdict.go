package decision

import (
	"fmt"
	"slices"
)

// Verdict is how a proposal ended: what the person (or a rule) decided, or
// what happened instead. It is the one decision vocabulary, from the
// request that decides to the outcome the agent reads and the journal's
// record: a decision is asked for with the verdict it should reach.
type Verdict string

// The verdicts.
const (
	Approved       Verdict = "approved"        // written as proposed
	ApprovedEdited Verdict = "approved-edited" // written with the person's edits
	Partial        Verdict = "partial"         // written with only the accepted hunks
	// Overwritten: written as proposed over a change someone else made on
	// disk while the proposal waited, because a person asked for exactly
	// that (a stale proposal is otherwise approved only as the merge); the
	// checkpoint keeps the change it overwrote, so a restore brings it back.
	Overwritten Verdict = "approved-overwrite"
	Rejected    Verdict = "rejected"  // nothing written; the feedback says why
	Withdrawn   Verdict = "withdrawn" // the agent cancelled or went away
	Failed      Verdict = "failed"    // the edit did not apply
	Stale       Verdict = "stale"     // given up because a file changed on disk
)

// verdicts lists every verdict, in the order errors name them.
var verdicts = []Verdict{Approved, ApprovedEdited, Partial, Overwritten, Rejected, Withdrawn, Failed, Stale}

// Wrote reports whether the verdict means the files were written.
func (v Verdict) Wrote() bool {
	return v == Approved || v == ApprovedEdited || v == Partial || v == Overwritten
}

// Decidable reports whether a person or a rule can reach the verdict by
// deciding (the others happen to a proposal).
func (v Verdict) Decidable() bool { return v.Wrote() || v == Rejected }

// Verdicts lists every verdict, in the order errors name them.
func Verdicts() []Verdict { return slices.Clone(verdicts) }

// Valid reports whether v is one of the verdicts.
func (v Verdict) Valid() bool {
	return slices.Contains(verdicts, v)
}

// ParseVerdict reads a decision as people and protocols spell it: a verdict
// ("approved"), or the imperative that asks for it ("approve",
// "approve-edited", "overwrite", "reject"). Only decidable verdicts parse.
func ParseVerdict(s string) (Verdict, error) {
	switch s {
	case "approve":
		return Approved, nil
	case "approve-edited":
		return ApprovedEdited, nil
	case "reject":
		return Rejected, nil
	case "overwrite":
		return Overwritten, nil
	}
	if v := Verdict(s); v.Decidable() {
		return v, nil
	}
	return "", fmt.Errorf("unknown decision %q: want approve, approve-edited, partial, overwrite or reject", s)
}
