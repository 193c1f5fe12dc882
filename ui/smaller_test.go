package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
)

// TestEmptyStateNamesEveryDoor: with nothing waiting, the pane names the
// hooks and the MCP server too, and deskctl setup, not only the socket
// and the IDE doors.
func TestEmptyStateNamesEveryDoor(t *testing.T) {
	h := newHarness(t)
	h.settle()
	got := h.Empty()
	for _, want := range []string{"deskctl demo", "Hooks", "deskctl setup claude", "MCP server", "deskctl mcp"} {
		if !strings.Contains(got, want) {
			t.Errorf("the empty pane says:\n%s\nwant %q", got, want)
		}
	}
}

// TestStaleFromTheStartSaysSo: a proposal whose agent read a version of
// the file the desk never had says it is stale from the start, and its
// "What changed on disk" view does not claim "no changes".
func TestStaleFromTheStartSaysSo(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\ntwo\n")
	p, err := h.desk.Propose(context.Background(), review.Request{Agent: "agent", Session: "s", Format: engine.FormatSearchReplace, Path: "a.txt",
		Payload: srBlock("two\n", "TWO\n"), ReadSHA256: strings.Repeat("0", 64)})
	if err != nil {
		t.Fatal(err)
	}
	h.advance(time.Minute)
	h.until("the window shows it", func() bool { _, ok := h.win.items[p.ID]; return ok })
	h.win.Select(p.ID)
	h.settle()
	if got := h.Header(); !strings.Contains(got, "stale from the start") {
		t.Fatalf("header:\n%s\nwant it said stale from the start", got)
	}
	h.Diff().Show("What changed on disk")
	if got := h.Diff().Counter(); got == "no changes" || !strings.Contains(got, "not known") {
		t.Errorf("What changed on disk: counter %q; want it said unknown, not no changes", got)
	}
}
