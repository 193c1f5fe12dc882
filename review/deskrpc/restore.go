package deskrpc

import (
	"context"
	"errors"

	"github.com/diffdesk/diffdesk/review/journal"
)

// restoreParams are restore's: a checkpoint's files returned, by the desk,
// to their content before (default) or after it.
type restoreParams struct {
	Checkpoint int64    `json:"checkpoint"`
	To         string   `json:"to,omitempty"`    // "before" (default) or "after"
	Paths      []string `json:"paths,omitempty"` // absolute; none: every file of the checkpoint
	Force      bool     `json:"force,omitempty"` // restore files changed since the journal last saw them
	Apply      bool     `json:"apply,omitempty"` // write; without it, the dry run
}

// RestoreAnswer is restore's answer: the plan, what was done, and when the
// plan refused a file (nothing written), why.
type RestoreAnswer struct {
	Plan    journal.RestorePlan   `json:"plan"`
	Result  journal.RestoreResult `json:"result"`
	Refused string                `json:"refused,omitempty"`
}

// restore answers restore (reviewers only): review.Desk.Restore, so the
// desk stays the one writer of its workspace.
func (cc *conn) restore(ctx context.Context, p restoreParams) (any, error) {
	who := cc.whoDecides()
	if who == "" {
		who = "reviewer"
	}
	req := journal.RestoreRequest{Checkpoint: p.Checkpoint, Target: journal.RestoreTarget(p.To), Paths: p.Paths, Force: p.Force,
		Agent: "person", Session: who}
	plan, res, err := cc.s.desk.Restore(ctx, req, p.Apply)
	var refused *journal.RestoreRefusedError
	if errors.As(err, &refused) {
		return &RestoreAnswer{Plan: plan, Refused: err.Error()}, nil
	}
	if err != nil {
		return nil, &rpcError{Code: codeInvalidParams, Message: "restore: " + err.Error()}
	}
	return &RestoreAnswer{Plan: plan, Result: res}, nil
}

// Restore asks the desk to restore (Apply) or plan restoring a
// checkpoint's files, as a reviewer.
func (cl *Client) Restore(ctx context.Context, req journal.RestoreRequest, apply bool) (RestoreAnswer, error) {
	var a RestoreAnswer
	err := cl.Call(ctx, "restore", restoreParams{Checkpoint: req.Checkpoint, To: string(req.Target), Paths: req.Paths, Force: req.Force, Apply: apply}, &a)
	return a, err
}
