package ui

import (
	"reflect"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/diffdesk/diffdesk/engine"
)

// DoubleClickDiff double-clicks the middle of the right half of the
// review's diff, as the person's mouse does.
func (h *harness) DoubleClickDiff() {
	h.t.Helper()
	v := h.win.View()
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(v).Add(fyne.NewPos(v.Size().Width*3/4, v.Size().Height/2))
	d := fyne.CurrentApp().Driver()
	var hit fyne.DoubleTappable
	var at fyne.Position
	for _, o := range shownObjects(v) { // the deepest object under the pointer that takes it
		dt, ok := o.(fyne.DoubleTappable)
		if !ok {
			continue
		}
		abs := d.AbsolutePositionForObject(o)
		if rel := pos.Subtract(abs); rel.X >= 0 && rel.Y >= 0 && rel.X < o.Size().Width && rel.Y < o.Size().Height {
			hit, at = dt, rel
		}
	}
	if hit == nil {
		h.t.Fatal("nothing under the pointer takes a double click")
	}
	hit.DoubleTapped(&fyne.PointEvent{Position: at, AbsolutePosition: pos})
	h.settle()
}

// CtrlC presses Ctrl+C with no text field holding the keyboard and
// returns what the clipboard holds then.
func (h *harness) CtrlC() string {
	h.t.Helper()
	cb := fyne.CurrentApp().Clipboard()
	s := &fyne.ShortcutCopy{Clipboard: cb}
	c := h.win.Win.Canvas()
	if f, ok := c.Focused().(fyne.Shortcutable); ok {
		f.TypedShortcut(s)
	} else { // the test canvas wraps the canvas holding the window's shortcuts (ctrlEnter)
		reflect.ValueOf(c).Elem().FieldByName("WindowlessCanvas").Interface().(fyne.Shortcutable).TypedShortcut(s)
	}
	h.settle()
	return cb.Content()
}

// TestDoubleClickSelectsAndCtrlCCopies: a double click on the proposal's
// text selects the word under the pointer (read-only: no edit mode, the
// file as proposed), the line says so, and Ctrl+C copies it; the next a
// approves the text as the agent wrote it.
func TestDoubleClickSelectsAndCtrlCCopies(t *testing.T) {
	h := newHarness(t)
	word := strings.Repeat("selectme_", 30)
	var old, prop strings.Builder
	for i := range 40 {
		old.WriteString("x\n")
		if i%2 == 0 {
			prop.WriteString(word + "\n")
		} else {
			prop.WriteString(word + "1\n")
		}
	}
	h.write("w.txt", old.String())
	p := h.propose("claude-code", "s", engine.FormatWrite, "w.txt", prop.String())
	h.win.Select(p.ID)
	h.settle()
	fyne.CurrentApp().Clipboard().SetContent("before")
	h.DoubleClickDiff()
	if h.Diff().Editing() {
		t.Fatal("a double click made the proposal an editor")
	}
	got := h.win.View().Selection().Text() // what the view draws selected (diffview tests where)
	if got != word && got != word+"1" {
		t.Fatalf("selected %q; want the word under the pointer", got)
	}
	if !strings.Contains(h.Message(), "Ctrl+C copies it") {
		t.Errorf("message %q; want it to say the word is selected and Ctrl+C copies it", h.Message())
	}
	if c := h.CtrlC(); c != got {
		t.Errorf("clipboard %q after Ctrl+C; want %q", c, got)
	}
	h.Keys("a")
	if strings.Contains(h.Dialog().Text(), "never on screen") {
		h.Dialog().Click("Approve anyway") // the lines below the screen were not shown
	}
	h.outcome(p.ID)
	if disk := h.read("w.txt"); disk != prop.String() {
		t.Errorf("the file written differs from the proposal:\n%q", disk)
	}
}
