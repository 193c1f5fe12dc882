package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/journal"
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

// runPropose implements `deskctl propose`: send an edit to the running
// desk, wait for the person's decision, print the outcome.
func runPropose(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("deskctl propose", flag.ContinueOnError)
	fl.SetOutput(stderr)
	format := fl.String("format", "", "edit format: write, search-replace, edit, multi-edit, smart-edit, patch")
	file := fl.String("file", "", "the file to edit (for patch: ignored; paths are relative to the current directory)")
	editFile := fl.String("edit", "", "read the edit payload from this file instead of standard input")
	agent := fl.String("agent", "deskctl", "the agent name the desk shows")
	session := fl.String("session", "", "the agent's session id")
	socket := fl.String("socket", deskrpc.DefaultSocketPath(), "the desk's socket")
	stream := fl.Int("stream", 0, "send the edit in N chunks, as a streaming agent would")
	asJSON := fl.Bool("json", false, "print the outcome as JSON")
	if err := parseFlags(fl, args); err != nil {
		return 2
	}
	if *format == "" || (*file == "" && engine.Format(*format) != engine.FormatPatch) {
		fmt.Fprintln(stderr, "deskctl propose: --format and --file are required (see deskctl help)")
		return 2
	}
	payload, err := readPayload(*editFile, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "deskctl propose: %v\n", err)
		return exitError
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cl, err := deskrpc.Dial(*socket)
	if err != nil {
		fmt.Fprintf(stderr, "deskctl propose: %v\n", err)
		return exitError
	}
	defer cl.Close()
	dir, _ := os.Getwd()
	path := *file
	if path != "" && !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	req := review.Request{Agent: *agent, Session: *session, Format: engine.Format(*format), Path: path, Dir: dir}
	res, err := propose(ctx, cl, req, payload, *stream)
	if err != nil {
		fmt.Fprintf(stderr, "deskctl propose: %v\n", err)
		return exitError
	}
	return printOutcome(res, *asJSON, stdout, stderr)
}

// propose sends req with payload, whole or in n chunks, and waits for the outcome.
func propose(ctx context.Context, cl *deskrpc.Client, req review.Request, payload string, n int) (proposeResult, error) {
	var res proposeResult
	if n <= 1 {
		req.Payload = payload
		err := cl.Call(ctx, "propose", struct {
			review.Request
			Wait bool `json:"wait"`
		}{req, true}, &res)
		return res, err
	}
	req.Stream = true
	if err := cl.Call(ctx, "propose", req, &res); err != nil {
		return res, err
	}
	for _, c := range chunks(payload, n) {
		if err := cl.Notify("chunk", map[string]string{"id": res.ID, "data": c}); err != nil {
			return res, err
		}
	}
	err := cl.Call(ctx, "finish", map[string]any{"id": res.ID, "wait": true}, &res)
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
		io.WriteString(stdout, res.Text)
	}
	switch {
	case res.Outcome.Status.Wrote():
		return exitApproved
	case res.Outcome.Status == journal.Rejected, res.Outcome.Status == journal.Withdrawn:
		return exitRejected
	}
	return exitError
}

// runStatus implements `deskctl status`.
func runStatus(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("deskctl status", flag.ContinueOnError)
	fl.SetOutput(stderr)
	socket := fl.String("socket", deskrpc.DefaultSocketPath(), "the desk's socket")
	asJSON := fl.Bool("json", false, "print JSON")
	if err := parseFlags(fl, args); err != nil {
		return 2
	}
	cl, err := deskrpc.Dial(*socket)
	if err != nil {
		if errors.Is(err, deskrpc.ErrNoDesk) {
			fmt.Fprintf(stdout, "no desk running (%v)\n", err)
			return exitError
		}
		fmt.Fprintf(stderr, "deskctl status: %v\n", err)
		return exitError
	}
	defer cl.Close()
	var st struct {
		Roots     []string `json:"roots"`
		Waiting   int      `json:"waiting"`
		Proposals []struct {
			ID, Agent, State string
			Files            []string
			Added, Removed   int
		} `json:"proposals"`
		Doors []review.DoorStatus `json:"doors"`
	}
	if err := cl.Call(context.Background(), "status", struct{}{}, &st); err != nil {
		fmt.Fprintf(stderr, "deskctl status: %v\n", err)
		return exitError
	}
	if *asJSON {
		writeJSON(stdout, st)
		return 0
	}
	fmt.Fprintf(stdout, "desk running at %s\nworkspaces: %v\n", *socket, st.Roots)
	for _, d := range st.Doors {
		fmt.Fprintf(stdout, "%s door on %s: %d agent(s) connected, %d review(s) open\n  connect: %s\n", d.Name, d.Addr, d.Ready, d.Pending, d.Connect)
	}
	fmt.Fprintf(stdout, "%d proposal(s) waiting\n", st.Waiting)
	for _, p := range st.Proposals {
		fmt.Fprintf(stdout, "  %s  %-12s %-9s +%d -%d  %v\n", p.ID, p.Agent, p.State, p.Added, p.Removed, p.Files)
	}
	return 0
}
