package ui

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/ui/diffview"
)

// TestWindowShowsNewProblems: while the person reads a proposal, gofmt
// runs on it; the header says "checking…" and then counts the new
// problem, the line that has it carries a marker, and under the diff the
// current hunk's problem is spelled out.
func TestWindowShowsNewProblems(t *testing.T) {
	if _, err := exec.LookPath("gofmt"); err != nil {
		t.Skip("gofmt not on PATH")
	}
	h := newHarnessWithConfig(t, "[[checker]]\npreset = \"gofmt\"\n")
	h.write("a.go", "package a\n\nfunc A() {}\n")
	p := h.propose("claude-code", "s", engine.FormatWrite, "a.go", "package a\n\nfunc A() {\n\tif {\n\t}\n}\n")
	if got := h.Checks(); got != "checking…" && got != "1 new problem" {
		t.Errorf("header while checking = %q; want checking…", got)
	}
	h.until("the check's result is shown", func() bool { return h.Shown() == p.ID && h.Checks() == "1 new problem" })
	if c := h.ChecksColour(); c != "red" {
		t.Errorf("the count is %q; want it shown in red", c)
	}
	m, ok := h.win.View().Marks().Problem(3)
	if !ok || m.Warning || m.Message != "gofmt: missing condition in if statement" {
		t.Errorf("marker on line 4 = %+v, %v; want gofmt's error", m, ok)
	}
	if _, ok := h.win.View().Marks().Problem(2); ok {
		t.Error("line 3 has a marker; the problem is on line 4")
	}
	if got := h.Problems(); got != "line 4 · gofmt: missing condition in if statement" {
		t.Errorf("under the diff: %q; want the current hunk's problem", got)
	}
	// Editing starts from the text checked: its marker stays until the
	// person changes the text (TestWindowChecksTheEdit).
	h.win.Edit()
	h.settle()
	if _, ok := h.win.View().Marks().Problem(3); !ok || h.Checks() != "1 new problem" {
		t.Errorf("in edit mode, before any change: marker on line 4 %v, header %q; want the proposal's", ok, h.Checks())
	}
}

// editedProposal is a harness with gofmt as the checker, showing a clean
// proposal of a.go in edit mode, its check finished; the editor's cursor
// is at the end of line 4, "\treturn".
func editedProposal(t *testing.T) (*harness, *diffview.Editor) {
	t.Helper()
	if _, err := exec.LookPath("gofmt"); err != nil {
		t.Skip("gofmt not on PATH")
	}
	h := newHarnessWithConfig(t, "[[checker]]\npreset = \"gofmt\"\n")
	h.write("a.go", "package a\n\nfunc A() {}\n")
	p := h.propose("claude-code", "s", engine.FormatWrite, "a.go", "package a\n\nfunc A() {\n\treturn\n}\n")
	h.until("the proposal's check is shown", func() bool { return h.Shown() == p.ID && h.Checks() == "no new problems" })
	h.win.Edit()
	h.settle()
	ed := h.win.View().Editor()
	if ed == nil {
		t.Fatal("ToggleEdit did not open the editor")
	}
	ed.SetCursor(3, 7)
	return h, ed
}

// typed types s into the editor and tells the window the text changed,
// as the view does after its re-diff (which a synchronous view leaves to
// the caller).
func (h *harness) typed(ed *diffview.Editor, s string) {
	test.Type(ed, s)
	h.win.View().OnEdited()
}

// backspaced deletes n runes before the cursor, then tells the window.
func (h *harness) backspaced(ed *diffview.Editor, n int) {
	for range n {
		ed.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace})
	}
	h.win.View().OnEdited()
}

// TestWindowChecksTheEdit: in edit mode, the person's text is checked
// once typing pauses for 600 ms: "checking…", then the new problem's
// marker on its line and the count; typing again drops that result at
// once, and the new text's check follows.
func TestWindowChecksTheEdit(t *testing.T) {
	h, ed := editedProposal(t)
	v := h.win.View()
	h.typed(ed, " 0")
	h.advance(400 * time.Millisecond) // still typing
	h.typed(ed, "8")
	if h.Checks() != "checking…" {
		t.Errorf("header while the person types = %q; want checking…", h.Checks())
	}
	h.advance(599 * time.Millisecond)
	h.settle()
	if c := h.EditCheck(); c.Handle == nil || c.Running {
		t.Fatal("the edit was checked before typing paused for 600 ms")
	}
	h.advance(time.Millisecond)
	h.until("the edit's check is shown", func() bool { return h.Checks() == "1 new problem in your edit" })
	const msg = "gofmt: invalid digit '8' in octal literal"
	if m, ok := v.Marks().Problem(3); !ok || m.Message != msg {
		t.Errorf("marker on line 4 = %+v, %v; want %q", m, ok, msg)
	}
	if c := h.ChecksColour(); c != "red" {
		t.Errorf("the count is %q; want red", c)
	}
	if got := h.Problems(); got != "line 4 · "+msg {
		t.Errorf("under the diff: %q; want the edit's problem", got)
	}
	h.backspaced(ed, 3) // the problem is gone from the text: so is its result
	if _, ok := v.Marks().Problem(3); ok || h.Checks() != "checking…" || h.Problems() != "" {
		t.Errorf("after typing again: marker %v, header %q, problems %q; want the old result dropped", ok, h.Checks(), h.Problems())
	}
	h.advance(600 * time.Millisecond)
	h.until("the new text's check is shown", func() bool { return h.Checks() == "no new problems in your edit" })
	if _, ok := v.Marks().Problem(3); ok {
		t.Error("the clean edit has a marker")
	}
}

// TestWindowDropsACheckOfOldText: a check that ends after the text
// changed, before the view said so, is not shown; the check starts over.
func TestWindowDropsACheckOfOldText(t *testing.T) {
	h, ed := editedProposal(t)
	v := h.win.View()
	h.typed(ed, " 08")
	h.advance(600 * time.Millisecond)
	h.settle() // the check starts
	first := h.EditCheck()
	if !first.Running {
		t.Fatal("the edit's check did not start after the pause")
	}
	test.Type(ed, "9") // not yet re-diffed: the window is not told
	h.until("the first check ends", func() bool { return h.EditCheck().Handle != first.Handle })
	if _, ok := v.Marks().Problem(3); ok || h.Checks() != "checking…" {
		t.Errorf("a check of text since changed was shown: marker %v, header %q", ok, h.Checks())
	}
	h.advance(600 * time.Millisecond)
	h.until("the text's check is shown", func() bool { return h.Checks() == "1 new problem in your edit" })
	if got := h.EditCheck().Text; got != ed.Text() {
		t.Errorf("the check shown is of %q; want the editor's %q", got, ed.Text())
	}
}

// TestLeavingEditModeStopsTheEditsCheck: Cancel edit stops the check
// under way; the proposal's own result is shown again.
func TestLeavingEditModeStopsTheEditsCheck(t *testing.T) {
	h, ed := editedProposal(t)
	v := h.win.View()
	h.typed(ed, " 08")
	h.advance(600 * time.Millisecond)
	h.settle()
	if !h.EditCheck().Running {
		t.Fatal("the edit's check did not start after the pause")
	}
	h.CancelEdit()
	h.Dialog().Click("Discard") // the person changed the text: Cancel edit asks first
	if c := h.EditCheck(); c.Handle != nil || h.Checks() != "no new problems" {
		t.Errorf("after Cancel edit: check %+v, header %q; want none, the proposal's", c, h.Checks())
	}
	h.advance(time.Hour)
	h.settle()
	if _, ok := v.Marks().Problem(3); ok || h.Checks() != "no new problems" {
		t.Errorf("the stopped check was shown: marker %v, header %q", ok, h.Checks())
	}
}

// TestWindowShowsAFailedChecker: a checker that cannot run says so; no
// problem is made up.
func TestWindowShowsAFailedChecker(t *testing.T) {
	h := newHarnessWithConfig(t, "[[checker]]\nname = \"vet\"\nglob = \"*.go\"\ncommand = [\"/nonexistent/vet\"]\n")
	p := h.propose("claude-code", "s", engine.FormatWrite, "a.go", "package a\n")
	h.until("the failure is shown", func() bool { return h.Shown() == p.ID && h.Checks() == "no new problems · vet failed" })
	if c := h.ChecksColour(); c != "amber" {
		t.Errorf("the word is %q; want a warning's amber", c)
	}
	if got := h.Problems(); !strings.HasPrefix(got, `could not check: checker "vet" failed on `) {
		t.Errorf("under the diff: %q; want the checker's error", got)
	}
	if _, ok := h.win.View().Marks().Problem(0); ok {
		t.Error("a failed checker left a marker")
	}
}
