package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/ui/present"
)

const pickBase = "package a\n\nfunc A() {\n\tx := 1\n\ty := 2\n}\n"

// holdOff is a user config under which failures are answered at once even
// with the window open.
const holdOff = "[review]\nhold_failed = false\n"

// A SEARCH that does not match, with a near match: 1 picks it, the diff
// shows, a approves, the file has the replacement there and the agent is
// told the person chose those lines.
func TestPickCandidateThenApprove(t *testing.T) {
	h := newHarness(t)
	h.write("a.go", pickBase)
	p := h.propose("agent", "s", engine.FormatSearchReplace, "a.go", srBlock("\tx := 1\n\ty := 3\n", "\tx := 10\n\ty := 20\n"))
	h.win.Select(p.ID)
	k := h.Picker()
	if cs := k.Candidates(); !k.Open() || len(cs) == 0 || !strings.HasPrefix(cs[0], "1.  lines 4–5") {
		t.Fatalf("picker shown %v, candidates %q; want the closest lines 4-5 first", k.Open(), cs)
	}
	if !strings.Contains(k.Title(), "Block 1 did not match a.go") {
		t.Errorf("picker title %q", k.Title())
	}
	held, _ := h.desk.Get(p.ID)
	if _, sent := h.desk.Outcome(p.ID); sent || held.State != review.StateHeld {
		t.Fatalf("state %s, failure sent %v; with the window open the agent must wait for the person", held.State, sent)
	}
	if !strings.Contains(h.Header(), "Its agent waits for you") {
		t.Errorf("header %q; want its note to say the agent waits for the person", h.Header())
	}
	if b, _ := badge(held); b != "pick lines" || h.win.Waiting() != 1 {
		t.Errorf("badge %q, waiting %d; want \"pick lines\" and the held failure counted as waiting", b, h.win.Waiting())
	}
	k.Choose(1)
	h.until("the placed diff shows", func() bool { return strings.Contains(h.Message(), "review the diff") && h.win.View().Visible() })
	if k.Open() || !slices.Contains(h.Bar().Buttons(), "Approve (a)") {
		t.Errorf("after the pick: picker %v, bar %q; want the diff with Approve", k.Open(), h.Bar().Buttons())
	}
	if hs := h.win.View().Hunks(); len(hs) != 1 {
		t.Errorf("hunks = %d; want the one change at lines 4-5", len(hs))
	}
	h.press('a')
	o := h.outcome(p.ID)
	if o.Status != decision.Approved {
		t.Fatalf("outcome %s; want approved", o.Status)
	}
	if got, want := h.read("a.go"), "package a\n\nfunc A() {\n\tx := 10\n\ty := 20\n}\n"; got != want {
		t.Errorf("file = %q; want %q", got, want)
	}
	if !strings.Contains(agenttext.Outcome(o), "Block 1: the person chose lines 4–5 of ") || !strings.Contains(agenttext.Outcome(o), "the edit was applied there") {
		t.Errorf("agent text does not say the person chose the lines:\n%s", agenttext.Outcome(o))
	}
}

// An ambiguous edit lists every place; Mark lines… takes the lines typed.
func TestPickMarkLines(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "x\ny\nx\n")
	p := h.propose("agent", "s", engine.FormatEdit, "a.txt", `{"old_string":"x","new_string":"X"}`)
	h.win.Select(p.ID)
	k := h.Picker()
	if cs := k.Candidates(); len(cs) != 2 || !strings.Contains(k.Title(), "fits 2 places") {
		t.Fatalf("candidates %q, title %q; want both places", cs, k.Title())
	}
	k.Choose(7)
	if !strings.Contains(h.Message(), "No candidate 7") {
		t.Errorf("7 with two candidates: message %q", h.Message())
	}
	k.Mark()
	// Typed as the person types, over the lines offered (the first
	// candidate's, 1 and 1): each number replaces its offer ("3" read "13").
	h.Keys("3")
	h.pressKey(fyne.KeyTab)
	h.Keys("3")
	if p, ok := k.MarkProblem(); p != "" || !ok {
		t.Fatalf("3 and 3 typed over the lines offered: %q", p)
	}
	h.Enter()
	h.until("the placed diff shows", func() bool { q, _ := h.desk.Get(p.ID); return q.State == review.StatePending })
	if got, _ := h.desk.Get(p.ID); got.Files[0].Proposed != "x\ny\nX\n" {
		t.Errorf("proposed = %q; want line 3 replaced", got.Files[0].Proposed)
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
		r, err := present.MarkedRegion(tt.from, tt.to, 5)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("present.MarkedRegion(%q, %q) error = %v; want %q", tt.from, tt.to, err, tt.err)
			}
			continue
		}
		if err != nil || r != tt.want {
			t.Errorf("present.MarkedRegion(%q, %q) = %v, %v; want %v", tt.from, tt.to, r, err, tt.want)
		}
	}
}

// Dismiss on a held failure sends the agent the failure it would have had
// at once; the file is untouched.
func TestDismissSendsTheHeldFailure(t *testing.T) {
	h := newHarness(t)
	h.write("a.go", pickBase)
	p := h.propose("agent", "s", engine.FormatSearchReplace, "a.go", srBlock("\tx := 1\n\ty := 3\n", "\tx := 10\n"))
	h.win.Select(p.ID)
	if b := h.Bar(); p.State != review.StateHeld || b.State("Dismiss") != "on" || b.State("Approve (a)") != "" {
		t.Fatalf("state %s, bar %q; want a held failure with Dismiss, no Approve", p.State, b.Buttons())
	}
	if rows := h.Queue().Rows(); len(rows) == 0 || !strings.HasSuffix(rows[0], "· 1 open]") {
		t.Errorf("queue rows %q; want the heading to count the held failure open: its agent waits", rows)
	}
	h.Bar().Click("Dismiss")
	o := h.outcome(p.ID)
	if o.Status != decision.Failed || agenttext.Outcome(o) != agenttext.Failure(p.Failure) {
		t.Errorf("outcome %s %q; want failed with %q", o.Status, agenttext.Outcome(o), agenttext.Failure(p.Failure))
	}
	if h.read("a.go") != pickBase {
		t.Errorf("a.go changed after Dismiss: %q", h.read("a.go"))
	}
	h.until("the dismissed failure leaves the queue", func() bool { return !h.InQueue(p.ID) && h.Shown() == "" })
	if !strings.Contains(h.Status(), "a.go: dismissed; the agent is told") {
		t.Errorf("status line %q; want it to say a.go was dismissed and the agent told", h.Status())
	}
	// The empty queue's hint shows alone: the held failure's note (real
	// window: "Its agent waits for you… or Dismiss") stayed above it.
	if h.Empty() == "" {
		t.Fatal("the empty queue's hint is not shown")
	}
	for name, shows := range map[string]bool{"the failure's note and the agent's words": h.Header() != "", "the picker": h.Picker().Open(),
		"the loose-match card": h.LooseCard().Shown, "the stale views": h.Diff().Showing() != ""} {
		if shows {
			t.Errorf("%s still shows over the empty queue", name)
		}
	}
}

// Closing the window leaves nobody at the desk: held failures are sent.
func TestClosingTheWindowSendsHeldFailures(t *testing.T) {
	h := newHarness(t)
	h.write("a.go", pickBase)
	p := h.propose("agent", "s", engine.FormatSearchReplace, "a.go", srBlock("\tx := 1\n\ty := 3\n", "\tx := 10\n"))
	if p.State != review.StateHeld {
		t.Fatal("not held with the window open")
	}
	h.win.Close()
	if o, ok := h.desk.Outcome(p.ID); !ok || o.Status != decision.Failed {
		t.Errorf("after the window closed: outcome %+v, %v; want the failure sent", o, ok)
	}
	if h.desk.Attended() {
		t.Error("the desk is attended after its window closed")
	}
}

// With [review] hold_failed = false the failure is answered at once, and
// the window offers no lines to pick: the agent believes the file untouched.
func TestNoPickerForAnAnsweredFailure(t *testing.T) {
	h := newHarnessWithConfig(t, holdOff)
	h.write("a.go", pickBase)
	p := h.propose("agent", "s", engine.FormatSearchReplace, "a.go", srBlock("\tx := 1\n\ty := 3\n", "\tx := 10\n"))
	h.win.Select(p.ID)
	if _, sent := h.desk.Outcome(p.ID); !sent || p.State == review.StateHeld {
		t.Fatalf("state %s, sent %v; want answered at once", p.State, sent)
	}
	if h.Picker().Open() || !strings.Contains(h.Header(), "The agent was told") {
		t.Errorf("picker shown %v, header %q; want no picker for a failure already sent to the agent, and the note saying it was told", h.Picker().Open(), h.Header())
	}
	h.press('1')
	if !strings.Contains(h.Message(), "No candidate 1") {
		t.Errorf("1 on an answered failure: message %q; want no candidate", h.Message())
	}
}

// A held failure needs the person as a pending proposal does: the window
// picks the oldest of them, before stale and streaming ones.
func TestPickProposalTakesHeldFailures(t *testing.T) {
	at := func(s int) review.Proposal {
		return review.Proposal{Created: baseTime.Add(time.Duration(s) * time.Second)}
	}
	held, pending, answered := at(1), at(2), at(0)
	held.ID, held.State = "held", review.StateHeld
	pending.ID, pending.State = "pending", review.StatePending
	answered.ID, answered.State = "answered", review.StateFailed
	if got := pickProposal([]review.Proposal{answered, pending, held}, nil); got != "held" {
		t.Errorf("pickProposal = %q; want the older held failure", got)
	}
	if !needsPerson(held) || needsPerson(answered) {
		t.Errorf("needsPerson: held %v, answered %v; want true, false", needsPerson(held), needsPerson(answered))
	}
}

// The closest lines far less like the block than the best are not listed.
func TestLikelyCandidates(t *testing.T) {
	cs := []engine.Candidate{{StartLine: 12, Similarity: 0.92}, {StartLine: 22, Similarity: 0.92}, {StartLine: 9, Similarity: 0.01}}
	if got := likely(cs); len(got) != 2 || got[1].StartLine != 22 {
		t.Errorf("likely = %+v; want the two 92%% candidates", got)
	}
	if got := likely(cs[2:]); len(got) != 1 {
		t.Errorf("likely(one poor candidate) = %+v; want it kept: nothing better is there", got)
	}
}

// TestChangesetTreeSaysPickLines: in the changeset's tree, a held failure
// reads as the queue reads it, "pick lines" — its agent waits — not
// "failed".
func TestChangesetTreeSaysPickLines(t *testing.T) {
	h := newHarness(t)
	h.write("a.go", pickBase)
	h.write("b.txt", "b\n")
	held := h.propose("agent", "s", engine.FormatSearchReplace, "a.go", srBlock("\tx := 1\n\ty := 3\n", "\tx := 10\n\ty := 20\n"))
	other := h.propose("agent", "s", engine.FormatWrite, "b.txt", "B\n")
	h.win.Select(other.ID)
	h.settle()
	for _, row := range h.TreeRows() {
		if strings.Contains(row, "a.go") {
			if !strings.Contains(row, "a.go pick lines") {
				t.Errorf("the held failure's row in the tree: %q; want pick lines", row)
			}
			return
		}
	}
	t.Fatalf("the tree %q lacks the held failure %s", h.TreeRows(), held.ID)
}

// TestMarkLinesNotInTheFileKeepTheDialog: Use these lines with lines the
// file does not have keeps the Mark lines… dialog open and says why, and
// nothing is placed (real window: the confirm dialog closed first, and the
// click did nothing the person could see); lines that are there then place
// the block.
func TestMarkLinesNotInTheFileKeepTheDialog(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "x\ny\nx\n")
	p := h.propose("agent", "s", engine.FormatEdit, "a.txt", `{"old_string":"x","new_string":"X"}`)
	h.win.Select(p.ID)
	k := h.Picker()
	k.Mark()
	k.MarkLines("2", "9")
	h.Dialog().Click("Use these lines")
	if !h.Dialog().Open() || !strings.Contains(h.Dialog().Text(), "From line") {
		t.Fatal("Use these lines with lines 2–9 of a 3-line file closed the dialog")
	}
	problem, wraps := k.MarkProblem()
	if !strings.Contains(problem, "not in the file") {
		t.Errorf("problem %q; want it to say the lines are not in the file", problem)
	}
	if !wraps {
		t.Error("the problem does not wrap by word (unwrapped it widened the dialog)")
	}
	if got, _ := h.desk.Get(p.ID); got.State != review.StateHeld {
		t.Fatalf("state %s after lines not in the file; want the failure still held", got.State)
	}
	k.MarkLines("2", "2")
	if problem, _ := k.MarkProblem(); problem != "" {
		t.Errorf("the problem %q still shows for lines 2–2", problem)
	}
	h.Dialog().Click("Use these lines")
	h.until("the placed diff shows", func() bool { q, _ := h.desk.Get(p.ID); return q.State == review.StatePending })
	if got, _ := h.desk.Get(p.ID); got.Files[0].Proposed != "x\nX\nx\n" {
		t.Errorf("proposed = %q; want line 2 replaced", got.Files[0].Proposed)
	}
}

// TestBackToTheCandidatesAfterAPick: after using candidate 1 the person
// can go back to the list (the candidates and Dismiss were gone) and pick
// another; the file written has the block where the second pick put it.
func TestBackToTheCandidatesAfterAPick(t *testing.T) {
	h := newHarness(t)
	base := "package a\n\nfunc A() {\n\tx := 1\n\ty := 2\n}\n\nfunc B() {\n\tx := 1\n\ty := 2\n}\n"
	h.write("a.go", base)
	p := h.propose("agent", "s", engine.FormatSearchReplace, "a.go", srBlock("\tx := 1\n\ty := 3\n", "\tx := 10\n\ty := 20\n"))
	h.win.Select(p.ID)
	h.settle()
	h.Keys("1")
	h.until("the placed diff shows", func() bool {
		q, _ := h.desk.Get(p.ID)
		return q.State == review.StatePending && h.ShownState() == review.StatePending
	})
	h.settle()
	if !slices.Contains(h.PaneButtons(), "Back to the candidates…") {
		t.Fatalf("after the pick, no way back to the candidates: %q", h.PaneButtons())
	}
	h.ClickPane("Back to the candidates…")
	if got := h.Center(); !strings.Contains(got, "Use these lines (2)") {
		t.Fatalf("back to the candidates shows:\n%s\nwant the candidates listed again", got)
	}
	h.Keys("2")
	h.until("the second pick shows", func() bool { return strings.Contains(h.Message(), "review the diff") && !h.Picker().Open() })
	h.settle()
	h.Keys("a")
	if h.Dialog().Open() {
		h.Enter()
	}
	h.outcome(p.ID)
	if got, want := h.read("a.go"), strings.Replace(base, "func B() {\n\tx := 1\n\ty := 2\n", "func B() {\n\tx := 10\n\ty := 20\n", 1); got != want {
		t.Errorf("a.go = %q; want the block where the second pick put it", got)
	}
}
