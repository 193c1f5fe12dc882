package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/decision"
)

// typeWord types s as the window gets it from the keyboard: each rune to
// the focused widget, or to the window's keys when nothing is focused.
func (h *harness) typeWord(s string) {
	for _, r := range s {
		h.press(r)
	}
}

// TestSearchWordNeverActsAsReviewKeys: once / has opened the search bar,
// the letters of a search word are text even when the box has lost the
// keyboard in between (a click on the diff, a queue row or a late focus
// change): the "a" of "total" must not approve. Before typing mode, the
// letters of a search word typed after the focus moved went to the
// window's keys.
func TestSearchWordNeverActsAsReviewKeys(t *testing.T) {
	h := newHarness(t)
	h.write("ledger.go", "package l\n\nvar total = 1\n")
	p := h.propose("a", "s", engine.FormatWrite, "ledger.go", "package l\n\nvar total = 2\n")
	h.press('/')
	c := h.win.Win.Canvas()
	box := h.win.View().Search().Box()
	if c.Focused() != box {
		t.Fatalf("/ focused %T; want the search box", c.Focused())
	}
	h.typeWord("to")
	// A click on the queue row takes the keyboard from the box (as the
	// real window's click does: it unfocuses, and the list focuses itself
	// and hands the keyboard back to the window's keys).
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(h.Queue().Object())
	test.TapCanvas(c, pos.Add(fyne.NewPos(40, 50)))
	if c.Focused() == box {
		t.Fatal("the click on the queue left the search box focused; the test needs it to take the keyboard")
	}
	if got := h.Keyboard(); !strings.Contains(got, "typing in the search box") {
		t.Errorf("keyboard line %q; want it to say the keys type into the search box", got)
	}
	h.typeWord("tal")
	h.settle()
	if _, ok := h.desk.Outcome(p.ID); ok || h.Deciding() || h.Decided() {
		t.Fatal("a letter of the search word decided the proposal")
	}
	if got := h.win.View().Search().Query(); got != "total" {
		t.Errorf("search box holds %q; want total", got)
	}
	if c.Focused() != box {
		t.Errorf("focus on %T after typing; want the search box back", c.Focused())
	}
	// Esc closes the box even while it does not have the keyboard; then
	// the keys are review keys again.
	c.Unfocus()
	h.pressKey(fyne.KeyEscape)
	if h.win.View().Search().Open() {
		t.Fatal("Esc left the search bar open")
	}
	h.press('a')
	if o := h.outcome(p.ID); o.Status != decision.Approved {
		t.Errorf("a after the search closed: %s; want approved", o.Status)
	}
}

// TestCommentLettersGoToTheCommentBox: c opens the comment box; letters
// that reach the window while it is open are typed into it, not dropped or
// taken as keys.
func TestCommentLettersGoToTheCommentBox(t *testing.T) {
	h := newHarness(t)
	h.write("a.go", "package a\n\nconst N = 1\n")
	h.propose("agent", "s", engine.FormatWrite, "a.go", "package a\n\nconst N = 2\n")
	cm := h.Comments()
	h.press('c')
	h.typeWord("rename")
	h.win.Win.Canvas().Unfocus()
	h.typeWord(" it")
	if !cm.Open() {
		t.Fatal("the comment dialog closed while typing")
	}
	if cm.Text() != "rename it" {
		t.Fatalf("comment box holds %q; want \"rename it\"", cm.Text())
	}
	h.pressKey(fyne.KeyEscape)
	if cm.Open() || h.Typing() {
		t.Errorf("Esc: dialog open %v, typing %v; want both ended", cm.Open(), h.Typing())
	}
}

// TestRejectBoxSaysItHasTheKeyboard: r opens the reject dialog, whose box
// has the keyboard, and the keyboard line says so (real window: it kept
// saying "Keys: review" while the reason was typed); once the reject is
// done, the review keys have it again.
func TestRejectBoxSaysItHasTheKeyboard(t *testing.T) {
	h := newHarness(t)
	h.write("a.go", "package a\n\nconst N = 1\n")
	p := h.propose("agent", "s", engine.FormatWrite, "a.go", "package a\n\nconst N = 2\n")
	h.press('r')
	if !h.RejectBox().Open() {
		t.Fatal("r opened no reject dialog")
	}
	if got := h.Keyboard(); !strings.Contains(got, "typing in the reject box") {
		t.Errorf("keyboard line %q with the reject dialog open; want it to say the keys type into the reject box", got)
	}
	h.typeWord("bad name")
	h.win.ctrlEnter()
	o := h.outcome(p.ID)
	if o.Status != decision.Rejected || o.Feedback != "bad name" {
		t.Errorf("outcome %s with feedback %q; want rejected with \"bad name\"", o.Status, o.Feedback)
	}
	if !strings.HasPrefix(h.Keyboard(), "Keys: review") {
		t.Errorf("after the reject the keyboard line says %q; want the review keys", h.Keyboard())
	}
}
