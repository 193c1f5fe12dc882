package review_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestApprovedEditKeepsAnotherFilesUntickedHunksOut: the person unticks a
// hunk of one file of a multi-file proposal and edits another; approving
// the edit writes the edited file as edited, the other with only its ticked
// hunk, and a new file with none ticked not at all.
func TestApprovedEditKeepsAnotherFilesUntickedHunksOut(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "b.txt"), "b\n")
	patch := "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n-one\n+ONE\n two\n three\n@@ -7,3 +7,3 @@\n seven\n eight\n-nine\n+NINE\n" +
		"--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-b\n+B\n" +
		"--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+new\n"
	p, err := d.Propose(context.Background(), review.Request{Agent: "test", Format: engine.FormatPatch, Payload: patch})
	if err != nil || len(p.Files) != 3 {
		t.Fatalf("propose: %v, %d files", err, len(p.Files))
	}
	a, b, nf := p.Files[0], p.Files[1], p.Files[2]
	if len(a.Hunks()) != 2 {
		t.Fatalf("a.txt has %d hunks; want 2", len(a.Hunks()))
	}
	o := d.MustDecide(t, p.ID, review.Decision{
		Verdict: decision.ApprovedEdited,
		Edited:  map[string]string{b.Path: "B, as the person wrote it\n"},
		Hunks:   map[string][]string{a.Path: {a.Hunks()[0].ID}, nf.Path: {}},
	})
	if got := reviewtest.ReadFile(t, a.Path); got != "ONE\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n" {
		t.Errorf("a.txt = %q; want only its ticked hunk (one → ONE) written", got)
	}
	if got := reviewtest.ReadFile(t, b.Path); got != "B, as the person wrote it\n" {
		t.Errorf("b.txt = %q; want the person's text", got)
	}
	if _, err := os.Stat(nf.Path); !os.IsNotExist(err) {
		t.Errorf("new.txt exists (%v); with none of its hunks ticked it must not be created", err)
	}
	if o.Status != decision.ApprovedEdited {
		t.Errorf("outcome status %s; want approved-edited", o.Status)
	}
}

// TestApprovedEditWithoutHunksWritesOtherFilesAsProposed: files in neither
// Edited nor Hunks are written as proposed, as before.
func TestApprovedEditWithoutHunksWritesOtherFilesAsProposed(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "a\n")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "b.txt"), "b\n")
	patch := "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+A\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-b\n+B\n"
	p, err := d.Propose(context.Background(), review.Request{Agent: "test", Format: engine.FormatPatch, Payload: patch})
	if err != nil || len(p.Files) != 2 {
		t.Fatalf("propose: %v, %d files", err, len(p.Files))
	}
	d.MustDecide(t, p.ID, review.Decision{Verdict: decision.ApprovedEdited, Edited: map[string]string{p.Files[1].Path: "bee\n"}})
	if got := reviewtest.ReadFile(t, p.Files[0].Path); got != "A\n" {
		t.Errorf("a.txt = %q; want it as proposed", got)
	}
}
