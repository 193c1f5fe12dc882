package ui

import (
	"slices"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/ui/present"
)

// historyHarness is the window harness with its History tab.
type historyHarness struct{ *harness }

func newHistoryHarness(t *testing.T) *historyHarness {
	t.Helper()
	return &historyHarness{newLocalHarness(t, "", WindowOptions{History: true})}
}

// approve proposes a SEARCH/REPLACE edit of rel and approves it.
func (h *historyHarness) approve(rel, search, replace string) {
	h.t.Helper()
	p := h.propose("claude-code", "s1", engine.FormatSearchReplace, rel, srBlock(search, replace))
	h.approveShown(p.ID)
}

// approveShown selects proposal id and approves it, approving anyway if
// asked about what was not on screen (the History tab hides the diff).
func (h *historyHarness) approveShown(id string) {
	h.t.Helper()
	h.win.Select(id)
	h.win.Approve()
	h.settle()
	if h.Dialog().Open() {
		h.Dialog().Click("Approve anyway")
	}
	if o := h.outcome(id); o.Status != decision.Approved {
		h.t.Fatalf("approve %s: %s", id, o.Status)
	}
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

// diffsAre reports whether diffs are one file's, old → new.
func diffsAre(diffs []review.HistoryFile, old, new string) bool {
	return len(diffs) == 1 && string(diffs[0].Old) == old && string(diffs[0].New) == new
}

func TestHistoryTimelineListsDecisionsNewestFirst(t *testing.T) {
	h := newHistoryHarness(t)
	threeDecisions(h)
	hist := h.History()
	hist.Open(4)
	var got []string
	for _, e := range hist.Entries() {
		got = append(got, e.Badge+" "+e.Files+" "+e.Who)
	}
	want := []string{"approved a.txt claude-code/s1", "approved a.txt claude-code/s1", "rejected b.txt gemini/s2", "approved a.txt claude-code/s1"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("timeline %q; want %q", got, want)
	}
}

func TestHistoryEntryShowsItsDiffAndFeedback(t *testing.T) {
	h := newHistoryHarness(t)
	threeDecisions(h)
	hist := h.History()
	hist.Open(4)
	if d := hist.Diffs(); !diffsAre(d, "one\n2\n", "one\nII\n") {
		t.Fatalf("newest entry's diff %+v", d)
	}
	hist.Select(2)
	if d := hist.Diffs(); !diffsAre(d, "bee\n", "BEE\n") {
		t.Errorf("rejected entry's diff %+v", d)
	}
	if !strings.Contains(hist.Info(), "keep it lower case") {
		t.Errorf("info %q; want the feedback", hist.Info())
	}
	if !slices.Contains(hist.Buttons(), "Restore… (off)") {
		t.Errorf("buttons %q; want Restore… disabled for a decision that wrote nothing", hist.Buttons())
	}
}

func TestHistoryCompareTwoPoints(t *testing.T) {
	h := newHistoryHarness(t)
	threeDecisions(h)
	hist := h.History()
	hist.Open(4)
	hist.Select(3) // the first approval: two → TWO
	hist.Click("Compare with…")
	hist.Select(0) // the last: 2 → II
	if d := hist.Diffs(); !diffsAre(d, "one\nTWO\n", "one\nII\n") {
		t.Errorf("comparison %+v; want after the first against after the last", d)
	}
	if !strings.Contains(hist.Note(), "checkpoint 1 vs after checkpoint 3") {
		t.Errorf("note %q; want it to name the two checkpoints", hist.Note())
	}
	hist.Click("Stop comparing")
	h.until("the entry's own diff", func() bool { return !hist.Loading() })
	if d := hist.Diffs(); !diffsAre(d, "one\n2\n", "one\nII\n") {
		t.Errorf("after Stop comparing %+v; want the last entry's own diff", d)
	}
}

func TestHistoryCompareWithDisk(t *testing.T) {
	h := newHistoryHarness(t)
	threeDecisions(h)
	hist := h.History()
	hist.Open(4)
	h.write("a.txt", "one\nhand edit\n")
	hist.Click("vs disk")
	h.until("the disk comparison", func() bool { return !hist.Loading() })
	if d := hist.Diffs(); !diffsAre(d, "one\nII\n", "one\nhand edit\n") {
		t.Errorf("vs disk %+v", d)
	}
}

func TestHistoryRestoreThroughTheDialog(t *testing.T) {
	h := newHistoryHarness(t)
	threeDecisions(h)
	hist := h.History()
	hist.Open(4)
	hist.Restore("Restore…")
	if h.read("a.txt") != "one\nII\n" {
		t.Fatalf("the dry run wrote the file")
	}
	if txt := h.Dialog().Text(); !strings.Contains(txt, "a.txt  +1 −1") {
		t.Errorf("dry run lists %q", txt)
	}
	// The dialog shows what the restore does, disk now → restored, and says so.
	if v := hist.RestoreView(); len(v.Hunks()) != 1 || v.Nav().CurrentHunk() != 0 {
		t.Errorf("the restore dialog shows %d hunks, current %d; want the one change, shown", len(v.Hunks()), v.Nav().CurrentHunk())
	}
	if txt := h.Dialog().Text(); !strings.Contains(txt, "Left: a.txt on disk now") || !strings.Contains(txt, "Right: after the restore, a.txt as it was before checkpoint") {
		t.Errorf("the restore dialog's direction:\n%s", txt)
	}
	h.Dialog().Click("Restore")
	h.until("the restore entry is listed and selected", func() bool {
		e := hist.Entries()
		return len(e) == 5 && e[0].Badge == "restore" && hist.Selected() == 0
	})
	if got := h.read("a.txt"); got != "one\n2\n" {
		t.Errorf("after the restore a.txt is %q", got)
	}
	// Restoring the restore undoes it.
	h.until("the restore's diff", func() bool { return len(hist.Diffs()) == 1 })
	hist.Restore("Restore…")
	h.Dialog().Click("Restore")
	hist.WaitEntries("the undo", 6)
	if got := h.read("a.txt"); got != "one\nII\n" {
		t.Errorf("after undoing the restore a.txt is %q", got)
	}
}

func TestHistoryRestoreRefusedThenForced(t *testing.T) {
	h := newHistoryHarness(t)
	threeDecisions(h)
	hist := h.History()
	hist.Open(4)
	h.write("a.txt", "one\nhand edit\n")
	hist.Restore("Restore…")
	if b := h.Dialog().Buttons(); !slices.Contains(b, "Restore (off)") || !strings.Contains(h.Dialog().Text(), "Refused: a.txt") {
		t.Fatalf("refused plan: buttons %q, text:\n%s", b, h.Dialog().Text())
	}
	h.Dialog().Click("Force…")
	h.until("the forced dry run", func() bool { return slices.Contains(h.Dialog().Buttons(), "Restore") })
	if h.read("a.txt") != "one\nhand edit\n" {
		t.Fatalf("Force wrote before the second confirmation")
	}
	h.Dialog().Click("Restore")
	h.until("the restore entry", func() bool { e := hist.Entries(); return len(e) == 5 && e[0].Badge == "restore" })
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
	h.approveShown(p.ID)
	hist := h.History()
	hist.Open(1)
	h.write("b.txt", "hand edit\n")
	hist.Restore("Restore…")
	if b := h.Dialog().Buttons(); !slices.Contains(b, "Leave refused out (restore 1 file)") || !slices.Contains(b, "Restore (off)") {
		t.Fatalf("one file refused: buttons %q; want Leave refused out, Restore disabled", b)
	}
	h.Dialog().Click("Leave refused out")
	h.until("the dry run of a.txt alone", func() bool { return slices.Contains(h.Dialog().Buttons(), "Restore") })
	if b := h.Dialog().Buttons(); slices.Contains(b, "Leave refused out (restore 1 file)") {
		t.Fatalf("a.txt alone: buttons %q; want no Leave refused out", b)
	}
	h.Dialog().Click("Restore")
	h.until("the restore entry", func() bool { e := hist.Entries(); return len(e) == 2 && e[0].Badge == "restore" })
	if a, b := h.read("a.txt"), h.read("b.txt"); a != "a\n" || b != "hand edit\n" {
		t.Errorf("after restoring the others: a.txt %q, b.txt %q; want a.txt restored, b.txt as the person left it", a, b)
	}
}

func TestHistoryFilters(t *testing.T) {
	h := newHistoryHarness(t)
	threeDecisions(h)
	hist := h.History()
	hist.Open(4)
	hist.Filter("decision", string(decision.Rejected))
	hist.WaitEntries("filtered by decision", 1)
	hist.Filter("decision", present.AllDecisions)
	hist.WaitEntries("unfiltered", 4)
	if agents, _ := hist.FilterOptions("agent"); len(agents) != 3 {
		t.Errorf("agent options %q", agents)
	}
	hist.Filter("agent", "gemini")
	hist.WaitEntries("filtered by agent", 1)
	hist.Filter("agent", present.AllAgents)
	hist.Filter("file", "a.txt")
	hist.WaitEntries("filtered by file", 3)
}

func TestHistoryLoadMore(t *testing.T) {
	h := newHistoryHarness(t)
	threeDecisions(h)
	hist := h.History()
	hist.SetPageSize(3)
	hist.Open(3)
	if !hist.MoreShown() {
		t.Fatalf("Load more hidden with an older page left")
	}
	hist.LoadMore()
	hist.WaitEntries("the older page", 4)
	if hist.MoreShown() {
		t.Errorf("Load more shown at the end of the history")
	}
}

func TestHistoryShowsNewDecisionsWhileOpen(t *testing.T) {
	h := newHistoryHarness(t)
	threeDecisions(h)
	hist := h.History()
	hist.Open(4)
	h.approve("a.txt", "II\n", "two\n")
	hist.WaitEntries("the new decision is listed", 5)
}

func TestHistoryMultiFileEntryRestoresOneFile(t *testing.T) {
	h := newHistoryHarness(t)
	h.write("a.txt", "one\n")
	h.write("b.txt", "two\n")
	patch := "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** Update File: b.txt\n@@\n-two\n+TWO\n*** End Patch\n"
	p := h.propose("codex", "s", engine.FormatPatch, "", patch)
	h.approveShown(p.ID)
	hist := h.History()
	hist.Open(1)
	if files := hist.Files(); len(files) != 2 || !strings.HasPrefix(files[1], "b.txt") {
		t.Fatalf("file select offers %q", files)
	}
	hist.ShowFile(1)
	hist.Restore("Restore this file…")
	if txt := h.Dialog().Text(); strings.Contains(txt, "a.txt") || !strings.Contains(txt, "b.txt") {
		t.Errorf("the one-file dry run lists:\n%s", txt)
	}
	h.Dialog().Click("Restore")
	hist.WaitEntries("the restore entry", 2)
	if h.read("a.txt") != "ONE\n" || h.read("b.txt") != "two\n" {
		t.Errorf("after restoring b.txt: a.txt %q, b.txt %q", h.read("a.txt"), h.read("b.txt"))
	}
}

func TestHistorySessionFilter(t *testing.T) {
	h := newHistoryHarness(t)
	threeDecisions(h)
	hist := h.History()
	hist.Open(4)
	hist.Filter("agent", "claude-code")
	hist.WaitEntries("filtered by agent", 3)
	if sessions, _ := hist.FilterOptions("session"); strings.Join(sessions, ",") != present.AllSessions+",s1" {
		t.Errorf("session options %q", sessions)
	}
	hist.Filter("agent", present.AllAgents)
	hist.WaitEntries("unfiltered", 4)
	hist.Filter("session", "s2")
	h.until("filtered by session", func() bool { e := hist.Entries(); return len(e) == 1 && e[0].Who == "gemini/s2" })
}

// TestHistoryNamesAnAgentWithoutSession: an agent that gave no session is
// named alone, without a trailing slash.
func TestHistoryNamesAnAgentWithoutSession(t *testing.T) {
	h := newHistoryHarness(t)
	h.write("a.txt", "one\n")
	p := h.propose("claude-code", "", engine.FormatWrite, "a.txt", "ONE\n")
	h.approveShown(p.ID)
	hist := h.History()
	hist.Open(1)
	if who := hist.Entries()[0].Who; who != "claude-code" || strings.Contains(hist.Title(), "claude-code/") {
		t.Errorf("row names %q, title %q; want claude-code without a slash", who, hist.Title())
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
	h.approveShown(p.ID)
	hist := h.History()
	hist.Open(1)
	v := hist.View()
	if v.Nav().CurrentHunk() != 0 {
		t.Errorf("the history diff opens at hunk %d; want the first change (0)", v.Nav().CurrentHunk())
	}
	if !v.ReadOnly {
		t.Error("the history diff is not read-only: its hunk toggles look clickable")
	}
	v.ToggleHunk(0)
	if got := v.AcceptedHunks(); len(got) != 2 {
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
	hist := h.History()
	hist.Open(1)
	if badge := hist.Entries()[0].Badge; badge != string(o.Status) || badge != string(decision.Approved) {
		t.Errorf("history says %q, the agent was told %q; want both approved", badge, o.Status)
	}
	if !h.SaysOutcome(p.ID) || o.Status != decision.Approved {
		t.Errorf("status %q, outcome %s; want the approval merged into the disk's change said", h.Status(), o.Status)
	}
}

// TestEntryInfoSaysHowTheWriteEnded: each write state reads as a phrase
// ("written to disk", not "write written").
func TestEntryInfoSaysHowTheWriteEnded(t *testing.T) {
	for _, st := range []journal.WriteState{journal.WriteIntended, journal.WriteWritten, journal.WriteInterrupted, journal.WriteConflicted} {
		if got := present.EntryInfo(journal.Entry{ProposalID: "p1", State: st}, nil); !strings.HasPrefix(got, "Proposal p1 · ") || len(got) < len("Proposal p1 · ")+10 {
			t.Errorf("state %s: %q; want a phrase saying how the write ended", st, got)
		}
	}
	if got := present.EntryInfo(journal.Entry{ProposalID: "p1", State: journal.WriteWritten}, nil); got != "Proposal p1 · written to disk" {
		t.Errorf("written: %q", got)
	}
}
