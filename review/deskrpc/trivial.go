package deskrpc

import (
	"context"
	"errors"

	"github.com/diffdesk/diffdesk/review"
)

// approveTrivialParams are approveTrivial's: the changeset whose
// proposals trivial throughout the desk approves, each on its own.
type approveTrivialParams struct {
	Changeset string `json:"changeset"`
	// Seen maps a proposal's id to the hunks on screen, as decide's seen.
	Seen map[string]map[string][]string `json:"seen,omitempty"`
	// SeenLines maps a proposal's id to decide's seenLines.
	SeenLines map[string]map[string]map[string]int `json:"seenLines,omitempty"`
	// Except are proposals to leave alone (the one the reviewer has open).
	Except []string `json:"except,omitempty"`
}

// approveTrivial answers approveTrivial (reviewers only):
// review.Desk.ApproveTrivial, the policy being the desk's: a proposal
// whose text changed after it was classified is not approved.
func (cc *conn) approveTrivial(ctx context.Context, p approveTrivialParams) (any, error) {
	if err := cc.notOwnChangeset(p.Changeset); err != nil {
		return nil, err
	}
	res, err := cc.s.desk.ApproveTrivial(ctx, p.Changeset, review.ChangesetDecision{Seen: p.Seen, SeenLines: p.SeenLines, By: cc.whoDecides()}, p.Except...)
	if errors.Is(err, review.ErrUnknownChangeset) {
		return nil, &rpcError{Code: codeInvalidParams, Message: "approveTrivial: " + err.Error() + "; status lists each proposal's changeset"}
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// ApproveTrivial asks the desk to approve the proposals of changeset key
// trivial throughout (all but except), as a reviewer; dec's Seen and
// SeenLines go with it.
func (cl *Client) ApproveTrivial(ctx context.Context, key string, dec review.ChangesetDecision, except ...string) (review.TrivialApproval, error) {
	var res review.TrivialApproval
	err := cl.Call(ctx, "approveTrivial", approveTrivialParams{Changeset: key, Seen: dec.Seen, SeenLines: dec.SeenLines, Except: except}, &res)
	return res, err
}
