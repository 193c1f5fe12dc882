package ui

import (
	"context"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/checker"
	"github.com/diffdesk/diffdesk/review/journal"
)

// Desk is what the window needs of a desk: the one this process runs
// (*review.Desk), or one on another machine reviewed through the protocol
// (*remote.Desk, diffdesk --connect). The methods mean what review.Desk's
// do.
type Desk interface {
	Subscribe(fn func(review.Event)) (cancel func())
	List() []review.Proposal
	Get(id string) (review.Proposal, bool)
	Preview(id string) (engine.Preview, bool)
	Outcome(id string) (review.Outcome, bool)
	Decide(ctx context.Context, id string, dec review.Decision) (review.Outcome, error)
	ChangesetOf(id string) (review.Changeset, bool)
	DecideChangeset(ctx context.Context, key string, dec review.ChangesetDecision) (review.ChangesetResult, error)
	ApproveTrivial(ctx context.Context, key string, dec review.ChangesetDecision, except ...string) (review.TrivialApproval, error)
	CheckText(ctx context.Context, id, path, text string) ([]checker.Report, error)
	Forget(id string)
	Attend() (leave func())
	Dismiss(ctx context.Context, id string) error
	Place(ctx context.Context, id, path string, block int, lines engine.Region) (review.Proposal, error)
	Interdiff(id, path string) (review.Interdiff, bool)
	Roots() []string

	historyDesk
}

// historyDesk is what the History tab reads of the desk, and its one
// write: read through the desk, and written only by it (Restore), so that
// History works over --connect too.
type historyDesk interface {
	Subscribe(fn func(review.Event)) (cancel func())
	Roots() []string
	History(ctx context.Context, f journal.Filter) (journal.Page, error)
	HistoryAgents(ctx context.Context) ([]journal.Agent, error)
	HistoryDetail(ctx context.Context, ref journal.Ref) (journal.Detail, error)
	HistoryDiff(ctx context.Context, c review.HistoryCompare) ([]review.HistoryFile, error)
	Restore(ctx context.Context, req journal.RestoreRequest, apply bool) (journal.RestorePlan, journal.RestoreResult, error)
}
