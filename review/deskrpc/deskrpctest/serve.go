// Package deskrpctest serves a desk over the native protocol for the tests
// of the packages that speak to one (deskctl, the remote window).
package deskrpctest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/deskrpc"
)

// Serve serves d on a socket in a private directory (short, under the
// system's temporary directory: socket paths are limited to about 100
// bytes) and returns the socket's path; the server stops and the directory
// goes when the test ends.
func Serve(t testing.TB, d *review.Desk) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "dd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "desk.sock")
	l, err := deskrpc.Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- deskrpc.NewServer(d).Serve(ctx, l) }()
	t.Cleanup(func() {
		cancel()
		<-served
	})
	return sock
}
