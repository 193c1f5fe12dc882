package hub_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/hub"
	"github.com/diffdesk/diffdesk/review/journal"
)

// TestViewSendsWhatWasSeen: a window over the hub says what was on screen
// with its decision, as over the desk's own protocol: the desk journals
// it ("43 of 50 changed lines never on screen"; it said "not tracked").
// A record naming a hunk the proposal does not have is refused by the
// desk, nothing written, and the proposal asked again.
func TestViewSendsWhatWasSeen(t *testing.T) {
	limit(t, 2*time.Minute)
	h := startHub(t, []string{"d1"}, []string{"r1"})
	d1, _ := h.link(t, "d1")
	var b strings.Builder
	for i := range 50 {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	propose(t, d1.Desk, "big.txt", b.String())
	propose(t, d1.Desk, "bad.txt", "bad\n")
	v, _, _ := openView(t, h, "r1", hub.ViewLimits{})
	until(t, "both proposals in the view", func() bool { return len(v.List()) == 2 })
	byRel := map[string]review.Proposal{}
	for _, p := range v.List() {
		byRel[p.Files[0].Rel] = p
	}
	big, bad := byRel["big.txt"], byRel["bad.txt"]
	id := big.Files[0].Hunks()[0].ID
	if _, err := v.Decide(ctx(t), big.ID, review.Decision{Verdict: decision.Approved, Shown: review.ShownVersion(big),
		Seen: map[string][]string{"big.txt": {}}, SeenLines: map[string]map[string]int{"big.txt": {id: 7}}}); err != nil {
		t.Fatal(err)
	}
	page, err := d1.Journal.History(context.Background(), journal.Filter{})
	if err != nil || len(page.Entries) != 1 {
		t.Fatalf("History = %+v, %v", page, err)
	}
	det, err := d1.Journal.Detail(context.Background(), page.Entries[0].Ref)
	if got, want := decision.SeenSummary(det.Seen), "43 of 50 changed lines never on screen (0 of 1 hunks seen whole)"; err != nil || got != want {
		t.Errorf("the journal says %q (%v); want %q", got, err, want)
	}

	_, err = v.Decide(ctx(t), bad.ID, review.Decision{Verdict: decision.Approved, Shown: review.ShownVersion(bad),
		Seen: map[string][]string{"bad.txt": {"not-a-hunk"}}})
	if err == nil || !strings.Contains(err.Error(), "is not a hunk of this file's proposal") {
		t.Fatalf("a record of a hunk the proposal lacks: %v; want the desk's refusal", err)
	}
	if _, err := os.Stat(filepath.Join(d1.Root, "bad.txt")); err == nil {
		t.Error("bad.txt was written")
	}
	until(t, "the proposal asked again", func() bool { p, ok := v.Get(bad.ID); return ok && p.State.Open() })
	now, _ := v.Get(bad.ID)
	if _, err := v.Decide(ctx(t), bad.ID, review.Decision{Verdict: decision.Rejected, Shown: review.ShownVersion(now), Seen: map[string][]string{"bad.txt": {}}}); err != nil {
		t.Fatalf("deciding it again: %v", err)
	}

	// A record naming more files than a proposal may have is refused
	// before the desk reads it further.
	id3, _ := propose(t, d1.Desk, "c.txt", "c\n")
	r := h.reviewer(t, "r1")
	p := waitOpen(t, r, "d1", id3, 1)
	huge := map[string][]string{}
	for i := range hub.MaxFiles + 1 {
		huge[fmt.Sprint("f", i)] = nil
	}
	if res, err := r.Decide(ctx(t), p, hub.Decision{Verdict: "approve", Seen: huge}); err != nil || !res.Won {
		t.Fatalf("Decide: %+v, %v", res, err)
	}
	o, next, err := r.Await(ctx(t), p)
	if err != nil || o != nil || next == nil || !strings.Contains(next.Note, "over the 256 a proposal may have") {
		t.Fatalf("a record of %d files: outcome %+v, next %+v, %v; want a new round saying why", len(huge), o, next, err)
	}
	if _, err := os.Stat(filepath.Join(d1.Root, "c.txt")); err == nil {
		t.Error("c.txt was written")
	}
}
