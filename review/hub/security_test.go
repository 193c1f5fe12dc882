package hub_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review/hub"
	"github.com/diffdesk/diffdesk/review/hub/hubserver"
	"github.com/diffdesk/diffdesk/review/reviewtest"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

func short(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
	t.Cleanup(cancel)
	return c
}

// A compromised desk's or reviewer's credentials reach only what their
// role needs: a desk publishes only under its own name and never
// decides, a reviewer publishes no proposal or outcome, nobody changes the
// stream, and nobody without credentials connects.
func TestPermissions(t *testing.T) {
	limit(t, 2*time.Minute)
	h := startHub(t, []string{"d1", "d2"}, []string{"r1"})
	d1, err := jetstream.New(h.dial(t, "d1"))
	if err != nil {
		t.Fatal(err)
	}
	r1, err := jetstream.New(h.dial(t, "r1"))
	if err != nil {
		t.Fatal(err)
	}
	const other = "0123456789abcdef0123456789abcdef"
	if _, err := d1.Publish(short(t), "dd.d2.p."+other, []byte(`{}`)); err == nil {
		t.Error("desk d1 published a proposal as desk d2")
	}
	if _, err := d1.Publish(ctx(t), "dd.d1.p."+other, []byte(`{}`)); err != nil {
		t.Errorf("desk d1 could not publish under its own name: %v", err)
	}
	if _, err := d1.Publish(short(t), "$KV."+hub.Bucket+".d1."+other+".1", []byte(`{}`)); err == nil {
		t.Error("desk d1 created a decision on its own proposal (an agent holding the desk's credentials could approve its own edit)")
	}
	if _, err := d1.OrderedConsumer(short(t), hub.Stream, jetstream.OrderedConsumerConfig{FilterSubjects: []string{"dd.d2.*.*"}}); err == nil {
		t.Error("desk d1 read desk d2's queue")
	}
	if _, err := d1.OrderedConsumer(short(t), "KV_"+hub.Bucket, jetstream.OrderedConsumerConfig{FilterSubjects: []string{"$KV." + hub.Bucket + ".d2.>"}}); err == nil {
		t.Error("desk d1 read the decisions on desk d2's proposals")
	}
	for _, subj := range []string{"dd.d1.p." + other, "dd.d1.o." + other, "dd.d1.t." + other + ".v.0.p.0"} {
		if _, err := r1.Publish(short(t), subj, []byte(`{}`)); err == nil {
			t.Errorf("reviewer r1 published %s: only the desk publishes its proposals, outcomes and texts", subj)
		}
	}
	for name, js := range map[string]jetstream.JetStream{"d1": d1, "r1": r1} {
		if err := js.DeleteStream(short(t), hub.Stream); err == nil {
			t.Fatalf("%s deleted the stream", name)
		}
		if err := js.DeleteKeyValue(short(t), hub.Bucket); err == nil {
			t.Fatalf("%s deleted the decisions", name)
		}
		if _, err := js.CreateStream(short(t), jetstream.StreamConfig{Name: "X", Subjects: []string{"dd.>"}}); err == nil {
			t.Errorf("%s created a stream over the hub's subjects", name)
		}
	}
	// Another user's replies are not readable.
	nc := h.dial(t, "d1")
	if _, err := nc.SubscribeSync(hub.InboxPrefix("r1") + ".>"); err == nil {
		nc.Flush()
		if err := nc.LastError(); err == nil || !strings.Contains(err.Error(), "Permissions Violation") {
			t.Errorf("desk d1 subscribed to reviewer r1's replies (last error %v)", err)
		}
	}
	if nc, err := nats.Connect(h.url, nats.Timeout(2*time.Second)); err == nil {
		nc.Close()
		t.Error("a client without credentials connected")
	}
	// A seed file others can read is refused before it is used.
	loose := filepath.Join(t.TempDir(), "loose.nk")
	data, _ := os.ReadFile(h.seeds["d1"])
	os.WriteFile(loose, data, 0o644)
	if _, err := hub.Dial(hub.DialOptions{URL: h.url, Creds: hub.Credentials{Name: "d1", Seed: loose}}); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a world-readable seed file: %v", err)
	}
}

// Plain text never leaves the machine: a hub URL off loopback must be
// tls://, and a hub listening off loopback needs a certificate.
func TestTLSOffLoopback(t *testing.T) {
	limit(t, 2*time.Minute)
	for url, ok := range map[string]bool{
		"nats://127.0.0.1:4222":                    true,
		"nats://localhost:4222,nats://[::1]:4223":  true,
		"tls://hub.example:4222":                   true,
		"nats://hub.example:4222":                  false,
		"nats://127.0.0.1:4222,nats://10.0.0.2:42": false,
		"nats://desk:secret@127.0.0.1:4222":        false,
		"http://127.0.0.1:4222":                    false,
		"":                                         false,
	} {
		if _, err := hub.CheckURL(url); (err == nil) != ok {
			t.Errorf("CheckURL(%q): %v", url, err)
		}
	}
	if _, err := hubserver.Config(hubserver.Options{Host: "0.0.0.0", Port: 4222}, hubserver.Users{RouteSecret: "x"}, ""); err == nil || !strings.Contains(err.Error(), "--tls-cert") {
		t.Errorf("a hub on 0.0.0.0 without TLS: %v", err)
	}
	c := hubserver.Options{Port: 4222, Cluster: hubserver.Cluster{Name: "c", Port: 6222, Routes: []string{"192.0.2.1:6222"}}}
	if _, err := hubserver.Config(c, hubserver.Users{RouteSecret: "x"}, ""); err == nil || !strings.Contains(err.Error(), "--tls-ca") {
		t.Errorf("cluster routes off loopback without TLS: %v", err)
	}
}

// A replayed decision is never carried out: not on another proposal, not
// on a later round, not again on the round it won, and not after the
// desk restarted.
func TestReplayedDecisions(t *testing.T) {
	limit(t, 2*time.Minute)
	h := startHub(t, []string{"d1"}, []string{"r1", "evil"})
	d, _ := h.link(t, "d1")
	r := h.reviewer(t, "r1")
	kv := evilKV(t, h)

	id1, agent1 := propose(t, d.Desk, "one.txt", "one\n")
	p1 := waitOpen(t, r, "d1", id1, 1)
	res, err := r.Decide(ctx(t), p1, hub.Decision{Verdict: "approve"})
	if err != nil || !res.Won {
		t.Fatalf("decide: %+v %v", res, err)
	}
	if o := recv(t, agent1, "proposal 1's outcome"); o.Status != "approved" {
		t.Fatalf("outcome: %+v", o)
	}
	won, _ := json.Marshal(res.Winner)

	// The same decision put again on its own round (overwriting it):
	// the proposal is decided, nothing happens.
	if _, err := kv.Put(ctx(t), p1.Key(), won); err != nil {
		t.Fatal(err)
	}
	// On another proposal's round: refused, a new round starts.
	id2, agent2 := propose(t, d.Desk, "two.txt", "two\n")
	p2 := waitOpen(t, r, "d1", id2, 1)
	if _, err := kv.Create(ctx(t), p2.Key(), won); err != nil {
		t.Fatal(err)
	}
	p2b := waitOpen(t, r, "d1", id2, 2)
	if !strings.Contains(p2b.Note, "refused") {
		t.Errorf("round 2's note: %q", p2b.Note)
	}
	if _, err := os.Stat(filepath.Join(d.Root, "two.txt")); !os.IsNotExist(err) {
		t.Fatal("a replayed decision wrote two.txt")
	}
	// A decision made on round 1, arriving late, is not carried out on
	// round 2 either: the round is over.
	late := res.Winner
	late.Hub, late.Round, late.Version, late.Nonce = p2.Hub, 1, p2.Version, strings.Repeat("a", 32)
	b, _ := json.Marshal(late)
	if _, err := kv.Create(ctx(t), p2b.Key(), b); err != nil {
		t.Fatal(err)
	}
	p2c := waitOpen(t, r, "d1", id2, 3)
	if !strings.Contains(p2c.Note, "round 1") {
		t.Errorf("round 3's note: %q", p2c.Note)
	}
	if _, err := os.Stat(filepath.Join(d.Root, "two.txt")); !os.IsNotExist(err) {
		t.Fatal("a decision made on round 1 was carried out on round 2")
	}
	// The honest decision on the current round is carried out once.
	if res, err := r.Decide(ctx(t), p2c, hub.Decision{Verdict: "reject", Feedback: "no"}); err != nil || !res.Won {
		t.Fatalf("decide round 3: %+v %v", res, err)
	}
	if o := recv(t, agent2, "proposal 2's outcome"); o.Status != "rejected" {
		t.Fatalf("outcome: %+v", o)
	}
	select {
	case o, ok := <-agent1:
		if ok {
			t.Fatalf("a second outcome for proposal 1: %+v", o)
		}
	default:
	}
	if got, _ := os.ReadFile(filepath.Join(d.Root, "one.txt")); string(got) != "one\n" {
		t.Fatalf("one.txt: %q", got)
	}
}

// evilKV is a reviewer's raw access to the decisions bucket: what a
// compromised reviewer can do with it.
func evilKV(t testing.TB, h *testHub) jetstream.KeyValue {
	js, err := jetstream.New(h.dial(t, "evil"))
	if err != nil {
		t.Fatal(err)
	}
	kv, err := js.KeyValue(ctx(t), hub.Bucket)
	if err != nil {
		t.Fatal(err)
	}
	return kv
}

// A desk that restarts closes what its previous run left open on the
// hub: a reviewer deciding one of those is told it was withdrawn, and
// nothing is written.
func TestRestartWithdrawsWhatWasLeftOpen(t *testing.T) {
	limit(t, 2*time.Minute)
	h := startHub(t, []string{"d1"}, []string{"r1"})
	r := h.reviewer(t, "r1")
	d, l := h.link(t, "d1")
	id, _ := propose(t, d.Desk, "left.txt", "left\n")
	p := waitOpen(t, r, "d1", id, 1)
	l.Close(0)
	d.Desk.Close()

	d2, _ := h.link(t, "d1") // the desk again, a new run
	res, err := r.Decide(ctx(t), p, hub.Decision{Verdict: "approve"})
	if err != nil {
		t.Fatal(err)
	}
	o, next, err := r.Await(ctx(t), p)
	if err != nil || next != nil || o == nil || o.Status != "withdrawn" {
		t.Fatalf("the old proposal after the restart: %+v %+v %v (decision won: %v)", o, next, err, res.Won)
	}
	for _, root := range []string{d.Root, d2.Root} {
		if _, err := os.Stat(filepath.Join(root, "left.txt")); !os.IsNotExist(err) {
			t.Fatal("a proposal of the previous run was written")
		}
	}
}

// Big texts travel in chunks, each checked against the SHA-256 the desk
// published; a chunk changed on the hub is refused, not shown.
func TestBigTextsInChunks(t *testing.T) {
	limit(t, 2*time.Minute)
	h := startHub(t, []string{"d1"}, []string{"r1"})
	d, _ := h.link(t, "d1")
	r := h.reviewer(t, "r1")
	big := strings.Repeat("a line of a big generated file\n", 20000) // 620 KB
	id, _ := propose(t, d.Desk, "big.txt", big)
	p := waitOpen(t, r, "d1", id, 1)
	if p.Files[0].Proposed.Chunks != 3 {
		t.Fatalf("chunks: %+v", p.Files[0].Proposed)
	}
	got, err := r.Text(ctx(t), p, 0, hub.TextProposed)
	if err != nil || got != big {
		t.Fatalf("big text: %d bytes, %v", len(got), err)
	}
	js, _ := jetstream.New(h.dial(t, "d1"))
	subj := "dd.d1.t." + p.Hub + "." + p.Version + ".0.p.1"
	if _, err := js.Publish(ctx(t), subj, []byte("tampered")); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Text(ctx(t), p, 0, hub.TextProposed); err == nil || !strings.Contains(err.Error(), "SHA-256") {
		t.Fatalf("a tampered chunk: %v", err)
	}
	edited := map[string]string{p.Files[0].Path: strings.Repeat("x", 2<<20)}
	if _, err := r.Decide(ctx(t), p, hub.Decision{Verdict: "approve-edited", Edited: edited}); err == nil || !strings.Contains(err.Error(), "decide it at the desk") {
		t.Fatalf("an oversized decision: %v", err)
	}
}

// A compromised reviewer that overwrites the winning decision (a put, not
// a create) while the desk is cut off from the hub displaces it: the desk
// carries out exactly one decision, the one it reads, and its outcome
// names that decision, so the honest reviewer learns it was not theirs.
// Nothing is written twice.
func TestOverwrittenDecisionIsOneDecision(t *testing.T) {
	limit(t, 2*time.Minute)
	h := startHub(t, []string{"d1"}, []string{"r1", "evil"})
	p := newProxy(t, strings.TrimPrefix(h.url, "nats://"))
	d := reviewtest.NewDesk(t, "", "")
	nc, err := hub.Dial(hub.DialOptions{URL: p.url(), Creds: hub.Credentials{Name: "d1", Seed: h.seeds["d1"]}, OnState: func(s string, err error) { t.Logf("desk: %s %v", s, err) }})
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	l, err := hub.Connect(ctx(t), d.Desk, nc, hub.LinkOptions{Name: "d1", Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close(time.Second)
	r := h.reviewer(t, "r1")
	kv := evilKV(t, h)
	writes := countWrites(t, []string{d.Root})

	id, agent := propose(t, d.Desk, "x.txt", "honest\n")
	prop := waitOpen(t, r, "d1", id, 1)
	p.cut()
	res, err := r.Decide(ctx(t), prop, hub.Decision{Verdict: "approve"})
	if err != nil || !res.Won {
		t.Fatalf("decide: %+v %v", res, err)
	}
	evil := res.Winner
	evil.Verdict, evil.Nonce, evil.By, evil.Feedback = "reject", strings.Repeat("e", 32), "evil", "overwritten"
	b, _ := json.Marshal(evil)
	if _, err := kv.Put(ctx(t), prop.Key(), b); err != nil {
		t.Fatal(err)
	}
	p.heal()
	o := recv(t, agent, "the agent's outcome")
	if o.Status != "rejected" || o.Feedback != "overwritten" {
		t.Fatalf("the agent's outcome: %+v", o)
	}
	out, _, err := r.Await(ctx(t), prop)
	if err != nil || out == nil || out.Nonce != evil.Nonce {
		t.Fatalf("the outcome on the hub: %+v %v; want it to name the decision carried out (%s)", out, err, evil.Nonce)
	}
	time.Sleep(100 * time.Millisecond)
	if n := writes.get(filepath.Join(d.Root, "x.txt")); n != 0 {
		t.Fatalf("x.txt written %d times", n)
	}
}
