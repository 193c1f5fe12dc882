package realclients

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review/decision"
)

// TestGeminiIdeClient connects Gemini CLI's own IdeClient through the
// discovery file and opens three diffs: accepted, accepted with the
// person's text, rejected.
func TestGeminiIdeClient(t *testing.T) {
	dir := clients(t, "@google/gemini-cli-core")
	e := newEnv(t)
	dk := startDesk(t, e, byFile(map[string]person{
		"a.txt": approve(), "b.txt": approveAs("b by a person\n"), "c.txt": reject("not this"),
	}))
	a, b, c := dk.writeFile(t, "a.txt", "a\n"), dk.writeFile(t, "b.txt", "b\n"), dk.writeFile(t, "c.txt", "c\n")
	_, here, _, _ := runtime.Caller(0)
	e.vars = append(e.vars, "GEMINI_CORE="+filepath.Join(dir, "node_modules/@google/gemini-cli-core/dist/index.js"))
	out, errOut, err := run(t, e, dk.root, 60*time.Second, "node", filepath.Join(filepath.Dir(here), "testdata", "ideclient.mjs"),
		a+"=A\n", b+"=B\n", c+"=C\n")
	if err != nil {
		t.Fatalf("ideclient.mjs: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil {
			lines = append(lines, m)
		}
	}
	want := []map[string]any{
		{"status": "connected", "diffing": true},
		{"file": a, "status": "accepted", "content": "A\n"},
		{"file": b, "status": "accepted", "content": "b by a person\n"},
		{"file": c, "status": "rejected"},
	}
	if len(lines) != len(want) {
		t.Fatalf("ideclient.mjs printed %d results; want %d\nstdout:\n%s\nstderr:\n%s", len(lines), len(want), out, errOut)
	}
	for i, w := range want {
		for k, v := range w {
			if lines[i][k] != v {
				t.Errorf("result %d: %s = %v; want %v (line %v)", i, k, lines[i][k], v, lines[i])
			}
		}
	}
	for _, f := range []string{a, b, c} {
		if got := readFile(t, f); len(got) != 2 || got[0] < 'a' {
			t.Errorf("%s = %q; the desk must not write it (the agent does)", f, got)
		}
	}
	statuses := map[decision.Verdict]int{}
	for range 3 {
		statuses[dk.outcome(t, 10*time.Second).Status]++
	}
	if statuses[decision.Approved] != 1 || statuses[decision.ApprovedEdited] != 1 || statuses[decision.Rejected] != 1 {
		t.Errorf("outcomes %v; want one approved, one approved-edited, one rejected", statuses)
	}
}

// TestGeminiIdeClientWithDeskctlServe: the IdeClient finds a real
// `deskctl serve --decide approve` through its discovery file, and the
// lock and discovery files go when serve stops.
func TestGeminiIdeClientWithDeskctlServe(t *testing.T) {
	dir := clients(t, "@google/gemini-cli-core")
	e := newEnv(t)
	root := filepath.Join(e.home, "proj")
	os.MkdirAll(root, 0o755)
	target := filepath.Join(root, "a.txt")
	os.WriteFile(target, []byte("a\n"), 0o644)
	sockDir, err := os.MkdirTemp("", "dd")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(sockDir)
	serve := exec.Command(deskctlBin, "serve", "--workspace", root, "--decide", "approve", "--socket", filepath.Join(sockDir, "desk.sock"),
		"--journal", filepath.Join(e.home, "j.db"), "--config", filepath.Join(e.home, "none.toml"))
	serve.Env = e.vars
	var out strings.Builder
	serve.Stdout, serve.Stderr = &out, &out
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	// Ends when serve exits (the interrupt below, or a failure).
	go func() { exited <- serve.Wait() }()
	defer func() {
		serve.Process.Signal(os.Interrupt)
		<-exited
	}()
	files := func() []string {
		a, _ := filepath.Glob(filepath.Join(e.tmp, "gemini", "ide", "gemini-ide-server-*.json"))
		b, _ := filepath.Glob(filepath.Join(e.home, ".claude", "ide", "*.lock"))
		return append(a, b...)
	}
	eventually(t, 30*time.Second, "deskctl serve writing its door files", func() bool { return len(files()) == 2 })
	_, here, _, _ := runtime.Caller(0)
	e.vars = append(e.vars, "GEMINI_CORE="+filepath.Join(dir, "node_modules/@google/gemini-cli-core/dist/index.js"))
	stdout, stderr, err := run(t, e, root, 60*time.Second, "node", filepath.Join(filepath.Dir(here), "testdata", "ideclient.mjs"), target+"=A\n")
	if err != nil || !strings.Contains(stdout, `"status":"accepted","content":"A\n"`) {
		t.Fatalf("ideclient.mjs = %v\n%s\n%s\nserve said:\n%s", err, stdout, stderr, out.String())
	}
	serve.Process.Signal(os.Interrupt)
	if err := <-exited; err != nil {
		t.Errorf("deskctl serve: %v\n%s", err, out.String())
	}
	exited <- nil
	if left := files(); len(left) != 0 {
		t.Errorf("door files left after serve stopped: %v", left)
	}
}
