package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/diffdesk/diffdesk/engine"
)

// TestEscEscLeavesEditMode: in edit mode the first Esc leaves the editor
// and the second cancels the edit; the View pop-up, never opened, takes
// neither (a new Fyne pop-up reports itself visible until hidden).
func TestEscEscLeavesEditMode(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\n")
	h.propose("agent", "s", engine.FormatWrite, "a.txt", "ONE\n")
	if h.Bar().ViewOptionsOpen() {
		t.Errorf("the View pop-up reports itself visible before it was ever opened")
	}
	h.press('e')
	if !h.Diff().Editing() {
		t.Fatalf("e: not in edit mode")
	}
	h.pressKey(fyne.KeyEscape) // out of the editor
	h.pressKey(fyne.KeyEscape) // out of edit mode
	if h.Diff().Editing() {
		t.Errorf("Esc Esc: still in edit mode; want it cancelled")
	}
}

// TestKeyboardLineWhenTheEditorLetsGo: the real driver calls the editor's
// FocusLost while the canvas still names the editor focused; the keyboard
// line must then say the review keys, not the editor.
func TestKeyboardLineWhenTheEditorLetsGo(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\n")
	h.propose("agent", "s", engine.FormatWrite, "a.txt", "ONE\n")
	h.press('e')
	if h.win.Win.Canvas().Focused() != fyne.Focusable(h.win.View().Editor()) {
		t.Fatalf("e: focus %T; want the editor", h.win.Win.Canvas().Focused())
	}
	h.win.View().Editor().FocusLost() // as the driver does, the canvas still naming the editor
	if !strings.HasPrefix(h.Keyboard(), "Keys: review") {
		t.Errorf("keyboard line %q after the editor lost the focus; want the review keys", h.Keyboard())
	}
}
