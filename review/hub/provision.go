package hub

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Limits bound what the hub keeps.
type Limits struct {
	Replicas int           // copies of each message: 1 alone, 3 in a cluster of three
	MaxAge   time.Duration // how long a proposal, outcome or decision is kept (default 7 days)
	MaxBytes int64         // the stream's size (default 1 GiB); the oldest messages go first
}

func (l Limits) withDefaults() Limits {
	if l.Replicas < 1 {
		l.Replicas = 1
	}
	if l.MaxAge <= 0 {
		l.MaxAge = 7 * 24 * time.Hour
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = 1 << 30
	}
	return l
}

// Provision creates (or updates) the hub's stream and decision bucket
// over a connection that may manage JetStream (the hub's own, or a NATS
// administrator's on a plain cluster). It retries while the cluster elects
// its leaders, until ctx ends.
func Provision(ctx context.Context, nc *nats.Conn, l Limits) error {
	l = l.withDefaults()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	stream := jetstream.StreamConfig{
		Name:        Stream,
		Description: "DiffDesk: proposals, outcomes and their texts, under dd.DESK.",
		Subjects:    []string{"dd.*.>"},
		Storage:     jetstream.FileStorage,
		Replicas:    l.Replicas,
		MaxAge:      l.MaxAge,
		MaxBytes:    l.MaxBytes,
		// The latest of each proposal, outcome and text chunk.
		MaxMsgsPerSubject: 1,
		MaxMsgSize:        MaxMessage,
		Discard:           jetstream.DiscardOld,
		Duplicates:        2 * time.Minute,
		AllowDirect:       true,
		DenyDelete:        true,
		DenyPurge:         true,
	}
	kv := jetstream.KeyValueConfig{
		Bucket:       Bucket,
		Description:  "DiffDesk: decisions, one per proposal round; the first created wins",
		History:      1,
		TTL:          l.MaxAge,
		MaxValueSize: MaxMessage - 4096,
		MaxBytes:     l.MaxBytes / 4,
		Storage:      jetstream.FileStorage,
		Replicas:     l.Replicas,
	}
	var last error
	for {
		// A request made before the cluster has a leader goes unanswered:
		// each attempt has its own deadline.
		actx, cancel := context.WithTimeout(ctx, 3*time.Second)
		_, err := js.CreateOrUpdateStream(actx, stream)
		if err == nil {
			_, err = js.CreateOrUpdateKeyValue(actx, kv)
		}
		cancel()
		if err == nil {
			return nil
		}
		last = err
		select {
		case <-ctx.Done():
			return fmt.Errorf("hub: creating the stream %s and bucket %s: %w", Stream, Bucket, last)
		case <-time.After(200 * time.Millisecond):
		}
	}
}
