package deskrpc

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// serveWithLimits serves d with limits l on a private socket until the
// test ends and returns the socket's path and the server.
func serveWithLimits(t *testing.T, d *review.Desk, l Limits) (string, *Server) {
	t.Helper()
	path, ln := listenPrivate(t)
	s := NewServer(d)
	s.SetLimits(l)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return path, s
}

// One connection's proposals held by the desk are bounded: past the
// budget its next propose is refused (-32001, naming the budget) while
// another connection still proposes; once one is cancelled it proposes
// again.
func TestHeldProposalsPerConnectionAreBounded(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	sock, _ := serveWithLimits(t, d.Desk, Limits{ConnHeldCount: 3})
	ctx := reviewtest.Context(t)
	a, err := Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	var ids []string
	for i := range 3 {
		var res wireResult
		if err := a.Call(ctx, "propose", map[string]any{"format": "write", "path": fmt.Sprintf("f%d.txt", i), "payload": "x\n"}, &res); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.ID)
	}
	code, err := callCode(t, a, "propose", map[string]any{"format": "write", "path": "f3.txt", "payload": "x\n"})
	if code != codeRefused || !strings.Contains(err.Error(), "this connection holds 3 proposals") || !strings.Contains(err.Error(), "budget of 3 proposals") {
		t.Errorf("a fourth proposal over a budget of 3: %v (code %d); want -32001 naming the budget", err, code)
	}
	b, err := Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if code, err := callCode(t, b, "propose", map[string]any{"format": "write", "path": "g.txt", "payload": "x\n"}); code != 0 {
		t.Errorf("another connection's proposal: %v", err)
	}
	if err := a.Call(ctx, "cancel", map[string]any{"id": ids[0]}, nil); err != nil {
		t.Fatal(err)
	}
	if err := a.Call(ctx, "wait", map[string]any{"id": ids[0]}, nil); err != nil {
		t.Fatal(err)
	}
	if code, err := callCode(t, a, "propose", map[string]any{"format": "write", "path": "f3.txt", "payload": "x\n"}); code != 0 {
		t.Errorf("a proposal after one was cancelled and answered: %v", err)
	}
}

// A client that sends reads of a 1 MiB file and never reads the answers
// holds one answer in the desk, not one per request: the desk stops
// reading its requests (back-pressure), and another connection is served
// meanwhile. The desk runs under a memory limit, and the heap's peak is
// checked: without back-pressure 150 such reads held 150 answers at once.
func TestAClientThatNeverReadsIsHeldBack(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(256 << 20))
	d := reviewtest.NewDesk(t, "", "")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "big.txt"), strings.Repeat("0123456789abcdef\n", 1<<16)) // ~1.1 MiB
	sock, _ := serveWithLimits(t, d.Desk, Limits{ConnAnswerBytes: 4 << 20})
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()

	flood, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer flood.Close()
	const reads = 150
	sent := make(chan int, 1)
	go func() {
		n := 0
		for ; n < reads; n++ {
			// A write that cannot finish within a second means the desk
			// stopped reading this connection: back-pressure.
			flood.SetWriteDeadline(time.Now().Add(time.Second))
			if _, err := fmt.Fprintf(flood, `{"jsonrpc":"2.0","id":%d,"method":"read","params":{"path":"big.txt"}}`+"\n", n); err != nil {
				break
			}
		}
		sent <- n
	}()

	good, err := Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	defer good.Close()
	ctx := reviewtest.Context(t)
	for range 10 {
		var r readResult
		if err := good.Call(ctx, "read", map[string]any{"path": "big.txt"}, &r); err != nil || !r.Exists {
			t.Fatalf("another connection's read while the flood is held back: %v", err)
		}
	}
	n := <-sent
	time.Sleep(100 * time.Millisecond) // the requests read before the flood stalled are answered (into the socket) or waiting
	close(stop)
	<-sampled
	if grown := int64(peak.Load()) - int64(base.HeapAlloc); grown > 96<<20 {
		t.Errorf("the desk's heap grew by %d MiB while a client sent %d reads of a 1 MiB file without reading an answer; want at most 96 MiB (back-pressure holds one answer)", grown>>20, n)
	}
}

// Past the answers all connections may leave unread, an answer to a
// connection that has not read its last one is replaced by error -32005;
// every request is still answered.
func TestUnreadAnswersOverAllConnectionsAreBounded(t *testing.T) {
	d := reviewtest.NewDesk(t, decision.Approved, "")
	content := strings.Repeat("x", 600<<10) + "\n"
	sock, _ := serveWithLimits(t, d.Desk, Limits{AnswerBytes: 1 << 20})
	ctx := reviewtest.Context(t)
	decided := make(chan string, 16)
	defer d.Subscribe(func(ev review.Event) {
		if ev.Kind == review.EventDecided {
			decided <- ev.ID
		}
	})()
	// Waits made on a raw connection that reads nothing until every
	// proposal is decided and its answer queued.
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const n = 6
	for i := range n {
		fmt.Fprintf(c, `{"jsonrpc":"2.0","id":%d,"method":"propose","params":{"format":"write","path":"g%d.txt","payload":%q,"wait":true,"finalContent":"all"}}`+"\n", i, i, content)
	}
	for range n {
		select {
		case <-decided:
		case <-ctx.Done():
			t.Fatal("the proposals were not decided")
		}
	}
	time.Sleep(200 * time.Millisecond) // the outcomes are marshalled and queued
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	r := bufio.NewReaderSize(c, 1<<20)
	busy, whole := 0, 0
	for range n {
		line, err := r.ReadBytes('\n')
		if err != nil {
			buf := make([]byte, 1<<20)
			t.Fatalf("after %d answers: %v\n%s", busy+whole, err, buf[:runtime.Stack(buf, true)])
		}
		var resp struct {
			Result *wireResult `json:"result"`
			Error  *rpcError   `json:"error"`
		}
		if err := json.Unmarshal(line, &resp); err != nil {
			t.Fatal(err)
		}
		switch {
		case resp.Error != nil && resp.Error.Code == codeBusy && strings.Contains(resp.Error.Message, "read your answers"):
			busy++
		case resp.Result != nil && resp.Result.Outcome != nil:
			whole++
		default:
			t.Errorf("answer %s", line)
		}
	}
	if busy == 0 || whole == 0 {
		t.Errorf("%d whole answers, %d refused as over the budget; want some of each", whole, busy)
	}
}
