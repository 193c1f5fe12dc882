package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// reveal scrolls the changeset tree so the row of the file shown is in
// sight: with more files than the tree has room for, ] and [ (and j, k
// across files) went on to files below its fold while the tree still showed
// the first ones, and no row said which file the diff is of.
func (t *changesetTree) reveal(cur int) {
	var row fyne.CanvasObject
	y := float32(0)
	for _, o := range t.rows.Objects {
		if r, ok := o.(*treeRow); ok && r.i == cur {
			row = o
			break
		}
		y += o.MinSize().Height + theme.Padding()
	}
	if row == nil {
		return
	}
	view := max(t.scroll.Size().Height, t.scroll.MinSize().Height)
	off := t.scroll.Offset.Y
	switch h := row.MinSize().Height; {
	case y < off:
		off = y
	case y+h > off+view:
		off = y + h - view
	default:
		return
	}
	t.scroll.ScrollToOffset(fyne.NewPos(0, off))
}
