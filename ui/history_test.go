package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
)

// historyHarness is the window harness with the journal passed to the
// window, so it has its History tab.
type historyHarness struct {
	*harness
	j *journal.Journal
}

func newHistoryHarness(t *testing.T) *historyHarness {
	t.Helper()
	a := test.NewTempApp(t)
	a.Settings().SetTheme(NewVariantTheme(theme.VariantLight))
	h := &harness{t: t, root: t.TempDir(), sched: make(chan func(), 4096), now: baseTime}
	j, err := journal.Open(context.Background(), filepath.Join(t.TempDir(), "journal.db"))
	if err != nil {
		t.Fatal(err)
	}
	cfgFile := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(cfgFile, nil, 0o644)
	cfg, err := config.Load(cfgFile, []string{h.root})
	if err != nil {
		t.Fatal(err)
	}
	h.desk, err = review.NewDesk(review.Options{Roots: []string{h.root}, Config: cfg, Journal: j, Now: h.clock})
	if err != nil {
		t.Fatal(err)
	}
	h.win = NewWindow(a, h.desk, WindowOptions{Do: func(f func()) { h.sched <- f }, Now: h.clock, NotifyDelay: -1, AgeTick: -1, ArmDelay: -1, History: true})
	h.win.Win.Resize(fyne.NewSize(1200, 700))
	h.win.View().SetSynchronous(true)
	h.win.history.view.SetSynchronous(true)
	h.win.history.synchronous = true
	t.Cleanup(func() {
		h.win.Close()
		h.desk.Close()
		j.Close()
	})
	return &historyHarness{harness: h, j: j}
}

// approve proposes a SEARCH/REPLACE edit of rel and approves it.
func (h *historyHarness) approve(rel, search, replace string) {
	h.t.Helper()
	p := h.propose("claude-code", "s1", engine.FormatSearchReplace, rel, srBlock(search, replace))
	h.win.Select(p.ID)
	h.win.Approve()
	if q := h.win.detail.onScreen.dialog; q != nil {
		q.Confirm() // the History tab hides the diff: nothing of it was on screen
	}
	if o := h.outcome(p.ID); o.Status != decision.Approved {
		h.t.Fatalf("approve %s: %s", rel, o.Status)
	}
}

// openHistory switches to the History tab and waits for n entries.
func (h *historyHarness) openHistory(n int) *historyView {
	h.t.Helper()
	h.win.ShowHistory()
	hv := h.win.history
	h.until("the timeline lists the entries", func() bool { return len(hv.entries) == n && hv.sel == 0 && hv.diffs != nil })
	return hv
}

// selectEntry selects entry i and waits for its diff.
func (h *historyHarness) selectEntry(hv *historyView, i int) {
	h.t.Helper()
	gen := hv.diffGen
	hv.list.Select(i)
	h.until("the entry's diff is shown", func() bool { return hv.diffGen > gen && !strings.HasSuffix(hv.diffNote.Text, "loading…") })
}

// threeDecisions makes the history: a.txt approved twice around a rejected
// b.txt, then a.txt approved again.
func threeDecisions(h *historyHarness) {
	h.write("a.txt", "one\ntwo\n")
	h.write("b.txt", "bee\n")
	h.approve("a.txt", "two\n", "TWO\n")
	p := h.propose("gemini", "s2", engine.FormatWrite, "b.txt", "BEE\n")
	h.win.Select(p.ID)
	h.win.Reject("keep it lower case")
	h.outcome(p.ID)
	h.approve("a.txt", "TWO\n", "2\n")
	h.approve("a.txt", "2\n", "II\n")
}

func TestHistoryTimelineListsDecisionsNewestFirst(t *testing.T) {
	h := newHistoryHarness(t)
	threeDecisions(h)
	hv := h.openHistory(4)
	var got []string
	for _, e := range hv.entries {
		badge, _ := historyBadge(e)
		got = append(got, badge+" "+hv.fileList(e.Paths))
	}
	want := []string{"approved a.txt", "approved a.txt", "rejected b.txt", "approved a.txt"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("timeline %q; want %q", got, want)
	}
	if hv.entries[2].Feedback != "keep it lower case" {
		t.Errorf("rejected entry's feedback %q", hv.entries[2].Feedback)
	}
	row := newHistoryRow()
	hv.fillRow(row, hv.entries[2])
	files := row.(*fyne.Container).Objects[0].(*widget.Label)
	if files.Text != "b.txt" {
		t.Errorf("row files %q", files.Text)
	}
}

func TestHistoryEntryShowsItsDiffAndFeedback(t *testing.T) {
	h := newHistoryHarness(t)
	threeDecisions(h)
	hv := h.openHistory(4)
	if len(hv.diffs) != 1 || string(hv.diffs[0].Old) != "one\n2\n" || string(hv.diffs[0].New) != "one\nII\n" {
		t.Fatalf("newest entry's diff %+v", hv.diffs)
	}
	h.selectEntry(hv, 2)
	if len(hv.diffs) != 1 || string(hv.diffs[0].Old) != "bee\n" || string(hv.diffs[0].New) != "BEE\n" {
		t.Errorf("rejected entry's diff %+v", hv.diffs)
	}
	if !strings.Contains(hv.info.Text, "Feedback: keep it lower case") {
		t.Errorf("info %q; want the feedback", hv.info.Text)
	}
	if hv.restore.Disabled() == false {
		t.Errorf("Restore enabled for a decision that wrote nothing")
	}
}

func TestHistoryCompareTwoPoints(t *testing.T) {
	h := newHistoryHarness(t)
	threeDecisions(h)
	hv := h.openHistory(4)
	h.selectEntry(hv, 3) // the first approval: two → TWO
	hv.MarkCompare()
	h.selectEntry(hv, 0) // the last: 2 → II
	if len(hv.diffs) != 1 || string(hv.diffs[0].Old) != "one\nTWO\n" || string(hv.diffs[0].New) != "one\nII\n" {
		t.Errorf("comparison %+v; want after the first against after the last", hv.diffs)
	}
	if !strings.Contains(hv.diffNote.Text, "After checkpoint") {
		t.Errorf("note %q", hv.diffNote.Text)
	}
}

func TestHistoryCompareWithDisk(t *testing.T) {
	h := newHistoryHarness(t)
	threeDecisions(h)
	hv := h.openHistory(4)
	h.write("a.txt", "one\nhand edit\n")
	hv.CompareDisk()
	h.until("the disk comparison", func() bool { return strings.Contains(hv.diffNote.Text, "disk now.") })
	if len(hv.diffs) != 1 || string(hv.diffs[0].New) != "one\nhand edit\n" {
		t.Errorf("vs disk %+v", hv.diffs)
	}
}

func TestHistoryRestoreThroughTheDialog(t *testing.T) {
	h := newHistoryHarness(t)
	threeDecisions(h)
	hv := h.openHistory(4)
	hv.ShowRestore()
	h.until("the dry-run dialog", func() bool { return hv.restoreDlg != nil })
	if h.read("a.txt") != "one\nII\n" {
		t.Fatalf("the dry run wrote the file")
	}
	if txt := hv.restoreText.Text; !strings.Contains(txt, "write") || !strings.Contains(txt, "a.txt  +1 −1") {
		t.Errorf("dry run lists %q", txt)
	}
	// The dialog shows what the restore does, disk now → restored, and says so.
	if hs := hv.restoreView.Hunks(); len(hs) != 1 || hv.restoreView.CurrentHunk() != 0 {
		t.Errorf("the restore dialog shows %d hunks, current %d; want the one change, shown", len(hs), hv.restoreView.CurrentHunk())
	}
	if w := hv.restoreWhat.Text; !strings.Contains(w, "Left: a.txt on disk now") || !strings.Contains(w, "Right: after the restore, a.txt as it was before checkpoint") {
		t.Errorf("the restore dialog's direction %q", w)
	}
	test.Tap(hv.restoreConfirm)
	h.until("the restore entry is listed and selected", func() bool {
		return len(hv.entries) == 5 && hv.entries[0].Kind == journal.EntryRestore && hv.sel == 0
	})
	if got := h.read("a.txt"); got != "one\n2\n" {
		t.Errorf("after the restore a.txt is %q", got)
	}
	// Restoring the restore undoes it.
	h.until("the restore's diff", func() bool { return len(hv.diffs) == 1 })
	hv.ShowRestore()
	h.until("the dry-run dialog", func() bool { return hv.restoreDlg != nil })
	test.Tap(hv.restoreConfirm)
	h.until("the undo", func() bool { return len(hv.entries) == 6 })
	if got := h.read("a.txt"); got != "one\nII\n" {
		t.Errorf("after undoing the restore a.txt is %q", got)
	}
}

func TestHistoryRestoreRefusedThenForced(t *testing.T) {
	h := newHistoryHarness(t)
	threeDecisions(h)
	hv := h.openHistory(4)
	h.write("a.txt", "one\nhand edit\n")
	hv.ShowRestore()
	h.until("the dry-run dialog", func() bool { return hv.restoreDlg != nil })
	if !hv.restoreConfirm.Disabled() || !strings.Contains(hv.restoreText.Text, "Refused: a.txt") {
		t.Fatalf("refused plan: confirm disabled %v, text %q", hv.restoreConfirm.Disabled(), hv.restoreText.Text)
	}
	test.Tap(hv.restoreForce)
	h.until("the forced dry run", func() bool { return hv.restoreDlg != nil && hv.restorePlan.Request.Force })
	if h.read("a.txt") != "one\nhand edit\n" {
		t.Fatalf("Force wrote before the second confirmation")
	}
	test.Tap(hv.restoreConfirm)
	h.until("the restore entry", func() bool { return len(hv.entries) == 5 && hv.entries[0].Kind == journal.EntryRestore })
	if got := h.read("a.txt"); got != "one\n2\n" {
		t.Errorf("after the forced restore a.txt is %q", got)
	}
}

// TestHistoryRestoreLeavesRefusedFilesOut: with one file of a two-file
// checkpoint changed on disk since, the dry run offers to leave it out
// and restore the other, which it then does and nothing else.
func TestHistoryRestoreLeavesRefusedFilesOut(t *testing.T) {
	h := newHistoryHarness(t)
	h.write("a.txt", "a\n")
	h.write("b.txt", "b\n")
	p := h.propose("codex", "s", engine.FormatPatch, "", "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n*** End Patch\n")
	h.win.Select(p.ID)
	h.win.Approve()
	if q := h.win.detail.onScreen.dialog; q != nil {
		q.Confirm()
	}
	if o := h.outcome(p.ID); o.Status != decision.Approved {
		t.Fatalf("approve: %s", o.Status)
	}
	hv := h.openHistory(1)
	h.write("b.txt", "hand edit\n")
	hv.ShowRestore()
	h.until("the dry-run dialog", func() bool { return hv.restoreDlg != nil })
	if hv.restoreOthers.Hidden || !hv.restoreConfirm.Disabled() || !strings.Contains(hv.restoreText.Text, "leave them out") {
		t.Fatalf("one file refused: leave-out shown %v, confirm disabled %v, text %q", !hv.restoreOthers.Hidden, hv.restoreConfirm.Disabled(), hv.restoreText.Text)
	}
	test.Tap(hv.restoreOthers)
	h.until("the dry run of a.txt alone", func() bool { return hv.restoreDlg != nil && len(hv.restorePlan.Files) == 1 })
	if !hv.restoreOthers.Hidden || hv.restoreConfirm.Disabled() {
		t.Fatalf("a.txt alone: leave-out shown %v, confirm disabled %v", !hv.restoreOthers.Hidden, hv.restoreConfirm.Disabled())
	}
	test.Tap(hv.restoreConfirm)
	h.until("the restore entry", func() bool { return len(hv.entries) == 2 && hv.entries[0].Kind == journal.EntryRestore })
	if a, b := h.read("a.txt"), h.read("b.txt"); a != "a\n" || b != "hand edit\n" {
		t.Errorf("after restoring the others: a.txt %q, b.txt %q; want a.txt restored, b.txt as the person left it", a, b)
	}
}

func TestHistoryFilters(t *testing.T) {
	h := newHistoryHarness(t)
	threeDecisions(h)
	hv := h.openHistory(4)
	hv.decisionSel.SetSelected(string(decision.Rejected))
	h.until("filtered by decision", func() bool { return len(hv.entries) == 1 })
	hv.decisionSel.SetSelected(historyAllDecisions)
	h.until("unfiltered", func() bool { return len(hv.entries) == 4 })
	if len(hv.agentSel.Options) != 3 {
		t.Errorf("agent options %q", hv.agentSel.Options)
	}
	hv.agentSel.SetSelected("gemini")
	h.until("filtered by agent", func() bool { return len(hv.entries) == 1 })
	hv.agentSel.SetSelected(historyAllAgents)
	hv.fileEntry.SetText("a.txt")
	hv.reload()
	h.until("filtered by file", func() bool { return len(hv.entries) == 3 })
}

func TestHistoryLoadMore(t *testing.T) {
	h := newHistoryHarness(t)
	threeDecisions(h)
	h.win.history.page = 3
	hv := h.openHistory(3)
	if !hv.more.Visible() {
		t.Fatalf("Load more hidden with an older page left")
	}
	test.Tap(hv.more)
	h.until("the older page", func() bool { return len(hv.entries) == 4 })
	if hv.more.Visible() {
		t.Errorf("Load more shown at the end of the history")
	}
}

func TestHistoryShowsNewDecisionsWhileOpen(t *testing.T) {
	h := newHistoryHarness(t)
	threeDecisions(h)
	hv := h.openHistory(4)
	h.approve("a.txt", "II\n", "two\n")
	h.until("the new decision is listed", func() bool { return len(hv.entries) == 5 })
}

func TestHistoryMultiFileEntryRestoresOneFile(t *testing.T) {
	h := newHistoryHarness(t)
	h.write("a.txt", "one\n")
	h.write("b.txt", "two\n")
	patch := "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** Update File: b.txt\n@@\n-two\n+TWO\n*** End Patch\n"
	p := h.propose("codex", "s", engine.FormatPatch, "", patch)
	h.win.Select(p.ID)
	h.win.detail.files.SetSelected("b.txt") // both files seen: no question
	h.win.Approve()
	h.outcome(p.ID)
	hv := h.openHistory(1)
	if len(hv.fileSel.Options) != 2 || !strings.HasPrefix(hv.fileSel.Options[1], "b.txt") {
		t.Fatalf("file select offers %q", hv.fileSel.Options)
	}
	hv.fileSel.SetSelectedIndex(1)
	hv.ShowRestoreFile()
	h.until("the dry-run dialog", func() bool { return hv.restoreDlg != nil })
	if txt := hv.restoreText.Text; strings.Contains(txt, "a.txt") || !strings.Contains(txt, "b.txt") {
		t.Errorf("the one-file dry run lists %q", txt)
	}
	test.Tap(hv.restoreConfirm)
	h.until("the restore entry", func() bool { return len(hv.entries) == 2 })
	if h.read("a.txt") != "ONE\n" || h.read("b.txt") != "two\n" {
		t.Errorf("after restoring b.txt: a.txt %q, b.txt %q", h.read("a.txt"), h.read("b.txt"))
	}
}

func TestHistorySessionFilter(t *testing.T) {
	h := newHistoryHarness(t)
	threeDecisions(h)
	hv := h.openHistory(4)
	hv.agentSel.SetSelected("claude-code")
	h.until("filtered by agent", func() bool { return len(hv.entries) == 3 })
	if strings.Join(hv.sessionSel.Options, ",") != historyAllSessions+",s1" {
		t.Errorf("session options %q", hv.sessionSel.Options)
	}
	hv.agentSel.SetSelected(historyAllAgents)
	h.until("unfiltered", func() bool { return len(hv.entries) == 4 })
	hv.sessionSel.SetSelected("s2")
	h.until("filtered by session", func() bool { return len(hv.entries) == 1 && hv.entries[0].Agent == "gemini" })
}

// TestHistoryNamesAnAgentWithoutSession: an agent that gave no session is
// named alone, without a trailing slash.
func TestHistoryNamesAnAgentWithoutSession(t *testing.T) {
	h := newHistoryHarness(t)
	h.write("a.txt", "one\n")
	p := h.propose("claude-code", "", engine.FormatWrite, "a.txt", "ONE\n")
	h.win.Select(p.ID)
	h.win.Approve()
	h.outcome(p.ID)
	hv := h.openHistory(1)
	row := newHistoryRow()
	hv.fillRow(row, hv.entries[0])
	who := row.(*fyne.Container).Objects[1].(*fyne.Container).Objects[2].(*widget.Label)
	if who.Text != "claude-code" || strings.Contains(hv.title.Text, "claude-code/") {
		t.Errorf("row names %q, title %q; want claude-code without a slash", who.Text, hv.title.Text)
	}
}

// TestHistoryDiffOpensAtItsFirstChangeWithoutToggles: a history diff
// decides nothing, so it has no hunk toggles, and it opens at its first
// change, not at line 1.
func TestHistoryDiffOpensAtItsFirstChangeWithoutToggles(t *testing.T) {
	h := newHistoryHarness(t)
	base, proposed := twoHunks()
	h.write("long.txt", base)
	p := h.propose("a", "s", engine.FormatWrite, "long.txt", proposed)
	h.win.Select(p.ID)
	h.win.Approve()
	h.outcome(p.ID)
	hv := h.openHistory(1)
	if hv.view.CurrentHunk() != 0 {
		t.Errorf("the history diff opens at hunk %d; want the first change (0)", hv.view.CurrentHunk())
	}
	if !hv.view.ReadOnly {
		t.Error("the history diff is not read-only: its hunk toggles look clickable")
	}
	hv.view.ToggleHunk(0)
	if got := hv.view.AcceptedHunks(); len(got) != 2 {
		t.Errorf("ToggleHunk in the history diff changed the accepted hunks to %v", got)
	}
}

// TestHistoryLabelsAnApprovedMergeAsTheAgentWasTold: a stale proposal
// approved as its merge, with no edit of the person's, is "approved" in
// the history, as in the agent's outcome.
func TestHistoryLabelsAnApprovedMergeAsTheAgentWasTold(t *testing.T) {
	h := newHistoryHarness(t)
	p := h.staleProposal("c.go", "a\nb\nc\nd\ne\nf\n", srBlock("e\n", "E\n"), "A\nb\nc\nd\ne\nf\n")
	h.win.Approve() // approve merged
	o := h.outcome(p.ID)
	hv := h.openHistory(1)
	if badge, _ := historyBadge(hv.entries[0]); badge != string(o.Status) || badge != string(decision.Approved) {
		t.Errorf("history says %q, the agent was told %q; want both approved", badge, o.Status)
	}
	if !strings.Contains(h.Status(), "merged into the change made on disk") {
		t.Errorf("status %q; want it to say the approval was merged into the disk's change", h.Status())
	}
}

// TestEntryInfoSaysHowTheWriteEnded: each write state reads as a phrase
// ("written to disk", not "write written").
func TestEntryInfoSaysHowTheWriteEnded(t *testing.T) {
	for _, st := range []journal.WriteState{journal.WriteIntended, journal.WriteWritten, journal.WriteInterrupted, journal.WriteConflicted} {
		if got := entryInfo(journal.Entry{ProposalID: "p1", State: st}); !strings.HasPrefix(got, "Proposal p1 · ") || len(got) < len("Proposal p1 · ")+10 {
			t.Errorf("state %s: %q; want a phrase saying how the write ended", st, got)
		}
	}
	if got := entryInfo(journal.Entry{ProposalID: "p1", State: journal.WriteWritten}); got != "Proposal p1 · written to disk" {
		t.Errorf("written: %q", got)
	}
}
