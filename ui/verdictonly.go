package ui

import "github.com/diffdesk/diffdesk/review"

// rejectPlaceholder is the reject box's hint: the agent reads the reason,
// unless p came through a door that tells it only the verdict (the Claude
// Code and Gemini IDE doors: review.Proposal.VerdictOnly), where the reason
// is kept in the history alone (real window: "The agent reads this" over a
// Claude Code diff whose rejection reached the model as a bare "STOP").
func rejectPlaceholder(p review.Proposal) string {
	if p.VerdictOnly {
		return "Why? Kept in the history only: " + p.Agent + "'s IDE door tells the agent no reason (optional)"
	}
	return "Why? The agent reads this (optional)"
}
