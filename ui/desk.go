package ui

import (
	"context"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/checker"
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
	Plan(id string, dec review.Decision) (map[string]string, error)
	Decide(ctx context.Context, id string, dec review.Decision) (review.Outcome, error)
	ChangesetOf(id string) (review.Changeset, bool)
	DecideChangeset(ctx context.Context, key string, dec review.ChangesetDecision) (review.ChangesetResult, error)
	CheckText(ctx context.Context, id, path, text string) ([]checker.Report, error)
	Forget(id string)
	Attend() (leave func())
	Dismiss(ctx context.Context, id string) error
	Place(ctx context.Context, id, path string, block int, lines engine.Region) (review.Proposal, error)
	Interdiff(id, path string) (review.Interdiff, bool)
	Roots() []string
}
