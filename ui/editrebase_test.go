package ui

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
)

// TestASaveWhileEditingIsNotReverted: the person edits a proposal; someone
// saves the file meanwhile; Approve edited wrote the person's text, made
// against the old disk, over the save (QA in the real window: the other
// person's change reverted, and nobody told). The edit is merged onto the
// new disk in the editor, the window says so, and approving writes both
// changes. (An approval that comes before the window has seen the save is
// refused by the desk as stale: the disk hash sent is the one shown.)
func TestASaveWhileEditingIsNotReverted(t *testing.T) {
	for _, staleFirst := range []bool{false, true} {
		h := newHarness(t)
		h.write("a.txt", "one\ntwo\nthree\nfour\nfive\n")
		p := h.propose("claude-code", "s", engine.FormatWrite, "a.txt", "one\ntwo\nthree\nfour\nFIVE\n")
		h.win.Select(p.ID)
		h.settle()
		if staleFirst { // a save before editing: the edit starts from the merge
			h.write("a.txt", "ONE\ntwo\nthree\nfour\nfive\n")
			h.until("a.txt turns stale", func() bool { pp, _ := h.desk.Get(p.ID); return pp.State == review.StateStale })
			h.settle()
		}
		h.press('e')
		h.settle()
		ed := h.win.View().Editor()
		if ed == nil {
			t.Fatal("e: no editor")
		}
		h.typed(ed, "x") // the person's own change, at the current change's line
		h.settle()
		h.write("a.txt", strings.Replace(h.read("a.txt"), "three", "THREE by hand", 1))
		h.until("the save reaches the proposal", func() bool {
			pp, _ := h.desk.Get(p.ID)
			return pp.State == review.StateStale && strings.Contains(string(pp.Files[0].Disk.Content), "THREE by hand")
		})
		h.settle()
		if st := h.Status(); !strings.Contains(st, "Saved on disk while you edited") {
			t.Errorf("stale first %v: status %q; want it to say the save was merged onto and nothing written", staleFirst, st)
		}
		if txt := h.win.View().EditedText(); !strings.Contains(txt, "THREE by hand") || !strings.Contains(txt, "xFIVE") {
			t.Errorf("stale first %v: the editor holds %q; want the person's edit merged onto the save", staleFirst, txt)
		}
		h.ctrlEnter()
		h.ApproveAnywayIfAsked()
		o := h.outcome(p.ID)
		got := h.read("a.txt")
		if !o.Status.Wrote() || !strings.Contains(got, "THREE by hand") || !strings.Contains(got, "xFIVE") {
			t.Errorf("stale first %v: %s, a.txt = %q; want the save and the person's edit both", staleFirst, o.Status, got)
		}
	}
}
