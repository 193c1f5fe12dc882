package review_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

const seenBase = "package app\n\nfunc A() {}\n\nfunc B() {}\n\n\n\n\n\nfunc C() {}\n"

// seenProposed has two hunks: A → A2 and C → C2.
var seenProposed = strings.Replace(strings.Replace(seenBase, "A()", "A2()", 1), "C()", "C2()", 1)

// TestDecideRecordsHunksSeen: the journal keeps, per hunk of the
// proposal, whether the decision said it was on screen (a path relative
// to its root will do); a decision that says nothing records nothing.
func TestDecideRecordsHunksSeen(t *testing.T) {
	for _, tracked := range []bool{true, false} {
		d := reviewtest.NewDesk(t, "", "")
		path := filepath.Join(d.Root, "app.go")
		reviewtest.WriteFile(t, path, seenBase)
		p := d.MustPropose(t, engine.FormatWrite, "app.go", seenProposed)
		hs := p.Files[0].Hunks()
		if len(hs) != 2 {
			t.Fatalf("%d hunks; want 2", len(hs))
		}
		dec := review.Decision{Verdict: decision.Approved}
		var want []decision.HunkSeen
		if tracked {
			dec.Seen = map[string][]string{"app.go": {hs[1].ID}}
			want = []decision.HunkSeen{{Path: path, Hunk: hs[0].ID, Seen: false, Lines: 2}, {Path: path, Hunk: hs[1].ID, Seen: true, Lines: 2, LinesSeen: 2}}
		}
		d.MustDecide(t, p.ID, dec)
		page, err := d.Journal.History(context.Background(), journal.Filter{})
		if err != nil || len(page.Entries) == 0 {
			t.Fatalf("History = %+v, %v", page, err)
		}
		det, err := d.Journal.Detail(context.Background(), page.Entries[0].Ref)
		if err != nil || !reflect.DeepEqual(det.Seen, want) {
			t.Errorf("tracked %v: journal seen = %+v, %v; want %+v", tracked, det.Seen, err, want)
		}
	}
}

// TestDecideRefusesBadSeen: a seen list naming a file not in the proposal
// or an id that is none of its hunks is refused, and nothing is decided.
func TestDecideRefusesBadSeen(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "app.go"), seenBase)
	p := d.MustPropose(t, engine.FormatWrite, "app.go", seenProposed)
	for _, c := range []struct {
		seen map[string][]string
		want string
	}{
		{map[string][]string{"b.go": {}}, "seen (on b.go): not a file of proposal"},
		{map[string][]string{"app.go": {"0123456789ab"}}, `"0123456789ab" is not a hunk of this file's proposal (its hunks: 2)`},
	} {
		_, err := d.Decide(context.Background(), p.ID, review.Decision{Verdict: decision.Approved, Seen: c.seen})
		var se *review.SeenError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Decide(seen %v) = %v; want a *SeenError saying %q", c.seen, err, c.want)
		}
		if q, _ := d.Get(p.ID); q.State != review.StatePending {
			t.Errorf("after a refused seen list the proposal is %s; want pending", q.State)
		}
	}
}

// TestCheckSeen: over several proposals, the hunks about to be approved
// that were never on screen, the first of them, and a partial approval
// asking only about the hunks it writes.
func TestCheckSeen(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "app.go"), seenBase)
	reviewtest.WriteFile(t, filepath.Join(d.Root, "b.go"), seenBase)
	p1 := d.MustPropose(t, engine.FormatWrite, "app.go", seenProposed)
	p2 := d.MustPropose(t, engine.FormatWrite, "b.go", seenProposed)
	h1, h2 := p1.Files[0].Hunks(), p2.Files[0].Hunks()
	all := func(p review.Proposal, hs []engine.Hunk) map[string]map[string]bool {
		return map[string]map[string]bool{p.Files[0].Path: {hs[0].ID: true, hs[1].ID: true}}
	}
	if u := review.CheckSeen([]review.ProposalSeen{{Proposal: p1, Seen: all(p1, h1)}, {Proposal: p2, Seen: all(p2, h2)}}); u.Unseen != 0 || u.Total != 4 {
		t.Errorf("everything seen: %+v; want 0 of 4 unseen", u)
	}
	seen2 := map[string]map[string]bool{p2.Files[0].Path: {h2[0].ID: true}}
	u := review.CheckSeen([]review.ProposalSeen{{Proposal: p1, Seen: all(p1, h1)}, {Proposal: p2, Seen: seen2}})
	if u.Unseen != 1 || u.Total != 4 || u.First.Proposal != p2.ID || u.First.Hunk.ID != h2[1].ID || !reflect.DeepEqual(u.Files, []string{"b.go"}) {
		t.Errorf("b.go's second hunk unseen: %+v; want 1 of 4, that one first", u)
	}
	// A partial approval of b.go's first hunk only: nothing unseen.
	only := map[string][]string{p2.Files[0].Path: {h2[0].ID}}
	if u := review.CheckSeen([]review.ProposalSeen{{Proposal: p2, Seen: seen2, Only: only}}); u.Unseen != 0 || u.Total != 1 {
		t.Errorf("partial of the seen hunk: %+v; want 0 of 1", u)
	}
	ids := review.SeenIDs(p2, seen2)
	if !reflect.DeepEqual(ids, map[string][]string{p2.Files[0].Path: {h2[0].ID}}) {
		t.Errorf("SeenIDs = %v", ids)
	}
}
