package deskrpc

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestDeskClosingAnswersTheWaitingAgent: when the desk stops (its window
// closed) an agent waiting on its proposal is told the desk closed and
// nothing was written, with code -32005, not a bare EOF.
func TestDeskClosingAnswersTheWaitingAgent(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	c := serveAndWait(t, d)
	c.close()
	err := <-c.answer
	var re *rpcError
	if err == nil || !strings.Contains(err.Error(), "the desk closed before proposal") || !strings.Contains(err.Error(), "nothing was written") {
		t.Fatalf("the waiting agent got %v; want told the desk closed and nothing was written", err)
	}
	if e, ok := err.(*rpcError); ok {
		re = e
	}
	if re == nil || re.Code != codeClosed {
		t.Errorf("error %#v; want code %d", err, codeClosed)
	}
	if err := <-c.done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}
