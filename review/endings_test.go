package review_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestApproveEditedKeepsLineEndings approves the person's text as the
// window's editor gives it ("\n" endings, maybe no BOM) and checks that the
// file keeps its own endings and BOM, and that userEdits shows only what
// the person changed.
func TestApproveEditedKeepsLineEndings(t *testing.T) {
	tests := []struct {
		name, file, search, replace, edited, want, userEdit string
	}{
		{"crlf", "one\r\ntwo\r\nthree\r\n", "two\n", "TWO\n",
			"one\nTWO\nthree!\n", "one\r\nTWO\r\nthree!\r\n", "-three\r\n+three!\r\n"},
		{"crlf with a new line", "one\r\ntwo\r\n", "two\n", "TWO\n",
			"one\nTWO\nadded\n", "one\r\nTWO\r\nadded\r\n", "+added\r\n"},
		{"mixed keeps each line's own", "a\r\nb\nc\r\nd\r\n", "c\n", "C\n",
			"a\nb\nC\nd\nnew\n", "a\r\nb\nC\r\nd\r\nnew\r\n", "+new\r\n"},
		{"bom dropped by the editor", "\uFEFFx\r\ny\r\n", "y\n", "Y\n",
			"x\nY!\n", "\uFEFFx\r\nY!\r\n", "-Y\r\n+Y!\r\n"},
		{"bom kept by the editor", "\uFEFFx\r\ny\r\n", "y\n", "Y\n",
			"\uFEFFx\nY!\n", "\uFEFFx\r\nY!\r\n", "-Y\r\n+Y!\r\n"},
		{"file bytes sent as they are", "one\r\ntwo\r\n", "two\n", "TWO\n",
			"one\r\nTWO\r\nthree\r\n", "one\r\nTWO\r\nthree\r\n", "+three\r\n"},
		{"lf file untouched", "one\ntwo\n", "two\n", "TWO\n",
			"one\nTWO\r\n", "one\nTWO\r\n", "-TWO\n+TWO\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := reviewtest.NewDesk(t, "", "")
			path := filepath.Join(d.Root, "a.txt")
			reviewtest.WriteFile(t, path, tt.file)
			p := d.MustPropose(t, engine.FormatSearchReplace, "a.txt", reviewtest.SR(tt.search, tt.replace))
			o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.ApprovedEdited, Edited: map[string]string{path: tt.edited}})
			if got := reviewtest.ReadFile(t, path); got != tt.want {
				t.Errorf("approving %q on %q wrote %q; want %q", tt.edited, tt.file, got, tt.want)
			}
			if got := changedLines(o.Files[0].UserEdits); got != tt.userEdit {
				t.Errorf("userEdits changes %q; want only %q (patch %q)", got, tt.userEdit, o.Files[0].UserEdits)
			}
		})
	}
}

// TestApproveEditedUnchangedCRLFIsPlainApproval: opening the editor on a
// CRLF file and approving without a change is no edit at all.
func TestApproveEditedUnchangedCRLFIsPlainApproval(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "one\r\ntwo\r\n")
	p := d.MustPropose(t, engine.FormatSearchReplace, "a.txt", reviewtest.SR("two\n", "TWO\n"))
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.ApprovedEdited, Edited: map[string]string{path: "one\nTWO\n"}})
	if o.Status != decision.Approved || o.Files[0].UserEdits != "" || reviewtest.ReadFile(t, path) != "one\r\nTWO\r\n" {
		t.Errorf("outcome %s, userEdits %q, file %q; want a plain approval of one\\r\\nTWO\\r\\n", o.Status, o.Files[0].UserEdits, reviewtest.ReadFile(t, path))
	}
}

// TestApproveEditedStaleMergeKeepsLineEndings edits the merge of a stale
// CRLF file in the editor ("\n" endings) and approves it over the disk.
func TestApproveEditedStaleMergeKeepsLineEndings(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path, stale := staleProposal(t, d, "one\r\ntwo\r\n", reviewtest.SR("one\n", "ONE\n"), "one\r\ntwo\r\nthree\r\n")
	if m := stale.Files[0].Merge(); m.Text != "ONE\r\ntwo\r\nthree\r\n" {
		t.Fatalf("merge = %q", m.Text)
	}
	o := d.MustDecide(t, stale.ID, review.Decision{Verdict: decision.ApprovedEdited,
		Edited:    map[string]string{path: "ONE\ntwo\nthree\nfour\n"},
		Overwrite: map[string]string{path: stale.Files[0].Disk.SHA256}})
	if got, want := reviewtest.ReadFile(t, path), "ONE\r\ntwo\r\nthree\r\nfour\r\n"; got != want {
		t.Errorf("file = %q; want %q", got, want)
	}
	if got := changedLines(o.Files[0].UserEdits); got != "+four\r\n" {
		t.Errorf("userEdits changes %q; want only the person's +four", got)
	}
	if got := changedLines(o.Files[0].DiskEdits); got != "+three\r\n" {
		t.Errorf("diskEdits changes %q; want only the disk's +three", got)
	}
}

// staleProposal proposes sr for a.txt holding base, then writes disk to it
// as another writer would, and makes the desk find out by approving. It
// returns a.txt's path and the proposal, now stale.
func staleProposal(t *testing.T, d *reviewtest.Desk, base, sr, disk string) (string, review.Proposal) {
	t.Helper()
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, base)
	p := d.MustPropose(t, engine.FormatSearchReplace, "a.txt", sr)
	reviewtest.WriteFile(t, path, disk)
	if _, err := d.Decide(reviewtest.Context(t), p.ID, review.Decision{Verdict: decision.Approved}); err == nil {
		t.Fatal("approving over a changed file succeeded")
	}
	p, _ = d.Get(p.ID)
	if p.State != review.StateStale || !p.Files[0].Stale() {
		t.Fatalf("state = %s; want stale", p.State)
	}
	return path, p
}

// changedLines returns the added and removed lines of a unified patch,
// without its headers.
func changedLines(patch string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(patch, "\n") {
		if (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")) && !strings.HasPrefix(l, "+++ ") && !strings.HasPrefix(l, "--- ") {
			b.WriteString(l)
		}
	}
	return b.String()
}

// TestOutcomeSaysTheFilesLineEndingsWereKept: a write in CRLF to an LF
// file is written in LF; the agent is told so, not that the file has
// exactly what it sent.
func TestOutcomeSaysTheFilesLineEndingsWereKept(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "one\ntwo\n")
	p := d.MustPropose(t, engine.FormatWrite, "a.txt", "one\r\nTWO\r\n")
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved})
	if got := reviewtest.ReadFile(t, path); got != "one\nTWO\n" {
		t.Fatalf("file %q; want the file's LF endings kept", got)
	}
	text := agenttext.Outcome(o)
	if o.Files[0].EditLineEndings != "CRLF" || strings.Contains(text, "exactly the content you proposed") ||
		!strings.Contains(text, "your edit's CRLF line endings were written as LF") {
		t.Errorf("editLineEndings %q, text %q; want CRLF, and the text to say the file's LF endings were kept", o.Files[0].EditLineEndings, text)
	}
	q := d.MustPropose(t, engine.FormatWrite, "a.txt", "one\nTHREE\n")
	if o := d.MustDecide(t, q.ID, review.Decision{Verdict: decision.Approved}); o.Files[0].EditLineEndings != "" || !strings.Contains(agenttext.Outcome(o), "exactly the content you proposed") {
		t.Errorf("same endings: editLineEndings %q, text %q", o.Files[0].EditLineEndings, agenttext.Outcome(o))
	}
}
