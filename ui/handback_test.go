package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/ui/present"
)

// After a control is used, with the pointer or the keyboard, the keys are
// the review's again: a, j, [ act on the proposal. Each control below kept
// the keyboard with every ui test passing when its hand-back was removed
// (a mutation check): the driver clicked controls made apart from the
// window, and a hidden one.

// TestViewChoiceByKeyboardHandsTheKeysBack: Tab to a stale file's choice
// of views, Space picks "What the agent sent"; then a approves the merge.
func TestViewChoiceByKeyboardHandsTheKeysBack(t *testing.T) {
	h := newHarness(t)
	p := h.staleProposal("c.go", "a\nb\nc\nd\ne\nf\n", srBlock("e\n", "E\n"), "A\nb\nc\nd\ne\nf\n")
	h.TabTo(h.ViewChoice(), 2)
	h.Keys(" ")
	if got := h.Diff().Showing(); got != present.StaleProposal {
		t.Fatalf("Space on the third view shows %q; want %q", got, present.StaleProposal)
	}
	if f := h.Focused(); f != nil {
		t.Errorf("after Space on a view the keyboard is with %T; want the window's keys", f)
	}
	h.Keys("a")
	if o := h.outcome(p.ID); o.Status != decision.Approved || h.read("c.go") != "A\nb\nc\nd\nE\nf\n" {
		t.Fatalf("a after choosing a view with the keyboard: %s, c.go %q; want the merge approved", o.Status, h.read("c.go"))
	}
}

// TestViewChoiceClickHandsTheKeysBack: a click on a view, then a key.
func TestViewChoiceClickHandsTheKeysBack(t *testing.T) {
	h := newHarness(t)
	p := h.staleProposal("c.go", "a\nb\nc\nd\ne\nf\n", srBlock("e\n", "E\n"), "A\nb\nc\nd\ne\nf\n")
	h.Tap(h.Diff().ViewControl(1))
	if got := h.Diff().Showing(); got != present.StaleDisk {
		t.Fatalf("a click on the second view shows %q; want %q", got, present.StaleDisk)
	}
	h.Tap(h.Diff().ViewControl(0))
	h.Keys("a")
	if o := h.outcome(p.ID); o.Status != decision.Approved {
		t.Fatalf("a after clicking a view: %s; want approved", o.Status)
	}
}

// TestQueueClickHandsTheKeysBack: a click on another row of the queue,
// or on the row shown, and the next key acts on the proposal shown.
func TestQueueClickHandsTheKeysBack(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\n")
	h.write("b.txt", "two\n")
	a := h.propose("agent", "s", engine.FormatWrite, "a.txt", "ONE\n")
	b := h.propose("other", "o", engine.FormatWrite, "b.txt", "TWO\n")
	h.win.Select(a.ID)
	h.settle()
	h.Tap(h.Queue().RowControl(b.ID))
	if h.Shown() != b.ID {
		t.Fatalf("a click on b.txt's row shows %s; want %s", h.Shown(), b.ID)
	}
	h.Tap(h.Queue().RowControl(b.ID)) // the row shown, clicked again
	if f := h.Focused(); f != nil {
		t.Errorf("after clicks in the queue the keyboard is with %T; want the window's keys", f)
	}
	h.Keys("a")
	if o := h.outcome(b.ID); o.Status != decision.Approved || h.read("b.txt") != "TWO\n" {
		t.Fatalf("a after a click in the queue: %s, b.txt %q; want b approved", o.Status, h.read("b.txt"))
	}
	if h.read("a.txt") != "one\n" {
		t.Errorf("a.txt written: %q", h.read("a.txt"))
	}
}

// forgottenMultiFile shows a decided two-file proposal (a.txt, b.txt)
// read again from its changeset after the desk dropped it from memory, as
// a desk does with old decided proposals: with no changeset to show, the
// pane shows the proposal's own choice of files, and [ and ] step through
// its files alone.
func forgottenMultiFile(t *testing.T) (*harness, review.Proposal) {
	t.Helper()
	h := newHarness(t)
	h.write("a.txt", "one\n")
	h.write("b.txt", "two\n")
	h.write("c.txt", "three\n")
	patch := "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** Update File: b.txt\n@@\n-two\n+TWO\n*** End Patch\n"
	multi := h.propose("codex", "s", engine.FormatPatch, "", patch)
	other := h.propose("codex", "s", engine.FormatSearchReplace, "c.txt", srBlock("three\n", "THREE\n"))
	if _, err := h.desk.Decide(t.Context(), multi.ID, review.Decision{Verdict: decision.Approved}); err != nil {
		t.Fatal(err)
	}
	h.until("the pane moves on to c.txt", func() bool { return h.Shown() == other.ID })
	h.Keys("[") // back to b.txt, read again
	if h.Shown() != multi.ID || h.ShownFile() != "b.txt" || !h.Decided() {
		t.Fatalf("[ from c.txt shows %s %s (decided %v); want %s b.txt decided", h.Shown(), h.ShownFile(), h.Decided(), multi.ID)
	}
	h.desk.Forget(multi.ID)
	if _, err := h.desk.Decide(t.Context(), other.ID, review.Decision{Verdict: decision.Rejected, Feedback: "no"}); err != nil {
		t.Fatal(err)
	}
	h.until("c.txt's outcome reaches the window", func() bool { return h.Tree() == "" })
	if h.Shown() != multi.ID || h.FileChoice() != "b.txt" {
		t.Fatalf("shown %s, file choice %q; want %s with its own choice of files at b.txt", h.Shown(), h.FileChoice(), multi.ID)
	}
	return h, multi
}

// TestStepFileSaysFirstAndLastFileOfTheProposal: ] past the last file and
// [ past the first say so, and step between them.
func TestStepFileSaysFirstAndLastFileOfTheProposal(t *testing.T) {
	h, _ := forgottenMultiFile(t)
	for _, step := range []struct{ key, file, says string }{
		{"]", "b.txt", "This is the last file of the proposal."},
		{"[", "a.txt", ""},
		{"[", "a.txt", "This is the first file of the proposal."},
		{"]", "b.txt", ""},
	} {
		h.Keys(step.key)
		if h.ShownFile() != step.file || h.Message() != step.says {
			t.Errorf("%s: file %s, message %q; want %s, %q", step.key, h.ShownFile(), h.Message(), step.file, step.says)
		}
	}
}

// TestFileChoiceHandsTheKeysBack: the proposal's choice of files, used by
// click and by keyboard, leaves the keys to the review: ] steps on.
func TestFileChoiceHandsTheKeysBack(t *testing.T) {
	h, _ := forgottenMultiFile(t)
	h.Tap(h.FileControl(0))
	if h.ShownFile() != "a.txt" || h.Focused() != nil {
		t.Fatalf("a click on a.txt: shows %s, keyboard with %T; want a.txt and the window's keys", h.ShownFile(), h.Focused())
	}
	h.Keys("]")
	if h.ShownFile() != "b.txt" {
		t.Fatalf("] after a click on a file shows %s; want b.txt", h.ShownFile())
	}
	h.TabTo(h.FileChoices(), 0)
	h.Keys(" ")
	if h.ShownFile() != "a.txt" {
		t.Fatalf("Space on a.txt's option shows %s", h.ShownFile())
	}
	h.Keys("]")
	if h.ShownFile() != "b.txt" || strings.Contains(h.Message(), "first") {
		t.Fatalf("] after choosing a file with the keyboard shows %s (%q); want b.txt", h.ShownFile(), h.Message())
	}
}

// TestQueueByKeyboardHandsTheKeysBack: Tab into the queue, the arrows to
// another proposal, Space shows it; the keys are the review's again, and
// the Space chose a row only (it unticked the hunk of the proposal shown
// by it, in the real window), so a approves it whole.
func TestQueueByKeyboardHandsTheKeysBack(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\n")
	h.write("b.txt", "two\n")
	a := h.propose("agent", "s", engine.FormatWrite, "a.txt", "ONE\n")
	b := h.propose("other", "o", engine.FormatWrite, "b.txt", "TWO\n")
	h.win.Select(a.ID)
	h.settle()
	h.TabToQueue()
	for range 3 { // past a's row and b's heading
		h.Down()
	}
	h.Space()
	if h.Shown() != b.ID {
		t.Fatalf("Space on b.txt's row shows %s; want %s", h.Shown(), b.ID)
	}
	if f := h.Focused(); f != nil {
		t.Errorf("after Space in the queue the keyboard is with %T; want the window's keys", f)
	}
	if got := h.Bar().State("Approve selected hunks"); got == "on" {
		t.Errorf("Space in the queue unticked a hunk of b.txt (Approve selected hunks is on)")
	}
	h.Keys("a")
	if o := h.outcome(b.ID); o.Status != decision.Approved || h.read("b.txt") != "TWO\n" {
		t.Fatalf("a after Space in the queue: %s, b.txt %q; want b approved whole", o.Status, h.read("b.txt"))
	}
	if h.read("a.txt") != "one\n" {
		t.Errorf("a.txt written: %q", h.read("a.txt"))
	}
}

// TestQueueWithTheKeyboardSaysSo: while the queue has the keyboard (a Tab
// into it) the line under the bar says so, a review key decides nothing
// (the row highlighted is not the proposal shown), and Esc gives the keys
// back to the review.
func TestQueueWithTheKeyboardSaysSo(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\n")
	h.write("b.txt", "two\n")
	a := h.propose("agent", "s", engine.FormatWrite, "a.txt", "ONE\n")
	h.propose("other", "o", engine.FormatWrite, "b.txt", "TWO\n")
	h.win.Select(a.ID)
	h.settle()
	h.TabToQueue()
	if !strings.Contains(h.Keyboard(), "queue") {
		t.Errorf("with the queue focused the keyboard line says %q; want the queue", h.Keyboard())
	}
	h.Down()
	h.Keys("a")
	if h.Deciding() || h.Decided() || h.read("a.txt") != "one\n" {
		t.Fatalf("a in the queue decided %s: a.txt %q", h.Shown(), h.read("a.txt"))
	}
	h.pressKey(fyne.KeyTab) // on, past the queue
	h.settle()
	if f := h.Focused(); f == nil || strings.Contains(h.Keyboard(), "queue") {
		t.Errorf("Tab past the queue: keyboard with %T, line %q; want the next control, and not the queue named", f, h.Keyboard())
	}
	h.TabToQueue()
	h.Esc()
	if h.Focused() != nil || !strings.Contains(h.Keyboard(), "review") {
		t.Fatalf("Esc in the queue: keyboard with %T, line %q; want the review keys", h.Focused(), h.Keyboard())
	}
	h.Keys("a")
	if o := h.outcome(a.ID); o.Status != decision.Approved {
		t.Fatalf("a after Esc: %s; want a.txt approved", o.Status)
	}
}

// TestApproveButtonByKeyboard: Tab to Approve, Space approves the proposal
// shown and nothing else (the Space's character does not untick a hunk of
// the next one), and the keyboard line says who has the keys once the
// next proposal shows (it still named the button).
func TestApproveButtonByKeyboard(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\n")
	h.write("b.txt", "two\n")
	a := h.propose("agent", "s", engine.FormatWrite, "a.txt", "ONE\n")
	b := h.propose("other", "o", engine.FormatWrite, "b.txt", "TWO\n")
	h.win.Select(a.ID)
	h.settle()
	h.tabUntil(h.win.detail.bar.approve)
	h.Space()
	if o := h.outcome(a.ID); o.Status != decision.Approved || h.read("a.txt") != "ONE\n" {
		t.Fatalf("Space on Approve: %s, a.txt %q", o.Status, h.read("a.txt"))
	}
	h.until("b.txt shows", func() bool { return h.Shown() == b.ID })
	if h.Bar().State("Approve selected hunks") == "on" {
		t.Errorf("the Space unticked a hunk of b.txt")
	}
	wantLine := "review"
	if h.Focused() != nil {
		wantLine = "button"
	}
	if !strings.Contains(h.Keyboard(), wantLine) {
		t.Errorf("keyboard with %T, line %q; want it to say %q", h.Focused(), h.Keyboard(), wantLine)
	}
}
