package review_test

import (
	"context"
	"errors"
	"fmt"
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

// TestDecideRecordsLinesSeen: "seen" is counted by lines. A 5,000-line
// new file of which 42 lines were on screen is recorded as its one hunk
// not seen whole, 42 of its 5,000 lines seen, and said "4958 of 5000
// changed lines never on screen" (it read "1 of 1 hunks on screen"); a
// hunk seen whole counts all its lines.
func TestDecideRecordsLinesSeen(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	var b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	p := d.MustPropose(t, engine.FormatWrite, "big.txt", b.String())
	reviewtest.WriteFile(t, filepath.Join(d.Root, "app.go"), seenBase)
	q := d.MustPropose(t, engine.FormatWrite, "app.go", seenProposed)
	path := filepath.Join(d.Root, "big.txt")
	id := p.Files[0].Hunks()[0].ID
	d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved, Seen: map[string][]string{"big.txt": {}},
		SeenLines: map[string]map[string]int{"big.txt": {id: 42}}})
	hs := q.Files[0].Hunks()
	d.MustDecide(t, q.ID, review.Decision{Verdict: decision.Approved, Seen: map[string][]string{"app.go": {hs[1].ID}},
		SeenLines: map[string]map[string]int{"app.go": {hs[0].ID: 1, hs[1].ID: 1}}})
	page, err := d.Journal.History(context.Background(), journal.Filter{})
	if err != nil || len(page.Entries) != 2 {
		t.Fatalf("History = %+v, %v", page, err)
	}
	det, err := d.Journal.Detail(context.Background(), page.Entries[1].Ref) // newest first
	want := []decision.HunkSeen{{Path: path, Hunk: id, Lines: 5000, LinesSeen: 42}}
	if err != nil || !reflect.DeepEqual(det.Seen, want) {
		t.Fatalf("journal seen = %+v, %v; want %+v", det.Seen, err, want)
	}
	if got, want := decision.SeenSummary(det.Seen), "4958 of 5000 changed lines never on screen (0 of 1 hunks seen whole)"; got != want {
		t.Errorf("SeenSummary = %q; want %q", got, want)
	}
	det, _ = d.Journal.Detail(context.Background(), page.Entries[0].Ref)
	if got, want := decision.SeenSummary(det.Seen), "1 of 4 changed lines never on screen (1 of 2 hunks seen whole)"; got != want {
		t.Errorf("two hunks, one seen whole, one line of the other: SeenSummary = %q; want %q (a hunk seen whole counts all its lines)", got, want)
	}
}

// TestDecideRefusesBadSeenLines: seenLines naming an id that is none of
// the file's hunks, or a negative count, is refused; nothing is decided.
func TestDecideRefusesBadSeenLines(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "app.go"), seenBase)
	p := d.MustPropose(t, engine.FormatWrite, "app.go", seenProposed)
	id := p.Files[0].Hunks()[0].ID
	for _, c := range []struct {
		lines map[string]map[string]int
		want  string
	}{
		{map[string]map[string]int{"app.go": {"0123456789ab": 1}}, `"0123456789ab" is not a hunk of this file's proposal`},
		{map[string]map[string]int{"app.go": {id: -1}}, "-1 lines on screen; want 0 or more"},
		{map[string]map[string]int{"b.go": {id: 1}}, "seen (on b.go): not a file of proposal"},
	} {
		_, err := d.Decide(context.Background(), p.ID, review.Decision{Verdict: decision.Approved, Seen: map[string][]string{}, SeenLines: c.lines})
		var se *review.SeenError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Decide(seenLines %v) = %v; want a *SeenError saying %q", c.lines, err, c.want)
		}
		if q, _ := d.Get(p.ID); q.State != review.StatePending {
			t.Errorf("after refused seenLines the proposal is %s; want pending", q.State)
		}
	}
}

// TestSeenLinesCountAtMostTheHunk: a window (or any reviewer's connection)
// claiming more lines on screen than a hunk changes is recorded as the
// hunk's own count, so no sum over the record says more was seen than was
// there, nor overflows.
func TestSeenLinesCountAtMostTheHunk(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "app.go"), seenBase)
	p := d.MustPropose(t, engine.FormatWrite, "app.go", seenProposed)
	hs := p.Files[0].Hunks()
	const huge = int(^uint(0) >> 1)
	d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved, Seen: map[string][]string{},
		SeenLines: map[string]map[string]int{"app.go": {hs[0].ID: huge, hs[1].ID: huge}}})
	page, err := d.Journal.History(context.Background(), journal.Filter{})
	if err != nil || len(page.Entries) != 1 {
		t.Fatalf("History = %+v, %v", page, err)
	}
	det, err := d.Journal.Detail(context.Background(), page.Entries[0].Ref)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range det.Seen {
		if h.LinesSeen != h.Lines || h.Seen {
			t.Errorf("hunk %s recorded %d of %d lines seen (whole: %v); want %d, not whole", h.Hunk, h.LinesSeen, h.Lines, h.Seen, h.Lines)
		}
	}
	if never, total, ok := decision.SeenLines(det.Seen); !ok || never != 0 || total != review.HunkLines(hs[0])+review.HunkLines(hs[1]) {
		t.Errorf("SeenLines = %d never of %d (%v); want 0 of the hunks' lines", never, total, ok)
	}
}
