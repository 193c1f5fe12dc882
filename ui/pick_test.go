package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/journal"
)

const pickBase = "package a\n\nfunc A() {\n\tx := 1\n\ty := 2\n}\n"

// A SEARCH that does not match, with a near match: 1 picks it, the diff
// shows, a approves, the file has the replacement there and the agent is
// told the person chose those lines.
func TestPickCandidateThenApprove(t *testing.T) {
	h := newHarness(t)
	h.write("a.go", pickBase)
	p := h.propose("agent", "s", engine.FormatSearchReplace, "a.go", srBlock("\tx := 1\n\ty := 3\n", "\tx := 10\n\ty := 20\n"))
	h.win.Select(p.ID)
	d := h.win.detail
	if !d.pick.box.Visible() || len(d.pick.cands) == 0 || d.pick.cands[0].StartLine != 4 {
		t.Fatalf("picker shown %v, candidates %+v; want the closest lines 4-5 first", d.pick.box.Visible(), d.pick.cands)
	}
	if !strings.Contains(d.pick.title.Text, "Block 1 did not match a.go") {
		t.Errorf("picker title %q", d.pick.title.Text)
	}
	h.press('1')
	h.until("the placed diff shows", func() bool { return d.p.State == review.StatePending && d.view.Visible() })
	if d.pick.box.Visible() || d.failureScroll.Visible() || d.approve.Hidden {
		t.Errorf("after the pick: picker %v, failure %v, approve hidden %v; want the diff with Approve", d.pick.box.Visible(), d.failureScroll.Visible(), d.approve.Hidden)
	}
	if hs := d.view.Hunks(); len(hs) != 1 {
		t.Errorf("hunks = %d; want the one change at lines 4-5", len(hs))
	}
	h.press('a')
	o := h.outcome(p.ID)
	if o.Status != journal.Approved {
		t.Fatalf("outcome %s; want approved", o.Status)
	}
	if got, want := h.read("a.go"), "package a\n\nfunc A() {\n\tx := 10\n\ty := 20\n}\n"; got != want {
		t.Errorf("file = %q; want %q", got, want)
	}
	if !strings.Contains(o.Text(), "Block 1: the person chose lines 4–5 of ") || !strings.Contains(o.Text(), "the edit was applied there") {
		t.Errorf("agent text does not say the person chose the lines:\n%s", o.Text())
	}
}

// An ambiguous edit lists every place; Mark lines… takes the lines typed.
func TestPickMarkLines(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "x\ny\nx\n")
	p := h.propose("agent", "s", engine.FormatEdit, "a.txt", `{"old_string":"x","new_string":"X"}`)
	h.win.Select(p.ID)
	d := h.win.detail
	if len(d.pick.cands) != 2 || !strings.Contains(d.pick.title.Text, "fits 2 places") {
		t.Fatalf("candidates %+v, title %q; want both places", d.pick.cands, d.pick.title.Text)
	}
	h.press('7')
	if !strings.Contains(d.message.Text, "No candidate 7") {
		t.Errorf("7 with two candidates: message %q", d.message.Text)
	}
	test.Tap(d.pick.mark)
	if d.pick.from == nil {
		t.Fatal("Mark lines… opened no dialog")
	}
	d.pick.from.SetText("3")
	d.pick.to.SetText("3")
	d.pick.from.onSubmit()
	h.until("the placed diff shows", func() bool { return d.p.State == review.StatePending })
	if got := d.p.Files[0].Proposed; got != "x\ny\nX\n" {
		t.Errorf("proposed = %q; want line 3 replaced", got)
	}
}

func TestMarkedRegion(t *testing.T) {
	tests := []struct {
		from, to string
		want     engine.Region
		err      string
	}{
		{"2", "3", engine.Region{StartLine: 2, EndLine: 3}, ""},
		{" 4 ", "4", engine.Region{StartLine: 4, EndLine: 4}, ""},
		{"", "3", engine.Region{}, "type a first and a last line number, 1 to 5"},
		{"3", "2", engine.Region{}, "not before the first"},
		{"1", "6", engine.Region{}, "at most 5"},
	}
	for _, tt := range tests {
		r, err := markedRegion(tt.from, tt.to, 5)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("markedRegion(%q, %q) error = %v; want %q", tt.from, tt.to, err, tt.err)
			}
			continue
		}
		if err != nil || r != tt.want {
			t.Errorf("markedRegion(%q, %q) = %v, %v; want %v", tt.from, tt.to, r, err, tt.want)
		}
	}
}
