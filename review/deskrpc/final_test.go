package deskrpc

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// finalFiles decodes the files of an answer's outcome as the wire has
// them: whether finalContent is there at all, and the rest.
func finalFiles(t *testing.T, raw json.RawMessage) []map[string]any {
	t.Helper()
	var res struct {
		Outcome struct {
			Files []map[string]any `json:"files"`
		} `json:"outcome"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	return res.Outcome.Files
}

// pendingID waits for the proposal an agent's call (done) made to wait.
func pendingID(t *testing.T, d *review.Desk, done <-chan error, answer *json.RawMessage) review.Proposal {
	t.Helper()
	for {
		for _, p := range d.List() {
			if p.State == review.StatePending {
				return p
			}
		}
		select {
		case err := <-done:
			t.Fatalf("the proposal was answered before a decision: %v %s", err, *answer)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// TestOutcomeCarriesFinalTextOnlyWhereItDiffers: issue 25 item 11 — an
// approval as proposed answered the agent with every file's whole text
// (86,715 bytes for a +8 −2 change). The agent's answer and the
// reviewer's carry a file's final text only where it is not what the
// agent proposed (the person's edit, the formatter, hunks left out, a
// fence the desk took off a write); finalAsProposed and finalSha256 say
// the rest; "finalContent":"all" gets every file's; anything else is
// refused before a proposal is made.
func TestOutcomeCarriesFinalTextOnlyWhereItDiffers(t *testing.T) {
	d := reviewtest.NewDesk(t, "", "[[formatter]]\nglob = \"*.up\"\ncommand = [\"tr\", \"a-z\", \"A-Z\"]\n")
	sock := serveTestDesk(t, d.Desk)
	ctx := reviewtest.Context(t)
	rev, err := Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	defer rev.Close()
	if err := rev.Call(ctx, "hello", map[string]any{"protocol": 1, "agent": "script", "role": "reviewer"}, nil); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("a line the agent did not touch\n", 2000)
	reviewtest.WriteFile(t, filepath.Join(d.Root, "big.txt"), "old\n"+big)
	reviewtest.WriteFile(t, filepath.Join(d.Root, "f.up"), "old\n")
	reviewtest.WriteFile(t, filepath.Join(d.Root, "two.txt"), "one\n"+big+"two\n")

	// propose sends params from an agent's connection and, once it waits,
	// has the reviewer make decision; both answers come back raw.
	propose := func(t *testing.T, params map[string]any, decision map[string]any) (agent, reviewer json.RawMessage) {
		t.Helper()
		cl, err := Dial(sock)
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close()
		params["wait"] = true
		done := make(chan error, 1)
		go func() { done <- cl.Call(ctx, "propose", params, &agent) }()
		decision["id"] = pendingID(t, d.Desk, done, &agent).ID
		if err := rev.Call(ctx, "decide", decision, &reviewer); err != nil {
			t.Fatal(err)
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		return agent, reviewer
	}
	asProposed := func(t *testing.T, name string, f map[string]any, disk string) {
		t.Helper()
		if _, ok := f["finalContent"]; ok || f["finalAsProposed"] != true {
			t.Errorf("%s: finalContent %.40q…, finalAsProposed %v; want no text and finalAsProposed: the file is exactly the proposal", name, f["finalContent"], f["finalAsProposed"])
		}
		if f["finalSha256"] != atomicfile.Hash([]byte(disk)) {
			t.Errorf("%s: finalSha256 %v does not name the file on disk", name, f["finalSha256"])
		}
	}
	hasFinal := func(t *testing.T, name string, f map[string]any, want string) {
		t.Helper()
		if got, ok := f["finalContent"].(string); !ok || got != want || f["finalAsProposed"] != nil {
			t.Errorf("%s: finalContent %.60q (finalAsProposed %v); want %.60q", name, got, f["finalAsProposed"], want)
		}
	}
	sr := reviewtest.SR("old\n", "new\n")

	t.Run("approved as proposed", func(t *testing.T) {
		agent, reviewer := propose(t, map[string]any{"format": "search-replace", "path": "big.txt", "payload": sr}, map[string]any{"decision": "approve"})
		disk := reviewtest.ReadFile(t, filepath.Join(d.Root, "big.txt"))
		asProposed(t, "agent", finalFiles(t, agent)[0], disk)
		asProposed(t, "reviewer", finalFiles(t, reviewer)[0], disk)
		if len(agent) > 4096 {
			t.Errorf("the agent's answer to a one-line change is %d bytes", len(agent))
		}
	})
	t.Run("all", func(t *testing.T) {
		reviewtest.WriteFile(t, filepath.Join(d.Root, "big.txt"), "old\n"+big)
		agent, reviewer := propose(t, map[string]any{"format": "search-replace", "path": "big.txt", "payload": sr, "finalContent": "all"},
			map[string]any{"decision": "approve", "finalContent": "all"})
		hasFinal(t, "agent", finalFiles(t, agent)[0], "new\n"+big)
		hasFinal(t, "reviewer", finalFiles(t, reviewer)[0], "new\n"+big)
	})
	t.Run("the person's edit", func(t *testing.T) {
		reviewtest.WriteFile(t, filepath.Join(d.Root, "big.txt"), "old\n"+big)
		path := filepath.Join(d.Root, "big.txt")
		agent, _ := propose(t, map[string]any{"format": "search-replace", "path": "big.txt", "payload": sr},
			map[string]any{"decision": "approve-edited", "edited": map[string]string{path: "mine\n" + big}})
		hasFinal(t, "agent", finalFiles(t, agent)[0], "mine\n"+big)
	})
	t.Run("the formatter", func(t *testing.T) {
		agent, _ := propose(t, map[string]any{"format": "write", "path": "f.up", "payload": "new\n"}, map[string]any{"decision": "approve"})
		hasFinal(t, "agent", finalFiles(t, agent)[0], "NEW\n")
	})
	t.Run("a fence the desk took off", func(t *testing.T) {
		agent, _ := propose(t, map[string]any{"format": "write", "path": "fenced.txt", "payload": "```\nbody\n```\n"}, map[string]any{"decision": "approve"})
		hasFinal(t, "agent", finalFiles(t, agent)[0], "body\n")
	})
	t.Run("partial", func(t *testing.T) {
		reviewtest.WriteFile(t, filepath.Join(d.Root, "big.txt"), "old\n"+big)
		patch := "--- a/big.txt\n+++ b/big.txt\n@@ -1 +1 @@\n-old\n+new\n--- a/two.txt\n+++ b/two.txt\n@@ -1 +1 @@\n-one\n+ONE\n@@ -2002 +2002 @@\n-two\n+TWO\n"
		cl, err := Dial(sock)
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close()
		var agent json.RawMessage
		done := make(chan error, 1)
		go func() {
			done <- cl.Call(ctx, "propose", map[string]any{"format": "patch", "payload": patch, "dir": d.Root, "wait": true}, &agent)
		}()
		p := pendingID(t, d.Desk, done, &agent)
		hunks := map[string][]string{}
		for _, f := range p.Files {
			for i, h := range f.Hunks() {
				if f.Rel == "big.txt" || i == 0 {
					hunks[f.Path] = append(hunks[f.Path], h.ID)
				}
			}
		}
		if err := rev.Call(ctx, "decide", map[string]any{"id": p.ID, "decision": "partial", "hunks": hunks}, nil); err != nil {
			t.Fatal(err)
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		files := finalFiles(t, agent)
		if len(files) != 2 {
			t.Fatalf("files %v", files)
		}
		for _, f := range files {
			switch filepath.Base(f["path"].(string)) {
			case "big.txt":
				asProposed(t, "big.txt, every hunk accepted", f, "new\n"+big)
			case "two.txt":
				hasFinal(t, "two.txt, one hunk of two", f, "ONE\n"+big+"two\n")
			}
		}
	})
	t.Run("a bad value", func(t *testing.T) {
		before := len(d.List())
		code, err := callCode(t, rev, "decide", map[string]any{"id": "p-none", "decision": "approve", "finalContent": "some"})
		if code != codeInvalidParams || !strings.Contains(err.Error(), `"finalContent" is "some"`) {
			t.Errorf("decide with finalContent some: %v (code %d)", err, code)
		}
		cl, err := Dial(sock)
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close()
		code, err = callCode(t, cl, "propose", map[string]any{"format": "write", "path": "x.txt", "payload": "x\n", "finalContent": "yes", "wait": true})
		if code != codeInvalidParams || !strings.Contains(err.Error(), `say "changed"`) {
			t.Errorf("propose with finalContent yes: %v (code %d)", err, code)
		}
		if len(d.List()) != before {
			t.Errorf("a proposal was made all the same")
		}
	})
}
