package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
)

// TestTreeSaysWhichFilesAreTickedInPart: the changeset tree says, for each
// waiting file the person unticked hunks of, how many stay ticked (Space,
// H), also while another file or proposal is shown (real window: across a
// 6-file patch, every row said "waiting" whatever was unticked).
func TestTreeSaysWhichFilesAreTickedInPart(t *testing.T) {
	h := newHarness(t)
	var patch strings.Builder
	for n := 1; n <= 3; n++ {
		var b strings.Builder
		for i := 1; i <= 30; i++ {
			fmt.Fprintf(&b, "f%d line %d\n", n, i)
		}
		h.write(fmt.Sprintf("f%d.txt", n), b.String())
		fmt.Fprintf(&patch, "*** Update File: f%d.txt\n@@\n-f%d line 3\n+f%d CHANGED A\n@@\n-f%d line 25\n+f%d CHANGED B\n", n, n, n, n, n)
	}
	p := h.propose("codex", "s", engine.FormatPatch, "", "*** Begin Patch\n"+patch.String()+"*** End Patch\n")
	h.win.Select(p.ID)
	h.settle()
	row := func(name string) string {
		for _, l := range h.TreeRows() {
			if strings.Contains(l, name) {
				return l
			}
		}
		t.Fatalf("no tree row for %s in %q", name, h.TreeRows())
		return ""
	}
	h.press(' ') // untick f1's first hunk
	if got := row("f1.txt"); !strings.Contains(got, "waiting · 1 of 2 ticked") {
		t.Errorf("after Space on f1: row %q; want 1 of 2 ticked", got)
	}
	h.press(']')
	h.press('H') // untick every hunk of f2
	if got := row("f2.txt"); !strings.Contains(got, "waiting · none ticked") {
		t.Errorf("after H on f2: row %q; want none ticked", got)
	}
	if got := row("f1.txt"); !strings.Contains(got, "waiting · 1 of 2 ticked") {
		t.Errorf("f1's row while f2 shows: %q; want 1 of 2 ticked still", got)
	}
	if got := row("f3.txt"); strings.Contains(got, "ticked") {
		t.Errorf("f3's row %q; want no ticks note (every hunk ticked)", got)
	}
	h.press('H') // tick f2's hunks again
	if got := row("f2.txt"); strings.Contains(got, "ticked") {
		t.Errorf("after H again on f2: row %q; want no ticks note", got)
	}
}
