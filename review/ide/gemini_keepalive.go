package ide

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// geminiKeepAlive is how often the door pings each Gemini CLI session on
// its GET stream, as the VS Code companion does (a "ping" notification
// every 60 s). The CLI reads that stream with Node's fetch, which ends a
// response body that brings nothing for 5 minutes ("SSE stream
// disconnected: TypeError: terminated"): the CLI then counts the IDE as
// disconnected and asks in its terminal, bypassing the desk, while the
// desk still counts the session as connected (real gemini 0.61.0, idle for
// about 10 minutes between two edits). Tests make it shorter.
var geminiKeepAlive = 60 * time.Second

// ping sends a "ping" notification, without params, on the session's GET
// stream; an error (no stream yet, or gone) is the next tick's to retry.
func (t *notifyingTransport) ping(ctx context.Context) error {
	t.mu.Lock()
	conn := t.conn
	t.mu.Unlock()
	if conn == nil {
		return nil
	}
	return conn.Write(ctx, &jsonrpc.Request{Method: "ping"})
}

// keepAlive pings t every interval until done is closed.
func keepAlive(t *notifyingTransport, every time.Duration, done <-chan struct{}) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
			ctx, cancel := context.WithTimeout(context.Background(), every)
			t.ping(ctx)
			cancel()
		}
	}
}
