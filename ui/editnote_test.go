package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/engine"
)

func TestEnteringEditModeKeepsTheRowsStill(t *testing.T) {
	h := newHarness(t)
	var old, proposed strings.Builder
	for k := range 200 {
		old.WriteString("line\n")
		if k == 2 {
			proposed.WriteString("changed\n")
		} else {
			proposed.WriteString("line\n")
		}
	}
	h.write("a.txt", old.String())
	h.propose("claude-code", "s", engine.FormatWrite, "a.txt", proposed.String())
	h.settle()
	v := h.win.View()
	var list *widget.List
	var find func(o fyne.CanvasObject)
	find = func(o fyne.CanvasObject) {
		switch o := o.(type) {
		case *widget.List:
			list = o
		case *container.ThemeOverride:
			find(o.Content)
		case fyne.Widget:
			for _, k := range test.WidgetRenderer(o).Objects() {
				find(k)
			}
		}
	}
	find(v)
	if list == nil {
		t.Fatal("no list of rows in the view")
	}
	// The screen y of the rows' content: where row 0 is drawn.
	rowsY := func() float32 {
		h.win.Win.Content().Refresh()
		return fyne.CurrentApp().Driver().AbsolutePositionForObject(list).Y - list.GetScrollOffset()
	}
	before := rowsY()
	h.press('e')
	h.settle()
	if v.Editor() == nil {
		t.Fatal("ToggleEdit did not make the view editable")
	}
	if after := rowsY(); after != before {
		t.Errorf("entering edit mode moved the rows from y %v to %v on screen; want them still under the pointer", before, after)
	}
}
