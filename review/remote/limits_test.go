package remote

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// A far desk cannot pin the window's memory: what the window keeps is
// bounded. Decided proposals go first, oldest first; when the open ones
// alone pass the bound the window stops following the desk and says why;
// a message over the window's limit ends the connection, saying so.
func TestAFarDeskCannotPinTheWindowsMemory(t *testing.T) {
	local := reviewtest.NewDesk(t, "", "")
	ctx := reviewtest.Context(t)
	big := strings.Repeat("a line of a big proposal\n", 4<<10) // 100 KiB
	propose := func(name string) review.Proposal {
		p, err := local.Propose(ctx, review.Request{Format: engine.FormatWrite, Path: name, Payload: big})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	first := propose("f0.txt")
	cl, err := deskrpc.Dial(serve(t, local.Desk))
	if err != nil {
		t.Fatal(err)
	}
	rd, err := OpenLimited(ctx, cl, "dev@box", "me@laptop", Limits{KeptBytes: 350 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	lost := make(chan error, 1)
	rd.OnLost(func(err error) { lost <- err })
	events := make(chan review.Event, 100)
	rd.Subscribe(func(ev review.Event) { events <- ev })
	if _, err := rd.Decide(ctx, first.ID, review.Decision{Verdict: decision.Rejected, Feedback: "no"}); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3; i++ {
		p := propose(fmt.Sprintf("f%d.txt", i))
		for ev := range events { // the desk's events coalesce: any event about it
			if ev.ID == p.ID {
				if _, ok := rd.Get(p.ID); ok {
					break
				}
			}
		}
	}
	if _, ok := rd.Get(first.ID); ok {
		t.Error("the decided proposal is still kept past the bound; want it dropped first")
	}
	propose("f4.txt")
	select {
	case err := <-lost:
		if !strings.Contains(err.Error(), "more than this window keeps") {
			t.Errorf("OnLost: %v; want it to say the window's bound", err)
		}
	case <-ctx.Done():
		t.Fatal("the window kept following past its bound")
	}

	// One message over the window's limit ends the connection, saying so.
	conn, err := deskrpc.DialConn(serve(t, local.Desk))
	if err != nil {
		t.Fatal(err)
	}
	_, err = OpenLimited(context.Background(), deskrpc.NewClientMax(conn, 64<<10), "dev@box", "me@laptop", Limits{})
	if err == nil || !strings.Contains(err.Error(), "over 65536 bytes") {
		t.Errorf("Open with a 64 KiB message limit and 100 KiB proposals: %v; want the connection ended, saying why", err)
	}
}
