package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/internal/version"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/deskrpc"
)

// Exit codes of deskctl propose.
const (
	exitApproved = 0
	exitError    = 1
	exitRejected = 3
)

// proposeResult mirrors the native protocol's propose/finish/wait result.
type proposeResult struct {
	ID      string          `json:"id"`
	State   string          `json:"state"`
	Outcome *review.Outcome `json:"outcome"`
	Text    string          `json:"text"`
}

var proposeCmd = &command{
	name:  "propose",
	usage: "--format F --file PATH [flags]",
	short: "send an edit to the running desk and wait for the decision",
	long: `Send an edit to the running desk, wait for the person's decision and print what the agent
would read. F is write, search-replace, edit, multi-edit, smart-edit or patch (whose paths are
relative to the current directory; --file is then not needed). The edit payload is read from
EDITFILE, or from standard input when --edit is absent. An edit whose block matches nowhere
(or several places) waits too while the window is open: the person picks the lines it was meant
for, or dismisses it (then the failure is printed, exit 1).

Exit status: 0 approved (any kind), 3 rejected, withdrawn or given up as stale, 1 error
(including "no desk running", with how to start one).`,
	flags: func(fl *flag.FlagSet) runFunc {
		var o proposeOptions
		format, editFile := editFlags(fl)
		fl.StringVar(&o.req.Path, "file", "", "the `PATH` to edit (for patch: ignored)")
		fl.StringVar(&o.req.Agent, "agent", "deskctl", "the agent `NAME` the desk shows")
		fl.StringVar(&o.req.Session, "session", "", "the agent's session `ID`")
		socket := socketFlag(fl)
		fl.IntVar(&o.stream, "stream", 0, "send the edit in N chunks, as a streaming agent would")
		fl.BoolVar(&o.json, "json", false, "print the outcome as JSON (a file's finalContent only where it is not what was proposed)")
		fl.BoolVar(&o.finalContent, "final-content", false, "with --json: every file's finalContent, also where it is exactly what was proposed")
		return func(ctx context.Context, x *invocation) int {
			o.req.Format, o.editFile, o.socket = engine.Format(*format), *editFile, *socket
			return runPropose(ctx, x, o)
		}
	},
}

// proposeOptions are the flags of deskctl propose.
type proposeOptions struct {
	req              review.Request // agent, session, format, path
	editFile, socket string
	stream           int
	json             bool
	finalContent     bool // --final-content: every file's final text in --json
}

// runPropose implements `deskctl propose`: send an edit to the running
// desk, wait for the person's decision, print the outcome.
func runPropose(ctx context.Context, x *invocation, o proposeOptions) int {
	if msg := formatError(string(o.req.Format)); msg != "" {
		return x.usageError("%s", msg)
	}
	if o.req.Format == "" || (o.req.Path == "" && o.req.Format != engine.FormatPatch) {
		return x.usageError("--format and --file are required")
	}
	payload, err := readPayload(o.editFile, x.stdin, x.stderr)
	if err != nil {
		return x.fail(err)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	cl, err := deskrpc.Dial(o.socket)
	if err != nil {
		return x.fail(err)
	}
	defer cl.Close()
	req := o.req
	req.Dir, _ = os.Getwd()
	if req.Path != "" && !filepath.IsAbs(req.Path) {
		req.Path = filepath.Join(req.Dir, req.Path)
	}
	final := finalChanged
	if o.finalContent {
		final = finalAll
	}
	res, err := propose(ctx, cl, req, payload, o.stream, final)
	if err != nil {
		return x.fail(err)
	}
	return printOutcome(res, o.json, x.stdout, x.stderr)
}

// The finalContent params of the protocol (docs/protocol.md, "The
// outcome"): a file's final text only where it is not what the agent
// proposed, or every file's. A door that hands the agent's tool the text
// to write (the hooks) asks for all.
const (
	finalChanged = "changed"
	finalAll     = "all"
)

// propose sends req with payload, whole or in n chunks, and waits for the
// outcome, whose files carry their final text as final says.
func propose(ctx context.Context, cl *deskrpc.Client, req review.Request, payload string, n int, final string) (proposeResult, error) {
	var res proposeResult
	if n <= 1 {
		req.Payload = payload
		err := cl.Call(ctx, "propose", struct {
			review.Request
			Wait         bool   `json:"wait"`
			FinalContent string `json:"finalContent,omitempty"`
		}{req, true, final}, &res)
		return res, err
	}
	req.Stream = true
	if err := cl.Call(ctx, "propose", req, &res); err != nil {
		return res, err
	}
	return stream(ctx, cl, res.ID, chunks(payload, n), func() error { return nil }, final)
}

// stream sends the chunks of streaming proposal id, calling pause after
// each, then finishes it and waits for the outcome. Each chunk is a call,
// not a notification: when the person rejects the proposal while it
// streams, the next chunk is answered with that, and stream stops sending
// and returns the outcome at once (it kept sending to the last chunk, 20 s
// later in a paced stream, before the agent heard).
func stream(ctx context.Context, cl *deskrpc.Client, id string, parts []string, pause func() error, final string) (proposeResult, error) {
	var res proposeResult
	for _, c := range parts {
		if err := cl.Call(ctx, "chunk", map[string]string{"id": id, "data": c}, nil); err != nil {
			// Ended while it streamed (rejected, withdrawn, refused as too
			// large): finish answers with the outcome; any other error
			// stands.
			if ferr := cl.Call(ctx, "finish", map[string]any{"id": id, "wait": true, "finalContent": final}, &res); ferr == nil && res.Outcome != nil {
				return res, nil
			}
			return res, err
		}
		if err := pause(); err != nil {
			return res, err
		}
	}
	err := cl.Call(ctx, "finish", map[string]any{"id": id, "wait": true, "finalContent": final}, &res)
	return res, err
}

// chunks cuts s into n nearly equal pieces, never inside a UTF-8 sequence.
func chunks(s string, n int) []string {
	var out []string
	size := (len(s) + n - 1) / n
	for len(s) > 0 {
		k := min(size, len(s))
		for k < len(s) && k > 0 && s[k]&0xC0 == 0x80 {
			k++
		}
		out = append(out, s[:k])
		s = s[k:]
	}
	return out
}

func printOutcome(res proposeResult, asJSON bool, stdout, stderr io.Writer) int {
	if res.Outcome == nil {
		fmt.Fprintf(stderr, "deskctl propose: the desk answered without an outcome (state %s)\n", res.State)
		return exitError
	}
	if asJSON {
		writeJSON(stdout, res.Outcome)
	} else {
		io.WriteString(stdout, review.PrintableText(res.Text))
	}
	switch {
	case res.Outcome.Status.Wrote():
		return exitApproved
	case res.Outcome.Status == decision.Rejected, res.Outcome.Status == decision.Withdrawn, res.Outcome.Status == decision.Stale:
		return exitRejected
	}
	return exitError
}

var statusCmd = &command{
	name:  "status",
	usage: "[flags]",
	short: "is a desk running, where, and what waits",
	long: `Is a desk running, where, and what waits: its workspaces, its front doors for IDE agents
(with how to connect), the proposals waiting, and the desk's version and this deskctl's. --json
prints the desk's answer as the protocol gives it (docs/protocol.md, status). It exits 1 when no
desk is running.`,
	flags: func(fl *flag.FlagSet) runFunc {
		socket := socketFlag(fl)
		asJSON := fl.Bool("json", false, "print the desk's status result as JSON, with the protocol's field names")
		return func(ctx context.Context, x *invocation) int { return runStatus(ctx, x, *socket, *asJSON) }
	},
}

// runStatus implements `deskctl status`.
func runStatus(ctx context.Context, x *invocation, socket string, asJSON bool) int {
	stdout, stderr := x.stdout, x.stderr
	cl, err := deskrpc.Dial(socket)
	if err != nil {
		if errors.Is(err, deskrpc.ErrNoDesk) {
			fmt.Fprintf(stdout, "no desk running (%v)\n", err)
			return exitError
		}
		fmt.Fprintf(stderr, "deskctl status: %v\n", err)
		return exitError
	}
	defer cl.Close()
	var raw json.RawMessage
	if err := cl.Call(ctx, "status", struct{}{}, &raw); err != nil {
		fmt.Fprintf(stderr, "deskctl status: %v\n", err)
		return exitError
	}
	if asJSON {
		// The desk's answer as it is: the protocol's field names, none dropped.
		var b bytes.Buffer
		if err := json.Indent(&b, raw, "", "  "); err != nil {
			fmt.Fprintf(stderr, "deskctl status: the desk's answer is not JSON: %v\n", err)
			return exitError
		}
		b.WriteByte('\n')
		stdout.Write(b.Bytes())
		return 0
	}
	var st struct {
		Roots     []string            `json:"roots"`
		Waiting   int                 `json:"waiting"`
		Proposals []deskrpc.Summary   `json:"proposals"`
		Doors     []review.DoorStatus `json:"doors"`
		Version   *version.Info       `json:"version"`
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		fmt.Fprintf(stderr, "deskctl status: the desk's answer: %v\n", err)
		return exitError
	}
	roots := make([]string, len(st.Roots))
	for i, r := range st.Roots {
		roots[i] = review.Printable(r)
	}
	fmt.Fprintf(stdout, "desk running at %s\nworkspaces: %v\n", review.Printable(socket), roots)
	if st.Version != nil {
		fmt.Fprintf(stdout, "desk version: %s\n", review.Printable(st.Version.String()))
	} else {
		fmt.Fprintln(stdout, "desk version: not said (a desk older than this deskctl)")
	}
	fmt.Fprintf(stdout, "deskctl version: %s\n", version.Read())
	for _, d := range st.Doors {
		if d.Error != "" {
			fmt.Fprintf(stdout, "%s door: not open: %s\n", d.Name, d.Error)
			continue
		}
		fmt.Fprintf(stdout, "%s door on %s: %d agent(s) connected, %d review(s) open\n  connect: %s\n", d.Name, d.Addr, d.Ready, d.Pending, d.Connect)
	}
	fmt.Fprintf(stdout, "%d proposal(s) waiting\n", st.Waiting)
	for _, p := range st.Proposals {
		// Escaped: a name or path with a newline or a terminal escape must
		// not forge a line or recolour the terminal.
		files := make([]string, len(p.Files))
		for i, f := range p.Files {
			files[i] = review.Printable(f)
		}
		fmt.Fprintf(stdout, "  %s  %-12s %-9s +%d -%d  %v  changeset %s\n", review.Printable(p.ID), review.Printable(p.Agent), review.Printable(string(p.State)), p.Added, p.Removed, files, review.Printable(p.Changeset))
	}
	return 0
}
