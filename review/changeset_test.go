package review_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

func TestChangesetsGroupBySessionAndTurn(t *testing.T) {
	at := func(m int) time.Time { return time.Date(2026, 11, 24, 9, m, 0, 0, time.UTC) }
	ps := []review.Proposal{
		{ID: "p3", Agent: "claude-code", Session: "s1", Turn: "t1", Created: at(3), State: review.StatePending,
			Files: []review.File{{Rel: "b.go", Added: 2, Removed: 1}}},
		{ID: "p1", Agent: "claude-code", Session: "s1", Turn: "t1", Created: at(1), State: review.StateReported,
			Files: []review.File{{Rel: "a.go", Added: 1}, {Rel: "dir/c.go", Added: 4, Removed: 3}}},
		{ID: "p2", Agent: "gemini-cli", Session: "s1", Turn: "t1", Created: at(2), State: review.StatePending},
		{ID: "p4", Agent: "claude-code", Session: "s1", Turn: "t2", Created: at(4), State: review.StatePending},
		{ID: "p5", Agent: "aider", Created: at(5), State: review.StatePending},
		{ID: "p6", Agent: "aider", Created: at(6), State: review.StatePending},
	}
	css := review.Changesets(ps)
	var got []string
	for _, cs := range css {
		var ids []string
		for _, p := range cs.Proposals {
			ids = append(ids, p.ID)
		}
		got = append(got, strings.Join(ids, "+"))
	}
	// Same agent and session, other turn: another changeset; another agent
	// in a session of the same name: another; no session: one each.
	if want := "p1+p3 p2 p4 p5 p6"; strings.Join(got, " ") != want {
		t.Fatalf("changesets = %v; want %s", got, want)
	}
	cs := css[0]
	if cs.Open != 1 || cs.Added != 7 || cs.Removed != 4 || len(cs.Files) != 3 {
		t.Errorf("changeset = open %d +%d −%d, %d files; want open 1 +7 −4, 3 files", cs.Open, cs.Added, cs.Removed, len(cs.Files))
	}
	var files []string
	for _, f := range cs.Files {
		files = append(files, f.Proposal+":"+f.Rel+":"+string(f.State))
	}
	if want := "p1:a.go:reported p1:dir/c.go:reported p3:b.go:pending"; strings.Join(files, " ") != want {
		t.Errorf("files = %v; want %s", files, want)
	}
	if cs.Key != review.ChangesetKey(ps[0]) || cs.Key == review.ChangesetKey(ps[3]) || !strings.HasPrefix(cs.Key, "cs-") {
		t.Errorf("key %q: want p1's and p3's, not p4's", cs.Key)
	}
	if review.ChangesetKey(ps[4]) == review.ChangesetKey(ps[5]) {
		t.Error("two proposals without a session share a changeset key")
	}
}

// proposeAs proposes a whole-file write of rel as agent and session, as
// the IDE doors do: one call per file.
func proposeAs(t *testing.T, d *reviewtest.Desk, session, rel, content string) review.Proposal {
	t.Helper()
	p, err := d.Propose(context.Background(), review.Request{Agent: "claude-code", Session: session, Format: engine.FormatWrite,
		Path: rel, Payload: content, AgentWrites: true})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDecideChangesetAnswersEachWaitingCall: three one-file calls of one
// session wait at once (as hooks do; an IDE door's calls come one after
// another, the earlier ones already decided); approving the changeset
// answers each call with its own file's content, and leaves the proposal
// decided before, and the other session's, as they were.
func TestDecideChangesetAnswersEachWaitingCall(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "a\n")
	first := proposeAs(t, d, "s1", "a.txt", "A\n")
	d.MustDecide(t, first.ID, review.Decision{Verdict: decision.Rejected, Feedback: "no"})
	reviewtest.WaitOutcome(t, d.Desk, first.ID) // delivered: kept only as recently decided
	other := proposeAs(t, d, "s2", "other.txt", "other\n")
	files := map[string]string{"b.txt": "bee\n", "dir/c.txt": "sea\n", "d.txt": "dee\n"}
	ids := map[string]string{}
	for _, rel := range []string{"b.txt", "dir/c.txt", "d.txt"} {
		ids[rel] = proposeAs(t, d, "s1", rel, files[rel]).ID
	}
	outcomes := map[string]review.Outcome{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for rel, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o, err := d.Wait(reviewtest.Context(t), id)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			outcomes[rel] = o
			mu.Unlock()
		}()
	}
	cs, ok := d.ChangesetOf(ids["b.txt"])
	if !ok || len(cs.Proposals) != 4 || cs.Open != 3 || cs.Proposals[0].ID != first.ID {
		t.Fatalf("changeset of b.txt = %v, %d proposals, %d open; want the decided a.txt first, then 3 open", ok, len(cs.Proposals), cs.Open)
	}
	res, err := d.DecideChangeset(context.Background(), cs.Key, review.ChangesetDecision{Verdict: decision.Approved})
	if err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if len(res.Decided) != 3 || len(res.Skipped) != 0 {
		t.Errorf("result: %d decided, skipped %v; want 3, none", len(res.Decided), res.Skipped)
	}
	for rel, o := range outcomes {
		if o.ID != ids[rel] || o.Status != decision.Approved || len(o.Files) != 1 || o.Files[0].FinalContent != files[rel] {
			t.Errorf("%s's call got %+v; want its own approval with %q", rel, o, files[rel])
		}
		if _, err := os.Stat(filepath.Join(d.Root, rel)); !os.IsNotExist(err) {
			t.Errorf("%s written by the desk; the agent writes it (AgentWrites)", rel)
		}
	}
	if o, _ := d.Outcome(first.ID); o.Status != decision.Rejected {
		t.Errorf("the proposal decided before is now %s; want it left rejected", o.Status)
	}
	if p, _ := d.Get(other.ID); p.State != review.StatePending {
		t.Errorf("the other session's proposal is %s; want it left pending", p.State)
	}
}

func TestDecideChangesetRejectsAllWithOneReasonAndSkipsStale(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	for _, rel := range []string{"a.txt", "b.txt", "c.txt"} {
		reviewtest.WriteFile(t, filepath.Join(d.Root, rel), rel+"\n")
	}
	prop := func(rel string) review.Proposal {
		p, err := d.Propose(context.Background(), review.Request{Agent: "native", Session: "s", Format: engine.FormatWrite, Path: rel, Payload: "new " + rel + "\n"})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b, c := prop("a.txt"), prop("b.txt"), prop("c.txt")
	// b.txt changes on disk: the proposal is stale, and approving the
	// changeset must not write over the change.
	reviewtest.WriteFile(t, filepath.Join(d.Root, "b.txt"), "changed on disk\n")
	key := review.ChangesetKey(a)
	res, err := d.DecideChangeset(context.Background(), key, review.ChangesetDecision{Verdict: decision.Approved})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Decided) != 2 || len(res.Skipped) != 1 || res.Skipped[0].ID != b.ID || !strings.Contains(res.Skipped[0].Reason, "stale") {
		t.Fatalf("approve: decided %d, skipped %+v; want a and c approved, b skipped as stale", len(res.Decided), res.Skipped)
	}
	if got := reviewtest.ReadFile(t, filepath.Join(d.Root, "b.txt")); got != "changed on disk\n" {
		t.Errorf("b.txt = %q; the disk's change was overwritten", got)
	}
	if got := reviewtest.ReadFile(t, filepath.Join(d.Root, "c.txt")); got != "new c.txt\n" {
		t.Errorf("c.txt = %q; want approved", got)
	}
	if p, _ := d.Get(b.ID); !p.State.Open() {
		t.Fatalf("b is %s; want still open", p.State)
	}
	res, err = d.DecideChangeset(context.Background(), key, review.ChangesetDecision{Verdict: decision.Rejected, Feedback: "one reason"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Decided) != 1 || res.Decided[0].ID != b.ID || res.Decided[0].Status != decision.Rejected || res.Decided[0].Feedback != "one reason" {
		t.Errorf("reject: %+v; want b rejected with the reason (a and c already decided)", res.Decided)
	}
	if o, _ := d.Outcome(c.ID); o.Status != decision.Approved {
		t.Errorf("c is now %s; a decided proposal must stay as it was", o.Status)
	}
	if _, err := d.DecideChangeset(context.Background(), "cs-nope", review.ChangesetDecision{Verdict: decision.Approved}); err == nil || !strings.Contains(err.Error(), "unknown changeset") {
		t.Errorf("unknown key: err = %v", err)
	}
	if _, err := d.DecideChangeset(context.Background(), key, review.ChangesetDecision{Verdict: decision.Partial}); err == nil || !strings.Contains(err.Error(), "approved or rejected whole") {
		t.Errorf("partial: err = %v", err)
	}
}

// TestPartialWithNoHunksOfAFileLeavesItUnwritten: deciding per file inside
// a multi-file proposal — every hunk of one file unticked — leaves that
// file as it is (a new file is not created empty), and writes the other.
func TestPartialWithNoHunksOfAFileLeavesItUnwritten(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "a\n")
	patch := "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+A\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+new\n"
	p, err := d.Propose(context.Background(), review.Request{Agent: "test", Format: engine.FormatPatch, Payload: patch})
	if err != nil || len(p.Files) != 2 {
		t.Fatalf("propose: %v, %d files", err, len(p.Files))
	}
	a, nf := p.Files[0], p.Files[1]
	o := d.MustDecide(t, p.ID, review.Decision{Verdict: decision.Partial, Hunks: map[string][]string{a.Path: {a.Hunks()[0].ID}, nf.Path: {}}})
	if got := reviewtest.ReadFile(t, a.Path); got != "A\n" {
		t.Errorf("a.txt = %q; want its ticked hunk written", got)
	}
	if _, err := os.Stat(nf.Path); !os.IsNotExist(err) {
		t.Errorf("new.txt exists (%v); with none of its hunks ticked it must not be created", err)
	}
	if len(o.Files) != 2 || o.Files[1].Written {
		t.Errorf("outcome files = %+v; want new.txt not written", o.Files)
	}
}

// TestDecideChangesetLeavesAStreamForApprovalButRejectsIt: approving a
// changeset leaves a proposal still streaming (its edit is not complete);
// rejecting the changeset rejects it, and its agent is answered.
func TestDecideChangesetLeavesAStreamForApprovalButRejectsIt(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	req := func(rel string, stream bool) review.Proposal {
		p, err := d.Propose(context.Background(), review.Request{Agent: "native", Session: "s", Format: engine.FormatWrite, Path: rel, Payload: "x\n", Stream: stream})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, s := req("a.txt", false), req("s.txt", true)
	res, err := d.DecideChangeset(context.Background(), review.ChangesetKey(a), review.ChangesetDecision{Verdict: decision.Approved})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Decided) != 1 || res.Decided[0].ID != a.ID || len(res.Skipped) != 1 || res.Skipped[0].ID != s.ID || !strings.Contains(res.Skipped[0].Reason, "streaming") {
		t.Fatalf("approve: decided %+v, skipped %+v; want a approved, the stream left", res.Decided, res.Skipped)
	}
	res, err = d.DecideChangeset(context.Background(), review.ChangesetKey(a), review.ChangesetDecision{Verdict: decision.Rejected, Feedback: "stop"})
	if err != nil || len(res.Decided) != 1 || res.Decided[0].ID != s.ID {
		t.Fatalf("reject: %+v, %v; want the stream rejected", res, err)
	}
	if o := reviewtest.WaitOutcome(t, d.Desk, s.ID); o.Status != decision.Rejected || o.Feedback != "stop" {
		t.Errorf("the stream's outcome %s %q; want rejected, stop", o.Status, o.Feedback)
	}
}
