package hub_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/hub"
	"github.com/diffdesk/diffdesk/review/reviewtest"
	"github.com/nats-io/nats.go/jetstream"
)

// openView opens a window's view of the hub as reviewer name; its events
// and notices arrive on the channels returned (never blocking the view:
// one the test does not read is dropped once the channel is full, and a
// wait on events also polls). A stalled wait prints what the view holds
// and its last notices.
func openView(t *testing.T, h *testHub, name string, l hub.ViewLimits) (*hub.View, chan review.Event, chan string) {
	t.Helper()
	v, err := hub.OpenView(ctx(t), h.reviewer(t, name), l)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	events, notices := make(chan review.Event, 1000), make(chan string, 1000)
	var mu sync.Mutex
	var last []string
	v.Subscribe(func(ev review.Event) {
		select {
		case events <- ev:
		default:
		}
	})
	v.OnNotice(func(s string) {
		t.Logf("view %s: %s", name, s)
		mu.Lock()
		last = append(last, time.Now().Format("15:04:05.000 ")+s)
		if len(last) > 20 {
			last = last[1:]
		}
		mu.Unlock()
		select {
		case notices <- s:
		default:
		}
	})
	seen(t, func() string {
		var b strings.Builder
		fmt.Fprintf(&b, "view %s holds:", name)
		for _, p := range v.List() {
			fmt.Fprintf(&b, " %s (%s, %s)", p.ID, p.Files[0].Rel, p.State)
		}
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(&b, "\nview %s's last notices:\n\t%s", name, strings.Join(last, "\n\t"))
		return b.String()
	})
	return v, events, notices
}

// TestViewReviewsEveryDesk: the window's view of a hub holds every desk's
// proposals with their texts, each under its desk's name (two desks'
// proposals of the same agent session are two changesets); a decision
// writes on the desk that holds the file alone, once, and a second
// window's later decision of it is refused.
func TestViewReviewsEveryDesk(t *testing.T) {
	limit(t, 2*time.Minute)
	h := startHub(t, []string{"d1", "d2"}, []string{"r1", "r2"})
	d1, _ := h.link(t, "d1")
	d2, _ := h.link(t, "d2")
	_, o1 := propose(t, d1.Desk, "x.txt", "one\n")
	_, o2 := propose(t, d2.Desk, "x.txt", "two\n")
	v, _, _ := openView(t, h, "r1", hub.ViewLimits{})
	v2, _, _ := openView(t, h, "r2", hub.ViewLimits{})
	until(t, "both desks' proposals in both views", func() bool { return len(v.List()) == 2 && len(v2.List()) == 2 })
	by := map[string]review.Proposal{}
	for _, p := range v.List() {
		by[p.Where] = p
	}
	p1, p2 := by["d1"], by["d2"]
	if p1.Files[0].Proposed != "one\n" || p2.Files[0].Proposed != "two\n" || p2.Files[0].Path != filepath.Join(d2.Root, "x.txt") {
		t.Fatalf("texts: %+v", v.List())
	}
	if review.ChangesetKey(p1) == review.ChangesetKey(p2) {
		t.Error("two desks' proposals share a changeset")
	}
	o, err := v.Decide(ctx(t), p2.ID, review.Decision{Verdict: "approved", Shown: review.ShownVersion(p2)})
	if err != nil || o.Status != "approved" || o.ID != p2.ID || len(o.Files) != 1 || !o.Files[0].Written {
		t.Fatalf("Decide: %+v, %v", o, err)
	}
	if got := reviewtest.ReadFile(t, filepath.Join(d2.Root, "x.txt")); got != "two\n" {
		t.Errorf("d2's x.txt: %q", got)
	}
	if recv(t, o2, "d2's agent's outcome").Status != "approved" {
		t.Error("d2's agent was not told approved")
	}
	until(t, "the second window to hear of the outcome", func() bool { o, ok := v2.Outcome(p2.ID); return ok && o.Status == "approved" })
	if _, err := v2.Decide(ctx(t), p2.ID, review.Decision{Verdict: "rejected"}); !errors.Is(err, hub.ErrNotOpen) {
		t.Errorf("a decision of a decided proposal: %v; want ErrNotOpen", err)
	}
	res, err := v2.DecideChangeset(ctx(t), review.ChangesetKey(p1), review.ChangesetDecision{Verdict: "rejected", Feedback: "no"})
	if err != nil || len(res.Decided) != 1 || res.Decided[0].ID != p1.ID {
		t.Fatalf("DecideChangeset: %+v, %v", res, err)
	}
	if recv(t, o1, "d1's agent's outcome").Status != "rejected" {
		t.Error("d1's agent was not told rejected")
	}
	if _, err := os.Stat(filepath.Join(d1.Root, "x.txt")); err == nil {
		t.Error("d1's rejected file was written")
	}
}

// TestViewRacingWindowsWriteOnce: two windows deciding the same proposal
// at once: one wins, the other is told who did, the file is written once.
func TestViewRacingWindowsWriteOnce(t *testing.T) {
	limit(t, 2*time.Minute)
	h := startHub(t, []string{"d1"}, []string{"r1", "r2"})
	d1, _ := h.link(t, "d1")
	_, out := propose(t, d1.Desk, "x.txt", "x\n")
	a, _, _ := openView(t, h, "r1", hub.ViewLimits{})
	b, _, _ := openView(t, h, "r2", hub.ViewLimits{})
	until(t, "the proposal in both views", func() bool { return len(a.List()) == 1 && len(b.List()) == 1 })
	id, shown := a.List()[0].ID, review.ShownVersion(a.List()[0])
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, v := range []*hub.View{a, b} {
		wg.Go(func() { _, errs[i] = v.Decide(ctx(t), id, review.Decision{Verdict: "approved", Shown: shown}) })
	}
	wg.Wait()
	if (errs[0] == nil) == (errs[1] == nil) {
		t.Fatalf("both or neither decision taken: %v", errs)
	}
	for _, err := range errs {
		if err != nil && !strings.Contains(err.Error(), "was decided first by") {
			t.Errorf("the loser was told %v", err)
		}
	}
	if o := recv(t, out, "the agent's outcome"); o.Status != "approved" {
		t.Errorf("outcome %s", o.Status)
	}
}

// TestViewRefusesForgedAndBoundsMemory: a desk's message naming another
// desk is not shown (the notice says why), and past the window's limits
// new proposals are not held — counted and said — rather than grow.
func TestViewRefusesForgedAndBoundsMemory(t *testing.T) {
	limit(t, 2*time.Minute)
	h := startHub(t, []string{"d1", "d2"}, []string{"r1"})
	d1, _ := h.link(t, "d1")
	v, _, notices := openView(t, h, "r1", hub.ViewLimits{KeptCount: 2})
	js, err := jetstream.New(h.dial(t, "d2"))
	if err != nil {
		t.Fatal(err)
	}
	forged, _ := json.Marshal(hub.Proposal{Desk: "d1", Hub: strings.Repeat("ab", 16), ID: "p1", Round: 1, Files: []hub.File{{Path: "/etc/passwd"}}})
	if _, err := js.Publish(ctx(t), "dd.d2.p."+strings.Repeat("ab", 16), forged); err != nil {
		t.Fatal(err)
	}
	waitNotice(t, notices, "names desk \"d1\"")
	for _, rel := range []string{"a.txt", "b.txt", "c.txt"} {
		propose(t, d1.Desk, rel, rel+"\n")
	}
	waitNotice(t, notices, "1 proposals on the hub are not shown: the window keeps at most 2")
	if n := len(v.List()); n != 2 {
		t.Errorf("the view holds %d proposals; want the limit, 2", n)
	}
	for _, p := range v.List() {
		if p.Where != "d1" {
			t.Errorf("a proposal shown under %q", p.Where)
		}
	}
}

func waitNotice(t *testing.T, notices chan string, want string) {
	t.Helper()
	for {
		select {
		case s := <-notices:
			if strings.Contains(s, want) {
				return
			}
		case <-deadline(t).Done():
			stalled(t, fmt.Sprintf("a notice saying %q", want))
		}
	}
}

// TestViewSaysWhenTheDeskDoesNotAnswer: a decision that won on the hub
// while its desk is stopped does not leave the person reading "Writing…"
// for ever: past ViewLimits.DeskAnswer the view says the decision is on
// the hub and the desk has not carried it out — and nothing is written.
func TestViewSaysWhenTheDeskDoesNotAnswer(t *testing.T) {
	limit(t, 2*time.Minute)
	h := startHub(t, []string{"d1"}, []string{"r1"})
	d1, l := h.link(t, "d1")
	propose(t, d1.Desk, "x.txt", "x\n")
	v, _, _ := openView(t, h, "r1", hub.ViewLimits{DeskAnswer: 2 * time.Second})
	until(t, "the proposal in the view", func() bool { return len(v.List()) == 1 })
	l.Close(time.Second) // the desk stops following the hub; its proposal stays open there
	p := v.List()[0]
	done := make(chan error, 1)
	go func() {
		_, err := v.Decide(ctx(t), p.ID, review.Decision{Verdict: "approved", Shown: review.ShownVersion(p)})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "has not carried it out in 2s") || !strings.Contains(err.Error(), "is on the hub") {
			t.Fatalf("Decide with its desk stopped: %v; want it to say the decision is on the hub and the desk has not answered", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Decide still waiting for a stopped desk after 30 s")
	}
	if _, err := os.Stat(filepath.Join(d1.Root, "x.txt")); err == nil {
		t.Error("x.txt was written by a desk that had stopped following the hub")
	}
}
