package ide

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/reviewtest"
)

// TestIDEDoorsCheckTheAgentWrote: issue 27 — an IDE door answers an
// approval with the text to write (FILE_SAVED, ide/diffAccepted) and hears
// nothing after it, so the desk recorded "approved" whatever the agent then
// did. The door watches the disk: an agent that writes the approved text
// leaves the approval standing; one that does not within the wait turns it
// into failed, "approved, but not written", saying which door answered.
func TestIDEDoorsCheckTheAgentWrote(t *testing.T) {
	for _, door := range []string{"claude-code", "gemini-cli"} {
		for _, write := range []string{"new\n", "", "something else\n"} {
			name := door + ", writes " + map[string]string{"new\n": "the approved text", "": "nothing", "something else\n": "something else"}[write]
			t.Run(name, func(t *testing.T) {
				d := reviewtest.NewDesk(t, "", "")
				path := filepath.Join(d.Root, "a.txt")
				reviewtest.WriteFile(t, path, "old\n")
				pending := pendingProposals(t, d.Desk)
				doors, err := Start(context.Background(), d.Desk, Options{
					Doors:          config.Doors{Claude: true, Gemini: true},
					ClaudeLockDir:  filepath.Join(t.TempDir(), "claude", "ide"),
					GeminiDir:      filepath.Join(t.TempDir(), "gemini", "ide"),
					AgentWriteWait: 500 * time.Millisecond,
				})
				if err != nil {
					t.Fatal(err)
				}
				defer doors.Close()
				answered := make(chan string, 1)
				if door == "claude-code" {
					cs := dialClaude(t, doorStatus(t, doors, door))
					// Ends when openDiff is answered.
					go func() {
						res, err := callTool(reviewtest.Context(t), cs, "openDiff", claudeOpenDiffArgs{OldFilePath: path, NewFilePath: path, NewFileContents: "new\n", TabName: "tab 1"})
						if err != nil {
							answered <- err.Error()
							return
						}
						answered <- strings.Join(resultTexts(res), "|")
					}()
				} else {
					cs, got := dialGemini(t, doorStatus(t, doors, door))
					if _, err := callTool(reviewtest.Context(t), cs, "openDiff", geminiOpenDiffArgs{FilePath: path, NewContent: "new\n"}); err != nil {
						t.Fatal(err)
					}
					// Ends when the notification comes.
					go func() {
						n := <-got
						var p geminiAccepted
						json.Unmarshal(n.Params, &p)
						answered <- n.Method + "|" + p.Content
					}()
				}
				id := next(t, pending, "the proposal")
				d.MustDecide(t, id, review.Decision{Verdict: decision.Approved})
				if a := next(t, answered, "the door's answer"); !strings.HasSuffix(a, "|new\n") {
					t.Fatalf("answer %q; want the approved text", a)
				}
				if write != "" {
					os.WriteFile(path, []byte(write), 0o644) // the agent writes
				}
				want := decision.Failed
				if write == "new\n" {
					want = decision.Approved
				}
				deadline := time.Now().Add(5 * time.Second)
				if want == decision.Approved {
					deadline = time.Now().Add(1500 * time.Millisecond) // past the wait: nothing may turn it failed
				}
				o, _ := d.Outcome(id)
				for o.Status != decision.Failed && time.Now().Before(deadline) {
					time.Sleep(50 * time.Millisecond)
					o, _ = d.Outcome(id)
				}
				if o.Status != want {
					t.Fatalf("outcome %s (%s); want %s", o.Status, agenttext.Outcome(o), want)
				}
				if want == decision.Failed && !strings.Contains(agenttext.Outcome(o), "an IDE door hears nothing after its answer") {
					t.Errorf("the failure says %q; want why the door checked the disk", agenttext.Outcome(o))
				}
			})
		}
	}
}
