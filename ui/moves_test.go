package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
)

// TestHalfAMoveIsNotApprovedSilently (QA in the real window): an agent moves
// f5–f9 to the end of the file; unticking the end that adds them and
// pressing a deleted them without a word. Either the two ends go together
// or a asks first; the functions never vanish on a bare a.
func TestHalfAMoveIsNotApprovedSilently(t *testing.T) {
	h := newHarness(t)
	var fs []string
	for i := range 30 {
		fs = append(fs, fmt.Sprintf("def f%d():\n    return %d\n", i, i))
	}
	old := strings.Join(fs, "")
	moved := strings.Join(append(append(append([]string{}, fs[:5]...), fs[10:]...), fs[5:10]...), "")
	h.write("mv.py", old)
	p := h.propose("claude", "s", engine.FormatWrite, "mv.py", moved)
	h.win.Select(p.ID)
	h.settle()
	if n := len(h.win.View().Hunks()); n != 2 {
		t.Fatalf("%d hunks; want 2, the two ends of the move", n)
	}
	h.press('j') // the end that adds f5–f9
	h.settle()
	h.press(' ')
	h.settle()
	if !strings.Contains(h.Message(), "together") || len(h.win.View().AcceptedHunks()) != 0 {
		t.Errorf("Space on one end of a move: message %q, ticked %v; want both ends unticked together, and said", h.Message(), h.win.View().AcceptedHunks())
	}
	h.press('a')
	h.settle()
	decisionsLand(h)
	if !h.Dialog().Open() && !strings.Contains(h.read("mv.py"), "def f7():") {
		t.Fatalf("one end of a moved block unticked, a: f5–f9 deleted without a question (status %q)", h.Status())
	}
}
