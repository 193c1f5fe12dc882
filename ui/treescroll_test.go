package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
)

// TestChangesetTreeFollowsTheFileShown: with more files than the tree
// shows at once, ] to a file below its fold scrolls the tree to that
// file's row, and [ back to the first scrolls back (found in the real
// window: the tree kept showing the first seven files).
func TestChangesetTreeFollowsTheFileShown(t *testing.T) {
	h := newHarness(t)
	var patch strings.Builder
	patch.WriteString("*** Begin Patch\n")
	for i := range 14 {
		name := fmt.Sprintf("f%02d.txt", i)
		h.write(name, "one\n")
		fmt.Fprintf(&patch, "*** Update File: %s\n@@\n-one\n+ONE\n", name)
	}
	patch.WriteString("*** End Patch\n")
	p := h.propose("codex", "s", engine.FormatPatch, "", patch.String())
	h.win.Select(p.ID)
	inSight := func() bool { ok, _ := h.TreeRowInSight(); return ok }
	if !inSight() {
		t.Fatal("the first file's row is not in sight")
	}
	for range 12 {
		h.press(']')
	}
	if h.ShownFile() != "f12.txt" {
		t.Fatalf("12 × ] showed %q; want f12.txt", h.ShownFile())
	}
	if !inSight() {
		_, top := h.TreeRowInSight()
		t.Errorf("after ] to file 13 of 14 its tree row is out of sight (tree offset %v)", top)
	}
	for range 12 {
		h.press('[')
	}
	if !inSight() {
		_, top := h.TreeRowInSight()
		t.Errorf("after [ back to the first file its tree row is out of sight (tree offset %v)", top)
	}
}
