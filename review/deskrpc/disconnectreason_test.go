package deskrpc

import (
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestAgentGoneWhileWaitingIsWithdrawnAsDisconnected: an agent waiting on
// its proposal goes away (its process ended) while the desk runs on: the
// proposal is withdrawn because the agent disconnected. It was withdrawn
// with "the desk closed before it was decided", and the window told the
// person their desk had closed (seen in the real window after deskctl
// demo was stopped).
func TestAgentGoneWhileWaitingIsWithdrawnAsDisconnected(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := serveTestDesk(t, d.Desk)
	ctx := reviewtest.Context(t)
	decided := make(chan string, 1)
	cancel := d.Subscribe(func(ev review.Event) {
		if ev.Kind == review.EventDecided {
			select {
			case decided <- ev.ID:
			default:
			}
		}
	})
	defer cancel()
	cl, err := Dial(path)
	if err != nil {
		t.Fatal(err)
	}
	answered := make(chan error, 1)
	go func() {
		answered <- cl.Call(ctx, "propose", map[string]any{"format": "write", "path": "w.txt", "payload": "new\n", "wait": true}, nil)
	}()
	var id string
	for id == "" {
		for _, p := range d.List() {
			id = p.ID
		}
		select {
		case <-ctx.Done():
			t.Fatal("the proposal never reached the desk")
		case <-time.After(time.Millisecond):
		}
	}
	cl.Close()
	select {
	case got := <-decided:
		if got != id {
			t.Fatalf("decided %s; want %s", got, id)
		}
	case <-ctx.Done():
		t.Fatal("proposal not withdrawn after its agent went away")
	}
	<-answered
	o, _ := d.Outcome(id)
	if o.Status != decision.Withdrawn || o.Failure == nil || o.Failure.Why != review.WithdrawDisconnected {
		t.Errorf("outcome %s, failure %+v; want withdrawn as %q", o.Status, o.Failure, review.WithdrawDisconnected)
	}
}
