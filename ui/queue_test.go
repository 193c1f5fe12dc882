package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
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
		c := newQueueCell(nil)
		w := test.NewWindow(c)
		c.set(queueRow{p: p}, baseTime)
		w.Resize(fyne.NewSize(width, 40))
		c.Resize(fyne.NewSize(width, 30))
		c.item.Refresh()
		nameEnd := c.left.Position().X + c.name.Position().X + textWidth(c.name, c.name.Text)
		if countsAt := c.right.Position().X; nameEnd > countsAt+0.5 {
			t.Errorf("width %v: the name %q ends at %v, under the counts at %v", width, c.name.Text, nameEnd, countsAt)
		}
		end := "handler_test.go +1 more" // the file's name and the count
		if width < 200 {
			end = " +1 more" // the count at least
		}
		if !strings.HasSuffix(c.name.Text, end) {
			t.Errorf("width %v: name %q; want it to end with %q", width, c.name.Text, end)
		}
		if wide := width == 900; wide != !strings.Contains(c.name.Text, "…") {
			t.Errorf("width %v: name %q; want it cut only when it does not fit", width, c.name.Text)
		}

		c.set(queueRow{header: "claude-code · a-session-with-a-very-long-name-indeed", files: 12, added: 300, removed: 41, open: 3}, baseTime)
		c.headerBox.Refresh()
		if hw := textWidth(c.header, c.header.Text); hw > c.headerBox.Size().Width+0.5 {
			t.Errorf("width %v: heading %q is %v wide in %v", width, c.header.Text, hw, c.headerBox.Size().Width)
		}
		if !strings.HasSuffix(c.header.Text, "· 12 files +300 −41 · 3 open") && width > 200 {
			t.Errorf("width %v: heading %q lost its counts", width, c.header.Text)
		}
		w.Close()
	}
}

// A held failure waits for the person (its agent's call is open): the
// session's heading counts it open, as the row says "pick lines".
func TestQueueHeadingCountsAHeldFailureOpen(t *testing.T) {
	w := test.NewWindow(nil)
	defer w.Close()
	c := newQueueCell(nil)
	w.SetContent(c)
	w.Resize(fyne.NewSize(900, 60))
	ps := []review.Proposal{
		{ID: "p1", Agent: "claude", Session: "s", State: review.StateHeld, Created: baseTime},
		{ID: "p2", Agent: "claude", Session: "s", State: review.StateFailed, Created: baseTime},
	}
	c.set(queueRows(ps)[0], baseTime)
	if !strings.HasSuffix(c.header.Text, "· 1 open") {
		t.Errorf("heading %q; want it to count the held failure open", c.header.Text)
	}
}

// A proposal still streaming has no line counts yet: the heading says it
// streams rather than "+0 −0".
func TestQueueHeadingSaysAStreamIsNotCountedYet(t *testing.T) {
	w := test.NewWindow(nil)
	defer w.Close()
	c := newQueueCell(nil)
	w.SetContent(c)
	w.Resize(fyne.NewSize(900, 60))
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
		c.set(queueRows(tt.ps)[0], baseTime)
		if !strings.HasSuffix(c.header.Text, tt.want) {
			t.Errorf("heading %q; want it to end %q", c.header.Text, tt.want)
		}
	}
}
