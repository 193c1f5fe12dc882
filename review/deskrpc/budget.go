package deskrpc

import (
	"context"
	"sync"
)

// Bounds on the bytes of messages being read: any connection reads a
// message of up to smallMessageBytes (its read buffer) freely; a longer
// message first takes one of MaxLargeMessages places, held until its
// params are decoded. A reader that finds every place taken waits, and so
// does its agent. A place is taken whole, before the message is read on,
// so two readers never wait on each other's half-read messages.
const (
	smallMessageBytes = 64 << 10
	// MaxLargeMessages is how many messages over 64 KiB the desk reads at
	// once, over all connections: each may take MaxMessageBytes (and
	// about as much again decoded).
	MaxLargeMessages = 2
)

// budget hands out the places for large messages.
type budget struct {
	places chan struct{} // one element per place taken
	mu     sync.Mutex
	peak   int // most places ever taken at once
}

func newBudget(places int) *budget { return &budget{places: make(chan struct{}, places)} }

// take waits for a place, or until ctx is done.
func (b *budget) take(ctx context.Context) error {
	select {
	case b.places <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	b.mu.Lock()
	b.peak = max(b.peak, len(b.places))
	b.mu.Unlock()
	return nil
}

func (b *budget) give() { <-b.places }

// loan is what one message holds: a place once it grows large. give
// returns it; it may be called any number of times.
type loan struct {
	b    *budget
	mu   sync.Mutex
	held bool
}

// grown is told the bytes of the message read so far, and takes a place
// once they pass smallMessageBytes.
func (l *loan) grown(ctx context.Context, n int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held || n <= smallMessageBytes {
		return nil
	}
	if err := l.b.take(ctx); err != nil {
		return err
	}
	l.held = true
	return nil
}

func (l *loan) give() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held {
		l.held = false
		l.b.give()
	}
}
