package deskrpc

import (
	"context"
	"net"
	"os"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// emfileListener fails its first accepts the way accept4 does when the
// process is out of file descriptors.
type emfileListener struct {
	*net.UnixListener
	fails atomic.Int32 // accepts still to fail
}

func (l *emfileListener) AcceptUnix() (*net.UnixConn, error) {
	if l.fails.Add(-1) >= 0 {
		return nil, &net.OpError{Op: "accept", Net: "unix", Err: os.NewSyscallError("accept4", syscall.EMFILE)}
	}
	return l.UnixListener.AcceptUnix()
}

// TestServeOutlivesRunningOutOfFiles: "too many open files" on accept
// does not end the desk; it waits and serves the next agent.
func TestServeOutlivesRunningOutOfFiles(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "")
	path, ul := listenPrivate(t)
	l := &emfileListener{UnixListener: ul}
	l.fails.Store(4)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- NewServer(d.Desk).serve(ctx, l) }()
	cl, err := Dial(path)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	callErr := make(chan error, 1)
	go func() { callErr <- cl.Call(reviewtest.Context(t), "status", struct{}{}, nil) }()
	select {
	case err := <-callErr:
		if err != nil {
			t.Errorf("status after accept failed with EMFILE: %v", err)
		}
	case err := <-done:
		t.Fatalf("Serve returned %v after EMFILE; want it to wait and accept again", err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}
