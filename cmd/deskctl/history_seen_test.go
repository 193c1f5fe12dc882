package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestHistoryShowsHunksSeen: a reviewer's decide over the native protocol
// says which hunks were on screen whole and how many lines of the others
// (seenLines); history show counts the changed lines never on screen and
// names the hunk not seen whole, and --json carries the record.
func TestHistoryShowsHunksSeen(t *testing.T) {
	d, sock := serveTestDesk(t)
	base := "package app\n\nfunc A() {}\n\nfunc B() {}\n\n\n\n\n\nfunc C() {}\n"
	reviewtest.WriteFile(t, filepath.Join(d.Root, "app.go"), base)
	p := d.MustPropose(t, engine.FormatWrite, "app.go", strings.Replace(strings.Replace(base, "A()", "A2()", 1), "C()", "C2()", 1))
	hs := p.Files[0].Hunks()
	ctx := context.Background()
	cl, err := deskrpc.Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if err := cl.Call(ctx, "hello", map[string]any{"protocol": deskrpc.ProtocolVersion, "agent": "deskctl", "role": "reviewer"}, nil); err != nil {
		t.Fatal(err)
	}
	err = cl.Call(ctx, "decide", map[string]any{"id": p.ID, "decision": "approve", "seen": map[string][]string{"app.go": {"nothere"}}}, nil)
	if err == nil || !strings.Contains(err.Error(), `seen (on app.go): "nothere" is not a hunk`) {
		t.Fatalf("decide with a seen id that is no hunk = %v; want it refused", err)
	}
	if err := cl.Call(ctx, "decide", map[string]any{"id": p.ID, "decision": "approve", "seen": map[string][]string{"app.go": {hs[0].ID}},
		"seenLines": map[string]map[string]int{"app.go": {hs[1].ID: 1}}}, nil); err != nil {
		t.Fatal(err)
	}
	t.Chdir(d.Root)
	out, _, code := deskctl(t, "", "history", "show", "d1", "--journal", d.Journal.Path())
	want := "seen:     1 of 4 changed lines never on screen (1 of 2 hunks seen whole) before the decision\n  not seen whole in app.go: " + hs[1].ID + " (1 of 2 lines shown)\n"
	if code != 0 || !strings.Contains(out, want) {
		t.Errorf("history show d1 = exit %d:\n%s\nwant %q in it", code, out, want)
	}
	out, _, _ = deskctl(t, "", "history", "show", "d1", "--json", "--journal", d.Journal.Path())
	var js struct{ Seen []decision.HunkSeen }
	if json.Unmarshal([]byte(out), &js) != nil || len(js.Seen) != 2 || !js.Seen[0].Seen || js.Seen[1].Seen || js.Seen[1].LinesSeen != 1 || js.Seen[1].Lines != 2 {
		t.Errorf("history show --json seen = %+v; want the first seen, the second not", js.Seen)
	}
}
