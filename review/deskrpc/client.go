package deskrpc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"strconv"
	"sync"
)

// ErrNoDesk is returned by Dial when no desk listens on the socket.
var ErrNoDesk = errors.New("no desk is running")

// Client is an agent-side connection to a desk over the native protocol.
// It is safe for concurrent use; calls are answered as they complete.
type Client struct {
	c      net.Conn
	wmu    sync.Mutex
	mu     sync.Mutex
	next   int
	calls  map[string]chan rpcResponseRaw
	closed error
}

type rpcResponseRaw struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

// Dial connects to the desk at path. If nothing listens there the error
// wraps ErrNoDesk and says how to start one. The socket and its directory
// must be this user's and writable by no one else, and the desk answering
// must run as this user; otherwise the error wraps ErrUnsafeSocket and
// nothing is sent.
func Dial(path string) (*Client, error) {
	noDesk := fmt.Errorf("%w at %s: start the DiffDesk window (diffdesk), or a desk without one (deskctl serve)", ErrNoDesk, path)
	if err := checkSocket(path); errors.Is(err, fs.ErrNotExist) {
		return nil, noDesk
	} else if err != nil {
		return nil, err
	}
	c, err := net.Dial("unix", path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) || isRefused(err) {
			return nil, noDesk
		}
		return nil, fmt.Errorf("connecting to the desk at %s: %w", path, err)
	}
	if uc, ok := c.(*net.UnixConn); !ok || !peerIsUs(uc) {
		c.Close()
		return nil, fmt.Errorf("%w: the process listening on %s runs as another user; nothing was sent", ErrUnsafeSocket, path)
	}
	cl := &Client{c: c, calls: map[string]chan rpcResponseRaw{}}
	// The reader ends when the connection closes.
	go cl.readLoop()
	return cl, nil
}

func isRefused(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// Close closes the connection; the desk withdraws this client's open proposals.
func (cl *Client) Close() error { return cl.c.Close() }

func (cl *Client) readLoop() {
	r := bufio.NewReaderSize(cl.c, 64<<10)
	var err error
	for {
		var line []byte
		line, err = readLine(r, MaxMessageBytes, nil)
		if err != nil {
			break
		}
		var resp rpcResponseRaw
		if json.Unmarshal(line, &resp) != nil {
			continue
		}
		cl.mu.Lock()
		ch := cl.calls[string(resp.ID)]
		delete(cl.calls, string(resp.ID))
		cl.mu.Unlock()
		if ch != nil {
			ch <- resp
		}
	}
	cl.mu.Lock()
	cl.closed = fmt.Errorf("the desk closed the connection: %w", err)
	for id, ch := range cl.calls {
		close(ch)
		delete(cl.calls, id)
	}
	cl.mu.Unlock()
}

// Call sends a request and decodes its result into result (which may be
// nil). A JSON-RPC error comes back as an error carrying its message.
func (cl *Client) Call(ctx context.Context, method string, params, result any) error {
	cl.mu.Lock()
	if cl.closed != nil {
		cl.mu.Unlock()
		return cl.closed
	}
	cl.next++
	id := strconv.Itoa(cl.next)
	ch := make(chan rpcResponseRaw, 1)
	cl.calls[id] = ch
	cl.mu.Unlock()
	if err := cl.send(rpcRequest{JSONRPC: "2.0", ID: json.RawMessage(id), Method: method}, params); err != nil {
		return err
	}
	select {
	case resp, ok := <-ch:
		if !ok {
			return cl.closed
		}
		if resp.Error != nil {
			return resp.Error
		}
		if result == nil {
			return nil
		}
		return json.Unmarshal(resp.Result, result)
	case <-ctx.Done():
		cl.mu.Lock()
		delete(cl.calls, id)
		cl.mu.Unlock()
		return ctx.Err()
	}
}

// Notify sends a request that gets no answer (a JSON-RPC notification),
// e.g. a streaming chunk.
func (cl *Client) Notify(method string, params any) error {
	return cl.send(rpcRequest{JSONRPC: "2.0", Method: method}, params)
}

func (cl *Client) send(req rpcRequest, params any) error {
	p, err := json.Marshal(params)
	if err != nil {
		return err
	}
	req.Params = p
	b, err := json.Marshal(req)
	if err != nil {
		return err
	}
	cl.wmu.Lock()
	defer cl.wmu.Unlock()
	_, err = cl.c.Write(append(b, '\n'))
	return err
}

// RemoteError is the JSON-RPC error type a Client returns; Code tells
// refusals (-32001), unknown ids (-32002) and state errors (-32003) apart.
type RemoteError = rpcError
