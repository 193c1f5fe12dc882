package hub

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// How a follower notices that its consumer is gone and makes a new one.
const (
	// followHeartbeat is how often the server says a pull is alive: two
	// missed (its node killed, the consumer with it) and the consumer is
	// made again.
	followHeartbeat = time.Second
	// makeTry bounds one request to make a consumer. A request sent
	// while the stream has no leader (the node that led it just killed)
	// goes unanswered: it is sent again after this, not waited on.
	makeTry = 3 * time.Second
	// consumerIdle is how long a consumer nobody pulls from is kept by
	// the hub (one abandoned on a dropped connection goes by itself).
	consumerIdle = time.Minute
)

// A follower reads a stream's messages on some subjects, in order, each
// once, through a consumer of its own (as an ordered consumer's: no
// acks, in memory, on one node), made again from the first message not
// read whenever it fails: its heartbeats stop (its node died with it), the
// server says it is gone, or a message is missing from its sequence.
//
// Not jetstream's OrderedConsumer, whose own remaking gives each try to
// make the consumer 10 s (fixed in nats.go): a try sent while the stream
// had no leader (its node just killed) goes unanswered, and held every
// message that long after a new leader was there — the fleet run's p99
// of 9.5 s for decisions. Nor a pull consumer's Messages: it asks a
// consumer whose node is gone again and again, silently (unless told to
// report missed heartbeats), and it ignores the "no responders" answer
// to a pull that reached no consumer (likely a consumer just made on
// another node, before the cluster's routes carry its interest: seen
// under load, a consumer made with 18 messages for it and no pull
// waiting on it, for 30 s). Consume reports both, and the consumer is
// made again.
type follower struct {
	js      jetstream.JetStream
	stream  string
	filters []string
	lastPer bool   // start at the last message of each subject, not the first
	next    uint64 // the stream sequence to go on from (0: from the start)
	what    string // what is followed, for errors and logs ("the decisions")
	logf    func(format string, args ...any)
	// reach, if set, is told when a consumer could not be made (for 15 s,
	// err the last try's) and when one is made again after that (nil).
	reach   func(err error)
	failing bool

	cur     *consuming // nil: none yet, or given up
	seq     uint64     // the consumer's sequence of the last message read
	pending uint64     // messages the consumer had left after it
	backoff time.Duration
}

func newFollower(js jetstream.JetStream, stream, what string, filters []string, logf func(string, ...any)) *follower {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	return &follower{js: js, stream: stream, what: what, filters: filters, logf: logf}
}

// consuming is one consumer of a follower's and what it delivers.
type consuming struct {
	cons   jetstream.Consumer
	cc     jetstream.ConsumeContext
	msgs   chan jetstream.Msg
	broken chan error    // why the consumer is of no more use
	done   chan struct{} // closed when the follower gives it up
	made   time.Time
	// back is told when the connection is back after it dropped: what
	// the hub sent as it dropped may never have arrived, and the
	// consumer (which takes no acks) counts it delivered. Were it the
	// last message, no later one would show the gap, and the follower
	// would wait for ever: the consumer is made again from the first
	// message not read, as nats.go's ordered consumer does.
	back chan nats.Status
}

// open makes the consumer, trying again (each try bounded by makeTry)
// until ctx ends.
func (f *follower) open(ctx context.Context) error {
	cfg := jetstream.ConsumerConfig{
		DeliverPolicy:     jetstream.DeliverAllPolicy,
		AckPolicy:         jetstream.AckNonePolicy,
		InactiveThreshold: consumerIdle,
		Replicas:          1,
		MemoryStorage:     true,
	}
	switch {
	case f.next > 0:
		cfg.DeliverPolicy, cfg.OptStartSeq = jetstream.DeliverByStartSequencePolicy, f.next
	case f.lastPer:
		cfg.DeliverPolicy = jetstream.DeliverLastPerSubjectPolicy
	}
	// One filter goes in the request's subject, where the hub's
	// permissions check it (a desk may read only its own subjects).
	if len(f.filters) == 1 {
		cfg.FilterSubject = f.filters[0]
	} else {
		cfg.FilterSubjects = f.filters
	}
	var c *consuming
	nc := f.js.Conn()
	err := retry(ctx, func(ctx context.Context) error {
		// Listened for before the consumer is made: a reconnect while it
		// is made is one too.
		back := nc.StatusChanged(nats.CONNECTED)
		// A new name for every try: a try unanswered may have placed its
		// consumer on a node just killed that the hub has not yet marked
		// gone, and another try of that name is sent there again (seen in
		// the fleet run: five desks' tries of one name each unanswered for
		// 15 s, and a new name made at once; the p99 after the node kill
		// 9.9 s with one name per making, 3.2 s with one per try).
		cfg.Name = newHubID()
		cons, err := f.js.CreateOrUpdateConsumer(ctx, f.stream, cfg)
		if err != nil {
			nc.RemoveStatusListener(back)
			f.removeName(cfg.Name)
			return err
		}
		c = &consuming{cons: cons, msgs: make(chan jetstream.Msg), broken: make(chan error, 1), done: make(chan struct{}), made: time.Now(), back: back}
		c.cc, err = cons.Consume(c.deliver, jetstream.PullMaxBytes(decisionBuffer), jetstream.PullExpiry(5*time.Second),
			jetstream.PullHeartbeat(followHeartbeat), jetstream.ConsumeErrHandler(c.failed))
		if err != nil {
			nc.RemoveStatusListener(back)
			f.remove(cons)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("hub: following %s: %w", f.what, err)
	}
	f.cur, f.seq, f.pending = c, 0, c.cons.CachedInfo().NumPending
	return nil
}

// deliver hands m to the follower's reader, in the consumer's order;
// it waits while the reader is busy (the pull's byte bound then holds
// the rest on the hub).
func (c *consuming) deliver(m jetstream.Msg) {
	select {
	case c.msgs <- m:
	case <-c.done:
	}
}

// failed is told what went wrong with the consumer: those after which
// it delivers nothing more break it.
func (c *consuming) failed(_ jetstream.ConsumeContext, err error) {
	if errors.Is(err, jetstream.ErrNoHeartbeat) || errors.Is(err, nats.ErrNoResponders) ||
		errors.Is(err, jetstream.ErrConsumerDeleted) || errors.Is(err, jetstream.ErrConsumerNotFound) ||
		errors.Is(err, jetstream.ErrBadRequest) || errors.Is(err, jetstream.ErrConnectionClosed) {
		select {
		case c.broken <- err:
		default:
		}
	}
}

// remove deletes cons on the hub, in the background: best effort, as one
// left behind goes by itself after consumerIdle.
func (f *follower) remove(cons jetstream.Consumer) { f.removeName(cons.CachedInfo().Name) }

func (f *follower) removeName(name string) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), makeTry)
		defer cancel()
		f.js.DeleteConsumer(ctx, f.stream, name)
	}()
}

// drop gives the consumer up, saying why: the next read makes a new one
// from the first message not read.
func (f *follower) drop(why error) {
	c := f.cur
	if c == nil {
		return
	}
	f.cur = nil
	if time.Since(c.made) > 10*time.Second {
		f.backoff = 0 // it worked: the next is made at once
	}
	close(c.done)
	c.cc.Stop()
	f.js.Conn().RemoveStatusListener(c.back)
	f.remove(c.cons)
	if why != nil {
		f.logf("hub: following %s again from #%d (%v)", f.what, f.next, why)
	}
}

// close stops following.
func (f *follower) close() { f.drop(nil) }

// read returns the next message, waiting for it until ctx ends — or, if
// idle > 0, for idle at most (then nats.ErrTimeout). Whatever befalls the
// consumer meanwhile, a new one goes on from where it stopped.
func (f *follower) read(ctx context.Context, idle time.Duration) (jetstream.Msg, error) {
	var timeout <-chan time.Time
	if idle > 0 {
		t := time.NewTimer(idle)
		defer t.Stop()
		timeout = t.C
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if f.cur == nil {
			octx, cancel := context.WithTimeout(ctx, 15*time.Second)
			err := f.open(octx)
			cancel()
			if err != nil {
				if ctx.Err() != nil {
					return nil, err
				}
				f.logf("%v (retrying)", err)
				if f.reach != nil {
					f.failing = true
					f.reach(err)
				}
				if !f.pause(ctx) {
					return nil, ctx.Err()
				}
				continue
			}
			if f.failing {
				f.failing = false
				f.reach(nil)
			}
		}
		var m jetstream.Msg
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-timeout:
			return nil, nats.ErrTimeout
		case err := <-f.cur.broken:
			f.drop(err)
			if !f.pause(ctx) {
				return nil, ctx.Err()
			}
			continue
		case <-f.cur.back:
			f.drop(errReconnected)
			continue
		case m = <-f.cur.msgs:
		}
		md, err := m.Metadata()
		if err != nil {
			continue // not a stream message
		}
		if md.Sequence.Consumer != f.seq+1 {
			f.drop(fmt.Errorf("message #%d came as the consumer's %d after its %d", md.Sequence.Stream, md.Sequence.Consumer, f.seq))
			continue
		}
		f.seq, f.next, f.pending, f.backoff = md.Sequence.Consumer, md.Sequence.Stream+1, md.NumPending, 0
		return m, nil
	}
}

var errReconnected = errors.New("the connection to the hub is back: what the hub sent as it dropped may be lost")

// pause waits before a new consumer is made: not at all the first time
// (two heartbeats were missed, or the consumer is gone), then 50 ms
// doubling to 2 s.
func (f *follower) pause(ctx context.Context) bool {
	if f.backoff > 0 {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(f.backoff):
		}
	}
	f.backoff = min(max(2*f.backoff, 50*time.Millisecond), 2*time.Second)
	return true
}

// catchUp hands fn every message there is now, and returns once it has
// read the last.
func (f *follower) catchUp(ctx context.Context, fn func(jetstream.Msg)) error {
	for {
		if f.cur == nil {
			if err := f.open(ctx); err != nil {
				return err
			}
		}
		if f.pending == 0 {
			return nil
		}
		m, err := f.read(ctx, time.Second)
		if errors.Is(err, nats.ErrTimeout) {
			// Nothing came though some were counted: messages replaced
			// since (a subject keeps only its last). The consumer says
			// whether any is left to deliver.
			ictx, cancel := context.WithTimeout(ctx, makeTry)
			info, ierr := f.cur.cons.Info(ictx)
			cancel()
			if ierr == nil && info.Delivered.Consumer == f.seq {
				f.pending = info.NumPending
			}
			continue
		}
		if err != nil {
			return err
		}
		fn(m)
	}
}
