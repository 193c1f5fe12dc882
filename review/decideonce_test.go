package review_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// pauseFirstRecord stops the first decision on id as it is about to be
// journaled, until the test closes release; decisions after it go on:
// a second decision can be attempted while the first one is under way,
// every time, with no lock of the desk or the journal held.
func pauseFirstRecord(t *testing.T, id string) (reached, release chan struct{}) {
	reached, release = make(chan struct{}), make(chan struct{})
	var first atomic.Bool
	review.BeforeDecisionRecorded(t, func(got string) {
		if got == id && first.CompareAndSwap(false, true) {
			close(reached)
			<-release
		}
	})
	return reached, release
}

// TestOneDecisionPerProposal: a second decision on a proposal whose first
// is being carried out is refused, saying so; the first one's outcome is
// the only one, and the file is written once, with its text (or, for a
// rejection, not at all).
func TestOneDecisionPerProposal(t *testing.T) {
	for _, tc := range []struct {
		name          string
		first, second review.Decision
		want          string // the file after both
	}{
		{"reject then approve", review.Decision{Verdict: decision.Rejected, Feedback: "no"}, review.Decision{Verdict: decision.Approved}, "old\n"},
		{"reject then reject", review.Decision{Verdict: decision.Rejected, Feedback: "no"}, review.Decision{Verdict: decision.Rejected, Feedback: "second"}, "old\n"},
		{"approve then approve edited", review.Decision{Verdict: decision.Approved}, review.Decision{Verdict: decision.ApprovedEdited}, "new\n"},
		{"approve then reject", review.Decision{Verdict: decision.Approved}, review.Decision{Verdict: decision.Rejected, Feedback: "second"}, "new\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := reviewtest.NewDesk(t, "", "")
			path := filepath.Join(d.Root, "a.txt")
			reviewtest.WriteFile(t, path, "old\n")
			p := d.MustPropose(t, engine.FormatWrite, "a.txt", "new\n")
			second := tc.second
			if second.Verdict == decision.ApprovedEdited {
				second.Edited = map[string]string{path: "edited\n"}
			}

			base, cancel := context.WithCancel(context.Background())
			defer cancel()
			reached, release := pauseFirstRecord(t, p.ID)
			type result struct {
				o   review.Outcome
				err error
			}
			firstDone := make(chan result, 1)
			go func() {
				o, err := d.Decide(base, p.ID, tc.first)
				firstDone <- result{o, err}
			}()
			<-reached // the first decision is being carried out

			o2, err2 := d.Decide(context.Background(), p.ID, second)
			if err2 == nil {
				// Let the first end without an outcome of its own (its
				// journal write fails), so the test reports rather than
				// the desk closing the outcome twice.
				cancel()
				close(release)
				<-firstDone
				t.Fatalf("second decision (%s) while the first (%s) was under way succeeded: %+v; file = %q; want it refused",
					second.Verdict, tc.first.Verdict, o2, reviewtest.ReadFile(t, path))
			}
			if !strings.Contains(err2.Error(), p.ID) || !strings.Contains(err2.Error(), "already") {
				t.Errorf("second decision refused with %q; want it to name the proposal and say it is decided already", err2)
			}
			if got := reviewtest.ReadFile(t, path); got != "old\n" {
				t.Errorf("file = %q while the first decision is paused before writing; want it untouched", got)
			}

			close(release)
			r := <-firstDone
			if r.err != nil {
				t.Fatalf("first decision (%s): %v", tc.first.Verdict, r.err)
			}
			if r.o.Status != tc.first.Verdict {
				t.Errorf("first decision's outcome = %s; want %s", r.o.Status, tc.first.Verdict)
			}
			if o := reviewtest.WaitOutcome(t, d.Desk, p.ID); o.Status != tc.first.Verdict || o.Feedback != tc.first.Feedback {
				t.Errorf("outcome the agent gets = %s %q; want the first decision's, %s %q", o.Status, o.Feedback, tc.first.Verdict, tc.first.Feedback)
			}
			if got := reviewtest.ReadFile(t, path); got != tc.want {
				t.Errorf("file = %q; want %q (the first decision's)", got, tc.want)
			}
			if _, err := d.Decide(context.Background(), p.ID, second); err == nil {
				t.Error("deciding after the first decision ended succeeded")
			}
		})
	}
}
