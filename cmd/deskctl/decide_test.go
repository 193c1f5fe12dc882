package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/deskrpc/deskrpctest"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// serveTestDesk serves a fresh test desk on a socket in a private
// directory, until the test ends.
func serveTestDesk(t *testing.T) (*reviewtest.Desk, string) {
	t.Helper()
	d := reviewtest.NewDesk(t, "", "")
	return d, deskrpctest.Serve(t, d.Desk)
}

// TestDecideWithComments: deskctl decide rejects with --comment flags and
// a --comments file, prints what the agent reads, and history show lists
// the comments with their lines.
func TestDecideWithComments(t *testing.T) {
	d, sock := serveTestDesk(t)
	reviewtest.WriteFile(t, filepath.Join(d.Root, "app.go"), "package app\n\nfunc Run() {}\n")
	p := d.MustPropose(t, engine.FormatWrite, "app.go", "package app\n\nfunc Start() {}\n")
	file := filepath.Join(t.TempDir(), "comments.json")
	reviewtest.WriteFile(t, file, `[{"path":"app.go","side":"old","line":1,"endLine":3,"text":"keep it as it was"}]`)
	out, errOut, code := deskctl(t, "", "decide", p.ID, "reject", "--socket", sock, "--feedback", "no rename",
		"--comment", "app.go:new:3:Run is called from main.go: keep the name", "--comments", file)
	if code != 0 {
		t.Fatalf("decide = exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"Their reason: no rename", "Lines 1–3 of the file before your edit:", "Comment: keep it as it was",
		"Line 3 of your proposed text:\n```\nfunc Start() {}\n```\nComment: Run is called from main.go: keep the name"} {
		if !strings.Contains(out, want) {
			t.Errorf("decide printed\n%s\nwant %q in it", out, want)
		}
	}
	t.Chdir(d.Root)
	out, _, code = deskctl(t, "", "history", "show", "d1", "--journal", d.Journal.Path())
	want := "comments:\n  app.go, old side, line 1–3:\n    | package app\n    | \n    | func Run() {}\n    keep it as it was\n" +
		"  app.go, new side, line 3:\n    | func Start() {}\n    Run is called from main.go: keep the name\n"
	if code != 0 || !strings.Contains(out, want) {
		t.Errorf("history show d1 = exit %d:\n%s\nwant %q in it", code, out, want)
	}
	out, _, _ = deskctl(t, "", "history", "show", "d1", "--json", "--journal", d.Journal.Path())
	var js struct{ Comments []decision.Comment }
	if json.Unmarshal([]byte(out), &js) != nil || len(js.Comments) != 2 || js.Comments[1].Quote != "func Start() {}\n" {
		t.Errorf("history show --json comments = %+v; want both, quoted", js.Comments)
	}
}

// TestDecideRefusesBadComments: a malformed --comment is a usage error; a
// comment the desk refuses names itself, and the proposal still waits.
func TestDecideRefusesBadComments(t *testing.T) {
	d, sock := serveTestDesk(t)
	p := d.MustPropose(t, engine.FormatWrite, "a.txt", "a\n")
	_, errOut, code := deskctl(t, "", "decide", p.ID, "approve", "--socket", sock, "--comment", "a.txt:right:1:x")
	if code != 2 || !strings.Contains(errOut, "want PATH:SIDE:LINE[-END]:TEXT") {
		t.Errorf("decide with a malformed --comment = exit %d, %q; want 2 and the form", code, errOut)
	}
	_, errOut, code = deskctl(t, "", "decide", p.ID, "approve", "--socket", sock, "--comment", "a.txt:new:2:x")
	if code != 1 || !strings.Contains(errOut, "comment 1 (on a.txt): line 2 is past the end of the new side, which has 1 line") {
		t.Errorf("decide with a comment past the end = exit %d, %q; want 1 naming the comment", code, errOut)
	}
	if q, _ := d.Get(p.ID); q.State != "pending" {
		t.Errorf("after a refused decide the proposal is %s; want pending", q.State)
	}
}

// TestDecideChangesetRejectsEveryWaitingProposal: deskctl status names the
// changeset; decide --changeset KEY reject answers each proposal of it
// with the one reason and leaves the other session's waiting.
func TestDecideChangesetRejectsEveryWaitingProposal(t *testing.T) {
	d, sock := serveTestDesk(t)
	var ids []string
	for _, rel := range []string{"a.txt", "b.txt", "c.txt"} {
		session := "s1"
		if rel == "c.txt" {
			session = "s2"
		}
		p, err := d.Propose(context.Background(), review.Request{Agent: "claude-code", Session: session, Format: engine.FormatWrite, Path: rel, Payload: rel + "\n"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	out, _, _ := deskctl(t, "", "status", "--socket", sock)
	key := review.ChangesetKey(func() review.Proposal { p, _ := d.Get(ids[0]); return p }())
	if !strings.Contains(out, "changeset "+key) {
		t.Fatalf("status does not name changeset %s:\n%s", key, out)
	}
	out, errOut, code := deskctl(t, "", "decide", "--socket", sock, "--changeset", key, "--feedback", "one reason", "reject")
	if code != 0 || out != ids[0]+"  rejected\n"+ids[1]+"  rejected\n" {
		t.Fatalf("decide --changeset = exit %d, %q, stderr %q", code, out, errOut)
	}
	for _, id := range ids[:2] {
		if o, _ := d.Outcome(id); o.Status != decision.Rejected || o.Feedback != "one reason" {
			t.Errorf("%s: %s %q; want rejected with the reason", id, o.Status, o.Feedback)
		}
	}
	if p, _ := d.Get(ids[2]); p.State != review.StatePending {
		t.Errorf("the other session's proposal is %s; want pending", p.State)
	}
	if _, _, code := deskctl(t, "", "decide", "--socket", sock, "--changeset", key, "partial"); code != 2 {
		t.Errorf("decide --changeset partial: exit %d; want 2 (usage)", code)
	}
}

// TestDecideThroughAnIDEDoorSaysTheAgentDoesNotReadIt: deciding a proposal
// that came through an IDE door (verdict and final text only) prints the
// agent's text as usual and says on stderr that the agent does not read it
// (real claude: the reason never reached the model).
func TestDecideThroughAnIDEDoorSaysTheAgentDoesNotReadIt(t *testing.T) {
	d, sock := serveTestDesk(t)
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "a\n")
	p, err := d.Propose(context.Background(), review.Request{Agent: "claude-code", Format: engine.FormatWrite, Path: "a.txt", Payload: "A\n", AgentWrites: true, VerdictOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := deskctl(t, "", "decide", p.ID, "reject", "--socket", sock, "--feedback", "use planet")
	if code != 0 || !strings.Contains(out, "Their reason: use planet") {
		t.Fatalf("decide = exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "claude-code proposed this through its IDE door, which tells it only the verdict and the final text: it does not read the text above") {
		t.Errorf("stderr %q; want it to say the agent does not read the reason", errOut)
	}
	q := d.MustPropose(t, engine.FormatWrite, "b.txt", "b\n")
	if _, errOut, _ := deskctl(t, "", "decide", q.ID, "reject", "--socket", sock, "--feedback", "no"); errOut != "" {
		t.Errorf("a native proposal's decision wrote %q on stderr", errOut)
	}
}

// TestHistoryRestoreThroughTheDesk: with a desk running and no --journal,
// deskctl history restore asks the desk to restore, and a proposal waiting
// on the restored file is stale: it cannot be approved over the restore.
func TestHistoryRestoreThroughTheDesk(t *testing.T) {
	d, sock := serveTestDesk(t)
	path := filepath.Join(d.Root, "a.txt")
	reviewtest.WriteFile(t, path, "one\n")
	o := d.MustDecide(t, d.MustPropose(t, engine.FormatWrite, "a.txt", "two\n").ID, review.Decision{Verdict: decision.Approved})
	waiting := d.MustPropose(t, engine.FormatWrite, "a.txt", "three\n")
	out, errOut, code := deskctl(t, "", "history", "restore", fmt.Sprint(o.Checkpoint), "--apply", "--socket", sock)
	if code != 0 || !strings.Contains(out, "restored 1 file(s) as checkpoint") {
		t.Fatalf("restore through the desk = %q, %q (exit %d)", out, errOut, code)
	}
	if got := reviewtest.ReadFile(t, path); got != "one\n" {
		t.Errorf("a.txt = %q; want one", got)
	}
	reviewtest.WaitFile(t, d.Desk, waiting.ID, path, "stale", review.File.Stale)
	page, err := d.Journal.History(reviewtest.Context(t), journal.Filter{Decision: journal.EntryRestore})
	if err != nil || len(page.Entries) != 1 {
		t.Errorf("the desk's journal has restores %+v, %v; want the one", page.Entries, err)
	}
}
