package main

import (
	"context"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/deskrpc/deskrpctest"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestRejectedMidStreamIsAnsweredAtTheNextChunk: a person rejecting a
// proposal while it streams is heard by the agent at its next chunk: it
// stops sending and has the rejection (it sent every chunk first, 20 s in
// a paced stream).
func TestRejectedMidStreamIsAnsweredAtTheNextChunk(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	cl, err := deskrpc.Dial(deskrpctest.Serve(t, d.Desk))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx := context.Background()
	var res proposeResult
	if err := cl.Call(ctx, "propose", review.Request{Agent: "a", Format: engine.FormatWrite, Path: d.Root + "/g.txt", Stream: true}, &res); err != nil {
		t.Fatal(err)
	}
	parts := chunks(strings.Repeat("line\n", 100), 50)
	sent := 0
	res, err = stream(ctx, cl, res.ID, parts, func() error {
		sent++
		if sent == 3 {
			if _, err := d.Decide(ctx, res.ID, review.Decision{Verdict: decision.Rejected, Feedback: "not this"}); err != nil {
				t.Fatal(err)
			}
		}
		return nil
	}, finalChanged)
	if err != nil {
		t.Fatalf("stream: %v", err)
	}
	if res.Outcome == nil || res.Outcome.Status != decision.Rejected || res.Outcome.Feedback != "not this" {
		t.Fatalf("outcome %+v; want the rejection", res.Outcome)
	}
	if sent != 3 {
		t.Errorf("%d chunks sent in all after a rejection at the third; want 3: the next one is answered with it", sent)
	}
}
