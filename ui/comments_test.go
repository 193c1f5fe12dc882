package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/decision"
)

// listed is what the list of comments under the diff says.
func listed(c *comments) string {
	var b strings.Builder
	for _, o := range test.LaidOutObjects(c.box) {
		if l, ok := o.(*widget.Label); ok && c.box.Visible() {
			b.WriteString(l.Text + "\n")
		}
	}
	return b.String()
}

// TestCommentTravelsWithTheRejection: c opens a comment on the current
// hunk's new lines, Ctrl+Enter keeps it (listed under the diff), and the
// next decision — a rejection — carries it to the agent, quoted from the
// proposal.
func TestCommentTravelsWithTheRejection(t *testing.T) {
	h := newHarness(t)
	h.write("a.go", "package a\n\nconst N = 1\n")
	p := h.propose("agent", "s", engine.FormatWrite, "a.go", "package a\n\nconst N = 2\nconst M = 3\n")
	c := h.win.detail.comments
	h.press('c')
	if c.dialog == nil || h.win.Win.Canvas().Focused() != c.text || c.lines.Text != "3-4" {
		t.Fatalf("c: dialog %v, focus %T, lines %q; want the comment dialog on lines 3-4, its text box focused",
			c.dialog != nil, h.win.Win.Canvas().Focused(), c.lines.Text)
	}
	for _, r := range "name these" {
		h.press(r)
	}
	h.ctrlEnter()
	if c.dialog != nil || len(c.of(p.ID)) != 1 {
		t.Fatalf("Ctrl+Enter: dialog open %v, comments %+v; want it closed and one comment kept", c.dialog != nil, c.of(p.ID))
	}
	if got := listed(c); !strings.Contains(got, "a.go · new 3–4: name these") {
		t.Errorf("under the diff: %q; want the comment listed", got)
	}
	h.press('r')
	for _, r := range "see the comment" {
		h.press(r)
	}
	h.ctrlEnter()
	o := h.outcome(p.ID)
	want := decision.Comment{Path: filepath.Join(h.desk.Roots()[0], "a.go"), Side: decision.SideNew, Line: 3, EndLine: 4, Quote: "const N = 2\nconst M = 3\n", Text: "name these"}
	if o.Status != decision.Rejected || len(o.Comments) != 1 || o.Comments[0] != want {
		t.Fatalf("outcome %s with comments %+v; want rejected with %+v", o.Status, o.Comments, want)
	}
	if !strings.Contains(o.Text(), "Lines 3–4 of your proposed text:\n```\nconst N = 2\nconst M = 3\n```\nComment: name these") {
		t.Errorf("the agent's text lacks the quoted comment:\n%s", o.Text())
	}
	if listed(c) != "" || len(c.of(p.ID)) != 0 {
		t.Errorf("after the decision comments are still pending: %+v, listed %q", c.of(p.ID), listed(c))
	}
}

// TestCommentDialogChecksItsLines: no text, or lines outside the side's
// text, keep the dialog open with the reason; the old side quotes the
// base; Esc cancels; Delete removes a kept comment.
func TestCommentDialogChecksItsLines(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\n")
	p := h.propose("agent", "s", engine.FormatWrite, "a.txt", "ONE\n")
	c := h.win.detail.comments
	h.press('c')
	h.ctrlEnter()
	if c.dialog == nil || !strings.Contains(c.hint.Text, "Type the comment") {
		t.Fatalf("Ctrl+Enter with no text: dialog open %v, hint %q; want it open, asking for the text", c.dialog != nil, c.hint.Text)
	}
	h.press('x')
	c.lines.SetText("2")
	h.ctrlEnter()
	if c.dialog == nil || !strings.Contains(c.hint.Text, "line 2 is past the end of the new side, which has 1 line") {
		t.Fatalf("line 2 of 1: dialog open %v, hint %q; want it open, saying why", c.dialog != nil, c.hint.Text)
	}
	c.lines.SetText("1")
	h.ctrlEnter()
	if got := c.of(p.ID); len(got) != 1 || got[0].Quote != "ONE\n" || got[0].Side != decision.SideNew {
		t.Fatalf("comments %+v; want one on the new ONE", got)
	}
	h.press('c')
	h.pressKey(fyne.KeyEscape)
	if c.dialog != nil || h.win.modal() || len(c.of(p.ID)) != 1 {
		t.Fatalf("Esc: dialog open %v, comments %d; want it closed, nothing added", c.dialog != nil, len(c.of(p.ID)))
	}
	for _, b := range tappables(c.box) {
		if btn, ok := b.(*widget.Button); ok && btn.Text == "Delete" {
			test.Tap(btn)
		}
	}
	if len(c.of(p.ID)) != 0 || listed(c) != "" {
		t.Errorf("Delete left %+v", c.of(p.ID))
	}
}
