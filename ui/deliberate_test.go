package ui

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/decision"
)

// The window writes only what the person meant (issue 25, points 2–4).

// TestDoubleClickNeverEdits: a double click on the proposal's text does not
// make it an editor, so the next a approves instead of typing an "a" into
// the file; it says that e edits, and e then puts the cursor where the
// double click was, that line staying under the pointer.
func TestDoubleClickNeverEdits(t *testing.T) {
	h := newHarness(t)
	old, prop := bigPair()
	h.write("big.txt", old)
	p := h.propose("claude-code", "s", engine.FormatWrite, "big.txt", prop)
	h.win.Select(p.ID)
	h.settle()
	v := h.win.View()
	yBefore, on := v.LineY(102)
	if !on {
		t.Fatal("line 103 is not on screen")
	}
	v.OnEditAt(102, 3) // what a double tap on line 103, byte 3, reports (diffview's TestDoubleTapOnTheProposalAsksToEditThere)
	h.settle()
	if h.Diff().Editing() {
		t.Fatal("a double click made the proposal an editor")
	}
	if !strings.Contains(h.Message(), "e (or Edit)") {
		t.Errorf("after a double click the message line says %q; want how to edit", h.Message())
	}
	h.Keys("e")
	ed := v.Editor()
	if ed == nil {
		t.Fatal("e did not start edit mode")
	}
	if line, col := ed.Cursor(); line != 102 || col != 3 {
		t.Errorf("cursor at %d:%d; want 102:3, where the double click was", line, col)
	}
	if y, on := v.LineY(102); !on || y != yBefore {
		t.Errorf("line 103 is at y %v (on screen %v) in edit mode; want %v", y, on, yBefore)
	}
}

// TestAStrayKeystrokeIsShownBeforeItIsWritten: an edit of one character
// shows the person's own change (was / now) and writes nothing until they
// say so; Esc goes back to the editor, Enter writes it.
func TestAStrayKeystrokeIsShownBeforeItIsWritten(t *testing.T) {
	h := newHarness(t)
	base := "package main\n\nfunc main() {}\n"
	h.write("main.go", base)
	prop := "package main\n\nfunc main() { println() }\n"
	p := h.propose("claude-code", "s", engine.FormatWrite, "main.go", prop)
	h.win.Select(p.ID)
	h.settle()
	h.Keys("e")
	ed := h.win.View().Editor()
	if ed == nil {
		t.Fatal("e did not start the editor")
	}
	ed.SetCursor(0, 4)
	h.typed(ed, "a") // "packaage main"
	h.CtrlEnter()
	got := h.Dialog().Text()
	for _, want := range []string{"You changed 1 character", "main.go, line 1", "was: package main", "now: packaage main"} {
		if !strings.Contains(got, want) {
			t.Errorf("the question says:\n%s\nwant %q", got, want)
		}
	}
	if h.read("main.go") != base {
		t.Fatal("written before the person saw their own change")
	}
	h.Esc()
	if h.Dialog().Open() || !h.Diff().Editing() || h.read("main.go") != base {
		t.Fatalf("after Esc: dialog open %v, editing %v; want back in the editor, nothing written", h.Dialog().Open(), h.Diff().Editing())
	}
	h.CtrlEnter()
	h.Enter()
	if o := h.outcome(p.ID); o.Status != decision.ApprovedEdited || h.read("main.go") != "packaage main\n\nfunc main() { println() }\n" {
		t.Fatalf("after Write it: %s, main.go %q", o.Status, h.read("main.go"))
	}
}

// TestApproveEditedAsksAboutTheAgentsHunksNeverOnScreen: approving an
// edit asks the never-on-screen question for the agent's hunks it writes
// as the agent wrote them, as a does; the journal says which were seen.
func TestApproveEditedAsksAboutTheAgentsHunksNeverOnScreen(t *testing.T) {
	h := newHarness(t)
	_, prop := longProposal(h)
	p := h.propose("claude", "s", engine.FormatWrite, "long.txt", prop)
	h.win.Select(p.ID)
	h.settle()
	h.Keys("e")
	ed := h.win.View().Editor()
	if ed == nil {
		t.Fatal("e did not start the editor")
	}
	ed.SetCursor(10, 0)
	h.typed(ed, "my ")
	h.CtrlEnter()
	got := h.Dialog().Text()
	if !strings.Contains(got, "hunks were never on screen (long.txt)") {
		t.Fatalf("approve edited with most of the agent's hunks never shown asks:\n%s\nwant the never-on-screen question", got)
	}
	if h.read("long.txt") == prop {
		t.Fatal("written before the question was answered")
	}
	h.Dialog().Click("Approve anyway")
	h.Enter() // the person's own three characters, shown: write them
	if o := h.outcome(p.ID); o.Status != decision.ApprovedEdited {
		t.Fatalf("outcome %s; want approved-edited", o.Status)
	}
	det := h.historyDetail(p.ID)
	if s, n := decision.SeenCount(det.Seen); n == 0 || s == n {
		t.Errorf("journal: %d of %d hunks seen; want some never on screen", s, n)
	}
}

// TestApproveWithNothingTickedIsARejection: a with every hunk unticked
// writes nothing, so it asks as a rejection; confirmed, the agent is told
// "rejected", never "approved" or "partial".
func TestApproveWithNothingTickedIsARejection(t *testing.T) {
	h := newHarness(t)
	base := letters40()
	h.write("list.txt", base)
	prop := strings.Replace(strings.Replace(base, "line b\n", "line B\n", 1), "line x\n", "line X\n", 1)
	p := h.propose("claude-code", "s", engine.FormatWrite, "list.txt", prop)
	h.win.Select(p.ID)
	h.settle()
	h.Keys("H") // untick every hunk of the file
	h.Keys("a")
	got := h.Dialog().Text()
	if !strings.Contains(got, "No hunk is ticked, so nothing would be written") {
		t.Fatalf("a with nothing ticked opens:\n%s\nwant the question as a rejection", got)
	}
	h.CtrlEnter() // reject
	o := h.outcome(p.ID)
	if o.Status != decision.Rejected || h.read("list.txt") != base {
		t.Fatalf("outcome %s; want rejected, nothing written", o.Status)
	}
	if s := h.Status(); strings.Contains(s, "ticked were") || !strings.HasPrefix(s, "Rejected") {
		t.Errorf("status line %q; want it said as a rejection", s)
	}
}
