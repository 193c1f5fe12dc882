package deskrpc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// FuzzServerMessage sends any bytes to a connection of the protocol
// server (the seeds: f.Add and testdata/fuzz/FuzzServerMessage), then a
// status request. The server must not panic, must answer every line it
// answers with a JSON-RPC 2.0 response, and must still answer the status
// request: a bad message never ends the connection or the desk.
func FuzzServerMessage(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol":1,"agent":"a"}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":2,"method":"propose","params":{"format":"write","path":"a.txt","payload":"x\n"}}`))
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"propose\",\"params\":{\"format\":\"write\",\"path\":\"s.txt\",\"stream\":true}}\n" +
		`{"jsonrpc":"2.0","method":"chunk","params":{"id":"p1-0","data":"abc"}}`))
	f.Add([]byte(`not json`))
	f.Add([]byte(`[{"jsonrpc":"2.0","id":1,"method":"status"}]`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":{"a":1},"method":"decide","params":{"id":"p1","decision":"approve"}}`))
	// Wrong-typed fields and odd ids: answered with the id when it is
	// readable, never echoing invalid UTF-8.
	f.Add([]byte(`{"jsonrpc":"2.0","id":11,"method":5}`))
	f.Add([]byte(`{"jsonrpc":2,"id":"abc","method":"status"}`))
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"id\":\"\xff\xfe\",\"method\":\"status\",\"params\":{}}"))
	d := reviewtest.NewDesk(f, "", "")
	// A proposal no fuzzed connection made: none may chunk, finish, wait
	// on or cancel it, and only a reviewer may decide it.
	foreign := func() string {
		p, err := d.Propose(context.Background(), review.Request{Format: engine.FormatWrite, Path: "foreign.txt", Payload: "theirs\n"})
		if err != nil {
			f.Fatal(err)
		}
		return p.ID
	}
	theirs := foreign()
	for _, m := range []string{"chunk", "finish", "cancel", "wait"} {
		f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"` + m + `","params":{"id":"` + theirs + `","data":"x"}}`))
	}
	s := NewServer(d.Desk)
	f.Fuzz(func(t *testing.T, msg []byte) {
		defer func() {
			if p, ok := d.Get(theirs); !ok || !p.State.Open() {
				if !bytes.Contains(msg, []byte("reviewer")) {
					t.Fatalf("after %q, another connection's proposal %s is %v; want it left open (only its connection, or a reviewer, ends it)", msg, theirs, p.State)
				}
				theirs = foreign()
			}
		}()
		var fields map[string]json.RawMessage
		wantID := json.RawMessage(nil)
		if !bytes.ContainsAny(msg, "\n") && json.Unmarshal(msg, &fields) == nil {
			var method string
			json.Unmarshal(fields["method"], &method)
			// Methods that may block are answered when done: perhaps after
			// the status below. The others are answered in order.
			if id := bytes.TrimSpace(fields["id"]); !blocks(method) && len(id) > 0 && (id[0] == '"' || id[0] == '-' || id[0] >= '0' && id[0] <= '9') {
				wantID = id
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		client, server := net.Pipe()
		served := make(chan struct{})
		go func() {
			defer close(served)
			s.serveConn(ctx, server)
		}()
		// Written beside the reads: net.Pipe has no buffer.
		go func() {
			client.Write(append(msg, '\n'))
			client.Write([]byte(`{"jsonrpc":"2.0","id":"fuzz-end","method":"status","params":{}}` + "\n"))
		}()
		r := bufio.NewReader(client)
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				t.Fatalf("after %q the connection ended (%v) before the status request was answered", msg, err)
			}
			var resp struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Result  json.RawMessage `json:"result"`
				Error   *rpcError       `json:"error"`
			}
			if err := json.Unmarshal(line, &resp); err != nil || resp.JSONRPC != "2.0" || (resp.Result == nil) == (resp.Error == nil) {
				t.Fatalf("after %q the server wrote %q; want a JSON-RPC 2.0 response with a result or an error", msg, line)
			}
			if !utf8.Valid(line) {
				t.Fatalf("after %q the server wrote invalid UTF-8: %q", msg, line)
			}
			if wantID != nil {
				var want, got any
				json.Unmarshal(wantID, &want)
				json.Unmarshal(resp.ID, &got)
				if want != got {
					t.Fatalf("the answer to %q has id %s; want its own id %s", msg, resp.ID, wantID)
				}
				wantID = nil
			}
			if string(resp.ID) == `"fuzz-end"` {
				if resp.Error != nil {
					t.Fatalf("after %q status failed: %v", msg, resp.Error)
				}
				break
			}
		}
		client.Close()
		<-served
	})
}
