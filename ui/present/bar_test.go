package present

import (
	"testing"

	"github.com/diffdesk/diffdesk/review"
)

func TestDecisionBar(t *testing.T) {
	type shown = map[string]string // button → "on", "off" (shown, disabled); absent: hidden
	buttons := func(b Bar) shown {
		out := shown{}
		for name, btn := range map[string]Button{"approve": b.Approve, "merged": b.Merged, "approveEdited": b.ApproveEdited,
			"cancelEdit": b.CancelEdit, "partial": b.Partial, "edit": b.Edit, "external": b.External, "reject": b.Reject, "dismiss": b.Dismiss} {
			switch {
			case btn.Shown && btn.Enabled:
				out[name] = "on"
			case btn.Shown:
				out[name] = "off"
			}
		}
		return out
	}
	for _, c := range []struct {
		name string
		s    BarState
		want shown
	}{
		{"waiting", BarState{Open: true, Files: true},
			shown{"approve": "on", "partial": "off", "edit": "on", "external": "on", "reject": "on"}},
		{"a hunk unticked", BarState{Open: true, Files: true, Unticked: true},
			shown{"approve": "on", "partial": "on", "edit": "on", "external": "on", "reject": "on"}},
		{"streaming: only reject", BarState{Open: true, Files: true, Streaming: true, Unticked: true},
			shown{"approve": "off", "partial": "off", "edit": "off", "external": "off", "reject": "on"}},
		{"deciding: nothing", BarState{Open: true, Files: true, Deciding: true},
			shown{"approve": "off", "partial": "off", "edit": "off", "external": "off", "reject": "off"}},
		{"stale", BarState{Open: true, Files: true, Stale: true},
			shown{"merged": "on", "edit": "on", "external": "on", "reject": "on"}},
		{"stale with conflicts", BarState{Open: true, Files: true, Stale: true, Conflicted: true},
			shown{"merged": "off", "edit": "on", "external": "on", "reject": "on"}},
		{"editing", BarState{Open: true, Files: true, Editing: true},
			shown{"approveEdited": "on", "cancelEdit": "on", "external": "on", "reject": "on"}},
		{"editing, deciding", BarState{Open: true, Files: true, Editing: true, Deciding: true},
			shown{"approveEdited": "off", "cancelEdit": "off", "external": "off", "reject": "off"}},
		{"decided", BarState{Files: true}, shown{"dismiss": "on"}},
		{"failed", BarState{Failed: true}, shown{"dismiss": "on"}},
	} {
		got := buttons(DecisionBar(c.s))
		if len(got) != len(c.want) {
			t.Errorf("%s: %v; want %v", c.name, got, c.want)
			continue
		}
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("%s: %v; want %v", c.name, got, c.want)
				break
			}
		}
	}
	if b := DecisionBar(BarState{Open: true, Files: true, Protected: true}); b.ApproveLabel != "Approve protected… (a)" {
		t.Errorf("a protected file's Approve reads %q", b.ApproveLabel)
	}
	if b := DecisionBar(BarState{Open: true, Files: true}); b.ApproveLabel != "Approve (a)" || b.Follow || !b.Wrap || !b.Layout {
		t.Errorf("waiting: %+v; want Approve (a), no Follow, the view options", b)
	}
	if b := DecisionBar(BarState{Open: true, Files: true, Streaming: true}); !b.Follow || !b.Wrap || b.Layout {
		t.Errorf("streaming: %+v; want Follow and Wrap, no layout options", b)
	}
	if b := DecisionBar(BarState{Failed: true}); b.Wrap || b.Layout {
		t.Errorf("failed: %+v; want no view options", b)
	}
}

func TestWhyNoApprove(t *testing.T) {
	for _, c := range []struct {
		state   review.State
		decided bool
		want    string
	}{
		{review.StatePending, true, "This proposal is decided already."},
		{review.StateReported, false, "This proposal is decided already."},
		{review.StateStreaming, false, "Still streaming: a approves once the agent has sent all of it; r rejects it now."},
		{review.StateHeld, false, "This edit did not apply: pick the lines it was meant for (1–9, Mark lines…), or Dismiss to send the agent the failure."},
		{review.StatePending, false, ""},
	} {
		if got := WhyNoApprove(review.Proposal{State: c.state}, c.decided); got != c.want {
			t.Errorf("%s (decided %v): %q; want %q", c.state, c.decided, got, c.want)
		}
	}
}
