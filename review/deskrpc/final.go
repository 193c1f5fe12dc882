package deskrpc

import (
	"fmt"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
)

// finalParam is the finalContent param of every method that answers with
// an outcome (propose, finish, wait, decide, dismiss, decideChangeset,
// get): "" or "changed" sends a file's final text only where it is not
// exactly what the agent proposed (review.Outcome.WithoutProposedFinal:
// the file then says finalAsProposed), "all" sends every file's.
type finalParam string

// The finalContent params.
const (
	finalChanged finalParam = "changed"
	finalAll     finalParam = "all"
)

// check refuses a finalContent param that is neither, before the method
// does anything: a typo must not be found out only once the person has
// decided.
func (f finalParam) check(method string) error {
	if f == "" || f == finalChanged || f == finalAll {
		return nil
	}
	return &rpcError{Code: codeInvalidParams, Message: fmt.Sprintf(`%s: "finalContent" is %q; say "changed" (the default: a file's final text only where it is not what the agent proposed) or "all" (every file's)`, method, string(f))}
}

// outcome is o as an answer with finalContent f carries it, a failure's
// text in its error (agenttext.ForWire).
func (cc *conn) outcome(o review.Outcome, f finalParam) *review.Outcome {
	o = agenttext.ForWire(o)
	if f == finalAll {
		return &o
	}
	prop, held := cc.s.desk.Get(o.ID)
	t := o.WithoutProposedFinal(func(fo review.FileOutcome) bool {
		return held && sameAsProposed(prop, fo)
	})
	return &t
}

// answer is the proposeResult of decided proposal o, its outcome as
// finalContent f carries it; the text is rendered from the whole outcome.
func (cc *conn) answer(id string, o review.Outcome, changeset string, f finalParam) proposeResult {
	return proposeResult{ID: id, State: review.StateReported, Changeset: changeset, Outcome: cc.outcome(o, f), Text: agenttext.Outcome(o)}
}

// sameAsProposed checks, against the proposal the desk still holds, that
// fo's final text is byte for byte what the agent's edit made of the file
// (for a write, its content itself: a code fence the desk took off, or a
// byte order mark, is not what the agent sent).
func sameAsProposed(p review.Proposal, fo review.FileOutcome) bool {
	for _, f := range p.Files {
		if f.Path != fo.Path {
			continue
		}
		return fo.FinalContent == f.Proposed && (p.Format != engine.FormatWrite || fo.FinalContent == p.Payload)
	}
	return false
}
