package deskrpc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"strconv"
	"sync"
)

// MaxReplyBytes is the largest message a Client reads from the desk. The
// desk is this user's (Dial checks); its answers carry whole files (an
// outcome's finalContent, the texts get returns), larger than
// MaxMessageBytes once [limits] max_file_bytes is raised: a 200 MB file
// was written while deskctl said the desk closed the connection.
const MaxReplyBytes = 1 << 30

// ErrNoDesk is returned by Dial when no desk listens on the socket.
var ErrNoDesk = errors.New("no desk is running")

// Client is an agent-side connection to a desk over the native protocol.
// It is safe for concurrent use; calls are answered as they complete.
type Client struct {
	c      io.ReadWriteCloser
	wmu    sync.Mutex
	mu     sync.Mutex
	next   int
	calls  map[string]chan rpcResponseRaw
	closed error
	sub    *Subscription // the queue's events, once Subscribe was called
	// maxReply is the largest message read (NewClientMax).
	maxReply int
}

type rpcResponseRaw struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"` // a notification from the desk (no id)
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

// Dial connects to the desk at path. If nothing listens there the error
// wraps ErrNoDesk and says how to start one. The socket and its directory
// must be this user's and writable by no one else, and the desk answering
// must run as this user; otherwise the error wraps ErrUnsafeSocket and
// nothing is sent.
func Dial(path string) (*Client, error) {
	c, err := DialConn(path)
	if err != nil {
		return nil, err
	}
	return NewClient(c), nil
}

// DialConn connects to the desk at path after the checks Dial makes, and
// returns the connection itself: `deskctl bridge` carries it over stdio.
func DialConn(path string) (net.Conn, error) {
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
	return c, nil
}

// NewClient speaks the protocol over c: a desk's socket (Dial), or a
// stream that reaches one, such as `ssh host deskctl bridge`'s stdio.
// Close closes c.
func NewClient(c io.ReadWriteCloser) *Client {
	return NewClientMax(c, MaxReplyBytes)
}

// NewClientMax is NewClient reading messages of at most maxReply bytes: a
// longer one ends the connection, saying so. A window reviewing a desk on
// another machine reads less than a local client (review/remote).
func NewClientMax(c io.ReadWriteCloser, maxReply int) *Client {
	cl := &Client{c: c, calls: map[string]chan rpcResponseRaw{}, maxReply: maxReply}
	// The reader ends when the connection closes.
	go cl.readLoop()
	return cl
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
		line, err = readLine(r, cl.maxReply, nil)
		if errors.Is(err, errTooLong) {
			err = fmt.Errorf("it sent a message over %d bytes, the most this client reads", cl.maxReply)
		}
		if err != nil {
			break
		}
		var resp rpcResponseRaw
		if json.Unmarshal(line, &resp) != nil {
			continue
		}
		if resp.Method != "" {
			cl.notified(resp)
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
	sub := cl.sub
	cl.mu.Unlock()
	if sub != nil {
		sub.end(cl.closed)
	}
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

// Subscription is a reviewer's view of the desk's queue: the proposals as
// they were when it began, then an event for each change (docs/protocol.md,
// "subscribe").
type Subscription struct {
	Proposals []Summary // the queue when the subscription began, in the desk's order

	mu     sync.Mutex
	events []Event
	err    error         // why no more events come
	signal chan struct{} // one token while something waits
}

// Subscribe follows the desk's queue on this connection, which must have
// said hello as a reviewer. Read the events with Next.
func (cl *Client) Subscribe(ctx context.Context) (*Subscription, error) {
	sub := &Subscription{signal: make(chan struct{}, 1)}
	cl.mu.Lock()
	if cl.sub != nil {
		cl.mu.Unlock()
		return nil, errors.New("this connection is subscribed already")
	}
	cl.sub = sub // before the call: the events follow its answer at once
	cl.mu.Unlock()
	var res struct {
		Proposals []Summary `json:"proposals"`
	}
	if err := cl.Call(ctx, "subscribe", struct{}{}, &res); err != nil {
		cl.mu.Lock()
		cl.sub = nil
		cl.mu.Unlock()
		return nil, err
	}
	sub.Proposals = res.Proposals
	return sub, nil
}

// Next returns the next event, waiting for one; its error says why none
// will come (the connection closed) or is ctx's.
func (s *Subscription) Next(ctx context.Context) (Event, error) {
	for {
		s.mu.Lock()
		if len(s.events) > 0 {
			ev := s.events[0]
			s.events = s.events[1:]
			s.mu.Unlock()
			return ev, nil
		}
		err := s.err
		s.mu.Unlock()
		if err != nil {
			return Event{}, err
		}
		select {
		case <-s.signal:
		case <-ctx.Done():
			return Event{}, ctx.Err()
		}
	}
}

func (s *Subscription) push(ev Event, err error) {
	s.mu.Lock()
	if err != nil {
		s.err = err
	} else {
		s.events = append(s.events, ev)
	}
	s.mu.Unlock()
	select {
	case s.signal <- struct{}{}:
	default:
	}
}

func (s *Subscription) end(err error) { s.push(Event{}, err) }

// notified takes a notification from the desk: an event for the
// subscription; others are ignored, as JSON-RPC allows.
func (cl *Client) notified(n rpcResponseRaw) {
	cl.mu.Lock()
	sub := cl.sub
	cl.mu.Unlock()
	var ev Event
	if sub == nil || n.Method != "event" || json.Unmarshal(n.Params, &ev) != nil {
		return
	}
	sub.push(ev, nil)
}

// Get reads proposal id in full: every file's texts, or with path only
// that file's (the others' hunks and counts still come); a decided one's
// outcome with every file's final text (a window shows it).
func (cl *Client) Get(ctx context.Context, id, path string) (Detail, error) {
	var d Detail
	err := cl.Call(ctx, "get", getParams{ID: id, Path: path, FinalContent: finalAll}, &d)
	return d, err
}

// CheckText runs the project's checkers on the desk's machine over text,
// a reviewer's edit of file path of waiting proposal id (docs/protocol.md,
// "checkText").
func (cl *Client) CheckText(ctx context.Context, id, path, text string) ([]Report, error) {
	var res checkTextResult
	err := cl.Call(ctx, "checkText", checkTextParams{ID: id, Path: path, Text: text}, &res)
	return res.Reports, err
}
