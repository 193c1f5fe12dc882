package hub

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/diffdesk/diffdesk/review/decision"
)

// MaxText is the largest text a reviewer reads from the hub; a proposal
// naming a bigger one is shown without it.
const MaxText = 64 << 20

// Reviewer reads every desk's queue on a hub and decides. It is what
// `deskctl hub review` uses, and what a window given a hub would.
type Reviewer struct {
	by     string
	js     jetstream.JetStream
	stream jetstream.Stream
	kv     jetstream.KeyValue

	// Logf, if set before the reviewer is used, is told what its readers
	// of the hub could not do and did again: a consumer made again (its
	// node gone, the hub restarted), a try to make one that failed
	// (retrying). A View also tells its notices.
	Logf func(format string, args ...any)
}

func (r *Reviewer) logf(format string, args ...any) {
	if r.Logf != nil {
		r.Logf(format, args...)
	}
}

// NewReviewer is a reviewer over nc, deciding as by (the name the desks
// record, "user@host"; the hub does not check it: see docs/security.md).
func NewReviewer(ctx context.Context, nc *nats.Conn, by string) (*Reviewer, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	var st jetstream.Stream
	err = retry(ctx, func(ctx context.Context) (err error) { st, err = js.Stream(ctx, Stream); return err })
	if err != nil {
		return nil, fmt.Errorf("hub: the stream %s: %w (is this a DiffDesk hub, and are these a reviewer's credentials?)", Stream, err)
	}
	var kv jetstream.KeyValue
	err = retry(ctx, func(ctx context.Context) (err error) { kv, err = js.KeyValue(ctx, Bucket); return err })
	if err != nil {
		return nil, fmt.Errorf("hub: the decisions bucket: %w", err)
	}
	return &Reviewer{by: by, js: js, stream: st, kv: kv}, nil
}

// Item is a proposal on the hub and, once its desk has reported it, its
// outcome.
type Item struct {
	Proposal  *Proposal // nil if only the outcome is still on the hub
	Outcome   *Outcome
	Desk, Hub string
}

// Open reports whether the item waits for a decision.
func (it Item) Open() bool { return it.Proposal != nil && it.Outcome == nil }

// Queue is every desk's proposals and outcomes as the hub holds them now,
// oldest first. Messages that do not read as a DiffDesk proposal or
// outcome of the desk whose subject they are on are skipped (bad is told).
func (r *Reviewer) Queue(ctx context.Context, bad func(subject string, err error)) ([]Item, error) {
	return r.queue(ctx, r.logf, bad)
}

func (r *Reviewer) queue(ctx context.Context, logf func(string, ...any), bad func(string, error)) ([]Item, error) {
	items := map[string]*Item{}
	err := r.follow(ctx, true, logf, nil, func(p *Proposal, o *Outcome, desk, h string) {
		it := items[desk+"/"+h]
		if it == nil {
			it = &Item{Desk: desk, Hub: h}
			items[desk+"/"+h] = it
		}
		if p != nil {
			it.Proposal = p
		}
		if o != nil {
			it.Outcome = o
		}
	}, bad)
	if err != nil {
		return nil, err
	}
	out := make([]Item, 0, len(items))
	for _, it := range items {
		out = append(out, *it)
	}
	sort.Slice(out, func(i, j int) bool { return created(out[i]).Before(created(out[j])) })
	return out, nil
}

func created(it Item) time.Time {
	if it.Proposal != nil {
		return it.Proposal.Created
	}
	return it.Outcome.At
}

// Follow calls fn with every proposal and outcome on the hub (the latest
// of each), then with each as it is published, until ctx ends.
func (r *Reviewer) Follow(ctx context.Context, fn func(p *Proposal, o *Outcome), bad func(subject string, err error)) error {
	return r.follow(ctx, false, r.logf, nil, func(p *Proposal, o *Outcome, _, _ string) { fn(p, o) }, bad)
}

// follow reads the queue; logf is told what its follower did again, and
// reach (if set) when it cannot make a consumer and when it can again.
func (r *Reviewer) follow(ctx context.Context, once bool, logf func(string, ...any), reach func(error), fn func(p *Proposal, o *Outcome, desk, h string), bad func(string, error)) error {
	if bad == nil {
		bad = func(string, error) {}
	}
	f := newFollower(r.js, Stream, "the queue", []string{"dd.*.*.*"}, logf)
	f.reach = reach
	f.lastPer = true
	defer f.close()
	handle := func(m jetstream.Msg) {
		desk, kind, h, ok := parseSubject(m.Subject())
		if !ok {
			return
		}
		if kind == "p" {
			var p Proposal
			err := decode(m.Data(), &p, "a proposal")
			if err == nil {
				err = p.check(desk, h)
			}
			if err != nil {
				bad(m.Subject(), err)
				return
			}
			fn(&p, nil, desk, h)
			return
		}
		var o Outcome
		err := decode(m.Data(), &o, "an outcome")
		if err == nil && (o.Desk != desk || o.Hub != h) {
			err = fmt.Errorf("hub: outcome on %s names desk %q and id %q", m.Subject(), o.Desk, o.Hub)
		}
		if err != nil {
			bad(m.Subject(), err)
			return
		}
		fn(nil, &o, desk, h)
	}
	if once {
		return f.catchUp(ctx, handle)
	}
	for {
		m, err := f.read(ctx, 0)
		if err != nil {
			return err
		}
		handle(m)
	}
}

// Text reads one text of a proposal's file (TextBase, TextProposed or
// TextDisk) and checks it against the SHA-256 the desk published.
func (r *Reviewer) Text(ctx context.Context, p Proposal, file int, kind string) (string, error) {
	if file < 0 || file >= len(p.Files) {
		return "", fmt.Errorf("hub: proposal %s/%s has no file %d", p.Desk, p.Hub, file)
	}
	f := p.Files[file]
	ref := map[string]TextRef{TextBase: f.Base, TextProposed: f.Proposed}[kind]
	if kind == TextDisk {
		if f.Disk == nil {
			return "", fmt.Errorf("hub: %s is not stale: it has no disk text", f.Rel)
		}
		ref = *f.Disk
	}
	if ref.Size > MaxText || ref.Size < 0 || int64(ref.Chunks) != (ref.Size+ChunkSize-1)/ChunkSize {
		return "", fmt.Errorf("hub: %s's text is %d bytes in %d chunks; a reviewer reads at most %d bytes from the hub", f.Rel, ref.Size, ref.Chunks, MaxText)
	}
	var b strings.Builder
	b.Grow(int(ref.Size))
	for c := range ref.Chunks {
		m, err := r.stream.GetLastMsgForSubject(ctx, textSubject(p.Desk, p.Hub, p.Version, file, kind, c))
		if err != nil {
			return "", fmt.Errorf("hub: reading %s (part %d of %d): %w", f.Rel, c+1, ref.Chunks, err)
		}
		if len(m.Data) > ChunkSize {
			return "", fmt.Errorf("hub: part %d of %s is %d bytes, over the %d-byte chunk", c+1, f.Rel, len(m.Data), ChunkSize)
		}
		b.Write(m.Data)
	}
	sum := sha256.Sum256([]byte(b.String()))
	if hex.EncodeToString(sum[:]) != ref.SHA256 {
		return "", fmt.Errorf("hub: %s's text on the hub does not match the SHA-256 its desk published: not shown", f.Rel)
	}
	return b.String(), nil
}

// Result is what became of a decision the reviewer made.
type Result struct {
	// Won says this reviewer's decision was the first of the round: the
	// desk will carry it out (or start a new round saying why not).
	Won bool
	// Winner is the decision the round has: this reviewer's, or the one
	// that came first.
	Winner Decision
}

// ErrNotOpen says a proposal has been decided, withdrawn or changed since
// the reviewer read it.
var ErrNotOpen = errors.New("hub: the proposal is no longer waiting for this decision")

// Decide creates d as the decision on p's current round: the first
// reviewer to create it wins (a compare-and-set of the round's key), and
// every other is told who did. A decision over MaxMessage (edited text
// that big) is refused: decide at the desk's own window.
func (r *Reviewer) Decide(ctx context.Context, p Proposal, d Decision) (Result, error) {
	if _, err := decision.ParseVerdict(d.Verdict); err != nil {
		return Result{}, err
	}
	d.Hub, d.Round, d.Version, d.Nonce, d.By, d.At = p.Hub, p.Round, p.Version, newNonce(), r.by, time.Now().UTC()
	data, err := json.Marshal(d)
	if err != nil {
		return Result{}, err
	}
	if len(data) > MaxMessage-4096 {
		return Result{}, fmt.Errorf("hub: this decision is %d bytes (edited text included), over the %d the hub carries: decide it at the desk", len(data), MaxMessage-4096)
	}
	key := p.Key()
	start := time.Now()
	for attempt := 0; ; attempt++ {
		cctx, cancel := context.WithTimeout(ctx, makeTry)
		_, err := r.kv.Create(cctx, key, data)
		cancel()
		if err == nil {
			return Result{Won: true, Winner: d}, nil
		}
		// Taken, or no answer (a node down, the bucket electing a new
		// leader): the entry says whose it is. Creating again is safe: the
		// create is a compare-and-set, so a first one that did land makes
		// the next fail, and the entry then names this decision.
		gctx, cancel := context.WithTimeout(ctx, makeTry)
		e, gerr := r.kv.Get(gctx, key)
		cancel()
		if gerr == nil {
			var w Decision
			if err := decode(e.Value(), &w, "the round's decision"); err != nil {
				return Result{}, err
			}
			return Result{Won: w.Nonce == d.Nonce, Winner: w}, nil
		}
		// A create refused because the key exists, and a get that does
		// not find it, asked a node that has not stored it yet (a KV get
		// is served by any node holding the bucket): it is read again.
		taken := errors.Is(err, jetstream.ErrKeyExists)
		again := errors.Is(gerr, jetstream.ErrKeyNotFound) && (attempt < 5 || taken && time.Since(start) < decideFor) ||
			(unanswered(err) || unanswered(gerr)) && time.Since(start) < decideFor
		if !again || ctx.Err() != nil {
			return Result{}, fmt.Errorf("hub: deciding %s/%s: %w", p.Desk, p.Hub, err)
		}
		select {
		case <-ctx.Done():
			return Result{}, ctx.Err()
		case <-time.After(min(time.Duration(100*(attempt+1))*time.Millisecond, time.Second)):
		}
	}
}

// decideFor is how long Decide tries while the hub does not answer.
const decideFor = 30 * time.Second

// unanswered reports whether err says the hub gave no answer (yet): a
// node down, a stream electing its leader.
func unanswered(err error) bool {
	var api *jetstream.APIError
	return errors.Is(err, jetstream.ErrNoStreamResponse) || errors.Is(err, nats.ErrNoResponders) ||
		errors.Is(err, nats.ErrTimeout) || errors.Is(err, context.DeadlineExceeded) ||
		errors.As(err, &api) && api.Code == 503
}

// Await waits for what the desk did with p after round: its outcome, or
// the proposal again at a later round (the decision was not carried out:
// Note says why).
func (r *Reviewer) Await(ctx context.Context, p Proposal) (*Outcome, *Proposal, error) {
	return r.await(ctx, p, r.logf)
}

func (r *Reviewer) await(ctx context.Context, p Proposal, logf func(string, ...any)) (*Outcome, *Proposal, error) {
	f := newFollower(r.js, Stream, "proposal "+p.Desk+"/"+p.Hub, []string{proposalSubject(p.Desk, p.Hub), outcomeSubject(p.Desk, p.Hub)}, logf)
	f.lastPer = true
	defer f.close()
	for {
		m, err := f.read(ctx, 0)
		if err != nil {
			return nil, nil, err
		}
		_, kind, _, ok := parseSubject(m.Subject())
		if !ok {
			continue
		}
		if kind == "o" {
			var o Outcome
			if err := decode(m.Data(), &o, "an outcome"); err != nil || o.Desk != p.Desk || o.Hub != p.Hub {
				continue
			}
			return &o, nil, nil
		}
		var q Proposal
		if err := decode(m.Data(), &q, "a proposal"); err != nil || q.check(p.Desk, p.Hub) != nil {
			continue
		}
		if q.Round > p.Round {
			return nil, &q, nil
		}
	}
}
