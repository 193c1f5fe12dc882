package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/ui/diffview"
)

// centerPane is what shows in the diff's place: the view, a failed edit's
// text (under the picker), or the empty queue's hint.
type centerPane struct {
	view          *diffview.DiffView
	failure       *widget.Label
	failureScroll *container.Scroll
	empty         *widget.Label
	center        *fyne.Container
}

// build makes the pane's parts around the view; picker goes over the
// failed edit's text.
func (c *centerPane) build(picker fyne.CanvasObject) {
	c.failure = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	c.failure.Wrapping = fyne.TextWrapWord
	c.failureScroll = container.NewVScroll(container.NewVBox(picker, c.failure))
	c.empty = widget.NewLabel("No proposals waiting.")
	c.empty.Alignment = fyne.TextAlignCenter
	c.empty.Wrapping = fyne.TextWrapWord
	c.center = container.NewStack(c.view, c.failureScroll, container.NewCenter(c.empty))
}

// showCenter shows o (the view, the failure or the empty hint) alone.
func (c *centerPane) showCenter(o fyne.CanvasObject) {
	c.view.Hide()
	c.failureScroll.Hide()
	c.empty.Hide()
	o.Show()
	vis(c.center.Objects[2], o == c.empty)
}
