package remote

import (
	"errors"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/deskrpc/deskrpctest"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// serve serves d until the test ends and returns its socket.
func serve(t *testing.T, d *review.Desk) string { return deskrpctest.Serve(t, d) }

// open opens the desk on sock as a remote reviewer named who; its events
// arrive on the channel returned.
func open(t *testing.T, sock, who string) (*Desk, chan review.Event) {
	t.Helper()
	cl, err := deskrpc.Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(reviewtest.Context(t), cl, "test-host", who)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	events := make(chan review.Event, 100)
	d.Subscribe(func(ev review.Event) { events <- ev })
	return d, events
}

// await waits for an event about id of kind.
func await(t *testing.T, events chan review.Event, id string, kind review.EventKind) {
	t.Helper()
	ctx := reviewtest.Context(t)
	for {
		select {
		case ev := <-events:
			if ev.ID == id && ev.Kind == kind {
				return
			}
		case <-ctx.Done():
			t.Fatalf("no %s event for %s", kind, id)
		}
	}
}

// TestRemoteDeskMirrorsTheQueue: the remote desk holds what the desk
// holds — texts, matches, hunks — both what waited before it opened and
// what arrives after (announced once it has been read), and a partial
// decision by the desk's own hunk ids writes on the desk's machine.
func TestRemoteDeskMirrorsTheQueue(t *testing.T) {
	local := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(local.Root, "a.txt"), "a\n")
	first := local.MustPropose(t, engine.FormatWrite, "a.txt", "A\n")
	rd, events := open(t, serve(t, local.Desk), "me@laptop")

	if got := rd.List(); len(got) != 1 || got[0].ID != first.ID || got[0].Files[0].Proposed != "A\n" || got[0].Files[0].BaseText() != "a\n" {
		t.Fatalf("List at open: %+v; want %s with its texts", got, first.ID)
	}
	if !slices.Equal(rd.Roots(), local.Roots()) {
		t.Errorf("Roots %v; want the desk's %v", rd.Roots(), local.Roots())
	}

	path := filepath.Join(local.Root, "c.txt")
	base := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
	reviewtest.WriteFile(t, path, base)
	second := local.MustPropose(t, engine.FormatSearchReplace, "c.txt", reviewtest.SR("b\n", "B\n")+"\n"+reviewtest.SR("i\n", "I\n"))
	await(t, events, second.ID, review.EventPending)
	p, ok := rd.Get(second.ID)
	if !ok || p.State != review.StatePending || len(p.Files) != 1 || len(p.Files[0].Matches) != 2 || p.Files[0].Rel != "c.txt" {
		t.Fatalf("Get after its event: %+v; want pending, c.txt, two matches", p)
	}
	hunks := p.Files[0].Hunks()
	want, _ := local.Get(second.ID)
	if wantHunks := want.Files[0].Hunks(); len(hunks) != 2 || hunks[1].ID != wantHunks[1].ID {
		t.Fatalf("hunks here %+v; want the desk's %+v", hunks, wantHunks)
	}
	dec := review.Decision{Verdict: decision.Partial, Hunks: map[string][]string{path: {hunks[1].ID}}}
	wrote := strings.Replace(base, "i\n", "I\n", 1) // only the second hunk applied
	o, err := rd.Decide(reviewtest.Context(t), second.ID, dec)
	if err != nil || o.Status != decision.Partial {
		t.Fatalf("Decide: %+v, %v; want partial", o, err)
	}
	if got := reviewtest.ReadFile(t, path); got != wrote {
		t.Errorf("c.txt on the desk's machine: %q; wrote %q", got, wrote)
	}
	await(t, events, second.ID, review.EventDecided)
	if got, ok := rd.Outcome(second.ID); !ok || got.Status != decision.Partial {
		t.Errorf("Outcome after deciding: %+v, %v", got, ok)
	}
	if got := rd.List(); len(got) != 1 || got[0].ID != first.ID {
		t.Errorf("List after the decision: %+v; want only %s", got, first.ID)
	}
}

// TestTwoReviewersOneDesk: two windows on one desk see the same queue; the
// first decision wins, the other's fails without writing, and it sees the
// proposal decided, with the outcome.
func TestTwoReviewersOneDesk(t *testing.T) {
	local := reviewtest.NewDesk(t, "", "")
	sock := serve(t, local.Desk)
	one, oneEvents := open(t, sock, "ann@laptop")
	two, twoEvents := open(t, sock, "bob@desktop")
	path := filepath.Join(local.Root, "x.txt")
	reviewtest.WriteFile(t, path, "x\n")
	p := local.MustPropose(t, engine.FormatWrite, "x.txt", "X\n")
	await(t, oneEvents, p.ID, review.EventPending)
	await(t, twoEvents, p.ID, review.EventPending)

	if _, err := one.Decide(reviewtest.Context(t), p.ID, review.Decision{Verdict: decision.Rejected, Feedback: "no"}); err != nil {
		t.Fatal(err)
	}
	_, err := two.Decide(reviewtest.Context(t), p.ID, review.Decision{Verdict: decision.Approved})
	if err == nil {
		t.Fatal("the second reviewer's decision of a decided proposal: no error")
	}
	if got := reviewtest.ReadFile(t, path); got != "x\n" {
		t.Errorf("x.txt after a rejection and a late approval: %q; want it untouched", got)
	}
	await(t, twoEvents, p.ID, review.EventDecided)
	got, ok := two.Get(p.ID)
	if !ok || got.State.Open() {
		t.Errorf("the other window's proposal after the decision: %+v; want it decided", got.State)
	}
	if o, ok := two.Outcome(p.ID); !ok || o.Status != decision.Rejected {
		t.Errorf("the other window's outcome: %+v, %v; want rejected", o, ok)
	}
	if len(two.List()) != 0 {
		t.Errorf("the other window's queue: %+v; want empty", two.List())
	}
	if o, _ := two.Outcome(p.ID); o.By != "ann@laptop" {
		t.Errorf("the other window sees it decided by %q; want ann@laptop", o.By)
	}
	page, err := local.Journal.History(reviewtest.Context(t), journal.Filter{})
	if err != nil || len(page.Entries) == 0 {
		t.Fatalf("History: %+v, %v", page, err)
	}
	if det, err := local.Journal.Detail(reviewtest.Context(t), page.Entries[0].Ref); err != nil || det.DecidedBy != "ann@laptop" {
		t.Errorf("the journal says decided by %q (%v); want ann@laptop, the window that decided", det.DecidedBy, err)
	}
}

// TestRemoteStaleDecision: a decision the desk refuses because the file
// changed on disk comes back as the *review.StaleError the window handles.
func TestRemoteStaleDecision(t *testing.T) {
	local := reviewtest.NewDesk(t, "", "")
	rd, events := open(t, serve(t, local.Desk), "me@laptop")
	path := filepath.Join(local.Root, "s.txt")
	reviewtest.WriteFile(t, path, "s\n")
	p := local.MustPropose(t, engine.FormatWrite, "s.txt", "S\n")
	await(t, events, p.ID, review.EventPending)
	reviewtest.WriteFile(t, path, "someone else\n")
	_, err := rd.Decide(reviewtest.Context(t), p.ID, review.Decision{Verdict: decision.Approved})
	var se *review.StaleError
	if !errors.As(err, &se) || len(se.Paths) != 1 || se.Paths[0] != path {
		t.Errorf("Decide over a changed file: %v; want a StaleError naming %s", err, path)
	}
	if got := reviewtest.ReadFile(t, path); got != "someone else\n" {
		t.Errorf("s.txt: %q; want the other writer's text kept", got)
	}
}

// TestLostDesk: when the desk goes, OnLost says so, naming it.
func TestLostDesk(t *testing.T) {
	local := reviewtest.NewDesk(t, "", "")
	cl, err := deskrpc.Dial(serve(t, local.Desk))
	if err != nil {
		t.Fatal(err)
	}
	rd, err := Open(reviewtest.Context(t), cl, "dev@box", "me@laptop")
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	lost := make(chan error, 1)
	rd.OnLost(func(err error) { lost <- err })
	cl.Close() // as when ssh drops
	select {
	case err := <-lost:
		if !strings.Contains(err.Error(), "lost the desk at dev@box") {
			t.Errorf("OnLost: %v; want it to name the desk", err)
		}
	case <-reviewtest.Context(t).Done():
		t.Fatal("OnLost was not called")
	}
}

// countingConn counts the requests a client writes (one per line).
type countingConn struct {
	net.Conn
	mu    sync.Mutex
	lines []string
}

func (c *countingConn) Write(b []byte) (int, error) {
	c.mu.Lock()
	for _, l := range strings.SplitAfter(string(b), "\n") {
		if l != "" {
			c.lines = append(c.lines, l)
		}
	}
	c.mu.Unlock()
	return c.Conn.Write(b)
}

func (c *countingConn) sent() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.lines...)
}

// TestDecisionIsOneRoundTrip: a decision costs one request to the desk
// (its answer carries the outcome), whatever the window then shows; the
// window's reading of the proposal costs nothing at decision time.
func TestDecisionIsOneRoundTrip(t *testing.T) {
	local := reviewtest.NewDesk(t, "", "")
	nc, err := deskrpc.DialConn(serve(t, local.Desk))
	if err != nil {
		t.Fatal(err)
	}
	cc := &countingConn{Conn: nc}
	rd, err := Open(reviewtest.Context(t), deskrpc.NewClient(cc), "dev@box", "me@laptop")
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	events := make(chan review.Event, 100)
	rd.Subscribe(func(ev review.Event) { events <- ev })
	reviewtest.WriteFile(t, filepath.Join(local.Root, "r.txt"), "r\n")
	p := local.MustPropose(t, engine.FormatWrite, "r.txt", "R\n")
	await(t, events, p.ID, review.EventPending)
	before := len(cc.sent())
	if _, err := rd.Decide(reviewtest.Context(t), p.ID, review.Decision{Verdict: decision.Approved}); err != nil {
		t.Fatal(err)
	}
	await(t, events, p.ID, review.EventDecided)
	if o, ok := rd.Outcome(p.ID); !ok || o.Status != decision.Approved {
		t.Errorf("Outcome after Decide: %+v, %v", o, ok)
	}
	if got, _ := rd.Get(p.ID); got.State.Open() {
		t.Errorf("state after the decided event: %s; want decided", got.State)
	}
	sent := cc.sent()[before:]
	if len(sent) != 1 || !strings.Contains(sent[0], `"method":"decide"`) {
		t.Errorf("requests for Decide and Outcome: %q; want the one decide", sent)
	}
}

// TestRemoteChangeset: the window's changeset over a remote desk is the
// desk's, and approving it whole is one call that answers each proposal.
func TestRemoteChangeset(t *testing.T) {
	local := reviewtest.NewDesk(t, "", "")
	rd, events := open(t, serve(t, local.Desk), "me@laptop")
	var ids []string
	for _, name := range []string{"one.txt", "two.txt"} {
		reviewtest.WriteFile(t, filepath.Join(local.Root, name), "old\n")
		p, err := local.Propose(reviewtest.Context(t), review.Request{Agent: "agent", Session: "s1", Format: engine.FormatWrite, Path: name, Payload: "new\n"})
		if err != nil {
			t.Fatal(err)
		}
		await(t, events, p.ID, review.EventPending)
		ids = append(ids, p.ID)
	}
	cs, ok := rd.ChangesetOf(ids[0])
	want, _ := local.ChangesetOf(ids[0])
	if !ok || cs.Key != want.Key || len(cs.Proposals) != 2 || cs.Open != 2 {
		t.Fatalf("ChangesetOf: %+v; want the desk's %s with both proposals open", cs, want.Key)
	}
	res, err := rd.DecideChangeset(reviewtest.Context(t), cs.Key, review.ChangesetDecision{Verdict: decision.Approved})
	if err != nil || len(res.Decided) != 2 || len(res.Skipped) != 0 {
		t.Fatalf("DecideChangeset: %+v, %v; want both decided", res, err)
	}
	for i, name := range []string{"one.txt", "two.txt"} {
		if got := reviewtest.ReadFile(t, filepath.Join(local.Root, name)); got != "new\n" {
			t.Errorf("%s after approving the changeset: %q", name, got)
		}
		if o, ok := rd.Outcome(ids[i]); !ok || o.Status != decision.Approved {
			t.Errorf("outcome of %s here: %+v, %v", ids[i], o, ok)
		}
	}
}

// TestRemoteHeldFailure: a window on a remote desk attends it, so a
// failed edit a person could place waits for them; the window sees it
// held, and Dismiss sends the agent its failure.
func TestRemoteHeldFailure(t *testing.T) {
	local := reviewtest.NewDesk(t, "", "")
	rd, events := open(t, serve(t, local.Desk), "me@laptop")
	reviewtest.WriteFile(t, filepath.Join(local.Root, "h.txt"), "alpha\nbeta\ngamma\n")
	p, err := local.Propose(reviewtest.Context(t), review.Request{Agent: "agent", Session: "s", Format: engine.FormatSearchReplace, Path: "h.txt", Payload: reviewtest.SR("betta\n", "BETA\n")})
	if err != nil {
		t.Fatal(err)
	}
	got, ok := rd.Get(p.ID)
	for ctx := reviewtest.Context(t); !ok || got.State != review.StateHeld; got, ok = rd.Get(p.ID) {
		select {
		case <-events:
		case <-ctx.Done():
			t.Fatalf("the failed edit never showed here held: %+v", got)
		}
	}
	if !ok || got.State != review.StateHeld || got.Mismatch == nil {
		t.Fatalf("the failed edit here: %+v; want held, with its mismatch", got)
	}
	if err := rd.Dismiss(reviewtest.Context(t), p.ID); err != nil {
		t.Fatal(err)
	}
	if o := reviewtest.WaitOutcome(t, local.Desk, p.ID); o.Status != decision.Failed {
		t.Errorf("the agent's outcome after Dismiss: %s; want failed", o.Status)
	}
}
