// Command deskctl is DiffDesk's agent-side and headless command line: apply
// and diff edits offline, and (with a desk running) propose edits and watch
// the queue. It needs no GUI libraries and builds with CGO_ENABLED=0.
//
// Its commands are a table (deskctlCmd); help is generated from the table
// and from each command's flags, so it cannot drift from them.
package main

import (
	"context"
	"io"
	"os"
)

// deskctlCmd is the root of the command table.
var deskctlCmd = &command{
	name:  "deskctl",
	usage: "COMMAND [flags] [arguments]",
	long: `deskctl is DiffDesk's command line: it applies and diffs edits offline and, with a desk
running (the diffdesk window or deskctl serve), proposes edits and watches the queue.

The desk's socket is $DIFFDESK_SOCKET, else $XDG_RUNTIME_DIR/diffdesk/desk.sock; --socket
overrides it. A usage error exits 2. --version prints the version (deskctl version).`,
	subs: []*command{applyCmd, diffCmd, serveCmd, proposeCmd, statusCmd, decideCmd, demoCmd, setupCmd, doctorCmd, mcpCmd, hookCmd, historyCmd, trustCmd, bridgeCmd, hubCmd, versionCmd},
}

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

// run runs a deskctl command line and returns its exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-version") {
		args = []string{"version"}
	}
	x := &invocation{cmd: deskctlCmd, path: "deskctl", args: args, stdin: stdin, stdout: stdout, stderr: stderr}
	return dispatch(context.Background(), x)
}
