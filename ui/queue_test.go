package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/diffdesk/diffdesk/review"
)

// However narrow the queue, a row's name never runs under its counts: it
// is cut at its start and keeps the file's name; a session's heading keeps
// its counts and cuts the agent and session.
func TestNarrowQueueRowsCutNamesNotCounts(t *testing.T) {
	test.NewTempApp(t)
	long := "internal/very/deeply/nested/package/directory/with/a/long/path/handler_test.go"
	p := review.Proposal{ID: "p1", Agent: "claude-code", State: review.StatePending, Created: baseTime,
		Files: []review.File{{Rel: long}, {Rel: "b.go"}}}
	for _, width := range []float32{180, 260, 900} {
		c := drawnCell(t, width)
		c.Draw(queueRow{p: p})
		if nameEnd, countsAt := c.NameEnd(), c.CountsAt(); nameEnd > countsAt+0.5 {
			t.Errorf("width %v: the name %q ends at %v, under the counts at %v", width, c.Name(), nameEnd, countsAt)
		}
		end := "handler_test.go +1 more" // the file's name and the count
		if width < 200 {
			end = " +1 more" // the count at least
		}
		if !strings.HasSuffix(c.Name(), end) {
			t.Errorf("width %v: name %q; want it to end with %q", width, c.Name(), end)
		}
		if wide := width == 900; wide != !strings.Contains(c.Name(), "…") {
			t.Errorf("width %v: name %q; want it cut only when it does not fit", width, c.Name())
		}

		c.Draw(queueRow{header: "claude-code · a-session-with-a-very-long-name-indeed", files: 12, added: 300, removed: 41, open: 3})
		if hw, room := c.HeadingWidth(); hw > room+0.5 {
			t.Errorf("width %v: heading %q is %v wide in %v", width, c.Heading(), hw, room)
		}
		if !strings.HasSuffix(c.Heading(), "· 12 files +300 −41 · 3 open") && width > 200 {
			t.Errorf("width %v: heading %q lost its counts", width, c.Heading())
		}
	}
}

// A held failure waits for the person (its agent's call is open): the
// session's heading counts it open, as the row says "pick lines".
func TestQueueHeadingCountsAHeldFailureOpen(t *testing.T) {
	c := drawnCell(t, 900)
	ps := []review.Proposal{
		{ID: "p1", Agent: "claude", Session: "s", State: review.StateHeld, Created: baseTime},
		{ID: "p2", Agent: "claude", Session: "s", State: review.StateFailed, Created: baseTime},
	}
	c.Draw(queueRows(ps)[0])
	if !strings.HasSuffix(c.Heading(), "· 1 open") {
		t.Errorf("heading %q; want it to count the held failure open", c.Heading())
	}
}

// A proposal still streaming has no line counts yet: the heading says it
// streams rather than "+0 −0".
func TestQueueHeadingSaysAStreamIsNotCountedYet(t *testing.T) {
	c := drawnCell(t, 900)
	streaming := review.Proposal{ID: "p1", Agent: "a", Session: "s", State: review.StateStreaming, Created: baseTime, Files: []review.File{{Rel: "a.go"}}}
	pending := review.Proposal{ID: "p2", Agent: "a", Session: "s", State: review.StatePending, Created: baseTime, Files: []review.File{{Rel: "b.go", Added: 2, Removed: 1}}}
	for _, tt := range []struct {
		ps   []review.Proposal
		want string
	}{
		{[]review.Proposal{streaming}, "· 1 file streaming · 1 open"},
		{[]review.Proposal{streaming, pending}, "· 2 files +2 −1, 1 streaming · 2 open"},
		{[]review.Proposal{pending}, "· 1 file +2 −1 · 1 open"},
	} {
		c.Draw(queueRows(tt.ps)[0])
		if !strings.HasSuffix(c.Heading(), tt.want) {
			t.Errorf("heading %q; want it to end %q", c.Heading(), tt.want)
		}
	}
}
