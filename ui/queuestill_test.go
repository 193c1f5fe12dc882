package ui

import (
	"slices"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
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
