package remote

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// farDesk is a desk the fleet reaches over a connection the test can cut
// (as when ssh drops) and refuse (as while the machine is away).
type farDesk struct {
	*reviewtest.Desk
	sock string

	mu      sync.Mutex
	conn    net.Conn
	refuse  bool
	dials   int
	dialled chan struct{}
}

func newFarDesk(t *testing.T) *farDesk {
	d := reviewtest.NewDesk(t, "", "")
	return &farDesk{Desk: d, sock: serve(t, d.Desk), dialled: make(chan struct{}, 100)}
}

func (f *farDesk) spec(label string) Spec {
	return Spec{Label: label, Dial: func(ctx context.Context) (Member, error) {
		f.mu.Lock()
		f.dials++
		refuse := f.refuse
		f.mu.Unlock()
		defer func() { f.dialled <- struct{}{} }()
		if refuse {
			return nil, errors.New("connection refused")
		}
		c, err := deskrpc.DialConn(f.sock)
		if err != nil {
			return nil, err
		}
		f.mu.Lock()
		f.conn = c
		f.mu.Unlock()
		return Open(ctx, deskrpc.NewClient(c), label, "me@laptop")
	}}
}

// cut drops the connection and refuses new ones until heal.
func (f *farDesk) cut() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.refuse = true
	f.conn.Close()
}

func (f *farDesk) heal() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.refuse = false
}

// propose has agent "claude" of session "s1" propose rel's content,
// without waiting; the outcome arrives on the channel.
func (f *farDesk) propose(t *testing.T, rel, content string) (review.Proposal, <-chan review.Outcome) {
	t.Helper()
	p, err := f.Propose(reviewtest.Context(t), review.Request{Agent: "claude", Session: "s1", Format: engine.FormatWrite,
		Path: filepath.Join(f.Root, rel), Payload: content})
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan review.Outcome, 1)
	go func() {
		o, err := f.Wait(context.Background(), p.ID)
		if err == nil {
			out <- o
		}
	}()
	return p, out
}

// fakeClock hands each wait the fleet asks for to the test, which lets
// it pass.
type fakeClock struct {
	waits chan time.Duration
	fire  chan time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{waits: make(chan time.Duration, 100), fire: make(chan time.Time)}
}

func (c *fakeClock) after(d time.Duration) <-chan time.Time {
	c.waits <- d
	return c.fire
}

// next waits for the fleet to ask for a wait, and returns how long.
func (c *fakeClock) next(t *testing.T) time.Duration {
	t.Helper()
	select {
	case d := <-c.waits:
		return d
	case <-reviewtest.Context(t).Done():
		t.Fatal("the fleet never waited to reach the desk again")
		return 0
	}
}

func (c *fakeClock) pass(t *testing.T) {
	t.Helper()
	select {
	case c.fire <- time.Now():
	case <-reviewtest.Context(t).Done():
		t.Fatal("the fleet stopped waiting")
	}
}

func newTestFleet(t *testing.T, clock *fakeClock, specs ...Spec) (*Fleet, chan review.Event) {
	t.Helper()
	f, err := NewFleet(reviewtest.Context(t), specs, FleetOptions{Backoff: Backoff{Min: time.Second, Max: 8 * time.Second},
		After: clock.after, Rand: func() float64 { return 0.5 }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	events := make(chan review.Event, 1000)
	f.Subscribe(func(ev review.Event) { events <- ev })
	return f, events
}

// waitFor polls cond on the events the fleet sends until it holds.
func waitFor(t *testing.T, events chan review.Event, what string, cond func() bool) {
	t.Helper()
	ctx := reviewtest.Context(t)
	for !cond() {
		select {
		case <-events:
		case <-time.After(50 * time.Millisecond):
		case <-ctx.Done():
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestFleetRoutesEachDecisionToItsDesk: two desks whose agents have the
// same name and session and propose the same file name are two changesets
// in one queue, each named by its desk; a decision, a changeset's
// decision, reach only the desk that holds them.
func TestFleetRoutesEachDecisionToItsDesk(t *testing.T) {
	a, b := newFarDesk(t), newFarDesk(t)
	pa, oa := a.propose(t, "x.txt", "from a\n")
	pb, ob := b.propose(t, "x.txt", "from b\n")
	f, events := newTestFleet(t, newFakeClock(), a.spec("dev@a:~/api"), b.spec("dev@b:~/api"))

	list := f.List()
	if len(list) != 2 {
		t.Fatalf("List: %d proposals; want both desks' 2", len(list))
	}
	byWhere := map[string]review.Proposal{}
	for _, p := range list {
		byWhere[p.Where] = p
	}
	ga, gb := byWhere["dev@a:~/api"], byWhere["dev@b:~/api"]
	if ga.ID == "" || gb.ID == "" || ga.ID == gb.ID || ga.Files[0].Proposed != "from a\n" || gb.Files[0].Proposed != "from b\n" {
		t.Fatalf("List: %+v; want each desk's proposal under its own label and id", list)
	}
	if review.ChangesetKey(ga) == review.ChangesetKey(gb) {
		t.Fatal("two desks' proposals of the same agent session share a changeset key")
	}
	cs, ok := f.ChangesetOf(gb.ID)
	if !ok || cs.Key != review.ChangesetKey(gb) || len(cs.Proposals) != 1 || cs.Proposals[0].ID != gb.ID || cs.Files[0].Proposal != gb.ID {
		t.Fatalf("ChangesetOf(%s): %+v; want desk b's alone, with the fleet's ids", gb.ID, cs)
	}

	o, err := f.Decide(reviewtest.Context(t), gb.ID, review.Decision{Verdict: "approved"})
	if err != nil || o.ID != gb.ID {
		t.Fatalf("Decide: %+v, %v", o, err)
	}
	if got := reviewtest.ReadFile(t, filepath.Join(b.Root, "x.txt")); got != "from b\n" {
		t.Errorf("desk b's file holds %q; want the approved text", got)
	}
	if p, _ := a.Get(pa.ID); !p.State.Open() {
		t.Errorf("desk a's proposal is %s after a decision on desk b's", p.State)
	}
	<-ob
	res, err := f.DecideChangeset(reviewtest.Context(t), review.ChangesetKey(ga), review.ChangesetDecision{Verdict: "rejected", Feedback: "no"})
	if err != nil || len(res.Decided) != 1 || res.Decided[0].ID != ga.ID {
		t.Fatalf("DecideChangeset of desk a's: %+v, %v", res, err)
	}
	if o := <-oa; o.Status != "rejected" {
		t.Errorf("desk a's agent heard %s; want rejected", o.Status)
	}
	waitFor(t, events, "both decided", func() bool { return len(f.List()) == 0 })
	if p, _ := b.Get(pb.ID); p.State.Open() {
		t.Errorf("desk b's proposal still open")
	}
}

// TestFleetIDsNameOnlyTheirDesk: an id that does not name one of the
// fleet's desks in its own form reaches none, whatever a desk's own ids
// look like.
func TestFleetIDsNameOnlyTheirDesk(t *testing.T) {
	a := newFarDesk(t)
	p, _ := a.propose(t, "x.txt", "x\n")
	f, _ := newTestFleet(t, newFakeClock(), a.spec("a"))
	if _, ok := f.Get("0:" + p.ID); !ok {
		t.Fatalf("Get(0:%s) found nothing", p.ID)
	}
	for _, id := range []string{p.ID, "00:" + p.ID, "1:" + p.ID, "-1:" + p.ID, "+0:" + p.ID, ":" + p.ID} {
		if _, ok := f.Get(id); ok {
			t.Errorf("Get(%q) found a proposal", id)
		}
		if _, err := f.Decide(reviewtest.Context(t), id, review.Decision{Verdict: "approved"}); !errors.Is(err, review.ErrUnknownProposal) {
			t.Errorf("Decide(%q): %v; want an unknown proposal", id, err)
		}
	}
	if got, _ := a.Get(p.ID); !got.State.Open() {
		t.Errorf("the proposal is %s; want it still open", got.State)
	}
}

// TestFleetKeepsALostDeskAndReachesItAgain: a desk that drops keeps its
// proposals in the queue, marked unreachable, and no decision reaches it
// or any other desk; the fleet tries again after 1 s, 2 s, 4 s (the fake
// clock's waits, jitter at its middle), and once the desk answers its
// proposals are decided there as usual, written once.
func TestFleetKeepsALostDeskAndReachesItAgain(t *testing.T) {
	a, b := newFarDesk(t), newFarDesk(t)
	pa, oa := a.propose(t, "x.txt", "a\n")
	b.propose(t, "y.txt", "b\n")
	clock := newFakeClock()
	f, events := newTestFleet(t, clock, a.spec("a"), b.spec("b"))
	id := "0:" + pa.ID

	a.cut()
	waitFor(t, events, "desk a shown unreachable", func() bool { p, ok := f.Get(id); return ok && p.Unreachable })
	if len(f.List()) != 2 {
		t.Fatalf("List after the drop: %d proposals; want both kept", len(f.List()))
	}
	_, err := f.Decide(reviewtest.Context(t), id, review.Decision{Verdict: "approved"})
	var ue *UnreachableError
	if !errors.As(err, &ue) || ue.Label != "a" {
		t.Fatalf("Decide on the lost desk: %v; want UnreachableError naming a", err)
	}
	if _, err := f.DecideChangeset(reviewtest.Context(t), review.ChangesetKey(f.mustGet(t, id)), review.ChangesetDecision{Verdict: "approved"}); !errors.As(err, &ue) {
		t.Fatalf("DecideChangeset on the lost desk: %v; want UnreachableError", err)
	}
	if err := f.Dismiss(reviewtest.Context(t), id); !errors.As(err, &ue) {
		t.Fatalf("Dismiss on the lost desk: %v", err)
	}

	// Jitter at 0.5 places each wait at ¾ of Min·2ⁿ: 1 s → 0.75 s, …
	want := []time.Duration{750 * time.Millisecond, 1500 * time.Millisecond, 3 * time.Second, 6 * time.Second, 6 * time.Second}
	for i, w := range want {
		if got := clock.next(t); got != w {
			t.Fatalf("wait %d: %v; want %v", i+1, got, w)
		}
		if i == len(want)-1 {
			a.heal()
		}
		clock.pass(t)
		<-a.dialled
	}
	waitFor(t, events, "desk a reachable again", func() bool { p, ok := f.Get(id); return ok && !p.Unreachable })
	if f.Reachable()["a"] != nil {
		t.Errorf("Reachable: %v", f.Reachable())
	}
	if _, err := f.Decide(reviewtest.Context(t), id, review.Decision{Verdict: "approved"}); err != nil {
		t.Fatal(err)
	}
	if o := <-oa; o.Status != "approved" {
		t.Errorf("outcome %s", o.Status)
	}
	if got := reviewtest.ReadFile(t, filepath.Join(a.Root, "x.txt")); got != "a\n" {
		t.Errorf("x.txt holds %q", got)
	}
	if _, err := f.Decide(reviewtest.Context(t), id, review.Decision{Verdict: "approved"}); err == nil {
		t.Error("a second decision of the same proposal succeeded")
	}
}

func (f *Fleet) mustGet(t *testing.T, id string) review.Proposal {
	t.Helper()
	p, ok := f.Get(id)
	if !ok {
		t.Fatalf("no proposal %s", id)
	}
	return p
}

// TestFleetStartsWithTheDesksItReaches: a desk not reached at start is
// tried again in the background; none reached is an error naming each.
func TestFleetStartsWithTheDesksItReaches(t *testing.T) {
	a, b := newFarDesk(t), newFarDesk(t)
	b.refuse = true
	clock := newFakeClock()
	f, _ := newTestFleet(t, clock, a.spec("a"), b.spec("b"))
	if err := f.Reachable()["b"]; err == nil {
		t.Fatal("desk b reported reachable")
	}
	clock.next(t)
	a.refuse = true
	_, err := NewFleet(reviewtest.Context(t), []Spec{a.spec("a"), b.spec("b")}, FleetOptions{})
	if err == nil {
		t.Fatal("a fleet of no reachable desk started")
	}
	for _, w := range []string{"a: connection refused", "b: connection refused"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not say %q", err, w)
		}
	}
}

// TestBackoffDelay: exponential from Min, capped at Max, each wait in the
// upper half of its step.
func TestBackoffDelay(t *testing.T) {
	b := Backoff{Min: time.Second, Max: time.Minute}
	for n, want := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second, 32 * time.Second, time.Minute, time.Minute} {
		if lo, hi := b.Delay(n, 0), b.Delay(n, 0.999999); lo != want/2 || hi < want*99/100 || hi >= want {
			t.Errorf("attempt %d: waits in [%v, %v]; want [%v, %v)", n, lo, hi, want/2, want)
		}
	}
	if d := b.Delay(1000, 0.5); d > time.Minute {
		t.Errorf("attempt 1000 waits %v, over Max", d)
	}
}

// TestShareOf: n desks together keep what one window keeps, each at least
// enough for one big proposal.
func TestShareOf(t *testing.T) {
	one := ShareOf(Limits{}, 1)
	if one != DefaultLimits {
		t.Errorf("ShareOf one desk: %+v; want the defaults", one)
	}
	four := ShareOf(Limits{}, 4)
	if four.KeptBytes != 128<<20 || four.KeptCount != 1250 || four.MessageBytes != 64<<20 {
		t.Errorf("ShareOf 4 desks: %+v", four)
	}
	if many := ShareOf(Limits{}, 100); many.KeptBytes != 64<<20 || many.KeptCount != 256 {
		t.Errorf("ShareOf 100 desks: %+v; want the floor", many)
	}
}

// TestFleetCarriesTheVersionShown: over --connect a decision names the
// version of the proposal on screen (Decision.Shown, the protocol's
// "shown"): the version the window computes of a far desk's proposal is
// the desk's own, so a decision on it is carried out; once the file
// changed on disk, a decision on the version shown before is refused at
// the desk with nothing written; and a changeset approved as shown leaves
// out a proposal that joined it since.
func TestFleetCarriesTheVersionShown(t *testing.T) {
	a := newFarDesk(t)
	path := filepath.Join(a.Root, "x.txt")
	reviewtest.WriteFile(t, path, "one\n")
	pa, _ := a.propose(t, "x.txt", "two\n")
	f, events := newTestFleet(t, newFakeClock(), a.spec("dev@a"))
	shown := f.List()[0]
	if review.ShownVersion(shown) != review.ShownVersion(pa) {
		t.Fatal("the window's version of a far desk's proposal is not the desk's")
	}
	reviewtest.WriteFile(t, path, "disk\n")
	a.Decide(reviewtest.Context(t), pa.ID, review.Decision{Verdict: "approved"}) // refused: the desk marks it stale
	waitFor(t, events, "the proposal stale in the window, with the disk's text", func() bool {
		p, _ := f.Get(shown.ID)
		return p.State == review.StateStale && string(p.Files[0].Disk.Content) == "disk\n"
	})
	sum := sha256.Sum256([]byte("disk\n"))
	over := map[string]string{path: hex.EncodeToString(sum[:])}
	_, err := f.Decide(reviewtest.Context(t), shown.ID, review.Decision{Verdict: decision.Overwritten, Overwrite: over, Shown: review.ShownVersion(shown)})
	if err == nil || !strings.Contains(err.Error(), "changed after it was shown") {
		t.Fatalf("a decision on the version shown before the disk changed: %v; want it refused as changed", err)
	}
	if got := reviewtest.ReadFile(t, path); got != "disk\n" {
		t.Fatalf("x.txt is %q after a refused decision", got)
	}
	now, _ := f.Get(shown.ID)
	if _, err := f.Decide(reviewtest.Context(t), shown.ID, review.Decision{Verdict: decision.Overwritten, Overwrite: over, Shown: review.ShownVersion(now)}); err != nil {
		t.Fatalf("the decision on the version shown: %v", err)
	}

	pb, _ := a.propose(t, "b.txt", "b\n")
	waitFor(t, events, "b.txt in the window", func() bool { return len(f.List()) == 1 })
	gb := f.List()[0]
	cs, _ := f.ChangesetOf(gb.ID)
	late, _ := a.propose(t, "c.txt", "c\n")
	waitFor(t, events, "c.txt in the window", func() bool { return len(f.List()) == 2 })
	res, err := f.DecideChangeset(reviewtest.Context(t), cs.Key, review.ChangesetDecision{Verdict: "approved", Shown: map[string]string{gb.ID: review.ShownVersion(gb)}})
	if err != nil || len(res.Decided) != 1 || len(res.Skipped) != 1 {
		t.Fatalf("the changeset approved as shown: %+v, %v; want b.txt decided, c.txt left", res, err)
	}
	if p, _ := a.Get(pb.ID); p.State.Open() {
		t.Error("b.txt, shown, was not approved")
	}
	if p, _ := a.Get(late.ID); !p.State.Open() {
		t.Errorf("c.txt, proposed after the changeset was shown, is %s", p.State)
	}
}
