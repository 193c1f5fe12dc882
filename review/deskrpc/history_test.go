package deskrpc

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestHistoryForAReviewer: a reviewer reads the desk's history over the
// protocol: a page (and the next), the agents, who decided an entry, and
// what it changed; a page over the limit is refused.
func TestHistoryForAReviewer(t *testing.T) {
	ctx := reviewtest.Context(t)
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "one\n")
	p := d.MustPropose(t, engine.FormatWrite, "a.txt", "two\n")
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved, By: "ann@laptop", Seen: map[string][]string{path: {p.Files[0].Hunks()[0].ID}}})
	q := d.MustPropose(t, engine.FormatWrite, "a.txt", "three\n")
	d.MustDecide(t, q.ID, review.Decision{Verdict: decision.Rejected, Feedback: "no"})
	cl := dialReviewer(t, d.Desk)

	page, err := cl.History(ctx, journal.Filter{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Entries) != 1 || page.Entries[0].Decision != decision.Rejected || page.Next == "" {
		t.Fatalf("history, a page of 1: %+v; want the rejection and a next page", page)
	}
	page, err = cl.History(ctx, journal.Filter{Limit: 1, Cursor: page.Next})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Entries) != 1 || page.Entries[0].Ref != journal.Ref(fmt.Sprint(o.Checkpoint)) {
		t.Fatalf("history's next page: %+v; want checkpoint %d", page, o.Checkpoint)
	}
	agents, err := cl.HistoryAgents(ctx)
	if err != nil || len(agents) != 1 || agents[0].Agent != "test" {
		t.Errorf("historyAgents = %+v, %v; want the test agent", agents, err)
	}
	e, err := cl.HistoryShow(ctx, page.Entries[0].Ref)
	if err != nil || e.DecidedBy != "ann@laptop" || e.DecidedByRule || e.ProposalID != p.ID || len(e.Seen) != 1 || !e.Seen[0].Seen {
		t.Errorf("historyShow = %+v, %v; want %s decided by ann@laptop, its one hunk seen", e, err, p.ID)
	}
	files, err := cl.HistoryDiff(ctx, review.HistoryCompare{Entry: page.Entries[0].Ref})
	if err != nil || len(files) != 1 || string(files[0].Old) != "one\n" || string(files[0].New) != "two\n" || files[0].Added != 1 || files[0].Omitted {
		t.Errorf("historyDiff = %+v, %v; want a.txt one → two", files, err)
	}

	for _, c := range []struct {
		method string
		params any
		want   string
	}{
		{"history", map[string]any{"limit": HistoryPageMax + 1}, "a page holds 1 to 500 entries"},
		{"historyShow", map[string]any{"ref": "d999"}, "not in the journal"},
		{"historyDiff", map[string]any{"entry": "1", "disk": 1}, "exactly one of them"},
	} {
		if code, err := callCode(t, cl, c.method, c.params); code != codeInvalidParams || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: %v (code %d); want %d saying %q", c.method, c.params, err, code, codeInvalidParams, c.want)
		}
	}
}

// TestHistoryDiffAnswerIsBounded: the texts of one answer stop at the
// limit; the files past it keep their counts, their texts omitted.
func TestHistoryDiffAnswerIsBounded(t *testing.T) {
	big := func(path string, n int) review.HistoryFile {
		return review.HistoryFile{FileDiff: journal.FileDiff{Path: path, Old: make([]byte, n), New: make([]byte, n), Added: 3, Unified: "x"}}
	}
	got := boundHistoryFiles([]review.HistoryFile{big("a", 10), big("b", 30), big("c", 5)}, 40)
	for i, want := range []bool{false, true, false} {
		f := got[i]
		if f.Omitted != want || want && (f.Old != nil || f.New != nil) || f.Added != 3 || f.Unified != "" {
			t.Errorf("file %s: omitted %v, old %d bytes, added %d, unified %q; want omitted %v with its counts, no unified diff", f.Path, f.Omitted, len(f.Old), f.Added, f.Unified, want)
		}
	}
}
