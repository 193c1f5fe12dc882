package review_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
)

// budgetDesk is a desk over a temporary workspace with the held-proposal
// budget given.
func budgetDesk(t *testing.T, maxBytes int64, maxCount int) *review.Desk {
	t.Helper()
	root := t.TempDir()
	cfg, err := config.Load("", []string{root})
	if err != nil {
		t.Fatal(err)
	}
	j, err := journal.Open(context.Background(), filepath.Join(t.TempDir(), "journal.db"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := review.NewDesk(review.Options{FailureText: agenttext.Failure, Roots: []string{root}, Config: cfg, Journal: j, MaxHeldBytes: maxBytes, MaxHeldCount: maxCount})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		d.Close()
		j.Close()
	})
	return d
}

// The proposals the desk holds for agents, over every door, are bounded
// in number and in bytes: past the budget a proposal is refused with a
// BudgetError naming it, and a proposal decided and delivered makes room.
func TestHeldProposalsAreBoundedOverTheDesk(t *testing.T) {
	ctx := context.Background()
	d := budgetDesk(t, 0, 2)
	var ids []string
	for _, name := range []string{"a.txt", "b.txt"} {
		p, err := d.Propose(ctx, review.Request{Format: engine.FormatWrite, Path: name, Payload: "x\n"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	_, err := d.Propose(ctx, review.Request{Format: engine.FormatWrite, Path: "c.txt", Payload: "x\n"})
	var be *review.BudgetError
	if !errors.As(err, &be) || !strings.Contains(err.Error(), "the desk holds 2 proposals") || !strings.Contains(err.Error(), "budget of 2 proposals") {
		t.Fatalf("a third proposal over a budget of 2: %v; want a BudgetError naming it", err)
	}
	if err := d.Withdraw(ctx, ids[0], "done"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Wait(ctx, ids[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Propose(ctx, review.Request{Format: engine.FormatWrite, Path: "c.txt", Payload: "x\n"}); err != nil {
		t.Errorf("a proposal once one was withdrawn and delivered: %v", err)
	}
}

// A stream counts as it grows: past the budget in bytes its next chunk is
// refused and the proposal fails with that reason.
func TestAStreamStopsAtTheBudget(t *testing.T) {
	ctx := context.Background()
	d := budgetDesk(t, 3<<20, 0)
	p, err := d.Propose(ctx, review.Request{Format: engine.FormatWrite, Path: "s.txt", Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	chunk := strings.Repeat("0123456789abcde\n", 32<<10) // 512 KiB
	var fed int
	for ; fed < 16; fed++ {
		if err = d.Feed(p.ID, chunk); err != nil {
			break
		}
	}
	var be *review.BudgetError
	if !errors.As(err, &be) || fed > 8 || !strings.Contains(err.Error(), "the stream to") {
		t.Fatalf("after %d chunks of 512 KiB under a 3 MiB budget: %v; want the stream stopped by the budget", fed, err)
	}
	if o, ok := d.Outcome(p.ID); !ok || o.Status != decision.Failed || !strings.Contains(agenttext.Outcome(o), "budget") {
		t.Errorf("outcome %+v; want failed, naming the budget", o)
	}
}
