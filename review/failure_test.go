package review_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

func TestErrorJSONKinds(t *testing.T) {
	tests := []struct {
		err  error
		kind string
	}{
		{&engine.MatchError{Format: engine.FormatEdit, Block: 1, Kind: engine.FailNoMatch}, "match"},
		{&engine.FormatError{Format: engine.FormatEdit, Msg: "x"}, "format"},
		{fmt.Errorf("wrapped: %w", &engine.ContentError{What: "file", Reason: "x"}), "content"},
		{errors.New("x"), "other"},
	}
	for _, tt := range tests {
		if got := review.ErrorJSON(tt.err)["kind"]; got != tt.kind {
			t.Errorf("ErrorJSON(%T)[kind] = %v; want %s", tt.err, got, tt.kind)
		}
	}
}

// TestFailureJournaled: the journal keeps a failure both as it is and as
// its agent read it, so the history shows the agent's words (as an older
// journal, which kept only them, does) and the failure's kind survives.
func TestFailureJournaled(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "alpha\nbeta\n")
	p := d.MustPropose(t, engine.FormatSearchReplace, "a.txt", reviewtest.SR("gamma\n", "delta\n"))
	o := reviewtest.WaitOutcome(t, d.Desk, p.ID)
	text := agenttext.Outcome(o)
	if o.Status != decision.Failed || o.Failure == nil || o.Failure.Kind != review.FailMatch || !strings.Contains(text, "gamma") {
		t.Fatalf("outcome %s %+v; want failed, a block that did not match", o.Status, o.Failure)
	}
	ctx := context.Background()
	page, err := d.Journal.History(ctx, journal.Filter{})
	if err != nil || len(page.Entries) != 1 {
		t.Fatalf("history %+v, %v; want the one failed proposal", page.Entries, err)
	}
	if got := page.Entries[0].Feedback; got != text {
		t.Errorf("history says %q; want what the agent read, %q", got, text)
	}
	det, err := d.Journal.Detail(ctx, page.Entries[0].Ref)
	if err != nil {
		t.Fatal(err)
	}
	var kept struct {
		Error   string
		Failure *review.Failure
	}
	if err := json.Unmarshal(det.Outcome, &kept); err != nil {
		t.Fatal(err)
	}
	if kept.Error != text || kept.Failure == nil || agenttext.Failure(kept.Failure) != text {
		t.Errorf("journaled outcome %s; want its error the agent's text and its failure the same failure", det.Outcome)
	}
	if _, reason, err := d.Journal.ProposalStatus(ctx, p.ID); err != nil || reason != text {
		t.Errorf("journaled proposal reason %q, %v; want the agent's text", reason, err)
	}
}
