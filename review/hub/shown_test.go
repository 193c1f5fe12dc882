package hub_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/hub"
	"github.com/diffdesk/diffdesk/review/reviewtest"
	"github.com/nats-io/nats.go/jetstream"
)

// TestViewDecidesTheVersionShown: a window's decision names the version
// it showed. The proposal changes on the hub between display and decision
// (its file changed on disk: the desk published a new round with the
// disk's text): the old decision is refused with the window's view on the
// new version, nothing sent and nothing written; decided on the new
// version, it is carried out.
func TestViewDecidesTheVersionShown(t *testing.T) {
	limit(t, 2*time.Minute)
	h := startHub(t, []string{"d1"}, []string{"r1"})
	d1, _ := h.link(t, "d1")
	path := filepath.Join(d1.Root, "x.txt")
	reviewtest.WriteFile(t, path, "one\n")
	_, out := propose(t, d1.Desk, "x.txt", "two\n")
	v, _, _ := openView(t, h, "r1", hub.ViewLimits{})
	until(t, "the proposal in the view", func() bool { return len(v.List()) == 1 })
	shown := v.List()[0]
	reviewtest.WriteFile(t, path, "disk\n")
	until(t, "the view to hold the stale version", func() bool {
		p, ok := v.Get(shown.ID)
		return ok && p.State == review.StateStale && string(p.Files[0].Disk.Content) == "disk\n" // not a write half done
	})
	sum := sha256.Sum256([]byte("disk\n"))
	over := map[string]string{path: hex.EncodeToString(sum[:])}
	_, err := v.Decide(ctx(t), shown.ID, review.Decision{Verdict: decision.Overwritten, Overwrite: over, Shown: review.ShownVersion(shown)})
	var ce *review.ChangedError
	if !errors.As(err, &ce) {
		t.Fatalf("a decision on the version shown before the change: %v; want ChangedError", err)
	}
	if got := reviewtest.ReadFile(t, path); got != "disk\n" {
		t.Fatalf("x.txt is %q after a refused decision", got)
	}
	if _, err := v.Decide(ctx(t), shown.ID, review.Decision{Verdict: decision.Approved}); err == nil || !strings.Contains(err.Error(), "which version") {
		t.Fatalf("a decision naming no version: %v; want it refused", err)
	}
	now, _ := v.Get(shown.ID)
	o, err := v.Decide(ctx(t), shown.ID, review.Decision{Verdict: decision.Overwritten, Overwrite: over, Shown: review.ShownVersion(now)})
	if err != nil || o.Status != decision.Overwritten {
		t.Fatalf("the decision on the version shown: %+v, %v", o, err)
	}
	if got := reviewtest.ReadFile(t, path); got != "two\n" {
		t.Errorf("x.txt is %q", got)
	}
	if recv(t, out, "the agent's outcome").Status != decision.Overwritten {
		t.Error("the agent was not told")
	}
}

// TestViewNeverSendsAnOldDecisionToANewVersion: a desk publishes its
// proposal again with other texts under the same id (a new round) while a
// window shows the first: the window's decision on the first is not
// created at either round — it is refused in the window, nothing on the
// hub. (The desk here is the test, publishing as desk d1.)
func TestViewNeverSendsAnOldDecisionToANewVersion(t *testing.T) {
	limit(t, 2*time.Minute)
	h := startHub(t, []string{"d1"}, []string{"r1"})
	js, err := jetstream.New(h.dial(t, "d1"))
	if err != nil {
		t.Fatal(err)
	}
	hid := strings.Repeat("c", 32)
	publish := func(round int, text string) {
		t.Helper()
		sum := sha256.Sum256([]byte(text))
		version := hex.EncodeToString(sum[:8])
		p := hub.Proposal{Desk: "d1", Hub: hid, ID: "p1", Agent: "a", Format: "write", State: "pending", Created: time.Now(), Round: round, Version: version,
			Files: []hub.File{{Path: "/w/x.txt", Rel: "x.txt", Root: "/w", Proposed: hub.TextRef{Size: int64(len(text)), SHA256: hex.EncodeToString(sum[:]), Chunks: 1}}}}
		if _, err := js.Publish(ctx(t), "dd.d1.t."+hid+"."+version+".0.p.0", []byte(text)); err != nil {
			t.Fatal(err)
		}
		data, _ := json.Marshal(p)
		if _, err := js.Publish(ctx(t), "dd.d1.p."+hid, data); err != nil {
			t.Fatal(err)
		}
	}
	publish(1, "seen\n")
	v, events, _ := openView(t, h, "r1", hub.ViewLimits{})
	until(t, "the proposal in the view", func() bool { return len(v.List()) == 1 })
	shown := v.List()[0]
	publish(2, "never seen\n")
	waitEvent(t, events, "the view to hold round 2", func() bool {
		p, ok := v.Get(shown.ID)
		return ok && p.Files[0].Proposed == "never seen\n"
	})
	dctx, cancel := context.WithTimeout(ctx(t), 5*time.Second)
	defer cancel()
	_, err = v.Decide(dctx, shown.ID, review.Decision{Verdict: decision.Approved, Shown: review.ShownVersion(shown)})
	var ce *review.ChangedError
	if !errors.As(err, &ce) {
		t.Errorf("the decision on the text shown: %v; want ChangedError", err)
	}
	rjs, err := jetstream.New(h.dial(t, "r1"))
	if err != nil {
		t.Fatal(err)
	}
	kv, err := rjs.KeyValue(ctx(t), hub.Bucket)
	if err != nil {
		t.Fatal(err)
	}
	for _, round := range []string{"1", "2"} {
		e, err := kv.Get(ctx(t), "d1."+hid+"."+round)
		switch {
		case err == nil:
			var d hub.Decision
			json.Unmarshal(e.Value(), &d)
			t.Errorf("a decision was created at round %s (version %s): %+v", round, d.Version, d)
		case !errors.Is(err, jetstream.ErrKeyNotFound):
			t.Fatalf("reading round %s's decision: %v", round, err)
		}
	}
}
