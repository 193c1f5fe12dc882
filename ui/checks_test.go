package ui

import (
	"os/exec"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/engine"
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
	d := h.win.detail
	if got := d.checks.Text; got != "checking…" && got != "1 new problem" {
		t.Errorf("header while checking = %q; want checking…", got)
	}
	h.until("the check's result is shown", func() bool { return d.id == p.ID && d.checks.Text == "1 new problem" })
	if !d.checks.Visible() || d.checks.Importance != widget.DangerImportance {
		t.Errorf("the count is hidden or not red: visible %v, importance %v", d.checks.Visible(), d.checks.Importance)
	}
	m, ok := h.win.View().Problem(3)
	if !ok || m.Warning || m.Message != "gofmt: missing condition in if statement" {
		t.Errorf("marker on line 4 = %+v, %v; want gofmt's error", m, ok)
	}
	if _, ok := h.win.View().Problem(2); ok {
		t.Error("line 3 has a marker; the problem is on line 4")
	}
	if got := d.problems.Text; !d.problems.Visible() || got != "line 4 · gofmt: missing condition in if statement" {
		t.Errorf("under the diff: %q (visible %v); want the current hunk's problem", got, d.problems.Visible())
	}
	// Editing: the right side is no longer the text the lines name.
	d.ToggleEdit()
	h.settle()
	if _, ok := h.win.View().Problem(3); ok {
		t.Error("while editing, the proposal's markers are still shown")
	}
}

// TestWindowShowsAFailedChecker: a checker that cannot run says so; no
// problem is made up.
func TestWindowShowsAFailedChecker(t *testing.T) {
	h := newHarnessWithConfig(t, "[[checker]]\nname = \"vet\"\nglob = \"*.go\"\ncommand = [\"/nonexistent/vet\"]\n")
	p := h.propose("claude-code", "s", engine.FormatWrite, "a.go", "package a\n")
	d := h.win.detail
	h.until("the failure is shown", func() bool { return d.id == p.ID && d.checks.Text == "no new problems · vet failed" })
	if d.checks.Importance != widget.WarningImportance {
		t.Errorf("importance %v; want a warning", d.checks.Importance)
	}
	if got := d.problems.Text; !strings.HasPrefix(got, `could not check: checker "vet" failed on `) {
		t.Errorf("under the diff: %q; want the checker's error", got)
	}
	if _, ok := h.win.View().Problem(0); ok {
		t.Error("a failed checker left a marker")
	}
}
