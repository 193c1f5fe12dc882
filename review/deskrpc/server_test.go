package deskrpc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// serveTestDesk serves d on a socket in a short temporary directory and
// returns the socket's path; the server stops when the test ends.
func serveTestDesk(t *testing.T, d *review.Desk) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "dd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := filepath.Join(dir, "run", "desk.sock")
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- NewServer(d).Serve(ctx, l) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return path
}

// dialTestDesk serves d (serveTestDesk) and connects a client to it, closed
// when the test ends.
func dialTestDesk(t *testing.T, d *review.Desk) *Client {
	t.Helper()
	cl, err := Dial(serveTestDesk(t, d))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	return cl
}

func TestSocketAndDirectoryArePrivate(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := serveTestDesk(t, d.Desk)
	for p, want := range map[string]os.FileMode{path: 0o600, filepath.Dir(path): 0o700} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s mode %v; want %v", p, st.Mode().Perm(), want)
		}
	}
	if _, err := Listen(path); !errors.Is(err, ErrDeskRunning) {
		t.Errorf("second Listen on a live socket: %v; want ErrDeskRunning", err)
	}
}

func TestListenReplacesDeadSocket(t *testing.T) {
	dir, _ := os.MkdirTemp("", "dd")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "desk.sock")
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	l.SetUnlinkOnClose(false)
	l.Close() // leaves the socket file, as a killed desk does
	l2, err := Listen(path)
	if err != nil {
		t.Fatalf("Listen over a dead socket: %v", err)
	}
	l2.Close()
}

func TestDialWithoutDeskSaysHowToStartOne(t *testing.T) {
	_, err := Dial(filepath.Join(t.TempDir(), "none.sock"))
	if !errors.Is(err, ErrNoDesk) || !strings.Contains(err.Error(), "deskctl serve") {
		t.Errorf("Dial with no desk: %v; want ErrNoDesk saying how to start one", err)
	}
}

type wireResult struct {
	ID      string          `json:"id"`
	State   review.State    `json:"state"`
	Outcome *review.Outcome `json:"outcome"`
	Text    string          `json:"text"`
}

func TestManyAgentsConcurrently(t *testing.T) {
	d := reviewtest.NewDesk(t, decision.Approved, "")
	path := serveTestDesk(t, d.Desk)
	// Correctness does not depend on speed: a generous deadline, and less
	// volume under the race detector (which slows every write tenfold).
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	agents, each := 50, 20
	if raceOn {
		each = 4
	}
	var wg sync.WaitGroup
	errs := make(chan error, agents*each)
	for a := 0; a < agents; a++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cl, err := Dial(path)
			if err != nil {
				errs <- err
				return
			}
			defer cl.Close()
			if err := cl.Call(ctx, "hello", map[string]any{"protocol": 1, "agent": fmt.Sprintf("agent-%d", a)}, nil); err != nil {
				errs <- err
				return
			}
			for i := 0; i < each; i++ {
				rel := fmt.Sprintf("a%02d/f%02d.txt", a, i)
				content := fmt.Sprintf("agent %d proposal %d\n", a, i)
				var res wireResult
				err := cl.Call(ctx, "propose", map[string]any{"format": "write", "path": rel, "payload": content, "wait": true, "finalContent": "all"}, &res)
				switch {
				case err != nil:
					errs <- fmt.Errorf("%s: %w", rel, err)
				case res.Outcome == nil || res.Outcome.Status != decision.Approved:
					errs <- fmt.Errorf("%s: outcome %+v", rel, res.Outcome)
				case res.Outcome.Files[0].FinalContent != content || !strings.HasSuffix(res.Outcome.Files[0].Path, rel):
					errs <- fmt.Errorf("%s: crossed outcome: got %s = %q", rel, res.Outcome.Files[0].Path, res.Outcome.Files[0].FinalContent)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	n := 0
	for err := range errs {
		if n++; n <= 5 {
			t.Error(err)
		}
	}
	if n > 0 {
		t.Fatalf("%d of %d proposals went wrong", n, agents*each)
	}
	for a := 0; a < agents; a++ {
		for i := 0; i < each; i++ {
			want := fmt.Sprintf("agent %d proposal %d\n", a, i)
			if got := reviewtest.ReadFile(t, filepath.Join(d.Root, fmt.Sprintf("a%02d/f%02d.txt", a, i))); got != want {
				t.Fatalf("file a%02d/f%02d = %q; want %q", a, i, got, want)
			}
		}
	}
}

func TestDisconnectMidStreamWithdraws(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := serveTestDesk(t, d.Desk)
	ctx := reviewtest.Context(t)
	decided := make(chan string, 1)
	cancel := d.Subscribe(func(ev review.Event) {
		if ev.Kind == review.EventDecided {
			select {
			case decided <- ev.ID:
			default:
			}
		}
	})
	defer cancel()
	cl, err := Dial(path)
	if err != nil {
		t.Fatal(err)
	}
	var res wireResult
	if err := cl.Call(ctx, "propose", map[string]any{"format": "write", "path": "s.txt", "stream": true}, &res); err != nil {
		t.Fatal(err)
	}
	if err := cl.Call(ctx, "chunk", map[string]any{"id": res.ID, "data": "half a fi"}, nil); err != nil {
		t.Fatal(err)
	}
	cl.Close()
	select {
	case id := <-decided:
		if id != res.ID {
			t.Fatalf("decided %s; want %s", id, res.ID)
		}
	case <-ctx.Done():
		t.Fatal("proposal not withdrawn after the agent disconnected")
	}
	if o, _ := d.Outcome(res.ID); o.Status != decision.Withdrawn {
		t.Errorf("status = %s; want withdrawn", o.Status)
	}
	if _, err := os.Stat(filepath.Join(d.Root, "s.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Error("withdrawn stream wrote its file")
	}
}

func TestStreamOverSocket(t *testing.T) {
	d := reviewtest.NewDesk(t, decision.Approved, "")
	cl := dialTestDesk(t, d.Desk)
	ctx := reviewtest.Context(t)
	var res wireResult
	if err := cl.Call(ctx, "propose", map[string]any{"format": "write", "path": "s.txt", "stream": true}, &res); err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"one\nt", "wo\n", "three\n"} {
		if err := cl.Notify("chunk", map[string]any{"id": res.ID, "data": c}); err != nil {
			t.Fatal(err)
		}
	}
	if err := cl.Call(ctx, "finish", map[string]any{"id": res.ID, "wait": true}, &res); err != nil {
		t.Fatal(err)
	}
	if res.Outcome == nil || res.Outcome.Status != decision.Approved || reviewtest.ReadFile(t, filepath.Join(d.Root, "s.txt")) != "one\ntwo\nthree\n" {
		t.Errorf("outcome %+v; file %q", res.Outcome, reviewtest.ReadFile(t, filepath.Join(d.Root, "s.txt")))
	}
}

// rawExchange writes lines to the socket and reads one answer per line.
func rawExchange(t *testing.T, path string, lines ...string) []map[string]any {
	t.Helper()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	r := bufio.NewReader(c)
	var out []map[string]any
	for _, l := range lines {
		if _, err := c.Write([]byte(l + "\n")); err != nil {
			t.Fatal(err)
		}
		b, err := r.ReadBytes('\n')
		if err != nil {
			t.Fatalf("after %.60q: %v", l, err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("answer %q is not JSON: %v", b, err)
		}
		out = append(out, m)
	}
	return out
}

func errCode(m map[string]any) int {
	e, _ := m["error"].(map[string]any)
	if e == nil {
		return 0
	}
	c, _ := e["code"].(float64)
	return int(c)
}

func TestBadMessagesGetErrorsAndDeskCarriesOn(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path := serveTestDesk(t, d.Desk)
	huge := `{"jsonrpc":"2.0","id":9,"method":"propose","params":{"payload":"` + strings.Repeat("x", MaxMessageBytes) + `"}}`
	answers := rawExchange(t, path,
		`{not json`,
		`{"id":1,"method":"status"}`,
		`{"jsonrpc":"2.0","id":2,"method":"fly"}`,
		`{"jsonrpc":"2.0","id":3,"method":"propose","params":{"format":"nope","path":"a","payload":""}}`,
		`{"jsonrpc":"2.0","id":4,"method":"propose","params":"not an object"}`,
		`{"jsonrpc":"2.0","id":5,"method":"wait","params":{"id":"p404"}}`,
		`{"jsonrpc":"2.0","id":6,"method":"propose","params":{"format":"write","path":"/etc/passwd","payload":"x"}}`,
		huge,
		`{"jsonrpc":"2.0","id":7,"method":"status","params":{}}`,
	)
	want := []int{codeParse, codeInvalidRequest, codeMethodNotFound, codeInvalidParams, codeInvalidParams, codeUnknown, codeRefused, codeInvalidRequest, 0}
	for i, w := range want {
		if got := errCode(answers[i]); got != w {
			t.Errorf("answer %d = %v; want error code %d", i, answers[i], w)
		}
	}
	if answers[8]["result"] == nil {
		t.Errorf("status after bad messages: %v", answers[8])
	}
	if id, _ := answers[7]["id"].(float64); id != 9 {
		t.Errorf("the answer to the message over the limit has id %v; want 9, its own (its caller waits for it)", answers[7]["id"])
	}
}

// TestCallOverTheMessageLimitIsAnswered: a Call whose message is over
// MaxMessageBytes gets the desk's error instead of waiting for ever (real
// window: deskctl propose of a 200 MB file hung, the desk having answered
// with a null id).
func TestCallOverTheMessageLimitIsAnswered(t *testing.T) {
	if raceOn {
		// 64 MiB through JSON under the race detector took over a minute
		// on a loaded machine; the answer's logic has no goroutine of its
		// own to race, and the run without -race checks it.
		t.Skip("64 MiB through the race detector: checked by the run without -race")
	}
	d := reviewtest.NewDesk(t, "", "")
	cl := dialTestDesk(t, d.Desk)
	err := cl.Call(reviewtest.Context(t), "propose", map[string]any{"format": "write", "path": "big.txt", "payload": strings.Repeat("x", MaxMessageBytes)}, nil)
	if err == nil || !strings.Contains(err.Error(), "chunks") {
		t.Fatalf("Call over the limit: %v; want the desk's error, send large edits in chunks", err)
	}
	if err := cl.Call(reviewtest.Context(t), "status", map[string]any{}, nil); err != nil {
		t.Errorf("status after it: %v", err)
	}
}

func TestCancelWhileWaiting(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	cl := dialTestDesk(t, d.Desk)
	ctx := reviewtest.Context(t)
	var res wireResult
	if err := cl.Call(ctx, "propose", map[string]any{"format": "write", "path": "c.txt", "payload": "x\n"}, &res); err != nil {
		t.Fatal(err)
	}
	waited := make(chan wireResult, 1)
	go func() {
		var w wireResult
		cl.Call(ctx, "wait", map[string]any{"id": res.ID}, &w)
		waited <- w
	}()
	if err := cl.Call(ctx, "cancel", map[string]any{"id": res.ID}, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case w := <-waited:
		if w.Outcome == nil || w.Outcome.Status != decision.Withdrawn {
			t.Errorf("wait answered %+v; want withdrawn", w.Outcome)
		}
	case <-ctx.Done():
		t.Fatal("wait not answered after cancel")
	}
}

func TestReadReturnsContentAndHash(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "r.txt"), "hi\n")
	cl := dialTestDesk(t, d.Desk)
	var r readResult
	if err := cl.Call(reviewtest.Context(t), "read", map[string]any{"path": "r.txt"}, &r); err != nil {
		t.Fatal(err)
	}
	if r.Content != "hi\n" || r.SHA256 != atomicfile.Hash([]byte("hi\n")) || !r.Exists {
		t.Errorf("read = %+v", r)
	}
}

func BenchmarkRoundTripApprove(b *testing.B) {
	d := reviewtest.NewDesk(b, decision.Approved, "")
	root := d.Root
	dir, _ := os.MkdirTemp("", "dd")
	defer os.RemoveAll(dir)
	sock := filepath.Join(dir, "desk.sock")
	l, err := Listen(sock)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go NewServer(d.Desk).Serve(ctx, l)
	cl, err := Dial(sock)
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close()
	os.WriteFile(filepath.Join(root, "f.txt"), []byte("a\nb\nc\n"), 0o644)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		var res wireResult
		payload := fmt.Sprintf("a\nb%d\nc\n", i)
		if err := cl.Call(ctx, "propose", map[string]any{"format": "write", "path": "f.txt", "payload": payload, "wait": true}, &res); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	reportPercentiles(b, lat)
}

// reportPercentiles reports p50 and p99 of lat as benchmark metrics.
func reportPercentiles(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	s := slices.Clone(lat)
	slices.Sort(s)
	b.ReportMetric(float64(s[len(s)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(s[len(s)*99/100].Microseconds()), "p99-µs")
}

func TestPeerCredentialsAreChecked(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	cl := dialTestDesk(t, d.Desk)
	// A connection from this user is served (peerIsUs is true for it).
	if err := cl.Call(reviewtest.Context(t), "status", struct{}{}, nil); err != nil {
		t.Fatalf("status from the same user: %v", err)
	}
}

// TestDecideTakesVerbOrVerdict: the decide method reads a decision as the
// imperative (approve) or the verdict it reaches (approved), and refuses
// anything else with invalid params.
func TestDecideTakesVerbOrVerdict(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	cl := dialTestDesk(t, d.Desk)
	ctx := reviewtest.Context(t)
	if err := cl.Call(ctx, "hello", map[string]any{"protocol": 1, "agent": "script", "role": "reviewer"}, nil); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ decision, want string }{{"approve", "approved"}, {"rejected", "rejected"}} {
		reviewtest.WriteFile(t, filepath.Join(d.Root, tt.decision+".txt"), "old\n")
		p := d.MustPropose(t, engine.FormatWrite, tt.decision+".txt", "new\n")
		var res struct{ Outcome review.Outcome }
		if err := cl.Call(ctx, "decide", map[string]any{"id": p.ID, "decision": tt.decision}, &res); err != nil {
			t.Fatalf("decide %s: %v", tt.decision, err)
		}
		if string(res.Outcome.Status) != tt.want {
			t.Errorf("decide %s: status %s; want %s", tt.decision, res.Outcome.Status, tt.want)
		}
	}
	p := d.MustPropose(t, engine.FormatWrite, "x.txt", "x\n")
	err := cl.Call(ctx, "decide", map[string]any{"id": p.ID, "decision": "withdrawn"}, nil)
	var re *RemoteError
	if !errors.As(err, &re) || re.Code != codeInvalidParams || !strings.Contains(re.Message, "unknown decision") {
		t.Errorf("decide withdrawn: %v; want invalid params naming the decisions", err)
	}
}

// TestProposeWithoutAPayloadIsAnError: a write proposal whose payload is
// missing or null decoded to "", a proposal to empty the file, which a rule
// could approve; a payload of the wrong type was an error naming Go types.
// Each is an error naming the field, and the file is untouched; "" is
// still an empty file, said explicitly.
func TestProposeWithoutAPayloadIsAnError(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "keep me\n")
	cl := dialTestDesk(t, d.Desk)
	for _, params := range []map[string]any{
		{"format": "write", "path": "a.txt"},
		{"format": "write", "path": "a.txt", "payload": nil},
		{"format": "write", "path": "a.txt", "payload": 42},
	} {
		err := cl.Call(reviewtest.Context(t), "propose", params, nil)
		if err == nil || !strings.Contains(err.Error(), "payload") {
			t.Errorf("propose %v: %v; want an error naming payload", params, err)
		}
	}
	if got := reviewtest.ReadFile(t, filepath.Join(d.Root, "a.txt")); got != "keep me\n" {
		t.Errorf("a.txt = %q after refused proposals", got)
	}
	var res wireResult
	if err := cl.Call(reviewtest.Context(t), "propose", map[string]any{"format": "write", "path": "a.txt", "payload": ""}, &res); err != nil {
		t.Errorf("an explicit empty payload: %v; want a proposal to empty the file", err)
	}
	if err := cl.Call(reviewtest.Context(t), "propose", map[string]any{"format": "write", "path": "b.txt", "stream": true}, &res); err != nil {
		t.Errorf("a stream without a payload: %v", err)
	}
}
