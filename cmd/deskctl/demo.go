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
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/deskrpc"
)

// demoOptions configures `deskctl demo`.
type demoOptions struct {
	socket string
	dir    string        // the project directory; "" = <first root>/diffdesk-demo
	pause  time.Duration // between streamed chunks and between proposals; 0 with --fast
}

var demoCmd = &command{
	name:  "demo",
	usage: "[flags]",
	short: "a scripted agent session against the running desk",
	long: `A scripted agent session against the running desk, the first thing a newcomer runs: a
streamed new file, SEARCH/REPLACE edits, a failing block, a big file, a stale edit — proposed
concurrently, as agents would, each waiting for the person.`,
	flags: func(fl *flag.FlagSet) runFunc {
		socket := socketFlag(fl)
		dir := fl.String("dir", "", "where to create the demo project, inside one of the desk's workspaces (default: <first workspace>/diffdesk-demo)")
		fast := fl.Bool("fast", false, "no pauses (for tests and scripts)")
		return func(ctx context.Context, x *invocation) int {
			o := demoOptions{socket: *socket, dir: *dir, pause: 120 * time.Millisecond}
			if *fast {
				o.pause = 0
			}
			return runDemo(ctx, x, o)
		}
	},
}

// runDemo implements `deskctl demo`.
func runDemo(ctx context.Context, x *invocation, o demoOptions) int {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := demo(ctx, o, x.stdout); err != nil {
		return x.fail(err)
	}
	return 0
}

// demoStep is one proposal of the scripted session.
type demoStep struct {
	agent, session string
	format         engine.Format
	path           string // relative to the project
	payload        string
	chunks         int    // > 1: streamed in this many chunks
	readSHA256     string // the content the agent read, when it says
}

// demo creates the project and runs the scripted session: every proposal
// concurrently, as agents would, each waiting for its outcome.
func demo(ctx context.Context, o demoOptions, stdout io.Writer) error {
	cl, err := deskrpc.Dial(o.socket)
	if err != nil {
		return err
	}
	defer cl.Close()
	var hello struct{ Roots []string }
	if err := cl.Call(ctx, "hello", map[string]any{"protocol": deskrpc.ProtocolVersion, "agent": "demo"}, &hello); err != nil {
		return err
	}
	if o.dir == "" {
		if len(hello.Roots) == 0 {
			return errors.New("the desk serves no workspace")
		}
		o.dir = filepath.Join(hello.Roots[0], "diffdesk-demo")
	}
	if o.dir, err = filepath.Abs(o.dir); err != nil {
		return err
	}
	if err := writeDemoProject(o.dir); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "demo project in %s\n", o.dir)

	// The aider step's agent read config.go, then the person changed it
	// in their editor: the proposal is stale from the start.
	readSHA := atomicfile.Hash([]byte(demoConfig))
	if err := os.WriteFile(filepath.Join(o.dir, "config.go"), []byte(demoConfigByPerson), 0o644); err != nil {
		return err
	}
	steps := []demoStep{
		{agent: "claude-code", session: "add-logging", format: engine.FormatWrite, path: "middleware.go", payload: demoMiddleware, chunks: 40},
		{agent: "claude-code", session: "add-logging", format: engine.FormatSearchReplace, path: "main.go", payload: demoMainEdit},
		{agent: "claude-code", session: "add-logging", format: engine.FormatSearchReplace, path: "store/store.go", payload: demoStoreEdit},
		{agent: "gemini-cli", session: "docs", format: engine.FormatSearchReplace, path: "README.md", payload: demoReadmeEdit},
		{agent: "gemini-cli", session: "catalog-prices", format: engine.FormatSearchReplace, path: "catalog/catalog.go", payload: demoCatalogEdit()},
		{agent: "aider", session: "timeouts", format: engine.FormatEdit, path: "config.go", payload: demoConfigEdit, readSHA256: readSHA},
	}
	fmt.Fprintf(stdout, "sending %d proposals; decide them in the DiffDesk window\n", len(steps))
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	for _, s := range steps {
		wg.Add(1)
		// Each agent's goroutine ends when its proposal has an outcome
		// (or the desk goes away).
		go func() {
			defer wg.Done()
			res, err := demoPropose(ctx, cl, o, s)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				fmt.Fprintf(stdout, "  %-16s %s: %v\n", "error", s.path, err)
				if first == nil {
					first = err
				}
				return
			}
			fmt.Fprintf(stdout, "  %-16s %s%s\n", res.Outcome.Status, s.path, demoSummary(res.Outcome))
		}()
		// Agents start their edits a moment apart (they arrive in order).
		if err := sleepCtx(ctx, 3*o.pause); err != nil {
			break
		}
	}
	wg.Wait()
	return first
}

// demoPropose sends one step and waits for its outcome.
func demoPropose(ctx context.Context, cl *deskrpc.Client, o demoOptions, s demoStep) (proposeResult, error) {
	req := review.Request{Agent: s.agent, Session: s.session, Format: s.format, Path: s.path, Dir: o.dir, ReadSHA256: s.readSHA256}
	var res proposeResult
	if s.chunks <= 1 {
		req.Payload = s.payload
		err := cl.Call(ctx, "propose", struct {
			review.Request
			Wait bool `json:"wait"`
		}{req, true}, &res)
		if err == nil && res.Outcome == nil {
			err = fmt.Errorf("the desk answered without an outcome (state %s)", res.State)
		}
		return res, err
	}
	req.Stream = true
	if err := cl.Call(ctx, "propose", req, &res); err != nil {
		return res, err
	}
	res, err := stream(ctx, cl, res.ID, chunks(s.payload, s.chunks), func() error { return sleepCtx(ctx, o.pause) }, finalChanged)
	if err == nil && res.Outcome == nil {
		err = fmt.Errorf("the desk answered without an outcome (state %s)", res.State)
	}
	return res, err
}

// demoSummary is the rest of an outcome's line: what changed, the reason,
// or the first line of the failure.
func demoSummary(o *review.Outcome) string {
	var parts []string
	for _, f := range o.Files {
		switch {
		case o.Status == decision.Partial && len(f.Hunks) > 0:
			// Hunks left unticked are not an edit of the person's.
			kept := 0
			for _, h := range f.Hunks {
				if h.Accepted {
					kept++
				}
			}
			parts = append(parts, fmt.Sprintf("%d of %d hunks", kept, len(f.Hunks)))
		case f.UserEdits != "":
			parts = append(parts, "edited by the person")
		}
		if f.AutoFormatEdits != "" {
			parts = append(parts, "reformatted")
		}
	}
	if o.Feedback != "" {
		parts = append(parts, "reason: "+firstLine(o.Feedback))
	}
	if o.Error != "" {
		parts = append(parts, firstLine(o.Error))
	}
	if len(parts) == 0 {
		return ""
	}
	return " — " + strings.Join(parts, "; ")
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// writeDemoProject writes the demo project's files into dir, replacing
// those of an earlier run.
func writeDemoProject(dir string) error {
	files := map[string]string{
		"go.mod":             demoGoMod,
		"main.go":            demoMain,
		"config.go":          demoConfig,
		"store/store.go":     demoStore,
		"README.md":          demoReadme,
		"catalog/catalog.go": demoCatalog(),
	}
	// A new file from an earlier run would make the write a replacement.
	os.Remove(filepath.Join(dir, "middleware.go"))
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// sleepCtx sleeps for d, or less if ctx ends first.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
