package deskrpc

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"

	"github.com/diffdesk/diffdesk/review"
)

// Limits is the memory a connection — an agent's, or anything that speaks
// the protocol — can make the desk hold, and how much all of them can
// together. The zero value of a field means its default.
type Limits struct {
	// ConnHeldBytes and ConnHeldCount bound the proposals one connection
	// has made that the desk still holds for it (open, or decided and not
	// yet answered): past them its next propose (or a stream's chunk) is
	// refused with error -32001 until some are decided, cancelled or
	// answered. The desk's own budget (review.DefaultMaxHeldBytes) bounds
	// all connections and doors together.
	ConnHeldBytes int64 // default 256 MiB
	ConnHeldCount int   // default 1,000
	// ConnAnswerBytes is how many bytes of answers one connection may
	// leave unread: past it, the desk reads no more of its requests until
	// it reads its answers (back-pressure; its socket fills and its
	// writes block). An answer is always sent whole, however large.
	ConnAnswerBytes int64 // default 16 MiB
	// ConnRequests is how many of one connection's requests are handled
	// at once (a blocking wait counts); the next is read once one ends.
	ConnRequests int // default 256
	// AnswerBytes bounds the answers all connections leave unread
	// together: past it, an answer to a connection that has not read its
	// last one is replaced by error -32005, so connections that read
	// their answers are served as before.
	AnswerBytes int64 // default 256 MiB
}

// DefaultLimits are the limits a server has unless SetLimits says.
var DefaultLimits = Limits{ConnHeldBytes: 256 << 20, ConnHeldCount: 1000, ConnAnswerBytes: 16 << 20, ConnRequests: 256, AnswerBytes: 256 << 20}

// codeBusy is an answer the desk would not queue: the answers its
// clients have not read are at their budget.
const codeBusy = -32005

// SetLimits sets the server's limits (zero fields: the default). Call it
// before Serve.
func (s *Server) SetLimits(l Limits) {
	d := DefaultLimits
	s.limits = Limits{
		ConnHeldBytes: cmp.Or(l.ConnHeldBytes, d.ConnHeldBytes), ConnHeldCount: cmp.Or(l.ConnHeldCount, d.ConnHeldCount),
		ConnAnswerBytes: cmp.Or(l.ConnAnswerBytes, d.ConnAnswerBytes), ConnRequests: cmp.Or(l.ConnRequests, d.ConnRequests),
		AnswerBytes: cmp.Or(l.AnswerBytes, d.AnswerBytes),
	}
}

// flow is one connection's share of the answers and requests in flight.
type flow struct {
	queued atomic.Int64  // bytes of answers marshalled and not yet written
	active atomic.Int64  // requests being handled
	room   chan struct{} // a signal that an answer was written or a request ended
}

func newFlow() *flow { return &flow{room: make(chan struct{}, 1)} }

func (f *flow) signal() {
	select {
	case f.room <- struct{}{}:
	default:
	}
}

// waitRoom blocks the connection's reader while its unread answers or its
// requests in hand are at their limits; false if ctx ended meanwhile.
func (cc *conn) waitRoom(ctx context.Context) bool {
	l := cc.s.limits
	for cc.flow.queued.Load() > l.ConnAnswerBytes || cc.flow.active.Load() >= int64(l.ConnRequests) {
		select {
		case <-cc.flow.room:
		case <-ctx.Done():
			return false
		}
	}
	return true
}

// queue accounts for an answer b about to be written to cc, and returns
// what to write: b, or, when the answers all connections left unread are
// over the server's budget and cc has not read its last answer yet, a
// small error answer to id instead. done must be called once it is
// written.
func (cc *conn) queue(id json.RawMessage, b []byte) (out []byte, done func()) {
	s := cc.s
	n := int64(len(b))
	if total := s.answers.Add(n); total > s.limits.AnswerBytes && cc.flow.queued.Load() > 0 {
		s.answers.Add(-n)
		b, _ = json.Marshal(rpcResponse{JSONRPC: "2.0", ID: id, Error: &rpcError{Code: codeBusy,
			Message: fmt.Sprintf("an answer of %d bytes was not sent: the desk holds %s of answers its clients have not read, at its budget of %s, and this connection has not read its last answer; read your answers, then ask again",
				n, mib(total-n), mib(s.limits.AnswerBytes))}})
		b = append(b, '\n')
		n = int64(len(b))
		s.answers.Add(n)
	}
	cc.flow.queued.Add(n)
	return b, func() {
		cc.flow.queued.Add(-n)
		s.answers.Add(-n)
		cc.flow.signal()
	}
}

// underBudget refuses a new proposal (or a stream's next chunk) from a
// connection whose proposals the desk holds are at their budget.
func (cc *conn) underBudget(proposing bool, path string) error {
	cc.mu.Lock()
	ids := make([]string, 0, len(cc.owned))
	for id := range cc.owned {
		ids = append(ids, id)
	}
	cc.mu.Unlock()
	l := cc.s.limits
	n, b := cc.s.desk.Held(ids)
	if n < l.ConnHeldCount && b < l.ConnHeldBytes {
		return nil
	}
	return &review.BudgetError{Scope: "this connection", Count: n, Bytes: b, MaxCount: l.ConnHeldCount, MaxBytes: l.ConnHeldBytes, Proposing: proposing, StreamPath: path}
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
