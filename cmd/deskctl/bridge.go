package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"

	"github.com/diffdesk/diffdesk/review/deskrpc"
)

var bridgeCmd = &command{
	name:  "bridge",
	usage: "[--socket PATH]",
	short: "carry the native protocol between stdin/stdout and the desk's socket (for ssh)",
	long: `Connects to the running desk's socket, after the checks every client makes (the socket and its
directory are the user's and writable by no one else, the desk runs as the user), and copies
standard input to it and its answers to standard output, until either side ends. It is what a
window on another machine runs over ssh: diffdesk --connect ssh://user@host runs
"deskctl bridge" there, the way docker -H ssh:// runs "docker system dial-stdio". It exits 0
when standard input ends, 1 if the desk cannot be reached or hangs up first.`,
	flags: func(fl *flag.FlagSet) runFunc {
		socket := socketFlag(fl)
		return func(ctx context.Context, x *invocation) int {
			if len(x.args) > 0 {
				return x.usageError("bridge takes no arguments")
			}
			return runBridge(ctx, x, *socket)
		}
	},
}

// runBridge copies x.stdin to the desk at socket and the desk's bytes to
// x.stdout, each direction as it comes (a line is never held back).
func runBridge(ctx context.Context, x *invocation, socket string) int {
	c, err := deskrpc.DialConn(socket)
	if err != nil {
		return x.fail(err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	fromDesk := make(chan error, 1)
	go func() {
		_, err := io.Copy(x.stdout, c)
		fromDesk <- err
	}()
	toDesk := make(chan error, 1)
	go func() {
		_, err := io.Copy(c, x.stdin)
		toDesk <- err
	}()
	select {
	case <-toDesk:
		// The window went: let the desk see the end of its requests, then
		// wait for what it still sends (answers in flight) until it hangs up.
		if uc, ok := c.(*net.UnixConn); ok {
			uc.CloseWrite()
		}
		<-fromDesk
		return 0
	case err := <-fromDesk:
		if err == nil {
			err = io.EOF
		}
		return x.fail(fmt.Errorf("the desk at %s hung up: %w", socket, err))
	}
}
