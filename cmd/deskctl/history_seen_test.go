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
// says which hunks were on screen; history show counts them and names the
// hunk never shown, and --json carries the record.
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
	if err := cl.Call(ctx, "decide", map[string]any{"id": p.ID, "decision": "approve", "seen": map[string][]string{"app.go": {hs[0].ID}}}, nil); err != nil {
		t.Fatal(err)
	}
	t.Chdir(d.Root)
	out, _, code := deskctl(t, "", "history", "show", "d1", "--journal", d.Journal.Path())
	want := "seen:     1 of 2 hunks on screen before the decision\n  never on screen in app.go: " + hs[1].ID + "\n"
	if code != 0 || !strings.Contains(out, want) {
		t.Errorf("history show d1 = exit %d:\n%s\nwant %q in it", code, out, want)
	}
	out, _, _ = deskctl(t, "", "history", "show", "d1", "--json", "--journal", d.Journal.Path())
	var js struct{ Seen []decision.HunkSeen }
	if json.Unmarshal([]byte(out), &js) != nil || len(js.Seen) != 2 || !js.Seen[0].Seen || js.Seen[1].Seen {
		t.Errorf("history show --json seen = %+v; want the first seen, the second not", js.Seen)
	}
}
