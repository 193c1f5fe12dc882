package deskrpc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/memory"
	"github.com/diffdesk/diffdesk/review/workspace"
)

// ProtocolVersion is the native protocol's version; hello negotiates it.
const ProtocolVersion = 1

// MaxMessageBytes is the largest JSON-RPC message the desk reads. Larger
// edits are streamed in chunks.
const MaxMessageBytes = 64 << 20

// JSON-RPC 2.0 error codes.
const (
	codeParse          = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeRefused        = -32001 // the desk refused the request (workspace rules)
	codeUnknown        = -32002 // unknown proposal id
	codeState          = -32003 // the proposal is not in a state that allows this
	codeForbidden      = -32004 // the connection's role does not allow the method
	codeClosed         = -32006 // the desk closed before answering (its window closed, serve stopped)
)

type rpcRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}

type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *rpcError) Error() string { return e.Message }

// Server speaks the native protocol (docs/protocol.md) for a Desk: JSON-RPC
// 2.0, one JSON object per line, over a Unix socket.
type Server struct {
	desk     *review.Desk
	doors    func() []review.DoorStatus // the open front doors, for status; nil if none
	trust    Trust                      // the trust store reviewers see (ShowTrust); nil if none
	wg       sync.WaitGroup             // connections being served
	inflight *budget                    // places for large messages being read (MaxLargeMessages)
	limits   Limits                     // limits.go
	answers  atomic.Int64               // bytes of answers marshalled and not yet written, over all connections
}

// ShowDoors makes the status method report the front doors f returns.
// Call it before Serve.
func (s *Server) ShowDoors(f func() []review.DoorStatus) { s.doors = f }

// NewServer returns a server for desk.
func NewServer(desk *review.Desk) *Server {
	s := &Server{desk: desk, inflight: newBudget(MaxLargeMessages)}
	s.SetLimits(Limits{})
	return s
}

// Serve accepts connections on l until ctx is done or l is closed, then
// waits for the requests being handled to finish (in-flight writes
// complete) and returns. Running out of file descriptors or memory does
// not end it: it waits (5 ms, doubling up to 1 s) and accepts again.
func (s *Server) Serve(ctx context.Context, l *net.UnixListener) error {
	return s.serve(ctx, l)
}

// acceptor is what Serve needs of a listener (tests inject failures).
type acceptor interface {
	AcceptUnix() (*net.UnixConn, error)
	Close() error
}

func (s *Server) serve(ctx context.Context, l acceptor) error {
	stop := context.AfterFunc(ctx, func() { l.Close() })
	defer stop()
	var backoff time.Duration
	for {
		c, err := l.AcceptUnix()
		if err != nil && ctx.Err() == nil && temporary(err) {
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			select {
			case <-time.After(backoff):
			case <-ctx.Done():
			}
			continue
		}
		if err != nil {
			s.wg.Wait()
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		backoff = 0
		if !peerIsUs(c) {
			c.Close()
			continue
		}
		s.wg.Add(1)
		// The connection's goroutine ends when the peer hangs up or ctx ends.
		go func() {
			defer s.wg.Done()
			s.serveConn(ctx, c)
		}()
	}
}

// temporary reports whether an accept error passes: out of file
// descriptors or buffers, or a connection that went away before it was
// accepted.
func temporary(err error) bool {
	for _, e := range []syscall.Errno{syscall.EMFILE, syscall.ENFILE, syscall.ENOBUFS, syscall.ENOMEM,
		syscall.ECONNABORTED, syscall.EINTR, syscall.EAGAIN, syscall.EPROTO} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// conn is one agent connection.
type conn struct {
	s        *Server
	c        net.Conn
	wmu      sync.Mutex
	mu       sync.Mutex
	owned    map[string]bool // proposals made on this connection, withdrawn if it drops
	made     map[string]bool // every proposal made on this connection the desk may still hold: only it may chunk, finish, wait on or cancel them
	client   string          // agent name from hello
	sess     string
	reviewer bool            // hello said role "reviewer": may decide, may not propose
	proposed bool            // a proposal was made on this connection
	events   *eventQueue     // set once the reviewer subscribed
	who      string          // hello's who: the person deciding on this connection
	leave    func()          // hello said "attend": the reviewer is at the desk until the connection ends (review.Desk.Attend)
	flow     *flow           // answers unread and requests in hand (limits.go)
	chunked  int64           // bytes of chunk data received (read only on the reading goroutine)
	serving  context.Context // the desk's serving: done when it stops (the connection's own ends with it, or alone)
}

func (s *Server) serveConn(ctx context.Context, c net.Conn) {
	cc := &conn{s: s, c: c, owned: map[string]bool{}, made: map[string]bool{}, flow: newFlow(), serving: ctx}
	ctx, cancel := context.WithCancel(ctx)
	var reqs sync.WaitGroup
	defer func() {
		cancel()
		reqs.Wait()
		c.Close()
		cc.withdrawOwned()
		cc.mu.Lock()
		leave := cc.leave
		cc.mu.Unlock()
		if leave != nil {
			leave()
		}
	}()
	// When the desk stops, reading stops; the requests under way (an
	// agent waiting on its proposal) are answered before the connection
	// closes, with what happened, not a bare EOF.
	stop := context.AfterFunc(ctx, func() {
		if cr, ok := c.(interface{ CloseRead() error }); ok && cr.CloseRead() == nil {
			return
		}
		c.Close()
	})
	defer stop()
	r := bufio.NewReaderSize(c, smallMessageBytes)
	for {
		if !cc.waitRoom(ctx) { // back-pressure: its answers unread, or too many requests in hand
			return
		}
		l := &loan{b: s.inflight}
		line, err := readLine(r, MaxMessageBytes, func(n int) error { return l.grown(ctx, n) })
		if errors.Is(err, errTooLong) {
			l.give()
			// Answered with the request's own id, read from the message's
			// start: its caller waits for that id (a null id left deskctl
			// waiting for ever on a 200 MB edit).
			cc.reply(leadingID(line), nil, &rpcError{Code: codeInvalidRequest,
				Message: fmt.Sprintf("message over %d bytes; send large edits in chunks (propose with stream, then chunk)", MaxMessageBytes)})
			continue
		}
		if err != nil {
			l.give()
			return
		}
		req, rerr := parseRequest(line)
		line = nil
		if rerr != nil {
			l.give()
			cc.reply(req.ID, nil, rerr)
			continue
		}
		if req == nil { // a blank line
			l.give()
			continue
		}
		cc.flow.active.Add(1)
		if !blocks(req.Method) {
			// In order, on this goroutine: chunks must not overtake each
			// other, and a quick answer (a read's whole file) is written
			// before the next request is read, so a client that never
			// reads its answers stops being read (back-pressure), and
			// holds one answer, not one per request it sent.
			cc.serveRequest(ctx, req, l)
			continue
		}
		reqs.Add(1)
		// Each request has its own goroutine so a blocking wait does not
		// hold up a cancel; it ends when the request is answered.
		go func() {
			defer reqs.Done()
			cc.serveRequest(ctx, req, l)
		}()
	}
}

// parseRequest decodes one line: nil for a blank line, else a request or
// the error to answer (with the request's id, if it had one).
func parseRequest(line []byte) (*rpcRequest, *rpcError) {
	if len(bytes.TrimSpace(line)) == 0 {
		return nil, nil
	}
	var req rpcRequest
	if err := json.Unmarshal(line, &req); err != nil {
		// A field of the wrong type ("method": 5) still leaves the id
		// readable: answered with it, its caller is not left waiting.
		var fields map[string]json.RawMessage
		if json.Unmarshal(line, &fields) == nil {
			return &rpcRequest{ID: fields["id"]}, &rpcError{Code: codeInvalidRequest, Message: "not a valid request: " + err.Error()}
		}
		return &rpcRequest{}, &rpcError{Code: codeParse, Message: "not a JSON object: " + err.Error()}
	}
	if req.JSONRPC != "2.0" || req.Method == "" {
		return &rpcRequest{ID: req.ID}, &rpcError{Code: codeInvalidRequest, Message: `a request needs "jsonrpc":"2.0" and a "method"`}
	}
	return &req, nil
}

// serveRequest handles req and answers it if it has an id; the bytes it
// took from the budget (l) go back once its params are decoded.
func (cc *conn) serveRequest(ctx context.Context, req *rpcRequest, l *loan) {
	defer func() {
		cc.flow.active.Add(-1)
		cc.flow.signal()
	}()
	id := req.ID
	res, err := cc.handle(ctx, req, l.give)
	l.give()
	if id != nil {
		cc.reply(id, res, err)
	}
	if sub, ok := res.(*subscribeResult); ok && err == nil {
		sub.start() // events only after the answer holding the queue
	}
}

var errTooLong = errors.New("line too long")

// answerID is the id an answer carries: the request's, if it is a string
// or a number as JSON-RPC ids are, else null. A string id is written as
// Go encodes it, so one holding invalid UTF-8 (or a terminal's control
// bytes, raw) is never echoed byte for byte: invalid bytes become U+FFFD.
func answerID(id json.RawMessage) json.RawMessage {
	id = bytes.TrimSpace(id)
	switch {
	case len(id) == 0:
		return json.RawMessage("null")
	case id[0] == '"':
		var s string
		if json.Unmarshal(id, &s) != nil {
			return json.RawMessage("null")
		}
		b, _ := json.Marshal(s)
		return b
	case id[0] == '-' || id[0] >= '0' && id[0] <= '9':
		var n json.Number
		if json.Unmarshal(id, &n) != nil {
			return json.RawMessage("null")
		}
		return json.RawMessage(n)
	}
	return json.RawMessage("null")
}

// leadingID returns the "id" of the JSON-RPC request whose first bytes are
// head, when a member before it names it (the id before the params, as
// clients write it), else nil.
func leadingID(head []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(head))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil
		}
		if k == "id" {
			if len(v) > 0 && (v[0] == '"' || v[0] == '-' || v[0] >= '0' && v[0] <= '9') {
				return v // a string or a number, as JSON-RPC ids are
			}
			return nil
		}
	}
	return nil
}

// readLine reads one "\n"-terminated line of at most limit bytes; a longer
// line is consumed and reported as errTooLong, with its first bytes (up
// to smallMessageBytes). grown, if not nil, is told the line's length
// before each piece is kept, and may wait; its error ends the read.
func readLine(r *bufio.Reader, limit int, grown func(n int) error) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(buf)+len(chunk) > limit {
			head := buf
			if len(head) == 0 {
				head = append([]byte(nil), chunk[:min(len(chunk), smallMessageBytes)]...)
			}
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
				return nil, err
			}
			return head[:min(len(head), smallMessageBytes)], errTooLong
		}
		if grown != nil {
			if terr := grown(len(buf) + len(chunk)); terr != nil {
				return nil, terr
			}
		}
		if len(buf)+len(chunk) > cap(buf) {
			// Doubling: append grows a big slice by a quarter at a time,
			// which allocated five times a 55 MB message to read it.
			buf = append(make([]byte, 0, max(2*cap(buf), len(buf)+len(chunk))), buf...)
		}
		buf = append(buf, chunk...)
		switch {
		case err == nil:
			return buf, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(buf) > 0:
			return buf, nil
		default:
			return nil, err
		}
	}
}

func (cc *conn) reply(id json.RawMessage, result any, err error) {
	resp := rpcResponse{JSONRPC: "2.0", ID: answerID(id)}
	if err != nil {
		var re *rpcError
		if !errors.As(err, &re) {
			re = toRPCError(err)
		}
		resp.Error = re
	} else {
		if result == nil {
			result = struct{}{}
		}
		resp.Result = result
	}
	b, merr := json.Marshal(resp)
	if merr != nil {
		b, _ = json.Marshal(rpcResponse{JSONRPC: "2.0", ID: resp.ID, Error: &rpcError{Code: -32603, Message: merr.Error()}})
	}
	b, written := cc.queue(resp.ID, append(b, '\n'))
	defer written()
	cc.wmu.Lock()
	defer cc.wmu.Unlock()
	cc.c.Write(b)
	memory.Release(len(b)) // a big answer: the outcome of a big file
}

func toRPCError(err error) *rpcError {
	var ref *workspace.RefusalError
	var se *review.StaleError
	var ce *review.CommentError
	var seenErr *review.SeenError
	var be *review.BudgetError
	switch {
	case errors.As(err, &be):
		return &rpcError{Code: codeRefused, Message: err.Error(), Data: be}
	case errors.As(err, &ce):
		return &rpcError{Code: codeInvalidParams, Message: "decide: " + err.Error(), Data: ce}
	case errors.As(err, &seenErr):
		return &rpcError{Code: codeInvalidParams, Message: "decide: " + err.Error(), Data: seenErr}
	case errors.As(err, &ref):
		return &rpcError{Code: codeRefused, Message: err.Error(), Data: ref}
	case errors.As(err, new(*engine.PlaceError)):
		return &rpcError{Code: codeInvalidParams, Message: "place: " + err.Error()}
	case errors.Is(err, review.ErrUnknownProposal):
		return &rpcError{Code: codeUnknown, Message: err.Error()}
	case errors.As(err, &se):
		return &rpcError{Code: codeState, Message: err.Error(), Data: se}
	}
	return &rpcError{Code: codeState, Message: err.Error()}
}

func (cc *conn) withdrawOwned() {
	cc.mu.Lock()
	ids := make([]string, 0, len(cc.owned))
	for id := range cc.owned {
		ids = append(ids, id)
	}
	cc.mu.Unlock()
	for _, id := range ids {
		cc.s.desk.WithdrawBecause(context.Background(), id, review.Withdrawal(review.WithdrawDisconnected, "", ""))
	}
}

func (cc *conn) own(id string, on bool) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if on {
		cc.owned[id] = true
	} else {
		delete(cc.owned, id)
	}
}

// setRole gives the connection the role hello asked for. A connection
// that has proposed stays an agent's.
func (cc *conn) setRole(role string) error {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	switch role {
	case "", "agent":
		cc.reviewer = false
	case "reviewer":
		if cc.proposed {
			return &rpcError{Code: codeForbidden, Message: "hello: this connection has proposed edits, so it cannot become a reviewer; a reviewer connects on its own"}
		}
		cc.reviewer = true
	default:
		return &rpcError{Code: codeInvalidParams, Message: fmt.Sprintf(`hello: unknown role %q; say "agent" or "reviewer"`, role)}
	}
	return nil
}

// madeHere records that the proposal id was made on this connection. Ids
// the desk no longer holds are forgotten as the set grows, so a connection
// that proposes for weeks does not grow it without bound.
func (cc *conn) madeHere(id string) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if len(cc.made) >= madePrune {
		for old := range cc.made {
			if _, ok := cc.s.desk.Get(old); !ok {
				delete(cc.made, old)
			}
		}
	}
	cc.made[id] = true
}

// madePrune is how many ids a connection's made set holds before the ones
// the desk forgot are dropped.
const madePrune = 1024

func (cc *conn) isMine(id string) bool {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	return cc.made[id]
}

// mayUse refuses method (chunk, finish, wait, cancel) on a proposal made
// on another connection: a proposal belongs to the connection that made
// it (another agent could otherwise feed, finish or cancel it, and its
// agent be told "saved as proposed" over a line it never sent). A
// reviewer may wait on any proposal; it decides them anyway. An id the
// desk does not hold is left to the desk to answer as unknown.
func (cc *conn) mayUse(method, id string) error {
	cc.mu.Lock()
	mine, reviewer := cc.made[id], cc.reviewer
	cc.mu.Unlock()
	if mine || reviewer && method == "wait" {
		return nil
	}
	if _, ok := cc.s.desk.Get(id); !ok {
		return nil
	}
	return &rpcError{Code: codeForbidden, Message: fmt.Sprintf("%s: proposal %s was made on another connection, and a proposal belongs to the connection that made it; %s only your own proposals (status marks them \"own\")", method, id, method)}
}

// whoDecides is the person deciding on this connection, as hello named
// them ("" for the desk's own user).
func (cc *conn) whoDecides() string {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	return cc.who
}

// result answers propose and finish: at once, or after the decision.
func (cc *conn) result(ctx context.Context, p review.Proposal, wait bool, final finalParam) (any, error) {
	if o, ok := cc.s.desk.Outcome(p.ID); ok {
		return cc.answer(p.ID, o, review.ChangesetKey(p), final), nil
	}
	cc.own(p.ID, true)
	if !wait {
		return proposeResult{ID: p.ID, State: p.State, Changeset: review.ChangesetKey(p)}, nil
	}
	o, err := cc.s.desk.Wait(ctx, p.ID)
	if err != nil && ctx.Err() != nil && cc.serving.Err() == nil {
		// The agent went away, the desk runs on: withdrawOwned withdraws
		// its proposals as disconnected (they read "the desk closed").
		return nil, err
	}
	if err != nil && ctx.Err() != nil {
		o, ok, writing := cc.s.closing(p.ID)
		if ok { // a decision was under way: it is the answer
			cc.own(p.ID, false)
			return cc.answer(p.ID, o, review.ChangesetKey(p), final), nil
		}
		if writing {
			return nil, &rpcError{Code: codeClosed, Message: fmt.Sprintf("the desk closed while an approval of proposal %s was still being carried out (its formatters or write took over %s): it may yet be written; read deskctl history before proposing it again", p.ID, closingGrace)}
		}
		return nil, &rpcError{Code: codeClosed, Message: fmt.Sprintf("the desk closed before proposal %s was decided (its window was closed, or deskctl serve stopped): nothing was written; propose again once a desk runs", p.ID)}
	}
	if err != nil {
		return nil, err
	}
	cc.own(p.ID, false)
	return cc.answer(p.ID, o, review.ChangesetKey(p), final), nil
}

// closing settles proposal id as the desk closes with its agent waiting:
// it is withdrawn, so that nothing decides it after its agent is told
// nothing was written (a hub still linked, a reviewer's call in flight) —
// unless a decision is already being carried out, whose outcome it waits
// for (at most closingGrace) and returns. writing reports an approval
// still under way after that: nothing can be said of its files yet.
func (s *Server) closing(id string) (o review.Outcome, ok, writing bool) {
	ctx, cancel := context.WithTimeout(context.Background(), closingGrace)
	defer cancel()
	s.desk.WithdrawBecause(ctx, id, review.Withdrawal(review.WithdrawDeskClosed, "", ""))
	o, err := s.desk.Wait(ctx, id)
	if err != nil {
		if p, held := s.desk.Get(id); held && p.State == review.StateDecided {
			return o, false, true
		}
		if o, done := s.desk.Outcome(id); done { // carried out just now
			return o, o.Status != decision.Withdrawn, false
		}
		return o, false, false
	}
	return o, o.Status != decision.Withdrawn, false
}

// closingGrace bounds how long a closing desk waits for a decision under
// way on a proposal whose agent waits (its write, formatter, journal).
var closingGrace = 30 * time.Second

func validFormat(f engine.Format) bool {
	for _, g := range engine.Formats {
		if f == g {
			return true
		}
	}
	return false
}

// placeAnswer answers place: the proposal as the placement left it —
// pending with its new counts and matches, or still failed on another
// block (failure, mismatch), to be placed in turn.
type placeAnswer struct {
	ID       string             `json:"id"`
	State    review.State       `json:"state"` // pending, or held while another block does not match
	Added    int                `json:"added"`
	Removed  int                `json:"removed"`
	Matches  []engine.Match     `json:"matches,omitempty"`
	Failure  string             `json:"failure,omitempty"`
	Mismatch *engine.MatchError `json:"mismatch,omitempty"`
}

func placeResult(p review.Proposal) placeAnswer {
	a := placeAnswer{ID: p.ID, State: p.State, Failure: agenttext.Failure(p.Failure), Mismatch: p.Mismatch}
	a.Added, a.Removed = p.Counts()
	if len(p.Files) == 1 {
		a.Matches = p.Files[0].Matches
	}
	return a
}
