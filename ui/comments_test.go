package ui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/ui/present"
)

// TestCommentTravelsWithTheRejection: c opens a comment on the current
// hunk's new lines, Ctrl+Enter keeps it (listed under the diff), and the
// next decision — a rejection — carries it to the agent, quoted from the
// proposal.
func TestCommentTravelsWithTheRejection(t *testing.T) {
	h := newHarness(t)
	h.write("a.go", "package a\n\nconst N = 1\n")
	p := h.propose("agent", "s", engine.FormatWrite, "a.go", "package a\n\nconst N = 2\nconst M = 3\n")
	c := h.Comments()
	h.press('c')
	if !c.Open() || !c.TextFocused() || c.Lines() != "3-4" {
		t.Fatalf("c: dialog %v, text focused %v, lines %q; want the comment dialog on lines 3-4, its text box focused",
			c.Open(), c.TextFocused(), c.Lines())
	}
	for _, r := range "name these" {
		h.press(r)
	}
	h.ctrlEnter()
	if c.Open() || len(c.Kept(p.ID)) != 1 {
		t.Fatalf("Ctrl+Enter: dialog open %v, comments %+v; want it closed and one comment kept", c.Open(), c.Kept(p.ID))
	}
	if got := c.Listed(); !strings.Contains(got, "a.go · new 3–4: name these") {
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
	if !strings.Contains(agenttext.Outcome(o), "Lines 3–4 of your proposed text:\n```\nconst N = 2\nconst M = 3\n```\nComment: name these") {
		t.Errorf("the agent's text lacks the quoted comment:\n%s", agenttext.Outcome(o))
	}
	if c.Listed() != "" || len(c.Kept(p.ID)) != 0 {
		t.Errorf("after the decision comments are still pending: %+v, listed %q", c.Kept(p.ID), c.Listed())
	}
}

// TestCommentDialogChecksItsLines: no text, or lines outside the side's
// text, keep the dialog open with the reason; the old side quotes the
// base; Esc cancels; Delete removes a kept comment.
func TestCommentDialogChecksItsLines(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\n")
	p := h.propose("agent", "s", engine.FormatWrite, "a.txt", "ONE\n")
	c := h.Comments()
	h.press('c')
	h.ctrlEnter()
	if !c.Open() || !strings.Contains(c.Hint(), "Type the comment") {
		t.Fatalf("Ctrl+Enter with no text: dialog open %v, hint %q; want it open, asking for the text", c.Open(), c.Hint())
	}
	h.press('x')
	c.SetLines("2")
	h.ctrlEnter()
	if !c.Open() || !strings.Contains(c.Hint(), "line 2 is past the end of the new side, which has 1 line") {
		t.Fatalf("line 2 of 1: dialog open %v, hint %q; want it open, saying why", c.Open(), c.Hint())
	}
	c.SetLines("1")
	h.ctrlEnter()
	if got := c.Kept(p.ID); len(got) != 1 || got[0].Quote != "ONE\n" || got[0].Side != decision.SideNew {
		t.Fatalf("comments %+v; want one on the new ONE", got)
	}
	h.press('c')
	h.pressKey(fyne.KeyEscape)
	if c.Open() || h.Dialog().Open() || len(c.Kept(p.ID)) != 1 {
		t.Fatalf("Esc: dialog open %v, comments %d; want it closed, nothing added", c.Open(), len(c.Kept(p.ID)))
	}
	c.DeleteAll()
	if len(c.Kept(p.ID)) != 0 || c.Listed() != "" {
		t.Errorf("Delete left %+v", c.Kept(p.ID))
	}
}

// TestCommentStartsAtTheFirstLineOnScreen: c on a long file scrolled down
// (Page Down) comments on the first line on screen, not line 1 (issue
// 25 b): within a change shown from its start, the change as before; past
// every change, the one line.
func TestCommentStartsAtTheFirstLineOnScreen(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 400; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	long := b.String()
	for _, tc := range []struct {
		name, base, proposal string
		spans                bool // the comment spans the rest of the change
	}{
		{"a new file", "", long, true},
		{"changes at both ends", long, strings.Replace(strings.Replace(long, "line 2\n", "LINE 2\n", 1), "line 399\n", "LINE 399\n", 1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			if tc.base != "" {
				h.write("long.txt", tc.base)
			}
			h.propose("agent", "s", engine.FormatWrite, "long.txt", tc.proposal)
			c := h.Comments()
			h.press('z') // unfolded: the unchanged lines scroll by
			h.pressKey(fyne.KeyPageDown)
			h.pressKey(fyne.KeyPageDown)
			h.settle()
			h.press('c')
			if !c.Open() {
				t.Fatal("c opened no comment dialog")
			}
			from, to, err := present.ParseLines(c.Lines())
			if err != nil {
				t.Fatal(err)
			}
			if top := h.Diff().FirstLineOnScreen(); top <= 1 || from != top {
				t.Fatalf("scrolled down, c comments on lines %q; want them to start at line %d, the first on screen", c.Lines(), top)
			}
			if spans := to > from; spans != tc.spans {
				t.Errorf("lines %q: spanning the change %v, want %v", c.Lines(), spans, tc.spans)
			}
		})
	}
}
