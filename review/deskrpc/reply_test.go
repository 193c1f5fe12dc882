package deskrpc

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"
)

// TestClientReadsAnswersOverTheRequestLimit: an answer over
// MaxMessageBytes (an outcome's finalContent once max_file_bytes is
// raised) reaches the caller (real window: a 200 MB file was approved and
// written, and deskctl said "the desk closed the connection: line too
// long").
func TestClientReadsAnswersOverTheRequestLimit(t *testing.T) {
	here, desk := net.Pipe()
	cl := NewClient(here)
	defer cl.Close()
	big := strings.Repeat("x", MaxMessageBytes+1)
	go func() {
		r := bufio.NewReader(desk)
		line, err := r.ReadBytes('\n')
		if err != nil {
			return
		}
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		json.Unmarshal(line, &req)
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": big})
		desk.Write(append(b, '\n'))
	}()
	var got string
	if err := cl.Call(context.Background(), "wait", map[string]any{"id": "p1"}, &got); err != nil {
		t.Fatalf("Call: %v; want the %d-byte answer", err, len(big))
	}
	if len(got) != len(big) {
		t.Errorf("answer of %d bytes; want %d", len(got), len(big))
	}
}
