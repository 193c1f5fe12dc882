package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
)

// TestStaleViewLaidOutOnItsFirstShowing: a stale-from-the-start file
// clicked in the queue after another proposal showed: its note (three
// lines at the pane's width) and the choice of views under it push the
// diff down. The first layout took the note's height at the width it had
// never been given (one line), and the choice of views was drawn over the
// diff's "Stale: left is the file on disk now…" banner (seen in the real
// window).
func TestStaleViewLaidOutOnItsFirstShowing(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\n")
	h.propose("agent", "s", engine.FormatWrite, "a.txt", "ONE\n")
	h.write("config.go", "package main\n\nconst (\n\tread = 3\n\twrite = 10\n\tidle = 60\n)\n")
	p, err := h.desk.Propose(context.Background(), review.Request{Agent: "aider", Session: "t", Format: engine.FormatSearchReplace, Path: "config.go",
		Payload: srBlock("\twrite = 10\n", "\twrite = 30\n"), ReadSHA256: strings.Repeat("0", 64)})
	if err != nil {
		t.Fatal(err)
	}
	h.advance(time.Minute)
	h.until("the window lists it", func() bool { return h.InQueue(p.ID) })
	h.Queue().Click("config.go")
	if h.Shown() != p.ID || h.Diff().Showing() == "" {
		t.Fatalf("shown %s, view choice %q; want the stale %s with its choice of views", h.Shown(), h.Diff().Showing(), p.ID)
	}
	if o := h.PaneOverlaps(); len(o) > 0 {
		t.Errorf("the stale file's first showing drew parts of the pane over one another:\n%s", strings.Join(o, "\n"))
	}
	// A save on disk while it shows, and another proposal and back.
	h.write("config.go", "package main\n\nconst (\n\tread = 4\n\twrite = 10\n\tidle = 60\n)\n")
	h.until("the save shows", func() bool { return strings.Contains(string(h.ShownProposal().Files[0].Disk.Content), "read = 4") })
	h.Queue().Click("a.txt")
	h.Queue().Click("config.go")
	if o := h.PaneOverlaps(); len(o) > 0 {
		t.Errorf("after a save on disk and showing it again:\n%s", strings.Join(o, "\n"))
	}
}

// TestProtectedFileLaidOutOnItsFirstShowing: a protected file's line above
// the diff (wrapping in a narrow pane) and the bar's warning take their
// room on the file's first showing.
func TestProtectedFileLaidOutOnItsFirstShowing(t *testing.T) {
	h := newHarness(t)
	h.win.Win.Resize(fyne.NewSize(700, 600))
	h.write("a.txt", "one\n")
	h.propose("agent", "s", engine.FormatWrite, "a.txt", "ONE\n")
	h.propose("other", "o", engine.FormatWrite, ".envrc", "export A=1\n")
	h.Queue().Click(".envrc")
	if !strings.Contains(h.Header(), "Protected") {
		t.Fatalf("header:\n%s\nwant the protected file named", h.Header())
	}
	if o := h.PaneOverlaps(); len(o) > 0 {
		t.Errorf("a protected file's first showing drew parts of the pane over one another:\n%s", strings.Join(o, "\n"))
	}
}
