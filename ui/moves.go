package ui

import (
	"strconv"
	"strings"
)

// tickMovePartners ticks or unticks, with hunk id, the hunks holding the
// other end of a block moved out of or into it, and says so: one end of a
// move alone deletes the block, or copies it, and the person meant neither
// (QA in the real window: unticking where five functions arrived deleted
// them on a bare a, told to the agent as "1 of 2 hunks").
func (d *detail) tickMovePartners(id string, ok bool) {
	var moved []string
	for _, p := range d.view.MovePartners(id) {
		d.view.SetHunkAccepted(p, ok)
		moved = append(moved, "hunk "+itoaHunk(d, p))
	}
	if len(moved) == 0 {
		return
	}
	verb := "unticked"
	if ok {
		verb = "ticked"
	}
	d.say("A block moved between this hunk and " + strings.Join(moved, ", ") + ": " + verb + " together, as one end alone would delete the block or copy it.")
}

// itoaHunk is hunk id's 1-based number in the shown file.
func itoaHunk(d *detail, id string) string {
	for i, h := range d.view.Hunks() {
		if h.ID == id {
			return strconv.Itoa(i + 1)
		}
	}
	return "?"
}
