package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/engine"
)

// DiffView is a side-by-side diff of one file: line numbers, syntax
// colours, changed-line backgrounds with word-level emphasis, aligned filler
// rows, a hunk gutter with accept/reject toggles and an overview strip. Rows
// are virtualised: only the visible ones exist as canvas objects, so a
// 100k-line file costs what a 100-line one does on screen.
//
// The view shows one of three things: a complete proposal (SetTexts),
// a proposal still streaming in (SetStream) or a stale file's base, disk and
// proposed texts (SetStale). With SetEditable the right side becomes a code
// editor whose diff against the original recomputes as the person types.
type DiffView struct {
	widget.BaseWidget

	// OnHunkToggled is called after the person accepted or rejected a hunk
	// in the gutter (not for SetHunkAccepted).
	OnHunkToggled func(id string, accepted bool)
	// OnEdited is called after the person changed the editable right side
	// and the diff against the original was recomputed.
	OnEdited func()
	// OnFollowChanged is called when following the growing edge of a stream
	// turns on or off, by SetFollow or by the person scrolling away.
	OnFollowChanged func(on bool)
}

// NewDiffView returns an empty diff view.
func NewDiffView() *DiffView {
	v := &DiffView{}
	v.ExtendBaseWidget(v)
	return v
}

// CreateRenderer is part of fyne.Widget.
func (v *DiffView) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(widget.NewLabel(""))
}

// SetTexts shows a complete proposal: the diff from old to new of the file
// at path (its extension chooses the syntax colours). Every hunk starts
// accepted.
func (v *DiffView) SetTexts(path, old, new string) {}

// SetStream shows a proposal that is still streaming in. Successive calls
// for the same path and old update the view incrementally; the growing
// region (p.Growing) is marked and followed while Following is true.
func (v *DiffView) SetStream(path, old string, p engine.Preview) {}

// SetStale shows a stale file: the base the agent edited, the file as it is
// on disk now and the proposal.
func (v *DiffView) SetStale(base, disk, proposed string) {}

// NextHunk scrolls to the next hunk after the one at the top of the view.
func (v *DiffView) NextHunk() {}

// PrevHunk scrolls to the hunk before the one at the top of the view.
func (v *DiffView) PrevHunk() {}

// Hunks returns the hunks of the diff shown, in order.
func (v *DiffView) Hunks() []engine.Hunk { return nil }

// SetHunkAccepted accepts or rejects the hunk with the given ID.
func (v *DiffView) SetHunkAccepted(id string, ok bool) {}

// AcceptedHunks returns the IDs of the accepted hunks, in order.
func (v *DiffView) AcceptedHunks() []string { return nil }

// SetEditable makes the right side a code editor (on) or read-only (off).
func (v *DiffView) SetEditable(on bool) {}

// EditedText returns the right side's text while editable.
func (v *DiffView) EditedText() string { return "" }

// SetFollow turns following the growing edge of a stream on or off.
func (v *DiffView) SetFollow(on bool) {}

// Following reports whether the view follows the growing edge of a stream.
func (v *DiffView) Following() bool { return true }

// SetWrap wraps long lines (on) or scrolls them horizontally (off).
func (v *DiffView) SetWrap(on bool) {}

// SetDark chooses the syntax colours for a dark (or light) theme.
func (v *DiffView) SetDark(dark bool) {}
