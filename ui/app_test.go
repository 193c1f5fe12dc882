package ui

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/startup"
)

// e2e is the whole app without GL: startup.Start (the desk, the journal and
// the native socket, as diffdesk starts them) and the real main window from
// NewWindow, with an agent proposing over a real socket connection.
type e2e struct {
	*harness
	backend *startup.Backend
	agent   *deskrpc.Client
}

func newE2E(t *testing.T) *e2e { t.Helper(); return newE2EWithConfig(t, "") }

// newE2EWithConfig is newE2E with a user config file holding configTOML.
func newE2EWithConfig(t *testing.T, configTOML string) *e2e {
	t.Helper()
	dir, err := os.MkdirTemp("", "dde2e") // short: a socket path has a length limit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	// The front doors write lock and discovery files: keep them here.
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(dir, "claude"))
	t.Setenv("TMPDIR", dir)
	root := filepath.Join(dir, "ws")
	os.Mkdir(root, 0o755)
	if configTOML != "" {
		os.WriteFile(filepath.Join(dir, "none.toml"), []byte(configTOML), 0o644)
	}
	b, err := startup.Start(startup.Options{Roots: []string{root}, Socket: filepath.Join(dir, "desk.sock"),
		Journal: filepath.Join(dir, "journal.db"), Config: filepath.Join(dir, "none.toml")})
	if err != nil {
		t.Fatal(err)
	}
	var cl *deskrpc.Client
	t.Cleanup(func() { // after the window's (cleanups run last first)
		if cl != nil {
			cl.Close()
		}
		if err := b.Stop(); err != nil {
			t.Errorf("Stop: %v", err)
		}
		if _, err := os.Stat(b.Socket); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the socket is left behind after Stop")
		}
	})
	h := newBareHarness(t)
	h.root, h.desk = b.Desk.Roots()[0], b.Desk
	h.openWindow(b.Desk, WindowOptions{Socket: b.Socket})
	if err := b.Serve(); err != nil {
		t.Fatal(err)
	}
	if cl, err = deskrpc.Dial(b.Socket); err != nil {
		t.Fatal(err)
	}
	return &e2e{harness: h, backend: b, agent: cl}
}

// agentResult is what the agent's blocking propose call returned.
type agentResult struct {
	res struct {
		ID      string
		Outcome *review.Outcome
	}
	err error
}

// proposeOverSocket sends a proposal as an agent does (propose with wait)
// and returns the channel its answer arrives on, once the window shows it.
func (e *e2e) proposeOverSocket(format engine.Format, rel, payload string) (string, <-chan agentResult) {
	e.t.Helper()
	before := len(e.desk.List())
	ch := make(chan agentResult, 1)
	// The agent's goroutine ends when the desk answers (or the test's
	// cleanup closes the connection).
	go func() {
		var r agentResult
		r.err = e.agent.Call(context.Background(), "propose", map[string]any{
			"agent": "claude-code", "session": "e2e", "format": format, "path": rel, "payload": payload, "wait": true,
		}, &r.res)
		ch <- r
	}()
	var id string
	e.until("the window shows the proposal", func() bool {
		ps := e.desk.List()
		if len(ps) <= before {
			return false
		}
		id = ps[len(ps)-1].ID
		return e.InQueue(id)
	})
	e.win.Select(id)
	return id, ch
}

// answer waits for the agent's answer, running UI work meanwhile.
func (e *e2e) answer(ch <-chan agentResult) agentResult {
	e.t.Helper()
	var r agentResult
	got := false
	e.until("the agent gets its outcome", func() bool {
		select {
		case r = <-ch:
			got = true
		default:
		}
		return got
	})
	if r.err != nil {
		e.t.Fatalf("the agent's propose failed: %v", r.err)
	}
	if r.res.Outcome == nil {
		e.t.Fatal("the agent got no outcome")
	}
	return r
}

func TestEndToEndApprove(t *testing.T) {
	e := newE2E(t)
	e.write("app.go", "package app\n\nconst version = 1\n")
	_, ch := e.proposeOverSocket(engine.FormatSearchReplace, "app.go", srBlock("const version = 1\n", "const version = 2\n"))
	// The title says what waits, and which workspace the desk serves.
	if want := "DiffDesk — 1 waiting · " + e.root; e.Title() != want {
		t.Errorf("title %q; want %q", e.Title(), want)
	}
	e.Bar().Approve()
	r := e.answer(ch)
	if r.res.Outcome.Status != decision.Approved || e.read("app.go") != "package app\n\nconst version = 2\n" {
		t.Errorf("approve: agent told %s, file %q", r.res.Outcome.Status, e.read("app.go"))
	}
}

func TestEndToEndEditThenApprove(t *testing.T) {
	e := newE2E(t)
	e.write("app.go", "package app\n\nconst version = 1\n")
	_, ch := e.proposeOverSocket(engine.FormatSearchReplace, "app.go", srBlock("const version = 1\n", "const version = 2\n"))
	e.Bar().Click("Edit")
	ed := e.win.View().Editor()
	if ed == nil {
		t.Fatal("Edit did not make the right side editable")
	}
	if e.Bar().State("Approve edited (a)") != "on" {
		t.Fatalf("bar in edit mode %q; want Approve edited", e.Bar().Buttons())
	}
	ed.SetCursor(2, len("const version = 2"))
	test.Type(ed, " // bumped by hand")
	e.Bar().Click("Approve edited")
	r := e.answer(ch)
	want := "package app\n\nconst version = 2 // bumped by hand\n"
	if e.read("app.go") != want {
		t.Errorf("file = %q; want the typed text %q", e.read("app.go"), want)
	}
	o := r.res.Outcome
	if o.Status != decision.ApprovedEdited || len(o.Files) != 1 || !strings.Contains(o.Files[0].UserEdits, "bumped by hand") {
		t.Errorf("agent told %s with files %+v; want approved-edited with the person's change", o.Status, o.Files)
	}
}

func TestEndToEndRejectWithReason(t *testing.T) {
	e := newE2E(t)
	e.write("app.go", "package app\n")
	_, ch := e.proposeOverSocket(engine.FormatWrite, "app.go", "package application\n")
	e.Bar().Click("Reject")
	e.RejectBox().Type("keep the package name")
	e.RejectBox().Send()
	r := e.answer(ch)
	if r.res.Outcome.Status != decision.Rejected || r.res.Outcome.Feedback != "keep the package name" {
		t.Errorf("agent told %s, feedback %q", r.res.Outcome.Status, r.res.Outcome.Feedback)
	}
	if e.read("app.go") != "package app\n" {
		t.Errorf("a rejected proposal changed the file: %q", e.read("app.go"))
	}
}

func TestEndToEndApproveSomeHunks(t *testing.T) { testApproveSomeHunks(t, false) }

// TestEndToEndApproveKeyHonoursUntickedHunks: a, like the button, writes
// what the screen shows: with a hunk unticked, only the ticked ones.
func TestEndToEndApproveKeyHonoursUntickedHunks(t *testing.T) { testApproveSomeHunks(t, true) }

func testApproveSomeHunks(t *testing.T, byKey bool) {
	e := newE2E(t)
	var base, proposed strings.Builder
	for i := range 40 {
		base.WriteString("line " + string(rune('a'+i%26)) + "\n")
	}
	b := base.String()
	p := strings.Replace(strings.Replace(b, "line b\n", "line B\n", 1), "line x\n", "line X\n", 1)
	proposed.WriteString(p)
	e.write("list.txt", b)
	_, ch := e.proposeOverSocket(engine.FormatWrite, "list.txt", proposed.String())
	v := e.win.View()
	hs := v.Hunks()
	if len(hs) != 2 {
		t.Fatalf("the view shows %d hunks; want 2", len(hs))
	}
	if e.Bar().State("Approve selected hunks") != "off" {
		t.Error("Approve selected hunks is enabled before any hunk was rejected")
	}
	v.ToggleHunk(1) // a tap in the gutter: keep b→B, drop x→X
	if e.Bar().State("Approve selected hunks") != "on" {
		t.Fatal("Approve selected hunks stays disabled after a hunk was rejected")
	}
	if byKey {
		e.win.Approve()
	} else {
		e.Bar().Click("Approve selected hunks")
	}
	r := e.answer(ch)
	want := strings.Replace(b, "line b\n", "line B\n", 1)
	if r.res.Outcome.Status != decision.Partial || e.read("list.txt") != want {
		t.Errorf("partial: agent told %s, file %q", r.res.Outcome.Status, e.read("list.txt"))
	}
	var verdicts []string
	for _, h := range r.res.Outcome.Files[0].Hunks {
		verdicts = append(verdicts, map[bool]string{true: "accepted", false: "rejected"}[h.Accepted])
	}
	if strings.Join(verdicts, ",") != "accepted,rejected" {
		t.Errorf("hunk verdicts %v; want accepted,rejected", verdicts)
	}
}

func TestEndToEndStreamGrowsThenApproves(t *testing.T) {
	e := newE2E(t)
	var res struct{ ID string }
	if err := e.agent.Call(context.Background(), "propose", map[string]any{"agent": "claude-code", "format": "write", "path": "new.go", "stream": true}, &res); err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		e.agent.Notify("chunk", map[string]string{"id": res.ID, "data": "// line " + strings.Repeat("x", i%30) + "\n"})
	}
	e.until("the stream reaches the window", func() bool {
		p, ok := e.Queued(res.ID)
		return ok && p.State == review.StateStreaming && p.Files[0].Growing.End >= 199
	})
	if e.Bar().State("Approve (a)") != "off" {
		t.Error("Approve is enabled while the proposal streams")
	}
	ch := make(chan agentResult, 1)
	go func() {
		var r agentResult
		r.err = e.agent.Call(context.Background(), "finish", map[string]any{"id": res.ID, "wait": true}, &r.res)
		ch <- r
	}()
	e.until("the stream ends", func() bool { return e.ShownState() == review.StatePending })
	e.Bar().Approve()
	e.ApproveAnywayIfAsked() // 200 new lines, one screen of them shown
	r := e.answer(ch)
	if r.res.Outcome.Status != decision.Approved || strings.Count(e.read("new.go"), "\n") != 200 {
		t.Errorf("streamed proposal: agent told %s, file has %d lines", r.res.Outcome.Status, strings.Count(e.read("new.go"), "\n"))
	}
}

func TestEndToEndExternalEditor(t *testing.T) {
	e := newE2E(t)
	e.write("notes.md", "# notes\n")
	_, ch := e.proposeOverSocket(engine.FormatWrite, "notes.md", "# Notes\n")
	// An "editor" that saves twice and exits, as a person would.
	e.SetEditor([]string{"sh", "-c", `printf '# Notes\n\ndraft\n' > "$1"; printf '# Notes\n\nfinal\n' > "$1"`, "editor"})
	e.Bar().Click("External editor")
	e.until("the editor's text is taken", func() bool {
		s, ok := e.Edited()
		return !e.ExternalEditorOpen() && ok && s == "# Notes\n\nfinal\n"
	})
	if filepath.Ext(e.ShownFile()) != ".md" {
		t.Errorf("edited file %s", e.ShownFile())
	}
	e.win.Approve()
	r := e.answer(ch)
	if r.res.Outcome.Status != decision.ApprovedEdited || e.read("notes.md") != "# Notes\n\nfinal\n" {
		t.Errorf("external edit: agent told %s, file %q", r.res.Outcome.Status, e.read("notes.md"))
	}
}

func TestSecondDeskOnTheSocketIsAClearError(t *testing.T) {
	e := newE2E(t)
	_, err := startup.Start(startup.Options{Roots: []string{e.root}, Socket: e.backend.Socket,
		Journal: filepath.Join(t.TempDir(), "j.db"), Config: filepath.Join(t.TempDir(), "none.toml")})
	if !errors.Is(err, deskrpc.ErrDeskRunning) || !strings.Contains(err.Error(), "already running") {
		t.Errorf("second startup.Start = %v; want ErrDeskRunning with a clear message", err)
	}
}

func TestEndToEndShowsTheFormattersChange(t *testing.T) {
	e := newE2EWithConfig(t, "[[formatter]]\nglob = \"*.txt\"\ncommand = [\"tr\", \"a-z\", \"A-Z\"]\n")
	e.write("shout.txt", "hello\n")
	_, ch := e.proposeOverSocket(engine.FormatWrite, "shout.txt", "hello world\n")
	e.Bar().Approve()
	r := e.answer(ch)
	if e.read("shout.txt") != "HELLO WORLD\n" || r.res.Outcome.Files[0].AutoFormatEdits == "" {
		t.Fatalf("formatter: file %q, outcome %+v", e.read("shout.txt"), r.res.Outcome.Files)
	}
	e.until("the window shows the outcome", e.Decided)
	if !strings.HasPrefix(e.Diff().Shows(), "format:") || !strings.Contains(e.Header(), "formatter changed") || !strings.Contains(e.Status(), "formatter changed") {
		t.Errorf("after a formatted write: view shows %q, header %q, status %q; want the formatter's change", e.Diff().Shows(), e.Header(), e.Status())
	}
}
