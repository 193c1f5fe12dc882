package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/ui/present"
)

// press types r as the desktop driver delivers it: to the widget with the
// keyboard, else to the window (test.TypeOnCanvas always does the latter).
func (h *harness) press(r rune) {
	c := h.win.Win.Canvas()
	if f := c.Focused(); f != nil {
		f.TypedRune(r)
		return
	}
	c.OnTypedRune()(r)
}

// pressKey is press for a key without a character (Esc, Tab).
func (h *harness) pressKey(name fyne.KeyName) {
	c := h.win.Win.Canvas()
	f := c.Focused()
	if name == fyne.KeyTab { // the driver moves the focus unless the widget takes tabs
		if t, ok := f.(fyne.Tabbable); !ok || !t.AcceptsTab() {
			c.FocusNext()
			return
		}
	}
	if f != nil {
		f.TypedKey(&fyne.KeyEvent{Name: name})
		return
	}
	c.OnTypedKey()(&fyne.KeyEvent{Name: name})
}

// ctrlEnter presses Ctrl+Enter as the driver delivers a shortcut: to the
// widget with the keyboard if it takes shortcuts, else to the window.
func (h *harness) ctrlEnter() {
	s := &desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierShortcutDefault}
	c := h.win.Win.Canvas()
	if f, ok := c.Focused().(fyne.Shortcutable); ok {
		f.TypedShortcut(s)
		return
	}
	// The test canvas wraps the canvas holding the window's shortcuts.
	inner := reflect.ValueOf(c).Elem().FieldByName("WindowlessCanvas").Interface()
	inner.(fyne.Shortcutable).TypedShortcut(s)
}

// tappables are the clickable parts shown inside o, in the order drawn:
// the window's own (test.LaidOutObjects would make new ones, in no
// window).
func tappables(o fyne.CanvasObject) []fyne.Tappable {
	var out []fyne.Tappable
	for _, x := range shownObjects(o) {
		if t, ok := x.(fyne.Tappable); ok && x != o {
			out = append(out, t)
		}
	}
	return out
}

// twoHunks is a 300-line file with changes at lines 21 and 251.
func twoHunks() (base, proposed string) {
	var b strings.Builder
	for i := range 300 {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	base = b.String()
	proposed = strings.Replace(strings.Replace(base, "line 20\n", "line twenty\n", 1), "line 250\n", "line two hundred fifty\n", 1)
	return base, proposed
}

// TestReviewKeysWorkAfterClickingAnyControl: whatever control was clicked
// last, the keyboard is back with the window and ? opens the keys. (A
// proposal's own choice of files shows only when the desk no longer holds
// its changeset: TestFileChoiceHandsTheKeysBack.)
func TestReviewKeysWorkAfterClickingAnyControl(t *testing.T) {
	h := newHistoryHarness(t).harness // with the History tab
	h.write("a.txt", "one\n")
	h.write("b.txt", "two\n")
	patch := "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** Update File: b.txt\n@@\n-two\n+TWO\n*** End Patch\n"
	stale := h.staleProposal("c.go", "a\nb\nc\nd\ne\nf\n", srBlock("e\n", "E\n"), "A\nb\nc\nd\ne\nf\n")
	multi := h.propose("codex", "s", engine.FormatPatch, "", patch)
	for _, tt := range []struct {
		name  string
		show  string // proposal shown first
		click func() fyne.Tappable
	}{
		{"the Wrap box", multi.ID, h.Bar().WrapBox},
		{"a stale-view choice", stale.ID, func() fyne.Tappable { return h.Diff().ViewControl(1) }},
		{"the stale view already chosen", stale.ID, func() fyne.Tappable { return h.Diff().ViewControl(0) }},
		{"a queue row", stale.ID, func() fyne.Tappable { return h.Queue().RowControl(multi.ID) }},
		{"the selected queue row", multi.ID, func() fyne.Tappable { return h.Queue().RowControl(multi.ID) }},
		{"a button", multi.ID, h.Bar().PartialButton},
		{"the History tab", multi.ID, func() fyne.Tappable { return h.TabControl(1) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h.win.Select(tt.show)
			h.win.ShowReview()
			h.CancelEdit()
			h.Tap(tt.click())
			if f := h.Focused(); f != nil {
				t.Errorf("after a click on %s the keyboard is with %T; want the window", tt.name, f)
			}
			h.CancelEdit()
			h.press('?')
			if !h.KeysShown() {
				t.Fatalf("? after a click on %s opened no keys overlay", tt.name)
			}
			h.pressKey(fyne.KeyEscape)
			if h.KeysShown() || h.Modal() {
				t.Errorf("Esc left the keys overlay open")
			}
		})
	}
	// The choice clicked again is still the choice.
	h.win.Select(stale.ID)
	h.Tap(h.Diff().ViewControl(0))
	if got := h.Diff().Showing(); got != present.StaleMerged {
		t.Errorf("the stale view chosen again is %q; want %q", got, present.StaleMerged)
	}
}

// TestKeyboardIndicatorSaysWhoHasTheKeys: the line under the buttons says
// whether the review keys or the editor have the keyboard.
func TestKeyboardIndicatorSaysWhoHasTheKeys(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\n")
	h.propose("agent", "s", engine.FormatWrite, "a.txt", "ONE\n")
	h.KeysBack()
	if !strings.Contains(h.Keyboard(), "review") {
		t.Errorf("keyboard line %q; want the review keys", h.Keyboard())
	}
	h.press('e')
	if !strings.Contains(h.Keyboard(), "editor") {
		t.Errorf("in edit mode the keyboard line says %q; want the editor", h.Keyboard())
	}
	h.pressKey(fyne.KeyEscape) // leaves the editor, keeps edit mode
	// (The editor's line, "typing in the editor (Esc: back to the review
	// keys)", holds "review" too: the line must start with the review keys.)
	if !h.EditMode() || !strings.HasPrefix(h.Keyboard(), "Keys: review") {
		t.Errorf("after Esc: editing %v, keyboard line %q; want edit mode kept and the review keys", h.EditMode(), h.Keyboard())
	}
}

// TestRejectDialogFromTheKeyboard: Esc closes the reject dialog, Tab moves
// the focus instead of typing a tab, the reason wraps, and Ctrl+Enter
// rejects; no review key acts while the dialog is open (a letter that
// reaches the window is typed into the reason box).
func TestRejectDialogFromTheKeyboard(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\n")
	p := h.propose("agent", "s", engine.FormatWrite, "a.txt", "ONE\n")
	reject := h.RejectBox()
	h.press('r')
	if !reject.Open() || !reject.Focused() {
		t.Fatalf("r: dialog %v, focus %T; want the dialog with the reason box focused", reject.Open(), h.Focused())
	}
	if !reject.Wraps() {
		t.Error("the reason box does not wrap; want it to wrap by word")
	}
	h.pressKey(fyne.KeyEscape)
	if reject.Open() || h.Modal() {
		t.Fatal("Esc left the reject dialog open")
	}
	h.press('r')
	for _, r := range "too broad" {
		h.press(r)
	}
	h.pressKey(fyne.KeyTab)
	if reject.Reason() != "too broad" || reject.Focused() {
		t.Errorf("Tab: reason %q, focus still in the reason box %v; want the focus moved and no tab typed", reject.Reason(), reject.Focused())
	}
	h.win.Win.Canvas().Unfocus() // nothing in the dialog has the keyboard: keys reach the window
	h.press('a')                 // and are typed into the reason box, never a review key
	h.settle()
	if h.Deciding() || h.read("a.txt") != "one\n" {
		t.Fatalf("a under the reject dialog approved: %q", h.read("a.txt"))
	}
	if reject.Reason() != "too broada" {
		t.Errorf("a typed with nothing focused: reason %q; want it typed into the reason box", reject.Reason())
	}
	h.ctrlEnter()
	if o := h.outcome(p.ID); o.Status != decision.Rejected || o.Feedback != "too broada" {
		t.Errorf("Ctrl+Enter in the reject dialog: %s %q; want rejected with the reason", o.Status, o.Feedback)
	}
}

// TestCtrlEnterInTheReasonBoxRejects: Ctrl+Enter typed in the reason box
// rejects with the reason, and Enter there starts a new line.
func TestCtrlEnterInTheReasonBoxRejects(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\n")
	p := h.propose("agent", "s", engine.FormatWrite, "a.txt", "ONE\n")
	h.press('r')
	for _, r := range "no" {
		h.press(r)
	}
	h.pressKey(fyne.KeyReturn)
	h.press('!')
	h.ctrlEnter()
	if o := h.outcome(p.ID); o.Status != decision.Rejected || o.Feedback != "no\n!" {
		t.Errorf("Ctrl+Enter in the reason box: %s %q; want rejected with %q", o.Status, o.Feedback, "no\n!")
	}
}

// TestCtrlEnterInTheEditorApprovesEdited: Ctrl+Enter while typing in the
// editor writes the edited text, as the keys overlay says.
func TestCtrlEnterInTheEditorApprovesEdited(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\n")
	p := h.propose("agent", "s", engine.FormatWrite, "a.txt", "ONE\n")
	h.press('e')
	ed := h.win.View().Editor()
	if ed == nil || h.win.Win.Canvas().Focused() != ed {
		t.Fatalf("e: editor %v with the keyboard %v", ed != nil, h.win.Win.Canvas().Focused() == ed)
	}
	ed.SelectAll()
	for _, r := range "mine\n" {
		h.press(r)
	}
	h.ctrlEnter()
	if o := h.outcome(p.ID); o.Status != decision.ApprovedEdited || h.read("a.txt") != "mine\n" {
		t.Errorf("Ctrl+Enter in the editor: %s, a.txt %q; want approved-edited, %q", o.Status, h.read("a.txt"), "mine\n")
	}
	if !strings.Contains(KeysText(), "Ctrl+Enter  approve (in the editor: approve edited") {
		t.Errorf("the keys overlay does not list Ctrl+Enter in the editor:\n%s", KeysText())
	}
}

// TestHunkKeysToggleCountAndApproveSelected: the counter says which hunk j
// and k went to; Space unticks it; s approves the ticked hunks only.
func TestHunkKeysToggleCountAndApproveSelected(t *testing.T) {
	h := newHarness(t)
	base, proposed := twoHunks()
	h.write("long.txt", base)
	p := h.propose("a", "s", engine.FormatWrite, "long.txt", proposed)
	if h.Diff().Counter() != "hunk 1 of 2" {
		t.Errorf("counter on opening %q; want %q", h.Diff().Counter(), "hunk 1 of 2")
	}
	h.press('s')
	if h.read("long.txt") != base || !strings.Contains(h.Message(), "Every hunk is ticked") {
		t.Fatalf("s with every hunk ticked: message %q; want it to say so and nothing written", h.Message())
	}
	h.press('j')
	if h.Diff().Counter() != "hunk 2 of 2" {
		t.Errorf("counter after j %q; want %q", h.Diff().Counter(), "hunk 2 of 2")
	}
	h.press(' ')
	if got := h.win.View().AcceptedHunks(); len(got) != 1 || h.Bar().State("Approve selected hunks") != "on" {
		t.Fatalf("Space on hunk 2: accepted %v, bar %q; want one accepted, Approve selected hunks enabled", got, h.Bar().Buttons())
	}
	h.press('s')
	want := strings.Replace(base, "line 20\n", "line twenty\n", 1)
	if o := h.outcome(p.ID); o.Status != decision.Partial || h.read("long.txt") != want {
		t.Errorf("s: %s; want partial with only the first hunk written", o.Status)
	}
}

// TestGoToLine: g asks for a line and scrolls there; j goes on from it.
func TestGoToLine(t *testing.T) {
	h := newHarness(t)
	base, proposed := twoHunks()
	h.write("long.txt", base)
	h.propose("a", "s", engine.FormatWrite, "long.txt", proposed)
	box := h.LineBox()
	h.press('g')
	if !box.Focused() {
		t.Fatal("g opened no line box with the keyboard")
	}
	h.press('x')
	if !strings.Contains(box.Hint(), "1 to 300") {
		t.Errorf("x typed in the line box: hint %q; want it to say a line from 1 to 300 goes there", box.Hint())
	}
	box.Clear()
	for _, r := range "400" {
		h.press(r)
	}
	if !strings.Contains(box.Hint(), "No line 400") {
		t.Errorf("400 typed: hint %q; want it to say the file has no line 400", box.Hint())
	}
	h.pressKey(fyne.KeyReturn)
	if !h.Modal() {
		t.Fatal("line 400 of 300 closed the dialog; want it to ask again")
	}
	box.Clear()
	for _, r := range "200" {
		h.press(r)
	}
	h.pressKey(fyne.KeyReturn)
	if h.Modal() {
		t.Fatal("Enter on line 200 left the dialog open")
	}
	h.press('j')
	if h.Diff().Counter() != "hunk 2 of 2" {
		t.Errorf("j after going to line 200: %q; want the change at line 251, hunk 2 of 2", h.Diff().Counter())
	}
}

// TestFileKeysStepThroughAMultiFileProposal: ] and [ go to the next and
// previous file, and say so at either end.
func TestFileKeysStepThroughAMultiFileProposal(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\n")
	h.write("b.txt", "two\n")
	patch := "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** Update File: b.txt\n@@\n-two\n+TWO\n*** End Patch\n"
	h.propose("codex", "s", engine.FormatPatch, "", patch)
	h.press('[')
	if h.ShownFile() != "a.txt" || !strings.Contains(h.Message(), "first file") {
		t.Errorf("[ on the first file: file %q, message %q; want a.txt and a word that it is the first", h.ShownFile(), h.Message())
	}
	h.press(']')
	if h.ShownFile() != "b.txt" || h.FileChoice() != "b.txt" || h.Message() != "" {
		t.Errorf("]: file %q (%q chosen), message %q; want b.txt", h.ShownFile(), h.FileChoice(), h.Message())
	}
	h.press(']')
	if h.ShownFile() != "b.txt" || !strings.Contains(h.Message(), "last file") {
		t.Errorf("] on the last file: file %q, message %q; want b.txt and a word that it is the last", h.ShownFile(), h.Message())
	}
}

// TestProposalKeysSayWhenTheyReachAnEnd: n and p at either end of the
// queue say so instead of doing nothing silently.
func TestProposalKeysSayWhenTheyReachAnEnd(t *testing.T) {
	h := newHarness(t)
	older := h.propose("a", "s", engine.FormatWrite, "1.txt", "1\n")
	newer := h.propose("a", "s", engine.FormatWrite, "2.txt", "2\n")
	h.win.Select(newer.ID) // the queue lists a session in the agent's order: newer is last
	h.press('n')
	if h.win.Selected() != newer.ID || !strings.Contains(h.Message(), "last proposal") {
		t.Errorf("n on the last proposal: selected %q, message %q", h.win.Selected(), h.Message())
	}
	h.press('p')
	if h.win.Selected() != older.ID || h.Message() != "" {
		t.Errorf("p: selected %q, message %q; want %q and the message cleared", h.win.Selected(), h.Message(), older.ID)
	}
	h.press('p')
	if !strings.Contains(h.Message(), "first proposal") {
		t.Errorf("p on the first proposal: message %q", h.Message())
	}
}

// TestHelpListsEveryKeyAndTheReadmeToo: every key of the window is in the
// keys overlay and in README's key table.
func TestHelpListsEveryKeyAndTheReadmeToo(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range boundKeys() {
		if !strings.Contains(KeysText(), k.key+"  ") {
			t.Errorf("KeysText lacks %q", k.key)
		}
		if !strings.Contains(string(readme), "`"+k.key+"`") {
			t.Errorf("README's key table lacks `%s` (%s)", k.key, k.what)
		}
	}
}

// TestReviewKeysWaitOnTheHistoryTab: on the History tab the review keys
// decide nothing about a proposal that is not on screen.
func TestReviewKeysWaitOnTheHistoryTab(t *testing.T) {
	h := newHistoryHarness(t).harness
	h.write("a.txt", "one\n")
	h.propose("agent", "s", engine.FormatWrite, "a.txt", "ONE\n")
	h.win.ShowHistory()
	h.press('a')
	h.settle()
	if h.Deciding() || h.read("a.txt") != "one\n" {
		t.Errorf("a on the History tab approved the proposal behind it: %q", h.read("a.txt"))
	}
}
