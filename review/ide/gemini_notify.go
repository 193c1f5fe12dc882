package ide

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// notifyingTransport is a streamable HTTP session transport that can also
// send notifications the MCP spec does not define (ide/diffAccepted,
// ide/diffRejected; docs/agent-protocols.md §2.3). The go-sdk has no API for custom notifications yet
// (go-sdk #745, PR #1146); this keeps the session's Connection and writes
// the message on it, which routes it to the session's GET stream. It is the
// one workaround in the doors: replace it with the SDK's API when that lands.
type notifyingTransport struct {
	*mcp.StreamableServerTransport
	mu   sync.Mutex
	conn mcp.Connection // set by Connect
}

// Connect connects the inner transport and keeps its connection.
func (t *notifyingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.StreamableServerTransport.Connect(ctx)
	t.mu.Lock()
	t.conn = conn
	t.mu.Unlock()
	return conn, err
}

// notifyPatience is how long notify keeps trying while the client has not
// opened its GET stream yet (it opens it right after initialize).
const notifyPatience = 30 * time.Second

// notify sends a JSON-RPC notification method with params to the client's
// GET stream, waiting up to notifyPatience for that stream to connect.
func (t *notifyingTransport) notify(ctx context.Context, method string, params any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("gemini door: %s: %w", method, err)
	}
	t.mu.Lock()
	conn := t.conn
	t.mu.Unlock()
	if conn == nil {
		return fmt.Errorf("gemini door: %s before the session connected", method)
	}
	ctx, cancel := context.WithTimeout(ctx, notifyPatience)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		err := conn.Write(ctx, &jsonrpc.Request{Method: method, Params: raw})
		if err == nil {
			return nil
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			return fmt.Errorf("gemini door: %s: %w", method, err)
		}
	}
}
