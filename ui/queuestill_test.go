package ui

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
)

// TestNewWorkNeverMovesTheRowsAbove: a new agent session's proposals go
// below what the queue holds (oldest first, as README says), so the row
// the pointer is on stays where it is and a click lands on it.
func TestNewWorkNeverMovesTheRowsAbove(t *testing.T) {
	h := newHarness(t)
	h.propose("claude-code", "s1", engine.FormatWrite, "a.txt", "a\n")
	h.propose("claude-code", "s1", engine.FormatWrite, "b.txt", "b\n")
	before := h.Queue().Rows()
	h.propose("gemini-cli", "docs", engine.FormatWrite, "c.txt", "c\n")
	after := h.Queue().Rows()
	if len(after) != len(before)+2 || !slices.Equal(after[:len(before)], before) {
		t.Fatalf("queue before %q, after a new session's proposal %q: the rows above moved", before, after)
	}
	i := slices.Index(after, "b.txt")
	h.Queue().ClickRow(i) // where b.txt was before c.txt came
	if got := h.Header(); !containsLine(got, "claude-code · s1 — b.txt") {
		t.Errorf("clicked where b.txt was; the pane shows %q", got)
	}
}

// containsLine reports whether text has line as one of its lines.
func containsLine(text, line string) bool {
	for _, l := range splitLines(text) {
		if l == line {
			return true
		}
	}
	return false
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// TestQueueHoldsStillUnderThePointer: while the pointer is over the queue
// nothing in it moves (issue 25 point 9): a new session's proposals wait,
// counted under the queue, and a proposal decided elsewhere keeps its row
// (done); when the pointer leaves, the queue shows what is there now.
func TestQueueHoldsStillUnderThePointer(t *testing.T) {
	h := newHarness(t)
	a := h.propose("claude-code", "s1", engine.FormatWrite, "a.txt", "a\n")
	h.propose("claude-code", "s1", engine.FormatWrite, "b.txt", "b\n")
	h.win.Win.Canvas().Refresh(h.win.Win.Content())
	h.Queue().Hover("b.txt")
	before := h.Queue().Rows()

	h.propose("gemini-cli", "docs", engine.FormatWrite, "c.txt", "c\n")
	if got := h.Queue().Rows(); !slices.Equal(got, before) {
		t.Fatalf("the pointer on the queue, a new proposal came: rows %q; want them as they were, %q", got, before)
	}
	if got := h.Queue().Note(); !strings.Contains(got, "1 new proposal below") {
		t.Errorf("note under the held queue %q; want it to count the new proposal", got)
	}
	if _, err := h.desk.Decide(context.Background(), a.ID, review.Decision{Verdict: decision.Rejected}); err != nil {
		t.Fatal(err)
	}
	h.until("the rejection reaches the window", func() bool { return !h.InQueue(a.ID) })
	got := h.Queue().Rows()
	if len(got) != len(before) || got[1] != "a.txt done" {
		t.Errorf("a proposal decided under the pointer: rows %q; want a.txt kept in its place, done", got)
	}

	h.Queue().Hover("a.txt") // from one row to another: still over the queue
	h.advance(time.Second)
	h.settle()
	if got := h.Queue().Rows(); len(got) != len(before) {
		t.Errorf("moving from row to row let the queue move: %q", got)
	}
	h.Queue().HoverBelow() // the space below the rows is the queue too
	h.advance(time.Second)
	h.settle()
	if got := h.Queue().Rows(); len(got) != len(before) {
		t.Errorf("the pointer below the rows let the queue move: %q", got)
	}

	h.Queue().Leave()
	after := h.Queue().Rows()
	if slices.Contains(after, "a.txt done") || !slices.Contains(after, "c.txt") || h.Queue().Note() != "" {
		t.Errorf("the pointer left the queue: rows %q, note %q; want a.txt gone, c.txt shown, no note", after, h.Queue().Note())
	}
}
