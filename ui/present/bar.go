package present

import "github.com/diffdesk/diffdesk/review"

// BarState is what the decision bar's buttons depend on.
type BarState struct {
	Open       bool // the proposal takes a decision: open, no outcome yet
	Streaming  bool
	Stale      bool // a file changed on disk: Approve merged, not Approve
	Editing    bool // edit mode
	Deciding   bool // a decision is being carried out
	Files      bool // the proposal has files (a failed one may have none)
	Failed     bool // the edit did not apply
	Protected  bool // a file no rule may approve
	Conflicted bool // a stale file's merge has conflicts
	Unticked   bool // the person unticked some hunk (Approve selected hunks)
}

// Button is whether a button shows and takes a click.
type Button struct{ Shown, Enabled bool }

// Bar is the decision bar for a state: each button, the label of Approve,
// and which of the view's options show.
type Bar struct {
	Approve, Merged, ApproveEdited, CancelEdit, Partial, Edit, External, Reject, Dismiss Button
	ApproveLabel                                                                         string
	Follow                                                                               bool // a stream's Follow box
	Wrap                                                                                 bool // the View button and its Wrap
	Layout                                                                               bool // Inline, Ignore whitespace, Fold: not for a stream
}

// DecisionBar is the bar for s: the decisions the state allows, shown, and
// enabled unless a decision is under way (or, but for Reject, the agent
// still streams: a runaway stream can be stopped).
func DecisionBar(s BarState) Bar {
	busy := s.Deciding || s.Streaming
	b := Bar{
		Approve:       Button{s.Open && !s.Stale && !s.Editing, !busy},
		Merged:        Button{s.Open && s.Stale && !s.Editing, !busy && !s.Conflicted},
		ApproveEdited: Button{s.Open && s.Editing, !busy},
		CancelEdit:    Button{s.Open && s.Editing, !s.Deciding},
		Partial:       Button{s.Open && !s.Stale && !s.Editing && s.Files, !busy && s.Open && !s.Stale && !s.Editing && s.Unticked},
		Edit:          Button{s.Open && !s.Editing, !busy},
		External:      Button{s.Open, !busy},
		Reject:        Button{s.Open, !s.Deciding},
		Dismiss:       Button{!s.Open, true},
		ApproveLabel:  "Approve (a)",
		Follow:        s.Streaming,
		Wrap:          !s.Failed && s.Files,
		Layout:        !s.Failed && s.Files && !s.Streaming,
	}
	if s.Protected {
		b.ApproveLabel = "Approve protected… (a)"
	}
	return b
}

// WhyNoApprove says why a did nothing on proposal p (decided: it has an
// outcome), "" when there is nothing to say: a key that did nothing
// without a word looked like a key the window had not got (real window: a
// during a stream).
func WhyNoApprove(p review.Proposal, decided bool) string {
	switch {
	case decided || !p.State.Waiting():
		return "This proposal is decided already."
	case p.State == review.StateStreaming:
		return "Still streaming: a approves once the agent has sent all of it; r rejects it now."
	case p.State == review.StateHeld:
		return "This edit did not apply: pick the lines it was meant for (1–9, Mark lines…), or Dismiss to send the agent the failure."
	}
	return ""
}
