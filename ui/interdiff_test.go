package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
)

// TestInterdiffFlow: a proposal rejected with comments, then re-proposed
// by the same session: "vs previous" shows, v opens the previous → this
// diff with the comments marked touched or not, and the decision is that
// of the proposal as usual.
func TestInterdiffFlow(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\ntwo\nthree\n")
	first := h.propose("agent", "s", engine.FormatWrite, "a.txt", "one\nTWO\nTHREE\n")
	h.win.Select(first.ID)
	if h.Bar().Button("vs previous") != "" {
		t.Error("vs previous shows for a session's first proposal")
	}
	path := filepath.Join(h.root, "a.txt")
	if _, err := h.desk.Decide(t.Context(), first.ID, review.Decision{Verdict: decision.Rejected, Comments: []decision.Comment{
		{Path: path, Side: decision.SideNew, Line: 2, Text: "lower case"},
		{Path: path, Side: decision.SideNew, Line: 3, Text: "this one is fine"},
	}}); err != nil {
		t.Fatal(err)
	}
	second := h.propose("agent", "s", engine.FormatWrite, "a.txt", "one\ntwo\nTHREE\n")
	h.win.Select(second.ID)
	if b := h.Bar().Button("vs previous"); !strings.Contains(b, "1 of 2 comments touched") {
		t.Fatalf("vs previous: %q; want it, with 1 of 2 comments touched", b)
	}
	inter := h.InterdiffView() // the dialog's own diff view
	h.Keys("v")
	if !h.Dialog().Open() {
		t.Fatal("v opened no dialog")
	}
	if hs := inter.Hunks(); len(hs) != 1 {
		t.Errorf("the previous → this diff has %d hunks; want the one line the agent changed", len(hs))
	}
	if got := h.Dialog().Text(); !strings.Contains(got, "[TOUCHED] proposed text, line 2: lower case") || !strings.Contains(got, "[not touched] proposed text, line 3: this one is fine") {
		t.Errorf("comments listed:\n%s", got)
	}
	h.press('a') // the dialog is open: the decision keys wait
	if _, decided := h.desk.Outcome(second.ID); decided {
		t.Fatal("a decided the proposal while the vs previous dialog was open")
	}
	h.Esc()
	h.press('a')
	if o := h.outcome(second.ID); o.Status != decision.Approved || h.read("a.txt") != "one\ntwo\nTHREE\n" {
		t.Errorf("approve after the interdiff: %s, file %q; want the proposal approved as usual", o.Status, h.read("a.txt"))
	}
}
