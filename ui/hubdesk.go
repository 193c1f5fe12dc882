package ui

import (
	"context"
	"errors"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/hub"
	"github.com/diffdesk/diffdesk/review/journal"
)

// hubDesk is a team hub's view (diffdesk --hub) as the window's Desk: the
// hub holds no desk's history (each desk's journal is on its machine),
// and approves no proposal without a person's decision of it, so the
// History tab is off and t's sweep of a changeset says where to go.
type hubDesk struct{ *hub.View }

var errHubHistory = errors.New("a team hub keeps no history: deskctl history on the desk's machine reads it")

func (hubDesk) History(context.Context, journal.Filter) (journal.Page, error) {
	return journal.Page{}, errHubHistory
}

func (hubDesk) HistoryAgents(context.Context) ([]journal.Agent, error) { return nil, errHubHistory }

func (hubDesk) HistoryDetail(context.Context, journal.Ref) (journal.Detail, error) {
	return journal.Detail{}, errHubHistory
}

func (hubDesk) HistoryDiff(context.Context, review.HistoryCompare) ([]review.HistoryFile, error) {
	return nil, errHubHistory
}

func (hubDesk) Restore(context.Context, journal.RestoreRequest, bool) (journal.RestorePlan, journal.RestoreResult, error) {
	return journal.RestorePlan{}, journal.RestoreResult{}, errHubHistory
}

func (hubDesk) ApproveTrivial(context.Context, string, review.ChangesetDecision, ...string) (review.TrivialApproval, error) {
	return review.TrivialApproval{}, errors.New("over a team hub, t approves the shown proposal's trivial hunks only: open each of the others and press t")
}
