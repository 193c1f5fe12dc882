package deskrpc

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestLargeMessagesInFlightAreBounded: large messages sent at the same
// time on many connections are read no more than the budget's places at
// a time, and every one is still answered.
func TestLargeMessagesInFlightAreBounded(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path, l := listenPrivate(t)
	const limit, msg, conns = 1, 700 << 10, 4
	s := NewServer(d.Desk)
	s.inflight = newBudget(limit)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, l) }()
	defer func() {
		cancel()
		<-done
	}()
	// Each connection sends a status request padded to msg bytes.
	answers := make(chan string, conns)
	for i := 0; i < conns; i++ {
		c, err := net.Dial("unix", path)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		go func() {
			pad := strings.Repeat(" ", msg)
			c.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"status","params":{}` + pad + "}\n"))
			line, _ := bufio.NewReader(c).ReadString('\n')
			answers <- line
		}()
	}
	deadline := time.After(2 * time.Minute)
	for i := 0; i < conns; i++ {
		select {
		case line := <-answers:
			var resp struct {
				Result *statusResult `json:"result"`
				Error  *rpcError     `json:"error"`
			}
			if err := json.Unmarshal([]byte(line), &resp); err != nil || resp.Result == nil {
				t.Errorf("answer %d: %q (%v); want a status result", i, line, err)
			}
		case <-deadline:
			t.Fatalf("%d of %d padded requests answered in 2 minutes", i, conns)
		}
	}
	s.inflight.mu.Lock()
	peak, used := s.inflight.peak, len(s.inflight.places)
	s.inflight.mu.Unlock()
	if peak != limit || used != 0 {
		t.Errorf("large messages in flight: peak %d, now %d; want %d (large messages waited for their place), and 0 once answered", peak, used, limit)
	}
}
