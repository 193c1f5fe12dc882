package ui

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
)

// The person's own lines are purple wherever the editor shows them (QA
// finding 14): after x (the external editor) and after their edit was
// merged onto a save on disk, the editor is made again for text they
// changed, and took it all for the agent's (green); the caret went to
// line 1.

// TestExternalEditorsLinesAreThePersons: a line the external editor added
// is the person's own in the window's editor, the agent's line is not.
func TestExternalEditorsLinesAreThePersons(t *testing.T) {
	h := newHarness(t)
	h.write("c.go", "package c\n\nfunc C() {}\n")
	p := h.propose("claude-code", "s", engine.FormatWrite, "c.go", "package c\n\nfunc C() int { return 1 }\n")
	h.win.Select(p.ID)
	h.settle()
	h.SetEditor([]string{"sh", "-c", `printf '// added in the external editor\n' >> "$1"`, "editor"}) // the file comes last
	h.Keys("x")
	h.until("the external editor closed", func() bool { return strings.Contains(h.Status(), "external editor closed") })
	h.settle()
	ed := h.win.View().Editor()
	if ed == nil {
		t.Fatal("after x the view is no editor")
	}
	if got := ed.Text(); !strings.HasSuffix(got, "// added in the external editor\n") {
		t.Fatalf("the editor holds %q; want the external editor's line", got)
	}
	if !ed.Own(3) {
		t.Error("the line the external editor added is drawn as the agent's; want the person's (purple)")
	}
	if ed.Own(2) {
		t.Error("the agent's changed line is drawn as the person's")
	}
}

// TestOwnLinesAndCaretSurviveASaveOnDisk: the person types on line 5 in
// edit mode; a save on disk merges their edit onto it; their line stays
// theirs and the caret stays on it.
func TestOwnLinesAndCaretSurviveASaveOnDisk(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\ntwo\nthree\nfour\nfive\n")
	p := h.propose("claude-code", "s", engine.FormatWrite, "a.txt", "one\ntwo\nthree\nfour\nFIVE\n")
	h.win.Select(p.ID)
	h.settle()
	h.Keys("e")
	ed := h.win.View().Editor()
	if ed == nil {
		t.Fatal("e: no editor")
	}
	ed.SetCursor(3, 4)
	h.typed(ed, " mine")
	h.settle()
	h.write("a.txt", "ONE by hand\ntwo\nthree\nfour\nfive\n")
	h.until("the save reaches the proposal", func() bool {
		pp, _ := h.desk.Get(p.ID)
		return pp.State == review.StateStale && strings.Contains(string(pp.Files[0].Disk.Content), "by hand")
	})
	h.settle()
	ed = h.win.View().Editor()
	if ed == nil || !strings.Contains(ed.Text(), "four mine\n") {
		t.Fatalf("after the save the editor is %v; want the person's edit merged onto it", ed)
	}
	if !ed.Own(3) {
		t.Error("after the save the person's line 4 is drawn as the agent's; want purple")
	}
	if ed.Own(4) || ed.Own(0) {
		t.Errorf("the agent's line 5 (own %v) or the disk's line 1 (own %v) is drawn as the person's", ed.Own(4), ed.Own(0))
	}
	if line, col := ed.Cursor(); line != 3 || col != 9 {
		t.Errorf("after the save the caret is at %d:%d; want 3:9, after what the person typed", line, col)
	}
}
