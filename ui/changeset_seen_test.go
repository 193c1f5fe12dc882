package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
)

// TestApproveChangesetAsksAboutHunksNeverOnScreen: approving a changeset
// whole counts what was on screen over all its proposals — the ones shown
// before too — and asks about the hunks never shown; the journal keeps,
// for each proposal decided, which hunks were seen.
func TestApproveChangesetAsksAboutHunksNeverOnScreen(t *testing.T) {
	h := newHarness(t)
	_, b, c, _ := changesetOfThree(h)
	h.win.Select(c.ID)
	h.settle()
	h.win.Select(b.ID)
	h.settle()
	h.press('A')
	if msg := h.ChangesetQuestion(); msg == "" || strings.Contains(msg, "never on screen") {
		t.Fatalf("A with b and c both looked at: %q; want the question without unseen hunks", msg)
	}
	h.pressKey(fyne.KeyEscape)
	h.settle()

	h.write("e.txt", "e\n")
	e := h.propose("claude-code", "s1", engine.FormatWrite, "e.txt", "E\n")
	h.win.Select(b.ID)
	h.settle()
	h.press('A')
	if msg := h.ChangesetQuestion(); !strings.Contains(msg, "1 of 3 hunks was never on screen (e.txt)") {
		t.Fatalf("A with e.txt never shown: %q; want it named, 1 of 3 hunks", msg)
	}
	h.pressKey(fyne.KeyReturn)
	for id, want := range map[string]bool{b.ID: true, c.ID: true, e.ID: false} {
		h.outcome(id)
		seen := journalDetail(t, h, id).Seen
		if len(seen) != 1 || seen[0].Seen != want {
			t.Errorf("journal's seen for %s: %+v; want its one hunk seen %v", id, seen, want)
		}
	}
}

// TestTApprovesTrivialProposalsOfTheChangeset: t approves the other open
// proposals of the changeset whose hunks are all trivial, and leaves one
// with a real change for the person.
func TestTApprovesTrivialProposalsOfTheChangeset(t *testing.T) {
	h := newHarness(t)
	h.write("shown.go", "package x\n\nfunc A() {}\n")
	h.write("spaces.go", "package x\n\nfunc B() {\n\treturn\n}\n")
	h.write("real.go", "package x\n\nfunc C() int { return 1 }\n")
	shown := h.propose("claude-code", "s1", engine.FormatWrite, "shown.go", "package x\n\nfunc A() { println() }\n")
	spaces := h.propose("claude-code", "s1", engine.FormatWrite, "spaces.go", "package x\n\nfunc B() {\n\treturn   \n}\n")
	real := h.propose("claude-code", "s1", engine.FormatWrite, "real.go", "package x\n\nfunc C() int { return 2 }\n")
	h.Queue().Click("shown.go")
	h.Keys("t")
	if o := h.outcome(spaces.ID); o.Status != decision.Approved || h.read("spaces.go") != "package x\n\nfunc B() {\n\treturn   \n}\n" {
		t.Errorf("the whitespace-only proposal after t: %s; want approved and written", o.Status)
	}
	for _, p := range []review.Proposal{shown, real} {
		if got, _ := h.desk.Get(p.ID); got.State != review.StatePending {
			t.Errorf("%s after t: %s; want it left for the person", p.Files[0].Rel, got.State)
		}
	}
	h.until("the status tells of the changeset", func() bool {
		return strings.Contains(h.Status(), "Approved 1 other proposal of the changeset, trivial throughout")
	})
}
