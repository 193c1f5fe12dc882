package ui

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
)

// TestTicksSurviveAVisitToAnotherProposal: hunks unticked on one proposal
// stay unticked after the person looks at another proposal and comes
// back; a then writes only the ticked ones (they all came back ticked, and
// a wrote the hunk the person had unticked).
func TestTicksSurviveAVisitToAnotherProposal(t *testing.T) {
	h := newHarness(t)
	base := letters40()
	h.write("list.txt", base)
	h.write("other.txt", "one\n")
	p := h.propose("claude-code", "s1", engine.FormatWrite, "list.txt", strings.Replace(strings.Replace(base, "line b\n", "line B\n", 1), "line x\n", "line X\n", 1))
	q := h.propose("gemini", "s2", engine.FormatWrite, "other.txt", "ONE\n")
	h.win.Select(p.ID)
	v := h.win.View()
	v.ToggleHunk(1) // untick x → X
	h.win.Select(q.ID)
	h.win.Select(p.ID)
	if n := len(v.AcceptedHunks()); n != 1 {
		t.Fatalf("back on the proposal: %d of 2 hunks ticked; want the 1 left ticked", n)
	}
	h.press('a')
	h.ApproveAnywayIfAsked()
	if o := h.outcome(p.ID); o.Status != decision.Partial {
		t.Fatalf("a: %s; want partial", o.Status)
	}
	if got := h.read("list.txt"); strings.Contains(got, "line X") || !strings.Contains(got, "line B") {
		t.Errorf("list.txt = %q; want B without X", got)
	}
}

// TestEditSurvivesAVisitToAnotherProposal: the person's edit of one
// proposal is still there, in edit mode, after a look at another.
func TestEditSurvivesAVisitToAnotherProposal(t *testing.T) {
	h := newHarness(t)
	base := letters40()
	h.write("list.txt", base)
	h.write("other.txt", "one\n")
	p := h.propose("claude-code", "s1", engine.FormatWrite, "list.txt", strings.Replace(base, "line b\n", "line B\n", 1))
	q := h.propose("gemini", "s2", engine.FormatWrite, "other.txt", "ONE\n")
	h.win.Select(p.ID)
	h.press('e')
	ed := h.win.View().Editor()
	ed.SetCursor(0, len("line a"))
	h.typed(ed, " mine")
	h.win.Select(q.ID)
	h.win.Select(p.ID)
	if !h.Diff().Editing() || h.win.View().Editor() == nil || !strings.HasPrefix(h.win.View().Editor().Text(), "line a mine\n") {
		t.Fatalf("back on the proposal: editing %v; want edit mode with the person's text kept", h.Diff().Editing())
	}
	if f := h.win.Win.Canvas().Focused(); f != nil {
		t.Errorf("the keyboard is with %T after coming back; want the window's keys (n and p go on)", f)
	}
}

// TestApproveChangesetHonoursTicksOfAnotherProposal: A, which approves the
// changeset's proposals as proposed, refuses while one of them not shown
// has hunks the person unticked, and writes nothing.
func TestApproveChangesetHonoursTicksOfAnotherProposal(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "a\n")
	h.write("b.txt", "b\n")
	p := h.propose("claude-code", "s", engine.FormatWrite, "a.txt", "A\n")
	q := h.propose("claude-code", "s", engine.FormatWrite, "b.txt", "B\n")
	h.win.Select(p.ID)
	h.win.View().ToggleHunk(0) // a.txt: its one hunk unticked
	h.win.Select(q.ID)
	h.press('A')
	if h.ChangesetQuestion() != "" {
		t.Fatal("A asks to approve the changeset as proposed while a.txt has a hunk unticked")
	}
	if !strings.Contains(h.Message(), "a.txt") {
		t.Errorf("message %q; want it to name a.txt", h.Message())
	}
	h.settle()
	if h.read("a.txt") != "a\n" || h.read("b.txt") != "b\n" {
		t.Errorf("files written: a.txt %q, b.txt %q", h.read("a.txt"), h.read("b.txt"))
	}
}

// TestEditDroppedWhenTheFileChangedMeanwhile: an edit kept while another
// proposal was shown is not brought back onto a proposal that turned stale
// meanwhile (it was made on what the disk no longer holds); the person is
// told.
func TestEditDroppedWhenTheFileChangedMeanwhile(t *testing.T) {
	h := newHarness(t)
	base := letters40()
	h.write("list.txt", base)
	h.write("other.txt", "one\n")
	p := h.propose("claude-code", "s1", engine.FormatSearchReplace, "list.txt", srBlock("line b\n", "line B\n"))
	q := h.propose("gemini", "s2", engine.FormatWrite, "other.txt", "ONE\n")
	h.win.Select(p.ID)
	h.press('e')
	ed := h.win.View().Editor()
	ed.SetCursor(0, len("line a"))
	h.typed(ed, " mine")
	h.win.Select(q.ID)
	h.write("list.txt", strings.Replace(base, "line z\n", "line Z by hand\n", 1))
	h.until("the proposal turns stale", func() bool { pp, _ := h.desk.Get(p.ID); return pp.State == review.StateStale })
	h.settle()
	h.win.Select(p.ID)
	if h.Diff().Editing() || h.EditedFiles() > 0 {
		t.Errorf("back on the stale proposal: editing %v, %d edited files; want the edit dropped", h.Diff().Editing(), h.EditedFiles())
	}
	if !strings.Contains(h.Message(), "dropped") {
		t.Errorf("message %q; want it to say the edit was dropped", h.Message())
	}
}

// TestTrivialApprovalSurvivesAVisitToAnotherProposal: the trivial hunks t
// approved stay approved (labels done, the counter offers t no more) after
// a look at another proposal (real window: back on it, the labels were
// blue again and the counter said "1 trivial (t approves)").
func TestTrivialApprovalSurvivesAVisitToAnotherProposal(t *testing.T) {
	h := newHarness(t)
	h.write("app.go", trivialBase)
	h.write("other.txt", "one\n")
	proposed := strings.Replace(trivialBase, "\ty := 2", "        y := 2", 1)
	proposed = strings.Replace(proposed, "z := 3", "z := 4", 1)
	p := h.propose("claude", "s", engine.FormatWrite, "app.go", proposed)
	q := h.propose("gemini", "s2", engine.FormatWrite, "other.txt", "ONE\n")
	h.win.Select(p.ID)
	h.settle()
	h.press('t')
	h.settle()
	if strings.Contains(h.Diff().Counter(), "trivial") {
		t.Fatalf("after t the counter still offers t: %q", h.Diff().Counter())
	}
	h.win.Select(q.ID)
	h.settle()
	h.win.Select(p.ID)
	h.settle()
	hs := h.win.View().Hunks()
	if len(hs) != 2 {
		t.Fatalf("%d hunks; want 2", len(hs))
	}
	if n := h.win.View().Marks().Note(hs[0].ID); n.Text != "whitespace only" || !n.Done {
		t.Errorf("back on the proposal: label %+v; want whitespace only, approved", n)
	}
	if strings.Contains(h.Diff().Counter(), "trivial") {
		t.Errorf("back on the proposal the counter offers t again: %q", h.Diff().Counter())
	}
}
