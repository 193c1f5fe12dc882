package deskrpc

import (
	"context"
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

// dialReviewer connects to d as a reviewer.
func dialReviewer(t *testing.T, d *review.Desk) *Client {
	t.Helper()
	cl := dialTestDesk(t, d)
	if code, err := callCode(t, cl, "hello", map[string]any{"protocol": 1, "agent": "diffdesk", "session": "window", "role": "reviewer"}); code != 0 {
		t.Fatalf("hello as reviewer: %v", err)
	}
	return cl
}

// nextEvent is the subscription's next event about id, skipping others'.
func nextEvent(t *testing.T, sub *Subscription, id string) Event {
	t.Helper()
	for {
		ev, err := sub.Next(reviewtest.Context(t))
		if err != nil {
			t.Fatalf("waiting for an event about %s: %v", id, err)
		}
		if ev.ID == id {
			return ev
		}
	}
}

// TestSubscribeFollowsTheQueue: a reviewer gets the queue as it is, then
// an event for each change, each with the proposal as it is then; an event
// for a decided proposal says so.
func TestSubscribeFollowsTheQueue(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "one\n")
	first := d.MustPropose(t, engine.FormatWrite, "a.txt", "ONE\n")
	rev := dialReviewer(t, d.Desk)
	sub, err := rev.Subscribe(reviewtest.Context(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(sub.Proposals) != 1 || sub.Proposals[0].ID != first.ID || sub.Proposals[0].State != review.StatePending ||
		sub.Proposals[0].Added != 1 || sub.Proposals[0].Removed != 1 {
		t.Fatalf("subscribe's queue: %+v; want the one pending proposal %s, +1 −1", sub.Proposals, first.ID)
	}

	second := d.MustPropose(t, engine.FormatWrite, "b.txt", "new\n")
	ev := nextEvent(t, sub, second.ID)
	if ev.Proposal == nil || ev.Proposal.State != review.StatePending || len(ev.Proposal.Files) != 1 ||
		ev.Proposal.Files[0] != filepath.Join(d.Root, "b.txt") || ev.Proposal.Agent != "test" {
		t.Errorf("event for the new proposal: %+v %+v; want it pending, b.txt, agent test", ev, ev.Proposal)
	}

	if code, err := callCode(t, rev, "decide", map[string]any{"id": first.ID, "decision": "approve"}); code != 0 {
		t.Fatal(err)
	}
	ev = nextEvent(t, sub, first.ID)
	if ev.Kind != review.EventDecided || ev.Proposal == nil || ev.Proposal.State != review.StateReported {
		t.Errorf("event after the decision: %+v %+v; want decided, reported", ev, ev.Proposal)
	}

	if _, err := rev.Subscribe(reviewtest.Context(t)); err == nil {
		t.Error("a second Subscribe on one connection: no error")
	}
	if code, _ := callCode(t, rev, "subscribe", map[string]any{}); code != codeState {
		t.Errorf("a second subscribe on one connection: code %d; want %d", code, codeState)
	}
}

// TestSubscribeEndsWithTheConnection: once the desk's connection is gone,
// Next says so instead of waiting.
func TestSubscribeEndsWithTheConnection(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	rev := dialReviewer(t, d.Desk)
	sub, err := rev.Subscribe(reviewtest.Context(t))
	if err != nil {
		t.Fatal(err)
	}
	rev.Close()
	if _, err := sub.Next(reviewtest.Context(t)); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("Next after the connection closed: %v; want the connection's end", err)
	}
}

// TestGetGivesTheProposalInFull: the texts, the placement of each block
// and the hunks, whose ids a partial decision takes.
func TestGetGivesTheProposalInFull(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(d.Root, "c.txt")
	base := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
	reviewtest.WriteFile(t, path, base)
	p := d.MustPropose(t, engine.FormatSearchReplace, "c.txt", reviewtest.SR("b\n", "B\n")+"\n"+reviewtest.SR("i\n", "I\n"))
	rev := dialReviewer(t, d.Desk)
	got, err := rev.Get(reviewtest.Context(t), p.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != p.ID || got.Format != engine.FormatSearchReplace || len(got.Files) != 1 {
		t.Fatalf("get: %+v; want proposal %s, search-replace, one file", got, p.ID)
	}
	f := got.Files[0]
	if f.Path != path || f.Rel != "c.txt" || f.Base == nil || *f.Base != base || f.Proposed == nil ||
		*f.Proposed != strings.NewReplacer("b\n", "B\n", "i\n", "I\n").Replace(base) || f.Added != 2 || f.Removed != 2 {
		t.Errorf("get's file: %+v; want c.txt with its base and proposed texts, +2 −2", f)
	}
	if len(f.Matches) != 2 || f.Matches[0].How == "" || f.Matches[0].Loose || f.Matches[1].StartLine != 9 {
		t.Errorf("get's matches: %+v; want two exact ones, the second at line 9", f.Matches)
	}
	// Each with its context, as a unified diff's: lines 1–5 around b, 6–10 around i.
	if len(f.Hunks) != 2 || f.Hunks[0].OldStart != 1 || f.Hunks[0].OldLines != 5 || f.Hunks[1].NewStart != 6 || f.Hunks[1].NewLines != 5 {
		t.Fatalf("get's hunks: %+v; want lines 1–5 and 6–10", f.Hunks)
	}
	if code, err := callCode(t, rev, "decide", map[string]any{"id": p.ID, "decision": "partial",
		"hunks": map[string][]string{path: {f.Hunks[1].ID}}}); code != 0 {
		t.Fatal(err)
	}
	if got, want := reviewtest.ReadFile(t, path), strings.Replace(base, "i\n", "I\n", 1); got != want {
		t.Errorf("after approving the second hunk by get's id: %q; want %q", got, want)
	}
}

// TestGetOneFile: with a path, only that file's texts come (a patch's
// files can be large together); a path the proposal lacks is an error
// naming it. An agent's connection may not read proposals this way.
func TestGetOneFile(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "x.txt"), "x\n")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "y.txt"), "y\n")
	patch := "--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-x\n+X\n--- a/y.txt\n+++ b/y.txt\n@@ -1 +1 @@\n-y\n+Y\n"
	p := d.MustPropose(t, engine.FormatPatch, "", patch)
	rev := dialReviewer(t, d.Desk)
	got, err := rev.Get(reviewtest.Context(t), p.ID, "y.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Files) != 2 || got.Files[0].Base != nil || got.Files[0].Proposed != nil || len(got.Files[0].Hunks) != 1 ||
		got.Files[1].Proposed == nil || *got.Files[1].Proposed != "Y\n" {
		t.Errorf("get with y.txt: %+v; want x.txt without texts (its hunk still listed) and y.txt's texts", got.Files)
	}
	if code, err := callCode(t, rev, "get", map[string]any{"id": p.ID, "path": "z.txt"}); code != codeInvalidParams || !strings.Contains(err.Error(), `no file "z.txt"`) {
		t.Errorf("get with a path the proposal lacks: %v (code %d); want %d naming it", err, code, codeInvalidParams)
	}
	if code, _ := callCode(t, rev, "get", map[string]any{"id": "p404"}); code != codeUnknown {
		t.Errorf("get of an unknown id: code %d; want %d", code, codeUnknown)
	}
	agent := dialTestDesk(t, d.Desk)
	for _, method := range []string{"get", "subscribe"} {
		if code, _ := callCode(t, agent, method, map[string]any{"id": p.ID}); code != codeForbidden {
			t.Errorf("%s on an agent's connection: code %d; want %d", method, code, codeForbidden)
		}
	}
}

// TestGetMidStreamIsTheLiveText: a reviewer reading a proposal while it
// streams gets the text as far as it has come and its real hunks, not an
// empty proposal deleting the whole file.
func TestGetMidStreamIsTheLiveText(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "one\ntwo\nthree\n")
	p, err := d.Propose(reviewtest.Context(t), review.Request{Agent: "test", Format: engine.FormatSearchReplace, Path: "a.txt", Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Feed(p.ID, reviewtest.SR("two\n", "TWO\n")); err != nil {
		t.Fatal(err)
	}
	rev := dialReviewer(t, d.Desk)
	det, err := rev.Get(reviewtest.Context(t), p.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Finish(reviewtest.Context(t), p.ID); err != nil {
		t.Fatal(err)
	}
	done, err := rev.Get(reviewtest.Context(t), p.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	f := det.Files[0]
	if f.Proposed == nil || *f.Proposed != "one\nTWO\nthree\n" || len(f.Hunks) != 1 || f.Hunks[0] != done.Files[0].Hunks[0] {
		t.Errorf("get mid-stream: proposed %q, hunks %+v; want the live text and its hunk, as once finished (%+v)", deref(f.Proposed), f.Hunks, done.Files[0].Hunks)
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// TestDecideStaleOverTheProtocol: a reviewer's approve with the disk hash
// it saw writes the merge; overwrite writes the proposal over the disk and
// says so.
func TestDecideStaleOverTheProtocol(t *testing.T) {
	for _, tt := range []struct{ decision, want, status string }{
		{"approve", "ONE\ntwo\nTHREE\n", "approved"},
		{"overwrite", "ONE\ntwo\nthree\n", "approved-overwrite"},
	} {
		t.Run(tt.decision, func(t *testing.T) {
			d := reviewtest.NewDesk(t, "", "")
			path := filepath.Join(d.Root, "a.txt")
			reviewtest.WriteFile(t, path, "one\ntwo\nthree\n")
			p := d.MustPropose(t, engine.FormatSearchReplace, "a.txt", reviewtest.SR("one\n", "ONE\n"))
			reviewtest.WriteFile(t, path, "one\ntwo\nTHREE\n")
			// Until the disk the desk saw is the whole save: a watcher can
			// see the file truncated first, and a hash of that is stale.
			q := reviewtest.WaitFile(t, d.Desk, p.ID, path, "stale", func(f review.File) bool {
				return f.Stale() && string(f.Disk.Content) == "one\ntwo\nTHREE\n"
			})
			var res struct {
				Text    string `json:"text"`
				Outcome struct {
					Status string `json:"status"`
				} `json:"outcome"`
			}
			err := dialReviewer(t, d.Desk).Call(reviewtest.Context(t), "decide", map[string]any{"id": p.ID, "decision": tt.decision,
				"overwrite": map[string]string{path: q.Disk.SHA256}}, &res)
			if err != nil {
				t.Fatal(err)
			}
			if got := reviewtest.ReadFile(t, path); got != tt.want || res.Outcome.Status != tt.status || strings.Contains(res.Text, "changes made by the person") {
				t.Errorf("file %q, status %s, text:\n%s\nwant %q, %s", got, res.Outcome.Status, res.Text, tt.want, tt.status)
			}
		})
	}
}

// TestRestoreIsAReviewers: an agent's connection cannot restore files.
func TestRestoreIsAReviewers(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "one\n")
	o := d.MustDecide(t, d.MustPropose(t, engine.FormatWrite, "a.txt", "two\n").ID, review.Decision{Verdict: decision.Approved})
	agent := dialTestDesk(t, d.Desk)
	if code, _ := callCode(t, agent, "restore", map[string]any{"checkpoint": o.Checkpoint, "apply": true}); code != codeForbidden {
		t.Errorf("an agent's restore: code %d; want %d", code, codeForbidden)
	}
	if got := reviewtest.ReadFile(t, filepath.Join(d.Root, "a.txt")); got != "two\n" {
		t.Errorf("a.txt = %q", got)
	}
	a, err := dialReviewer(t, d.Desk).Restore(reviewtest.Context(t), journal.RestoreRequest{Checkpoint: o.Checkpoint}, true)
	if err != nil || a.Result.Checkpoint == 0 || reviewtest.ReadFile(t, filepath.Join(d.Root, "a.txt")) != "one\n" {
		t.Errorf("a reviewer's restore: %+v, %v", a.Result, err)
	}
}

// TestASubscriberThatStopsReadingIsDropped: a reviewer that subscribes
// and stops reading held one queued event per proposal the desk made,
// without bound. Past maxQueuedEvents proposals it is told once (the
// server closes its connection) and nothing more is kept; updates to
// proposals already queued still coalesce.
func TestASubscriberThatStopsReadingIsDropped(t *testing.T) {
	old := maxQueuedEvents
	maxQueuedEvents = 3
	defer func() { maxQueuedEvents = old }()
	full := 0
	q := newEventQueue(func() { full++ })
	for i := 0; i < 10; i++ {
		q.add(review.Event{Kind: review.EventAdded, ID: fmt.Sprint("p", i)})
	}
	q.add(review.Event{Kind: review.EventDecided, ID: "p1"})
	if full != 1 {
		t.Fatalf("the full queue was told %d times; want once", full)
	}
	var got []string
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for {
		q.mu.Lock()
		n := len(q.order)
		q.mu.Unlock()
		if n == 0 {
			break
		}
		ev, _ := q.next(ctx)
		got = append(got, ev.ID+":"+string(ev.Kind))
	}
	if want := []string{"p0:" + string(review.EventAdded), "p1:" + string(review.EventDecided), "p2:" + string(review.EventAdded)}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("kept %v; want %v", got, want)
	}
}
