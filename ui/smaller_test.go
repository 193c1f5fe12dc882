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
	h.until("the window shows it", func() bool { return h.InQueue(p.ID) })
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

// TestPartialSaysWhatBecameOfEachFile: a partial approval of several files
// says per file: whole, k of n hunks, or not written (it said "only the
// hunks left ticked" of every file, a file accepted whole too).
func TestPartialSaysWhatBecameOfEachFile(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n")
	h.write("b.txt", "b\n")
	h.write("c.txt", "c\n")
	patch := "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n@@\n-nine\n+NINE\n*** Update File: b.txt\n@@\n-b\n+B\n*** Update File: c.txt\n@@\n-c\n+C\n*** End Patch\n"
	p := h.propose("codex", "s", engine.FormatPatch, "", patch)
	h.win.Select(p.ID)
	h.settle()
	h.Keys("j ") // a.txt's second hunk: unticked
	h.Keys("jj") // on to b.txt, then c.txt
	h.Keys("H")  // none of c.txt
	h.Keys("a")
	if h.Dialog().Open() {
		h.Dialog().Click("Approve anyway")
	}
	h.outcome(p.ID)
	if got, want := h.Status(), "(a.txt: 1 of 2 hunks; b.txt: whole; c.txt: not written)"; !strings.Contains(got, want) {
		t.Errorf("status %q; want %q", got, want)
	}
}

// TestShortWindowKeepsTheDiffTall: in a window 467 px high (700 px at
// FYNE_SCALE=1.5) the changeset tree of six files shows two rows and
// scrolls, so the diff keeps most of the height (it got about 4 rows).
func TestShortWindowKeepsTheDiffTall(t *testing.T) {
	h := newHarness(t)
	for _, f := range []string{"a", "b", "c", "d", "e", "f"} {
		h.write(f+".txt", "one\ntwo\n")
		h.propose("claude", "s1", engine.FormatWrite, f+".txt", "one\nTWO\n")
	}
	h.win.Win.Resize(fyne.NewSize(1200, 467))
	h.Keys("]") // the tree is drawn again for the window's height
	h.Keys("[")
	if got, want := h.Diff().Height(), float32(467)*0.4; got < want {
		t.Errorf("the diff is %v px of a 467 px window; want at least %v", got, want)
	}
}
