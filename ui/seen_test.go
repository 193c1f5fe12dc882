package ui

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
)

// longProposal writes long.txt (600 lines) and proposes changing every
// 30th: even folded, a 700 px window shows the first few hunks when the
// diff opens, not the rest.
func longProposal(h *harness) (string, string) {
	var old, new strings.Builder
	for k := range 600 {
		fmt.Fprintf(&old, "line %d\n", k)
		if k%30 == 10 {
			fmt.Fprintf(&new, "changed %d\n", k)
			continue
		}
		fmt.Fprintf(&new, "line %d\n", k)
	}
	h.write("long.txt", old.String())
	return old.String(), new.String()
}

// TestApproveAsksAboutHunksNeverOnScreen: approving with hunks never on
// screen asks "2 of 3 hunks were never on screen"; Esc shows the first of
// them; once every hunk has been on screen, a approves without a question,
// and the journal records every hunk as seen.
func TestApproveAsksAboutHunksNeverOnScreen(t *testing.T) {
	h := newHarness(t)
	_, new := longProposal(h)
	p := h.propose("claude", "s", engine.FormatWrite, "long.txt", new)
	h.win.Select(p.ID)
	h.settle()
	hs := h.win.View().Hunks()
	unseen := h.win.View().Seen().Unseen()
	if len(hs) != 20 || len(unseen) == 0 || len(unseen) == len(hs) {
		t.Fatalf("%d hunks, %d never on screen; want 20, some on screen and some not", len(hs), len(unseen))
	}
	h.press('a')
	h.settle()
	if h.Unseen() == "" || h.read("long.txt") == new {
		t.Fatalf("a with hunks never shown: dialog %v; want a question and nothing written", h.Unseen() != "")
	}
	if got, want := h.Unseen(), fmt.Sprintf("%d of 20 hunks were never on screen (long.txt).", len(unseen)); !strings.Contains(got, want) {
		t.Errorf("the question says %q; want %q", got, want)
	}
	first := slices.IndexFunc(hs, func(h engine.Hunk) bool { return h.ID == unseen[0] })
	h.pressKey(fyne.KeyEscape) // show the first unseen
	if h.Unseen() != "" || h.win.View().Nav().CurrentHunk() != first || h.read("long.txt") == new {
		t.Fatalf("after Esc: dialog %v, current hunk %d; want hunk %d shown, nothing written", h.Unseen() != "", h.win.View().Nav().CurrentHunk(), first)
	}
	if left := len(h.win.View().Seen().Unseen()); left >= len(unseen) {
		t.Fatalf("after Esc %d hunks never on screen; want fewer than %d", left, len(unseen))
	}
	// a, Esc, a, Esc… walks through the rest; then a approves at once.
	for range len(hs) {
		h.press('a')
		h.settle()
		if h.Unseen() == "" {
			break
		}
		h.pressKey(fyne.KeyEscape)
	}
	o := h.outcome(p.ID)
	if o.Status != decision.Approved || h.read("long.txt") != new {
		t.Fatalf("after seeing every hunk, a: %s; want approved and written", o.Status)
	}
	det := journalDetail(t, h, p.ID)
	if s, n := decision.SeenCount(det.Seen); s != 20 || n != 20 {
		t.Errorf("journal: %d of %d hunks seen (%+v); want 20 of 20", s, n, det.Seen)
	}
}

// TestApproveAnywayRecordsHunksUnseen: Approve anyway (Enter) writes the
// proposal, and the journal says which hunks were never on screen.
func TestApproveAnywayRecordsHunksUnseen(t *testing.T) {
	h := newHarness(t)
	_, new := longProposal(h)
	p := h.propose("claude", "s", engine.FormatWrite, "long.txt", new)
	h.win.Select(p.ID)
	h.settle()
	hs := h.win.View().Hunks()
	unseen := h.win.View().Seen().Unseen()
	h.press('a')
	h.settle()
	if h.Unseen() == "" {
		t.Fatal("no question")
	}
	h.pressKey(fyne.KeyReturn) // Approve anyway
	if o := h.outcome(p.ID); o.Status != decision.Approved || h.read("long.txt") != new {
		t.Fatalf("Approve anyway: %s", o.Status)
	}
	det := journalDetail(t, h, p.ID)
	var want []decision.HunkSeen
	for _, hk := range hs {
		r := decision.HunkSeen{Path: p.Files[0].Path, Hunk: hk.ID, Seen: !slices.Contains(unseen, hk.ID), Lines: 2} // one line each way
		if r.Seen {
			r.LinesSeen = 2
		}
		want = append(want, r)
	}
	if !reflect.DeepEqual(det.Seen, want) {
		t.Errorf("journal seen = %+v; want %+v", det.Seen, want)
	}
}

// TestAskUnseenOffApprovesAtOnce: with the View option off (a preference
// kept across restarts), a approves at once; the journal still records
// what was seen.
func TestAskUnseenOffApprovesAtOnce(t *testing.T) {
	h := newHarness(t)
	_, new := longProposal(h)
	p := h.propose("claude", "s", engine.FormatWrite, "long.txt", new)
	h.win.Select(p.ID)
	h.settle()
	seen := len(h.win.View().Seen().Hunks())
	h.Bar().SetAskUnseen(false)
	if fyne.CurrentApp().Preferences().BoolWithFallback(prefAskUnseen, true) {
		t.Error("turning the option off did not keep the preference")
	}
	h.press('a')
	if o := h.outcome(p.ID); o.Status != decision.Approved || h.Unseen() != "" {
		t.Fatalf("a with the question off: %s, dialog %v; want approved at once", o.Status, h.Unseen() != "")
	}
	if s, n := decision.SeenCount(journalDetail(t, h, p.ID).Seen); s != seen || n != 20 || s == n {
		t.Errorf("journal: %d of %d seen; want %d of 20", s, n, seen)
	}
}

// journalDetail is the journal's record of the decision on proposal id.
func journalDetail(t *testing.T, h *harness, id string) journal.Detail {
	t.Helper()
	page, err := h.j.History(context.Background(), journal.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range page.Entries {
		if e.ProposalID == id {
			det, err := h.j.Detail(context.Background(), e.Ref)
			if err != nil {
				t.Fatal(err)
			}
			return det
		}
	}
	t.Fatalf("no history entry for %s", id)
	return journal.Detail{}
}

// TestNothingSeenWhileTheHistoryTabShows: a proposal shown while the
// History tab covers the review counts as unseen; back on the Review tab,
// the hunk on screen counts without a scroll.
func TestNothingSeenWhileTheHistoryTabShows(t *testing.T) {
	h := newHistoryHarness(t)
	h.write("a.txt", "one\n")
	h.win.ShowHistory()
	p := h.propose("claude", "s", engine.FormatWrite, "a.txt", "ONE\n")
	h.win.Select(p.ID)
	h.settle()
	h.win.Approve()
	if h.Unseen() == "" || !strings.Contains(h.Unseen(), "1 of 1 hunk was never on screen") {
		t.Fatalf("approving with the History tab over the diff: question %q; want one", h.Unseen())
	}
	h.pressKey(fyne.KeyEscape)
	h.win.ShowReview()
	h.win.Approve()
	if o := h.outcome(p.ID); o.Status != decision.Approved || h.Unseen() != "" {
		t.Errorf("on the Review tab: %s, question %v; want approved at once", o.Status, h.Unseen() != "")
	}
}
