package ui

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
)

// TestApproveMergedKeepsUntickedHunksOfOtherFiles: a two-file proposal
// whose second file turned stale: the hunk the person unticked in the
// first file is not written when a approves the merge (it was: Approve
// merged sent the merges alone, and the first file went as proposed).
func TestApproveMergedKeepsUntickedHunksOfOtherFiles(t *testing.T) {
	h := newHarness(t)
	base := letters40()
	h.write("a.txt", base)
	h.write("b.txt", "one\ntwo\nthree\n")
	patch := "*** Begin Patch\n*** Update File: a.txt\n@@\n-line b\n+line B\n@@\n-line x\n+line X\n*** Update File: b.txt\n@@\n-one\n+ONE\n*** End Patch\n"
	p := h.propose("codex", "s", engine.FormatPatch, "", patch)
	h.win.Select(p.ID)
	h.settle()
	if h.ShownFile() != "a.txt" || len(h.win.View().Hunks()) != 2 {
		t.Fatalf("shown %s with %d hunks; want a.txt with 2", h.ShownFile(), len(h.win.View().Hunks()))
	}
	h.win.View().ToggleHunk(1) // untick x → X
	h.write("b.txt", "one\ntwo\nthree\nfour by hand\n")
	h.until("b.txt turns stale", func() bool { pp, _ := h.desk.Get(p.ID); return pp.State == review.StateStale })
	h.settle()
	h.press('a')
	h.ApproveAnywayIfAsked()
	o := h.outcome(p.ID)
	if !o.Status.Wrote() {
		t.Fatalf("a: %s; want the merge written", o.Status)
	}
	if got := h.read("a.txt"); strings.Contains(got, "line X") || !strings.Contains(got, "line B") {
		t.Errorf("a.txt = %q; want B written and the unticked X not", got)
	}
	if got := h.read("b.txt"); got != "ONE\ntwo\nthree\nfour by hand\n" {
		t.Errorf("b.txt = %q; want the merge", got)
	}
	if len(o.Files) != 2 || o.Files[0].UserEdits == "" {
		t.Errorf("outcome files %+v; want a.txt's unticked hunk told as the person's change", o.Files)
	}
}

// In a proposal stale by one file, the changeset tree marks that file
// stale and the others unchanged on disk (it said stale for every file).
func TestTreeMarksOnlyTheFilesChangedOnDiskStale(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "a\n")
	h.write("b.txt", "b\n")
	p := h.propose("codex", "s", engine.FormatPatch, "", "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n*** End Patch\n")
	h.win.Select(p.ID)
	h.settle()
	h.write("b.txt", "b by hand\n")
	h.until("b.txt turns stale", func() bool { pp, _ := h.desk.Get(p.ID); return pp.State == review.StateStale })
	h.settle()
	got := strings.Join(h.TreeRows(), "\n")
	if !strings.Contains(got, "a.txt waiting · unchanged on disk +") || !strings.Contains(got, "b.txt stale +") {
		t.Errorf("tree rows:\n%s\nwant a.txt unchanged on disk, b.txt stale", got)
	}
}
