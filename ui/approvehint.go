package ui

import "github.com/diffdesk/diffdesk/review"

// whyNoApprove says, on the message line, why a did nothing: the shown
// proposal cannot be approved yet, or no more. A key that did nothing
// without a word looked like a key the window had not got (real window:
// a during a stream).
func (d *detail) whyNoApprove() {
	switch {
	case d.id == "" || d.deciding:
	case d.outcome != nil || !d.p.State.Waiting():
		d.say("This proposal is decided already.")
	case d.p.State == review.StateStreaming:
		d.say("Still streaming: a approves once the agent has sent all of it; r rejects it now.")
	case d.p.State == review.StateHeld:
		d.say("This edit did not apply: pick the lines it was meant for (1–9, Mark lines…), or Dismiss to send the agent the failure.")
	}
}
