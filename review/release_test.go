package review_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
	"github.com/diffdesk/diffdesk/review/workspace"
)

// TestDeskReleasesDeliveredProposals: a long-running desk does not keep
// every decided proposal's text: once the outcome is delivered, only the
// newest stay within the bound; an outcome no one has collected stays.
func TestDeskReleasesDeliveredProposals(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	const size, n, keep = 256 << 10, 30, 2 << 20
	d.KeepDelivered(keep, 100)
	body := strings.Repeat("x", size-1) + "\n"
	uncollected := d.MustPropose(t, engine.FormatWrite, "uncollected.txt", body)
	d.MustDecide(t, uncollected.ID, review.Decision{Verdict: decision.Rejected, Feedback: "no"})
	var last review.Proposal
	for i := 0; i < n; i++ {
		last = d.MustPropose(t, engine.FormatWrite, fmt.Sprintf("f%02d.txt", i), body)
		d.MustDecide(t, last.ID, review.Decision{Verdict: decision.Approved})
		reviewtest.WaitOutcome(t, d.Desk, last.ID) // the agent collects it
	}
	// Each proposal holds its payload, proposed text and final content.
	if held, bound := d.HeldBytes(), int64(keep+2*3*size); held > bound {
		t.Errorf("after %d proposals of %d bytes the desk holds %d bytes of text; want at most %d", n+1, size, held, bound)
	}
	if _, ok := d.Get(last.ID); !ok {
		t.Errorf("the newest decided proposal %s was dropped; want it kept for the window", last.ID)
	}
	if o, ok := d.Outcome(uncollected.ID); !ok || o.Status != decision.Rejected {
		t.Errorf("Outcome of the uncollected proposal = %v, %v; want its rejection, kept until delivered", o.Status, ok)
	}
}

// TestStreamLimitIsEnforcedAsBytesArrive: a streamed edit is refused as
// soon as it passes its limit, not when it is finished, and the agent
// learns why from the outcome.
func TestStreamLimitIsEnforcedAsBytesArrive(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "[limits]\nmax_file_bytes = 1000\n")
	ctx := context.Background()
	p, err := d.Propose(ctx, review.Request{Format: engine.FormatWrite, Path: "big.txt", Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	chunk := strings.Repeat("y", 299) + "\n"
	var refused error
	sent := 0
	for ; sent < 20 && refused == nil; sent++ {
		refused = d.Feed(p.ID, chunk)
	}
	var re *workspace.RefusalError
	if !errors.As(refused, &re) || re.Rule != workspace.RuleTooLarge || sent != 7 {
		t.Fatalf("Feed of 300-byte chunks under a 1000-byte limit: chunk %d got %v; want chunk 7 refused as too large", sent, refused)
	}
	if err := d.Feed(p.ID, chunk); err == nil || !strings.Contains(err.Error(), "while it streamed") {
		t.Errorf("Feed after the refusal: %v; want an error saying to stop sending", err)
	}
	fin, err := d.Finish(ctx, p.ID)
	if err != nil {
		t.Fatalf("Finish after the refusal: %v; want the proposal with its outcome", err)
	}
	o := reviewtest.WaitOutcome(t, d.Desk, fin.ID)
	if o.Status != decision.Failed || !strings.Contains(agenttext.Outcome(o), "1000-byte") {
		t.Errorf("outcome %s %q; want failed, naming the 1000-byte limit", o.Status, agenttext.Outcome(o))
	}
}
