package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/deskrpc/deskrpctest"
	"github.com/diffdesk/diffdesk/review/remote"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// remoteDesk is local served on a socket and reached through the
// protocol, as diffdesk --connect reaches a desk on dev@box.
func remoteDesk(t *testing.T, local *reviewtest.Desk) *remote.Desk {
	t.Helper()
	cl, err := deskrpc.Dial(deskrpctest.Serve(t, local.Desk))
	if err != nil {
		t.Fatal(err)
	}
	rd, err := remote.Open(reviewtest.Context(t), cl, "dev@box", "me@laptop")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rd.Close() })
	return rd
}

// TestWindowOverARemoteDesk: the window over a desk it did not start,
// reached through the protocol as diffdesk --connect reaches one: it lists
// the desk's proposal, the a key approves it, the file on the desk's side
// is written, and the title names the desk.
func TestWindowOverARemoteDesk(t *testing.T) {
	local := reviewtest.NewDesk(t, "", "")
	h := windowOver(t, remoteDesk(t, local), WindowOptions{Remote: "dev@box"})

	path := filepath.Join(local.Root, "far.txt")
	reviewtest.WriteFile(t, path, "one\n")
	p := local.MustPropose(t, engine.FormatWrite, "far.txt", "ONE\n")
	h.until("the window shows the desk's proposal", func() bool { return h.Shown() == p.ID })
	if got := h.Title(); !strings.HasPrefix(got, "DiffDesk — 1 waiting") || !strings.HasSuffix(got, " · dev@box") {
		t.Errorf("title %q; want 1 waiting, naming dev@box", got)
	}
	h.Keys("a")
	h.until("far.txt is written on the desk's side", func() bool { return reviewtest.ReadFile(t, path) == "ONE\n" })
	h.until("the window shows nothing waiting", func() bool { return h.win.Waiting() == 0 })
	if got, want := h.Title(), "DiffDesk · "+local.Root+" · dev@box"; got != want {
		t.Errorf("title after the decision %q; want %q (the far desk's workspace, the machine)", got, want)
	}
}

// TestHistoryOverARemoteDesk: the window over a desk on another machine
// has its History tab, read through the protocol: the far desk's
// decision is listed with who decided it and what it changed, and a
// restore from it is written by the far desk (its file back as it was).
func TestHistoryOverARemoteDesk(t *testing.T) {
	local := reviewtest.NewDesk(t, "", "")
	path := filepath.Join(local.Root, "far.txt")
	reviewtest.WriteFile(t, path, "one\n")
	p := local.MustPropose(t, engine.FormatWrite, "far.txt", "ONE\n")
	local.MustDecide(t, p.ID, review.Decision{Verdict: decision.Approved, By: "ann@box"})
	h := windowOver(t, remoteDesk(t, local), WindowOptions{Remote: "dev@box", History: true})

	hist := h.History()
	hist.Open(1)
	if d := hist.Diffs(); len(d) != 1 || string(d[0].Old) != "one\n" || string(d[0].New) != "ONE\n" {
		t.Errorf("the entry's diffs: %+v; want far.txt, one → ONE", d)
	}
	h.until("the heading names who decided", func() bool { return strings.Contains(hist.Title(), "(ann@box)") })

	hist.Restore("Restore…")
	if got := reviewtest.ReadFile(t, path); got != "ONE\n" {
		t.Fatalf("the dry run wrote far.txt: %q", got)
	}
	h.Dialog().Click("Restore")
	h.until("the restore is listed", func() bool { e := hist.Entries(); return len(e) == 2 && e[0].Badge == "restore" })
	if got := reviewtest.ReadFile(t, path); got != "one\n" {
		t.Errorf("after the restore far.txt is %q; want it as it was, one", got)
	}
}

// TestTOverARemoteDesk: t approves the changeset's other proposals that
// are trivial throughout on a desk on another machine too: the desk
// classifies and approves (Desk.ApproveTrivial), the window says so.
func TestTOverARemoteDesk(t *testing.T) {
	local := reviewtest.NewDesk(t, "", "")
	h := windowOver(t, remoteDesk(t, local), WindowOptions{Remote: "dev@box"})
	code := "package x\n\nfunc B() {\n\treturn\n}\n"
	for _, name := range []string{"real.go", "spaces.go"} {
		reviewtest.WriteFile(t, filepath.Join(local.Root, name), code)
	}
	real, err := local.Propose(reviewtest.Context(t), review.Request{Agent: "claude-code", Session: "s1", Format: engine.FormatWrite, Path: "real.go", Payload: "package x\n\nfunc B() {\n\tprintln()\n}\n"})
	if err != nil {
		t.Fatal(err)
	}
	spaces, err := local.Propose(reviewtest.Context(t), review.Request{Agent: "claude-code", Session: "s1", Format: engine.FormatWrite, Path: "spaces.go", Payload: "package x\n\nfunc B() {\n\treturn   \n}\n"})
	if err != nil {
		t.Fatal(err)
	}
	h.until("the window shows both", func() bool { return h.Shown() == real.ID && strings.Contains(h.Tree(), "spaces.go") })
	h.until("the shown proposal's hunks are classified", h.Classified)
	h.Keys("t")
	h.until("the far desk approves the whitespace-only proposal", func() bool { o, ok := local.Outcome(spaces.ID); return ok && o.Status == decision.Approved })
	h.until("the window says so", func() bool { return strings.HasPrefix(h.Status(), "Approved 1 other proposal") })
	if p, _ := local.Get(real.ID); p.State != review.StatePending {
		t.Errorf("the proposal with a real change after t: %s; want it left for the person", p.State)
	}
}
