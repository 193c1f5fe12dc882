package review_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestDecideCancelledAfterTheWriteFinishes: a caller that gives up (its
// context cancelled: a hub link closing, a connection dropped) once the
// desk has written the files does not leave them written with the
// proposal open and its agent later told it was withdrawn: the write is
// journaled as finished and the outcome delivered, approved. (A hub run
// wrote a file twice this way: written, the proposal still open, the
// restart withdrew it and the agent proposed again.)
func TestDecideCancelledAfterTheWriteFinishes(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "[desk]\nsettle = \"30s\"\n")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "old\n")
	p := d.MustPropose(t, engine.FormatWrite, "a.txt", "new\n")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type result struct {
		o   review.Outcome
		err error
	}
	done := make(chan result, 1)
	go func() {
		o, err := d.Decide(ctx, p.ID, review.Decision{Verdict: decision.Approved})
		done <- result{o, err}
	}()
	wait := reviewtest.Context(t)
	for reviewtest.ReadFile(t, path) != "new\n" { // written: the desk waits out its settle window
		select {
		case <-wait.Done():
			t.Fatal("the desk never wrote the file")
		case <-time.After(5 * time.Millisecond):
		}
	}
	cancel()
	var r result
	select {
	case r = <-done:
	case <-wait.Done():
		t.Fatal("Decide did not return after its context was cancelled")
	}
	if r.err != nil || r.o.Status != decision.Approved || r.o.Checkpoint == 0 {
		t.Fatalf("Decide after the write, then cancelled: %+v, %v; want approved with its checkpoint", r.o, r.err)
	}
	got, ok := d.Get(p.ID)
	if !ok || got.State.Open() {
		t.Fatalf("the proposal after its files were written: %+v (held %v); want it decided, not open", got.State, ok)
	}
	if o, err := d.Wait(reviewtest.Context(t), p.ID); err != nil || o.Status != decision.Approved {
		t.Fatalf("the agent is told %+v, %v; want approved", o, err)
	}
}
