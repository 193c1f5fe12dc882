package realclients

import (
	"encoding/json"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review"
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
	statuses := map[review.Status]int{}
	for range 3 {
		statuses[dk.outcome(t, 10*time.Second).Status]++
	}
	if statuses[review.StatusApproved] != 1 || statuses[review.StatusApprovedEdited] != 1 || statuses[review.StatusRejected] != 1 {
		t.Errorf("outcomes %v; want one approved, one approved-edited, one rejected", statuses)
	}
}
