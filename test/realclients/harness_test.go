// Package realclients drives the real agent clients — Gemini CLI's
// IdeClient and CLI, the claude CLI, the cline CLI, MCP Inspector — against the desk's
// doors. The clients are npm packages at pinned versions that
// scripts/realclients-install.sh puts in a cache directory; without them
// every test skips, saying so. scripts/realclients.sh installs and runs.
package realclients

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/ide"
	"github.com/diffdesk/diffdesk/review/journal"
)

// deskctlBin is the deskctl binary TestMain's directory holds once a test
// has asked for it (buildDeskctl), for the hooks and MCP bridge the agents
// start; built only when a real client is there to use it.
var (
	deskctlDir   string
	deskctlBin   string
	deskctlOnce  sync.Once
	deskctlBuild error
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "realclients")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	deskctlDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// buildDeskctl builds deskctl (CGO_ENABLED=0) the first time it is asked.
func buildDeskctl(t *testing.T) {
	t.Helper()
	deskctlOnce.Do(func() {
		_, here, _, _ := runtime.Caller(0)
		bin := filepath.Join(deskctlDir, "deskctl")
		build := exec.Command("go", "build", "-o", bin, "./cmd/deskctl")
		build.Dir = filepath.Join(filepath.Dir(here), "..", "..")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			deskctlBuild = fmt.Errorf("building deskctl: %v\n%s", err, out)
			return
		}
		deskctlBin = bin
	})
	if deskctlBuild != nil {
		t.Fatal(deskctlBuild)
	}
}

// clients returns the directory holding the installed npm packages
// ($DIFFDESK_REALCLIENTS), or skips the test when it is unset or the package
// is absent, so the plain Go suite stays fast.
func clients(t *testing.T, pkg string) string {
	t.Helper()
	dir := os.Getenv("DIFFDESK_REALCLIENTS")
	if dir == "" {
		t.Skip("real-client tests run only with DIFFDESK_REALCLIENTS set to the installed clients; scripts/realclients.sh sets it")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", pkg, "package.json")); err != nil {
		t.Skipf("real client %s is not installed in %s; run scripts/realclients.sh (or scripts/realclients-install.sh)", pkg, dir)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed; the real clients need Node 20 or later")
	}
	buildDeskctl(t)
	return dir
}

// person decides a proposal the way the person at the window would.
type person func(p review.Proposal) review.Decision

func approve() person {
	return func(review.Proposal) review.Decision { return review.Decision{Verdict: decision.Approved} }
}

func approveAs(text string) person {
	return func(p review.Proposal) review.Decision {
		return review.Decision{Verdict: decision.ApprovedEdited, Edited: map[string]string{p.Files[0].Path: text}}
	}
}

func reject(why string) person {
	return func(review.Proposal) review.Decision {
		return review.Decision{Verdict: decision.Rejected, Feedback: why}
	}
}

// byFile decides each proposal by its file's base name; a file not listed
// is left waiting.
func byFile(m map[string]person) person {
	return func(p review.Proposal) review.Decision {
		if d, ok := m[filepath.Base(p.Files[0].Path)]; ok {
			return d(p)
		}
		return review.Decision{}
	}
}

// env is an isolated home for one agent run: HOME, config dirs and
// TMPDIR inside the test's temporary directory.
type env struct {
	home, tmp string
	vars      []string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	home := t.TempDir()
	tmp := filepath.Join(home, "tmp")
	os.MkdirAll(tmp, 0o700)
	e := &env{home: home, tmp: tmp}
	e.vars = []string{
		"HOME=" + home, "TMPDIR=" + tmp, "CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude"),
		"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "LANG=C.UTF-8",
		"REMOTE_CONTAINERS=1", // in a container the Gemini CLI would dial host.docker.internal
		"DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1", "DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "NO_COLOR=1",
	}
	t.Cleanup(func() { killLeftOver(home) })
	return e
}

// killLeftOver ends the processes started under an env that outlived its
// test — Cline's CLI leaves its hub daemon running, detached — found by
// the env's own HOME, before the env's folder is removed.
func killLeftOver(home string) {
	procs, _ := os.ReadDir("/proc")
	for _, d := range procs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", d.Name(), "environ"))
		if err == nil && slices.Contains(strings.Split(string(env), "\x00"), "HOME="+home) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// desk is an in-process desk, as `deskctl serve` runs it: native socket
// and IDE doors, with decisions made by a person function.
type desk struct {
	*review.Desk
	root, sock string
	doors      *ide.Doors
	decided    chan review.Outcome // every outcome, in order
	journal    *journal.Journal
}

// startDesk serves a desk over a fresh workspace; its door files go into
// e's home and temporary directory, where the agents look for them.
func startDesk(t *testing.T, e *env, who person) *desk {
	t.Helper()
	root := filepath.Join(e.home, "proj")
	os.MkdirAll(root, 0o755)
	dir, err := os.MkdirTemp("", "dd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	j, err := journal.Open(context.Background(), filepath.Join(dir, "j.db"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := review.NewDesk(review.Options{FailureText: agenttext.Failure, Roots: []string{root}, Config: config.Default(), Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	dk := &desk{Desk: d, root: d.Roots()[0], sock: filepath.Join(dir, "desk.sock"), decided: make(chan review.Outcome, 64), journal: j}
	events := make(chan review.Event, 256)
	cancelSub := d.Subscribe(func(ev review.Event) {
		if ev.Kind == review.EventPending || ev.Kind == review.EventDecided {
			events <- ev
		}
	})
	l, err := deskrpc.Listen(dk.sock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	// Ends when the cleanup cancels ctx.
	go func() { served <- deskrpc.NewServer(d).Serve(ctx, l) }()
	dk.doors, err = ide.Start(ctx, d, ide.Options{
		Doors:         config.Doors{Claude: true, Gemini: true},
		ClaudeLockDir: filepath.Join(e.home, ".claude", "ide"),
		GeminiDir:     filepath.Join(e.tmp, "gemini", "ide"),
	})
	if err != nil {
		t.Fatal(err)
	}
	// Ends when the cleanup closes events.
	handled := make(chan struct{})
	go func() {
		defer close(handled)
		for ev := range events {
			switch ev.Kind {
			case review.EventPending:
				p, ok := d.Get(ev.ID)
				if !ok {
					continue
				}
				if dec := who(p); dec.Verdict != "" {
					t.Logf("the person decides %s on %s", dec.Verdict, p.Files[0].Path)
					if _, err := d.Decide(ctx, ev.ID, dec); err != nil {
						t.Errorf("Decide(%s): %v", ev.ID, err)
					}
				}
			case review.EventDecided:
				if o, ok := d.Outcome(ev.ID); ok {
					dk.decided <- o
				}
			}
		}
	}()
	t.Cleanup(func() {
		dk.doors.Close()
		cancel()
		<-served
		cancelSub()
		close(events)
		<-handled
		d.Close()
		j.Close()
	})
	return dk
}

// writeFile writes content to the workspace file name and returns its path.
func (dk *desk) writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(dk.root, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// outcome waits for the next outcome the desk reports.
func (dk *desk) outcome(t *testing.T, timeout time.Duration) review.Outcome {
	t.Helper()
	select {
	case o := <-dk.decided:
		return o
	case <-time.After(timeout):
		t.Fatalf("no outcome within %s", timeout)
		return review.Outcome{}
	}
}

// checkToldPatch checks that the model heard of the person's edits after
// the tool call: a model request holds a line the person's patch adds.
func checkToldPatch(t *testing.T, api *fakeModel, o review.Outcome) {
	t.Helper()
	if len(o.Files) == 0 || o.Files[0].UserEdits == "" {
		t.Fatalf("outcome %s has no patch of the person's", o.Status)
	}
	line := ""
	for _, l := range strings.Split(o.Files[0].UserEdits, "\n") {
		if strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++") {
			line = l
			break
		}
	}
	if line == "" {
		t.Fatalf("the person's patch adds no line:\n%s", o.Files[0].UserEdits)
	}
	if !api.toldAfterToolCall(line) {
		reqs := api.afterToolCall()
		told := ""
		if len(reqs) > 0 {
			told = reqs[len(reqs)-1]
			i := max(strings.LastIndex(told, `"tool_result"`), strings.LastIndex(told, `"functionResponse"`), 0)
			told = told[i:min(len(told), i+2000)]
		}
		t.Errorf("no model request after the tool call holds the person's patch line %q; %d requests, the last telling the result:\n%s", line, len(reqs), told)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// run runs a command with e's environment in dir, giving up after timeout.
func run(t *testing.T, e *env, dir string, timeout time.Duration, name string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = e.vars
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	return out.String(), errb.String(), err
}
