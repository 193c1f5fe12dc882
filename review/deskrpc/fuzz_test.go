package deskrpc

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"testing"
	"time"

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
	d := reviewtest.NewDesk(f, "", "")
	s := NewServer(d.Desk)
	f.Fuzz(func(t *testing.T, msg []byte) {
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
