package ui

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/startup"
	"github.com/diffdesk/diffdesk/ui/present"
)

func TestQueueRowsGroupOldestFirstInTheAgentsOrder(t *testing.T) {
	at := func(m int) time.Time { return baseTime.Add(time.Duration(m) * time.Minute) }
	ps := []review.Proposal{
		{ID: "p1", Agent: "claude", Session: "s1", Created: at(1)},
		{ID: "p2", Agent: "gemini", Session: "docs", Created: at(2)},
		{ID: "p3", Agent: "claude", Session: "s1", Created: at(3)},
		{ID: "p0", Agent: "codex", Session: "x", Created: at(0)},
	}
	got := rowsByID(queueRows(ps))
	want := "[codex · x] p0 [claude · s1] p1 p3 [gemini · docs] p2"
	if strings.Join(got, " ") != want {
		t.Errorf("queueRows = %v; want %s", got, want)
	}
}

func TestAge(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{{time.Second, "now"}, {40 * time.Second, "40s"}, {2 * time.Minute, "2m"}, {3 * time.Hour, "3h"}, {50 * time.Hour, "2d"}} {
		if got := present.Age(baseTime.Add(c.d), baseTime); got != c.want {
			t.Errorf("age(%v) = %q; want %q", c.d, got, c.want)
		}
	}
}

func TestQueueShowsProposalsGroupedWithCounts(t *testing.T) {
	h := newHarness(t)
	h.write("main.go", "package main\n\nfunc main() {}\n")
	h.write("README.md", "# demo\n")
	h.propose("claude-code", "add-logging", engine.FormatWrite, "log.go", "package main\n\nimport \"log\"\n")
	h.propose("gemini-cli", "docs", engine.FormatSearchReplace, "README.md", srBlock("# demo\n", "# demo\n\nA demo.\n"))
	h.propose("claude-code", "add-logging", engine.FormatSearchReplace, "main.go", srBlock("func main() {}\n", "func main() {\n\tlog.Println(\"hi\")\n}\n"))
	h.advance(2 * time.Minute)
	h.Queue().Object().Refresh()
	test.AssertObjectRendersToMarkup(t, "window/queue.xml", h.Queue().Object())
	if got := h.win.Win.Title(); got != "DiffDesk — 3 waiting · "+h.root { // the workspace the desk serves follows the count
		t.Errorf("title = %q", got)
	}
}

func TestFirstProposalIsSelectedWithoutFocus(t *testing.T) {
	h := newHarness(t)
	p := h.propose("claude-code", "s", engine.FormatWrite, "a.txt", "hello\n")
	if h.win.Selected() != p.ID {
		t.Errorf("selected %q; want the only proposal %q", h.win.Selected(), p.ID)
	}
	if f := h.win.Win.Canvas().Focused(); f != nil {
		t.Errorf("focused %T; the window must not take focus for a proposal", f)
	}
}

// TestWindowPicksWhatNeedsThePerson: while the person has not chosen, the
// window shows the oldest proposal waiting for them, not a failed one that
// arrived first; it never takes a pending proposal away; a failed one is
// shown only when nothing waits; and once the person selects, it stays.
func TestWindowPicksWhatNeedsThePerson(t *testing.T) {
	h := newHarnessWithConfig(t, holdOff) // a failure answered at once, as with nobody at the desk
	h.write("a.txt", "one\n")
	failed := h.propose("agent", "s", engine.FormatSearchReplace, "a.txt", srBlock("missing\n", "x\n"))
	if h.win.Selected() != failed.ID {
		t.Fatalf("selected %q; want the failed proposal %q while nothing else is there", h.win.Selected(), failed.ID)
	}
	first := h.propose("agent", "s", engine.FormatWrite, "b.txt", "b\n")
	if h.win.Selected() != first.ID {
		t.Fatalf("selected %q; want the pending proposal %q over the failed one", h.win.Selected(), first.ID)
	}
	second := h.propose("agent", "s", engine.FormatWrite, "c.txt", "c\n")
	if h.win.Selected() != first.ID {
		t.Fatalf("selected %q; want %q kept (the oldest pending) when %q arrives", h.win.Selected(), first.ID, second.ID)
	}
	h.win.Select(failed.ID) // the person's choice stays
	h.propose("agent", "s", engine.FormatWrite, "d.txt", "d\n")
	if h.win.Selected() != failed.ID {
		t.Errorf("selected %q; want the person's choice %q kept", h.win.Selected(), failed.ID)
	}
}

func TestPickProposalOrder(t *testing.T) {
	at := func(m int) time.Time { return baseTime.Add(time.Duration(m) * time.Minute) }
	ps := []review.Proposal{
		{ID: "p1", State: review.StateFailed, Created: at(1)},
		{ID: "p2", State: review.StateStreaming, Created: at(2)},
		{ID: "p3", State: review.StateStale, Created: at(3)},
		{ID: "p4", State: review.StatePending, Created: at(5)},
		{ID: "p5", State: review.StatePending, Created: at(4)},
	}
	for _, tt := range []struct {
		n    int // the first n proposals
		want string
	}{{1, "p1"}, {2, "p2"}, {3, "p3"}, {4, "p4"}, {5, "p5"}} {
		if got := pickProposal(ps[:tt.n], []string{ps[tt.n-1].ID}); got != tt.want {
			t.Errorf("pickProposal(first %d) = %q; want %q", tt.n, got, tt.want)
		}
	}
}

// TestDoubleClickOnDismissApprovesNothingUnseen: Dismiss and Approve share
// a spot; the second click of a double-click on Dismiss lands on the next
// proposal's Approve and must write nothing until it has been seen.
func TestDoubleClickOnDismissApprovesNothingUnseen(t *testing.T) {
	h := newHarness(t)
	h.SetArmDelay(600 * time.Millisecond)
	h.write("a.txt", "one\n")
	failed := h.propose("agent", "s", engine.FormatSearchReplace, "a.txt", srBlock("missing\n", "x\n"))
	h.win.Select(failed.ID)
	h.advance(time.Second)
	h.Bar().Tap("Dismiss") // the first click
	big := h.propose("agent", "s", engine.FormatWrite, "big.txt", strings.Repeat("line\n", 20000))
	h.win.Select(big.ID)   // the next proposal takes the pane
	h.Bar().Tap("Approve") // the second click, a moment later
	if _, err := os.Stat(filepath.Join(h.root, "big.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("big.txt written by a click meant for Dismiss: %v", err)
	}
	if !strings.Contains(h.Status(), "just appeared") {
		t.Errorf("status %q; want it to say the proposal has just appeared", h.Status())
	}
	h.advance(time.Second) // the person looked at it
	h.Bar().Tap("Approve")
	h.Dialog().Click("Approve anyway") // one screen of its 20,000 new lines was on screen
	if o := h.outcome(big.ID); o.Status != decision.Approved {
		t.Errorf("after a look, Approve: %s; want approved", o.Status)
	}
}

// TestSmartEditInstructionIsShown: a Gemini smart edit's instruction is
// shown to the reviewer beside the diff.
func TestSmartEditInstructionIsShown(t *testing.T) {
	h := newHarness(t)
	h.write("tax.go", "const taxRate = 0.05\n")
	p := h.propose("gemini-cli", "s", engine.FormatSmartEdit, "tax.go",
		`{"old_string":"const taxRate = 0.05","new_string":"const taxRate = 0.08","instruction":"Raise the tax rate to 8% as the finance team asked."}`)
	h.win.Select(p.ID)
	if !strings.Contains(h.Header(), "Raise the tax rate to 8%") {
		t.Errorf("header %q; want the agent's instruction beside the diff", h.Header())
	}
	other := h.propose("claude-code", "s", engine.FormatWrite, "b.txt", "b\n")
	h.win.Select(other.ID)
	if strings.Contains(h.Header(), "Raise the tax rate") {
		t.Errorf("header %q: the instruction still shows for a proposal without one", h.Header())
	}
}

// TestProtectedFileIsShownWithItsReason: a protected file says so, with
// the reason, beside the diff.
func TestProtectedFileIsShownWithItsReason(t *testing.T) {
	h := newHarness(t)
	p := h.propose("claude-code", "s", engine.FormatWrite, ".claude/settings.json", "{}\n")
	h.win.Select(p.ID)
	if got := h.Header(); !strings.Contains(got, "Protected") || !strings.Contains(got, "switch off the hooks") {
		t.Errorf("header %q; want the file marked protected with its reason", got)
	}
}

// TestLooseMatchIsMarkedInTheWindow: an edit applied by a loose match
// says so above the diff, with where it went and what the agent expected;
// at the hunk it placed, a card shows the agent's text beside the lines the
// file held, and the view marks those lines.
func TestLooseMatchIsMarkedInTheWindow(t *testing.T) {
	h := newHarness(t)
	h.write("tax.js", "const a = 1;\nconst taxRate = 0.075;\n")
	p := h.propose("gemini-cli", "s", engine.FormatSmartEdit, "tax.js", `{"old_string":"const taxRate = 0.05;","new_string":"const taxRate = 0.08;"}`)
	h.win.Select(p.ID)
	if got := h.Header(); !strings.Contains(got, "Matched loosely") || !strings.Contains(got, "const taxRate = 0.05;") {
		t.Errorf("header %q; want its note on the loose match and what the agent expected", got)
	}
	if c := h.LooseCard(); !c.Shown || c.Expected != "const taxRate = 0.05;" || c.Found != "const taxRate = 0.075;" ||
		!strings.Contains(c.FoundHead, "line 2") || !strings.Contains(c.Title, "block 1's loose match (fuzzy)") {
		t.Errorf("loose card %+v; want the agent's text beside line 2 as the file had it", c)
	}
	if !h.win.View().Marks().LooseLine(1) || h.win.View().Marks().LooseLine(0) {
		t.Errorf("the view marks line 2 loose: %v, line 1: %v; want only line 2", h.win.View().Marks().LooseLine(1), h.win.View().Marks().LooseLine(0))
	}
}

// TestLooseCardFollowsTheHunk: in an edit whose first block matched
// exactly and whose second matched loosely, the card shows only at the
// second block's hunk, pushing the diff down while it shows.
func TestLooseCardFollowsTheHunk(t *testing.T) {
	h := newHarness(t)
	var base strings.Builder
	for i := range 40 {
		fmt.Fprintf(&base, "line %d\n", i)
	}
	h.write("f.txt", base.String())
	payload := "------- SEARCH\nline 5\n=======\nline five\n+++++++ REPLACE\n------- SEARCH\nline 30   \n=======\nline thirty\n+++++++ REPLACE\n"
	p := h.propose("cline", "s", engine.FormatSearchReplace, "f.txt", payload)
	h.win.Select(p.ID)
	viewY := func() float32 { return fyne.CurrentApp().Driver().AbsolutePositionForObject(h.win.View()).Y }
	before := viewY()
	if c := h.LooseCard(); c.Shown {
		t.Errorf("at the exact first hunk the loose card shows %q; want it hidden", c.Title)
	}
	h.win.TypeKey('j')
	if c := h.LooseCard(); !c.Shown || !strings.Contains(c.Title, "block 2") || c.Found != "line 30" || c.Expected != "line 30···" {
		t.Errorf("at the second hunk the loose card %+v; want block 2, the agent's line with its trailing spaces beside the file's", c)
	}
	if viewY() <= before {
		t.Errorf("with the card shown the diff starts at y=%v; want below %v", viewY(), before)
	}
	h.win.TypeKey('k')
	if h.LooseCard().Shown || viewY() != before {
		t.Errorf("back at the first hunk: card shown %v, diff at y=%v; want it gone and the diff at %v", h.LooseCard().Shown, viewY(), before)
	}
}

// TestClickingAQueueRowKeepsTheReviewKeys: a click on a queue row (which
// focuses the list) leaves the keyboard with the window, so a then works.
func TestClickingAQueueRowKeepsTheReviewKeys(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\n")
	h.propose("agent", "s", engine.FormatWrite, "b.txt", "b\n")
	p := h.propose("agent", "s", engine.FormatSearchReplace, "a.txt", srBlock("one\n", "ONE\n"))
	h.Queue().Click("a.txt")
	if f := h.Focused(); f != nil {
		t.Fatalf("after a click on a queue row the keyboard is with %T; want the window", f)
	}
	h.win.TypeKey('a')
	if o := h.outcome(p.ID); o.Status != decision.Approved || h.read("a.txt") != "ONE\n" {
		t.Errorf("a after the click: %s, a.txt %q; want approved", o.Status, h.read("a.txt"))
	}
}

func TestApproveWritesTheFile(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\ntwo\n")
	p := h.propose("agent", "s", engine.FormatSearchReplace, "a.txt", srBlock("two\n", "TWO\n"))
	h.Bar().Approve()
	o := h.outcome(p.ID)
	if o.Status != decision.Approved || h.read("a.txt") != "one\nTWO\n" {
		t.Errorf("after Approve: status %s, file %q", o.Status, h.read("a.txt"))
	}
	if !h.SaysOutcome(p.ID) {
		t.Errorf("status line %q; want the outcome", h.Status())
	}
	if h.win.Win.Title() != "DiffDesk · "+h.root {
		t.Errorf("title %q after the only proposal was decided", h.win.Win.Title())
	}
}

func TestRejectDialogSendsTheReason(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\n")
	p := h.propose("agent", "s", engine.FormatWrite, "a.txt", "ONE\n")
	h.win.ShowReject()
	h.RejectBox().Type("use the constant instead")
	h.RejectBox().Send()
	o := h.outcome(p.ID)
	if o.Status != decision.Rejected || o.Feedback != "use the constant instead" || h.read("a.txt") != "one\n" {
		t.Errorf("after Reject: status %s, feedback %q, file %q", o.Status, o.Feedback, h.read("a.txt"))
	}
}

func TestStreamingDisablesDecisionsUntilFinished(t *testing.T) {
	h := newHarness(t)
	p, err := h.desk.Propose(t.Context(), review.Request{Agent: "a", Format: engine.FormatWrite, Path: "s.txt", Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		h.desk.Feed(p.ID, strings.Repeat("x", i)+"\n")
	}
	h.until("the stream shows", func() bool { return h.Shown() == p.ID && h.ShownState() == review.StateStreaming })
	if b := h.Bar(); b.State("Approve (a)") != "off" || b.State("Reject… (r)") != "on" || b.State("Edit (e)") != "off" || !b.FollowShown() {
		t.Errorf("while streaming: bar %q, follow shown %v; want Approve and Edit off, Reject on, Follow shown", b.Buttons(), b.FollowShown())
	}
	test.AssertObjectRendersToMarkup(t, "window/bar_streaming.xml", h.Bar().Object())
	h.win.Approve() // ignored while streaming
	if _, err := h.desk.Finish(t.Context(), p.ID); err != nil {
		t.Fatal(err)
	}
	h.until("the stream ends", func() bool { return h.ShownState() == review.StatePending })
	if b := h.Bar(); b.State("Approve (a)") != "on" || b.FollowShown() {
		t.Errorf("after the stream: bar %q, follow shown %v; want Approve on, no Follow", b.Buttons(), b.FollowShown())
	}
	test.AssertObjectRendersToMarkup(t, "window/bar_pending.xml", h.Bar().Object())
}

// TestStreamShownBeforeItsFirstChunk: a streaming proposal the window
// shows before the agent's first chunk arrives is the file as it is (it
// crashed the window: the desk's preview claimed the original's lines and
// held none), and its first chunks then show as they come.
func TestStreamShownBeforeItsFirstChunk(t *testing.T) {
	h := newHarness(t)
	h.write("s.txt", numberedLines(300))
	p, err := h.desk.Propose(t.Context(), review.Request{Agent: "a", Format: engine.FormatWrite, Path: "s.txt", Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	h.until("the stream shows", func() bool { return h.Shown() == p.ID && h.ShownState() == review.StateStreaming })
	if got := h.win.View().Lines(); got != 300 {
		t.Errorf("before the first chunk the proposal shows %d lines; want the file's 300", got)
	}
	h.desk.Feed(p.ID, "NEW 1\nNEW 2\n")
	h.until("the first chunk shows", func() bool { _, n, _ := h.win.View().Nav().HunkCount(); return n == 1 })
}

// numberedLines is "line 1\n" to "line n\n".
func numberedLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// TestRejectStopsARunawayStream: Reject works while a proposal streams;
// the agent's next chunk is refused with why, and its finish answers with
// the rejection.
func TestRejectStopsARunawayStream(t *testing.T) {
	h := newHarness(t)
	p, err := h.desk.Propose(t.Context(), review.Request{Agent: "a", Format: engine.FormatWrite, Path: "s.txt", Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	h.desk.Feed(p.ID, "line\n")
	h.until("the stream shows", func() bool { return h.Shown() == p.ID && h.ShownState() == review.StateStreaming })
	h.win.Reject("this is going nowhere")
	o := h.outcome(p.ID)
	if o.Status != decision.Rejected || o.Feedback != "this is going nowhere" {
		t.Fatalf("outcome = %s %q; want rejected with the reason", o.Status, o.Feedback)
	}
	// What was on screen of a growing text is not tracked: the history
	// must not say its hunks were never seen.
	det := h.historyDetail(p.ID)
	if det.Seen != nil {
		t.Errorf("the journal keeps %v seen of a stream rejected midway; want not tracked (nil)", det.Seen)
	}
	// The decided view shows what had arrived, not a proposal of nothing.
	h.until("the decided view", func() bool { return h.ShownState() == review.StateReported })
	if got, msg := h.win.View().Lines(), h.Status(); got != 1 || !h.SaysOutcome(p.ID) || !o.Unfinished {
		t.Errorf("after the rejection the view shows %d lines, and says %q; want the 1 that had arrived, and that it was rejected while it streamed", got, msg)
	}
	if err := h.desk.Feed(p.ID, "more\n"); err == nil || !strings.Contains(err.Error(), "rejected while it streamed") {
		t.Errorf("Feed after the rejection: %v; want an error saying it was rejected while it streamed", err)
	}
	if fp, err := h.desk.Finish(t.Context(), p.ID); err != nil || fp.State != review.StateReported {
		t.Errorf("Finish after the rejection = %s, %v; want the reported proposal", fp.State, err)
	}
	if _, err := os.Stat(filepath.Join(h.root, "s.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("s.txt exists after the stream was rejected: %v", err)
	}
}

func TestFailedProposalShowsTheAgentText(t *testing.T) {
	h := newHarnessWithConfig(t, holdOff) // a failure answered at once, as with nobody at the desk
	h.write("a.txt", "one\n")
	p := h.propose("agent", "s", engine.FormatSearchReplace, "a.txt", srBlock("missing\n", "x\n"))
	h.win.Select(p.ID)
	if h.ShownState() != review.StateFailed || !strings.Contains(h.Center(), "does not match") {
		t.Errorf("failed proposal: state %s, in the diff's place %q; want the agent's text that does not match", h.ShownState(), h.Center())
	}
	if b := h.Bar(); b.State("Approve (a)") != "" || b.State("Dismiss") == "" {
		t.Errorf("failed proposal: bar %q; want Dismiss, no Approve", b.Buttons())
	}
	if h.win.Waiting() != 0 {
		t.Errorf("waiting = %d; a failed proposal waits for nobody", h.win.Waiting())
	}
	h.Bar().Click("Dismiss")
	if h.InQueue(p.ID) || h.Shown() != "" {
		t.Errorf("after Dismiss the failed proposal is still shown")
	}
}

func TestStaleProposalApprovesTheMerge(t *testing.T) {
	h := newHarness(t)
	p := h.staleProposal("c.go", "a\nb\nc\nd\ne\nf\n", srBlock("e\n", "E\n"), "A\nb\nc\nd\ne\nf\n")
	if b := h.Bar(); b.State("Approve (a)") != "" || b.State("Approve merged (a)") != "on" {
		t.Fatalf("stale: bar %q; want Approve merged, no Approve", b.Buttons())
	}
	test.AssertObjectRendersToMarkup(t, "window/bar_stale.xml", h.Bar().Object())
	h.win.Approve() // a is Approve merged here
	o := h.outcome(p.ID)
	if o.Status != decision.Approved || h.read("c.go") != "A\nb\nc\nd\nE\nf\n" {
		t.Errorf("approve merged: status %s, file %q; want the proposal merged into the disk", o.Status, h.read("c.go"))
	}
}

func TestStaleProposalShowsBaseDiskAndProposal(t *testing.T) {
	h := newHarness(t)
	h.staleProposal("c.go", "a\nb\nc\nd\ne\nf\n", srBlock("e\n", "E\n"), "A\nb\nc\nd\ne\nf\n")
	if h.Diff().Showing() != present.StaleMerged {
		t.Fatalf("a stale proposal shows %q; want the choice of base / disk / proposal, on the merge", h.Diff().Showing())
	}
	firstChange := func() int {
		hs := h.win.View().Hunks()
		if len(hs) != 1 {
			t.Fatalf("%d hunks shown; want 1", len(hs))
		}
		return hs[0].Change.A0
	}
	for _, tt := range []struct {
		show string
		line int // 0-based line of the one change shown
	}{{present.StaleDisk, 0}, {present.StaleProposal, 4}} {
		h.Diff().Show(tt.show)
		if got := firstChange(); got != tt.line {
			t.Errorf("%s: the change shown is at line %d; want %d", tt.show, got, tt.line)
		}
	}
	h.Diff().Show(present.StaleMerged)
	if !h.win.View().Stale() {
		t.Error("back on the merged view, the view is not the stale merge")
	}
}

func TestStaleMergeRefusesAChangedDisk(t *testing.T) {
	h := newHarness(t)
	p := h.staleProposal("c.go", "a\nb\nc\nd\ne\nf\n", srBlock("e\n", "E\n"), "A\nb\nc\nd\ne\nf\n")
	h.SetShownDiskHash(0, atomicfile.Hash([]byte("what the person saw\n"))) // the disk moved on since
	h.win.ApproveMerged()
	h.until("the decision ends", func() bool { return !h.Deciding() })
	if _, ok := h.desk.Outcome(p.ID); ok || h.read("c.go") != "A\nb\nc\nd\ne\nf\n" {
		t.Errorf("a merge approved against another disk content was written: %q", h.read("c.go"))
	}
}

func TestKeysNavigateProposals(t *testing.T) {
	h := newHarness(t)
	p1 := h.propose("a", "s", engine.FormatWrite, "1.txt", "1\n")
	p2 := h.propose("a", "s", engine.FormatWrite, "2.txt", "2\n")
	h.win.Select(p1.ID) // the agent's order: p1 is first
	test.TypeOnCanvas(h.win.Win.Canvas(), "n")
	if h.win.Selected() != p2.ID {
		t.Errorf("n selected %q; want %q", h.win.Selected(), p2.ID)
	}
	h.win.TypeKey('p')
	if h.win.Selected() != p1.ID {
		t.Errorf("p selected %q; want %q", h.win.Selected(), p1.ID)
	}
	h.win.TypeKey('?')
	if !h.KeysShown() {
		t.Error("? showed no keys overlay")
	}
}

func TestNotificationCoalescesABurst(t *testing.T) {
	h := newHarness(t)
	sent := h.Notices(time.Millisecond)
	for _, f := range []string{"1.txt", "2.txt", "3.txt"} {
		if _, err := h.desk.Propose(t.Context(), review.Request{Agent: "a", Format: engine.FormatWrite, Path: f, Payload: "x\n"}); err != nil {
			t.Fatal(err)
		}
	}
	h.until("a notification is sent", func() bool { return len(*sent) > 0 })
	h.settle()
	if len(*sent) != 1 || !strings.Contains((*sent)[0].Summary, "3 proposals") {
		t.Errorf("notifications %+v; want one for the burst of 3", *sent)
	}
}

func TestMultiFileProposalSwitchesFiles(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\n")
	h.write("b.txt", "two\n")
	patch := "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** Update File: b.txt\n@@\n-two\n+TWO\n*** End Patch\n"
	p := h.propose("codex", "s", engine.FormatPatch, "", patch)
	h.win.Select(p.ID)
	// The changeset's file tree lists the files (and stands in for the
	// proposal's own file selector).
	opts, choiceShown := h.FileOptions()
	if tree := h.Tree(); !h.TreeShown() || strings.Count(tree, "\n") != 1 || len(opts) != 2 || choiceShown {
		t.Fatalf("file tree shown %v:\n%s\nchoice %q shown %v; want the tree with a.txt and b.txt, no choice", h.TreeShown(), tree, opts, choiceShown)
	}
	h.ChooseFile("b.txt")
	if h.ShownFile() != "b.txt" || len(h.win.View().Hunks()) != 1 {
		t.Errorf("after choosing b.txt: file %q, %d hunks", h.ShownFile(), len(h.win.View().Hunks()))
	}
	h.win.Approve()
	if o := h.outcome(p.ID); o.Status != decision.Approved || h.read("a.txt") != "ONE\n" || h.read("b.txt") != "TWO\n" {
		t.Errorf("approve: %s, a %q, b %q", o.Status, h.read("a.txt"), h.read("b.txt"))
	}
}

// TestMultiFileReviewCrossesFilesAndAsksBeforeUnseen: j and k cross from
// file to file, and approving files never opened asks first.
func TestMultiFileReviewCrossesFilesAndAsksBeforeUnseen(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\n")
	h.write("b.txt", "two\n")
	h.write("c.txt", "three\n")
	patch := "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** Update File: b.txt\n@@\n-two\n+TWO\n" +
		"*** Update File: c.txt\n@@\n-three\n+THREE\n*** End Patch\n"
	p := h.propose("codex", "s", engine.FormatPatch, "", patch)
	h.win.Select(p.ID)
	// a.txt opens at its only change: j goes past it, on to b.txt
	h.Keys("j")
	if f := h.ShownFile(); f != "b.txt" {
		t.Fatalf("after j past a.txt's last change: file %q; want b.txt", f)
	}
	h.Keys("k")
	if f := h.ShownFile(); f != "a.txt" {
		t.Fatalf("after k before b.txt's first change: file %q; want a.txt", f)
	}
	h.win.Approve() // c.txt was never on screen
	h.settle()
	if !strings.Contains(h.Dialog().Text(), "never") || h.read("a.txt") != "one\n" {
		t.Fatalf("Approve with c.txt unseen: dialog %q, a.txt %q; want the question and nothing written", h.Dialog().Text(), h.read("a.txt"))
	}
	h.pressKey(fyne.KeyEscape) // Esc: show the unseen file instead
	if h.Dialog().Open() || h.ShownFile() != "c.txt" || h.read("a.txt") != "one\n" {
		t.Fatalf("after Esc: dialog %v, file %q, a.txt %q; want no dialog, c.txt shown, nothing written", h.Dialog().Open(), h.ShownFile(), h.read("a.txt"))
	}
	if h.Diff().Counter() != "hunk 1 of 1 · file 3 of 3" {
		t.Errorf("counter = %q; want the hunk and the file", h.Diff().Counter())
	}
	h.win.Approve() // every file seen now: no question
	if o := h.outcome(p.ID); o.Status != decision.Approved || h.read("c.txt") != "THREE\n" {
		t.Errorf("after Approve with every file seen: %s, c.txt %q", o.Status, h.read("c.txt"))
	}
}

// TestUnseenQuestionApprovesAll: Approve all in the question approves
// files never shown.
func TestUnseenQuestionApprovesAll(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\n")
	h.write("b.txt", "two\n")
	p := h.propose("codex", "s", engine.FormatPatch, "", "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** Update File: b.txt\n@@\n-two\n+TWO\n*** End Patch\n")
	h.win.Select(p.ID)
	h.win.Approve()
	h.settle()
	if !h.Dialog().Open() {
		t.Fatal("no question before approving b.txt, never shown")
	}
	h.Dialog().Click("Approve anyway")
	if o := h.outcome(p.ID); o.Status != decision.Approved || h.read("b.txt") != "TWO\n" {
		t.Errorf("after Approve all: %s, b.txt %q", o.Status, h.read("b.txt"))
	}
}

func TestWithdrawnProposalLeavesTheQueue(t *testing.T) {
	h := newHarness(t)
	p := h.propose("a", "s", engine.FormatWrite, "x.txt", "x\n")
	if err := h.desk.Withdraw(t.Context(), p.ID, "the user answered in the terminal"); err != nil {
		t.Fatal(err)
	}
	h.until("the queue drops it", func() bool { return !h.InQueue(p.ID) })
	if !strings.Contains(h.Status(), "withdrew") || h.Bar().State("Approve (a)") != "" || h.win.Waiting() != 0 {
		t.Errorf("withdrawn: status %q, bar %q, waiting %d; want no Approve", h.Status(), h.Bar().Buttons(), h.win.Waiting())
	}
}

func TestInterruptedWritesAreTold(t *testing.T) {
	txt := startup.InterruptedText([]journal.Interrupted{{Checkpoint: 7, Files: []journal.RecoveredFile{{Path: "/w/a.go", State: journal.WriteInterrupted}}}})
	if !strings.Contains(txt, "/w/a.go kept its old content") || !strings.Contains(txt, "checkpoint 7") {
		t.Errorf("InterruptedText = %q", txt)
	}
	if startup.InterruptedText(nil) != "" {
		t.Error("startup.InterruptedText(nil) is not empty")
	}
}

func TestStaleConflictNeedsAnEdit(t *testing.T) {
	h := newHarness(t)
	p := h.staleProposal("c.go", "a\nb\nc\n", srBlock("b\n", "B from the agent\n"), "a\nb from the person\nc\n")
	if h.Bar().State("Approve merged (a)") != "off" || !strings.Contains(h.Header(), "conflict") {
		t.Fatalf("conflicting merge: bar %q, header %q; want Approve merged off and the conflict named", h.Bar().Buttons(), h.Header())
	}
	h.win.Approve() // must not write anything
	h.settle()
	if h.Deciding() || h.read("c.go") != "a\nb from the person\nc\n" {
		t.Fatalf("a with conflicts: deciding %v, file %q", h.Deciding(), h.read("c.go"))
	}
	h.win.Edit()
	ed := h.win.View().Editor()
	if ed == nil {
		t.Fatal("Edit on a stale proposal did not open the editor")
	}
	if !strings.Contains(ed.Text(), "<<<<<<<") {
		t.Errorf("the editor starts from %q; want the merge with its conflict markers", ed.Text())
	}
	ed.SelectAll()
	test.Type(ed, "a\nb from both\nc\n")
	h.win.Approve() // a is Approve edited while editing
	if o := h.outcome(p.ID); o.Status != decision.ApprovedEdited || h.read("c.go") != "a\nb from both\nc\n" {
		t.Errorf("approve edited over a stale file: status %s, file %q", o.Status, h.read("c.go"))
	}
}

func TestNoNotificationForAutoApproved(t *testing.T) {
	h := newHarnessWithConfig(t, "[[auto_approve]]\npath = \"docs/**\"\n")
	sent := h.Notices(time.Millisecond)
	auto, err := h.desk.Propose(t.Context(), review.Request{Agent: "a", Format: engine.FormatWrite, Path: "docs/guide.md", Payload: "x\n"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.desk.Propose(t.Context(), review.Request{Agent: "a", Format: engine.FormatWrite, Path: "main.go", Payload: "package main\n"}); err != nil {
		t.Fatal(err)
	}
	h.until("the auto-approved proposal is written", func() bool { _, ok := h.desk.Outcome(auto.ID); return ok })
	h.until("a notification is sent", func() bool { return len(*sent) > 0 })
	h.settle()
	if len(*sent) != 1 || !strings.HasPrefix((*sent)[0].Body, "main.go ") {
		t.Errorf("notifications %+v; want one, for main.go only", *sent)
	}
}

func TestInterruptedWritesOpenADialog(t *testing.T) {
	h := newHarness(t)
	w := windowOver(t, h.desk, WindowOptions{Interrupted: []journal.Interrupted{{Checkpoint: 3, Files: []journal.RecoveredFile{{Path: "/w/a.go", State: journal.WriteWritten}}}}})
	if q := w.Dialog().Text(); !strings.Contains(q, "Interrupted writes") || !strings.Contains(q, "a.go") {
		t.Errorf("no dialog tells the person about the interrupted write: %q", q)
	}
}

func TestViewFollowsTheThemeVariant(t *testing.T) {
	h := newHarness(t)
	if h.win.View().Dark() {
		t.Fatal("the view is dark under the light theme")
	}
	fyne.CurrentApp().Settings().SetTheme(NewVariantTheme(theme.VariantDark))
	h.until("the view turns dark", func() bool { return h.win.View().Dark() })
}

func TestKeysJumpBetweenHunks(t *testing.T) {
	h := newHarness(t)
	var base strings.Builder
	for i := range 300 {
		fmt.Fprintf(&base, "line %d\n", i)
	}
	b := base.String()
	p := strings.Replace(strings.Replace(b, "line 20\n", "line twenty\n", 1), "line 250\n", "line two hundred fifty\n", 1)
	h.write("long.txt", b)
	h.propose("a", "s", engine.FormatWrite, "long.txt", p)
	v := h.win.View()
	first := v.Nav().CurrentHunk()
	h.win.TypeKey('j')
	second := v.Nav().CurrentHunk()
	h.win.TypeKey('k')
	if !(second > first) || v.Nav().CurrentHunk() != first {
		t.Errorf("j then k: hunks %d → %d → %d; want the second hunk, then the first again", first, second, v.Nav().CurrentHunk())
	}
}

func TestFollowToggleReachesTheView(t *testing.T) {
	h := newHarness(t)
	p, err := h.desk.Propose(t.Context(), review.Request{Agent: "a", Format: engine.FormatWrite, Path: "s.txt", Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	h.desk.Feed(p.ID, "one\ntwo\n")
	h.until("the stream shows", func() bool { return h.Shown() == p.ID && h.ShownState() == review.StateStreaming })
	h.win.TypeKey('f')
	if h.Bar().Following() || h.win.View().Following() {
		t.Errorf("after f: check %v, view following %v; want both off", h.Bar().Following(), h.win.View().Following())
	}
	h.win.View().SetFollow(true) // the view's own control (OnFollowChanged)
	if !h.Bar().Following() {
		t.Error("the Follow check did not follow the view")
	}
}

// trayApp is a test app with a system tray that records its calls.
type trayApp struct {
	fyne.App
	calls []string
}

func (a *trayApp) SetSystemTrayMenu(*fyne.Menu) { a.calls = append(a.calls, "menu") }
func (a *trayApp) SetSystemTrayIcon(r fyne.Resource) {
	a.calls = append(a.calls, "icon "+http.DetectContentType(r.Content()))
}
func (a *trayApp) SetSystemTrayWindow(fyne.Window) {}

// TestTrayGetsThePNGIconBeforeItsMenu: the tray's icon is DiffDesk's PNG,
// set before the menu starts the tray, so Fyne never renders its SVG
// fallback on the tray goroutine.
func TestTrayGetsThePNGIconBeforeItsMenu(t *testing.T) {
	h := newHarness(t)
	a := &trayApp{App: fyne.CurrentApp()}
	w := NewWindow(a, h.desk, WindowOptions{Do: func(f func()) { h.sched <- f }, NotifyDelay: -1, AgeTick: -1, ArmDelay: -1})
	defer w.Close()
	if got := strings.Join(a.calls, ", "); !strings.HasPrefix(got, "icon image/png, menu") {
		t.Errorf("tray calls %q; want the PNG icon set before the menu", got)
	}
}

// TestHeaderShrinksWhenItsNotesGo: after a proposal whose header carries
// notes (a protected file's reason), the next plain proposal's diff starts
// right under its title again, not below the space the notes took.
func TestHeaderShrinksWhenItsNotesGo(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "a\n")
	plain := h.propose("a", "s", engine.FormatWrite, "a.txt", "b\n")
	guarded := h.propose("claude-code", "s", engine.FormatWrite, ".claude/settings.json", "{}\n")
	viewY := func() float32 {
		return fyne.CurrentApp().Driver().AbsolutePositionForObject(h.win.View()).Y
	}
	h.win.Select(plain.ID)
	before := viewY()
	h.win.Select(guarded.ID)
	if viewY() <= before {
		t.Fatalf("the protected file's note took no room (view at %v, %v before)", viewY(), before)
	}
	h.win.Select(plain.ID)
	if got := viewY(); got != before {
		t.Errorf("back on the plain proposal the diff starts at y=%v; want %v, as before the note", got, before)
	}
}

// TestStaleViewOpensAtItsFirstChange: the stale view opens at its first
// change like every other diff, and the counter says so.
func TestStaleViewOpensAtItsFirstChange(t *testing.T) {
	h := newHarness(t)
	var base strings.Builder
	for i := range 200 {
		fmt.Fprintf(&base, "line %d\n", i)
	}
	b := base.String()
	p := h.staleProposal("s.txt", b, srBlock("line 150\n", "line one-fifty\n"), strings.Replace(b, "line 10\n", "line ten\n", 1))
	h.win.Select(p.ID)
	if k := h.win.View().Nav().CurrentHunk(); k != 0 || !strings.HasPrefix(h.Diff().Counter(), "hunk 1 of ") {
		t.Errorf("stale view at hunk %d, counter %q; want its first change", k, h.Diff().Counter())
	}
}

// TestBigProposalOpensWithoutWaiting: a proposal too big to diff on the UI
// goroutine is selected without the shell waiting for its hunks (the
// counter says it is diffing), and the counter and bar catch up when the
// diff arrives, then when its hunks are classified.
func TestBigProposalOpensWithoutWaiting(t *testing.T) {
	h := newHarness(t)
	posted := make(chan func(), 4)
	h.win.View().SetOpenPoster(func(f func()) { posted <- f })
	var base, next strings.Builder
	for i := range 120_000 {
		fmt.Fprintf(&base, "line %d of a file big enough to be diffed off the window's goroutine\n", i)
		if i%1000 == 0 {
			fmt.Fprintf(&next, "changed line %d\n", i)
		} else {
			fmt.Fprintf(&next, "line %d of a file big enough to be diffed off the window's goroutine\n", i)
		}
	}
	h.write("big.txt", base.String())
	p := h.propose("a", "s", engine.FormatWrite, "big.txt", next.String())
	h.win.Select(p.ID)
	if !h.win.View().Opening() || h.Diff().Counter() != "diffing…" {
		t.Fatalf("after selecting: opening %v, counter %q; want the diff still computing and the counter saying so", h.win.View().Opening(), h.Diff().Counter())
	}
	select {
	case f := <-posted:
		f()
	case <-time.After(2 * time.Minute):
		t.Fatal("the diff's goroutine posted nothing in 2 minutes")
	}
	// The hunks' classification (trivial.go), a goroutine of its own, has
	// not reached the window yet: sched is not drained.
	if h.Diff().Counter() != "hunk 1 of 120 · classifying hunks…" {
		t.Errorf("after the diff arrived the counter says %q; want hunk 1 of 120, classifying", h.Diff().Counter())
	}
	h.settle()
	if h.Diff().Counter() != "hunk 1 of 120" {
		t.Errorf("once classified the counter says %q; want hunk 1 of 120", h.Diff().Counter())
	}
}

// TestADecisionMovesOnWithinTheChangeset: after a decision the next
// proposal of the same session takes the pane while one waits, though
// another session's is older; then the oldest.
func TestADecisionMovesOnWithinTheChangeset(t *testing.T) {
	h := newHarness(t)
	a1 := h.propose("claude", "s1", engine.FormatWrite, "a1.txt", "1\n")
	b := h.propose("gemini", "s2", engine.FormatWrite, "b.txt", "b\n")
	a2 := h.propose("claude", "s1", engine.FormatWrite, "a2.txt", "2\n")
	h.win.Select(a1.ID)
	for _, next := range []string{a2.ID, b.ID} {
		was := h.win.Selected()
		h.win.Approve()
		h.until("the next proposal takes the pane", func() bool { return h.win.Selected() != was })
		if got := h.win.Selected(); got != next {
			t.Fatalf("after a decision %q took the pane; want %q", got, next)
		}
	}
}
