package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2/theme"

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
	d := h.win.detail
	tr := d.tree
	inSight := func() bool {
		h.win.Win.Content().Refresh()
		y := float32(0)
		for _, o := range tr.rows.Objects {
			if r, ok := o.(*treeRow); ok && r.i == tr.current() {
				top, bottom := tr.scroll.Offset.Y, tr.scroll.Offset.Y+tr.scroll.Size().Height
				return y >= top && y+o.MinSize().Height <= bottom+1
			}
			y += o.MinSize().Height + theme.Padding()
		}
		return false
	}
	if !inSight() {
		t.Fatal("the first file's row is not in sight")
	}
	for range 12 {
		h.press(']')
	}
	if d.file != 12 {
		t.Fatalf("12 × ] showed file %d; want 12", d.file)
	}
	if !inSight() {
		t.Errorf("after ] to file 13 of 14 its tree row is out of sight (tree offset %v, height %v)", tr.scroll.Offset.Y, tr.scroll.Size().Height)
	}
	for range 12 {
		h.press('[')
	}
	if !inSight() {
		t.Errorf("after [ back to the first file its tree row is out of sight (tree offset %v)", tr.scroll.Offset.Y)
	}
}
