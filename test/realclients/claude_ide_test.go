package realclients

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
)

const fakeAnthropicKey = "sk-ant-fake-local-stub-0000000000000000"

// claudeIDESettle is how long claude needs after the IDE handshake before
// its next turn uses the IDE diff (measured: under 3 s on a loaded machine).
const claudeIDESettle = 3 * time.Second

// seedClaudeConfig marks onboarding done, the dummy key approved and the
// project trusted, so the TUI goes straight to its prompt.
func seedClaudeConfig(t *testing.T, e *env, root string) {
	t.Helper()
	dir := filepath.Join(e.home, ".claude")
	os.MkdirAll(dir, 0o700)
	writeJSON(t, filepath.Join(dir, ".claude.json"), map[string]any{
		"hasCompletedOnboarding": true, "theme": "dark",
		"customApiKeyResponses": map[string]any{"approved": []string{fakeAnthropicKey[len(fakeAnthropicKey)-20:]}, "rejected": []string{}},
		"projects":              map[string]any{root: map[string]any{"hasTrustDialogAccepted": true}},
	})
}

// TestClaudeIDE drives the real claude TUI in a pseudo-terminal, connected
// to the desk's Claude door by CLAUDE_CODE_SSE_PORT, while the fake API
// asks for an Edit: the diff opens at the desk and the person decides —
// or the person answers in the terminal first.
func TestClaudeIDE(t *testing.T) {
	bin := claudeBin(t)
	for _, tc := range []struct {
		name     string
		who      person
		terminal string // keys typed at claude's own prompt; "" = none
		want     string // a.txt afterwards
		status   decision.Verdict
	}{
		{"accept", approve(), "", "hello from the model\n", decision.Approved},
		{"accept edited", approveAs("hello from a PERSON\n"), "", "hello from a PERSON\n", decision.ApprovedEdited},
		{"reject", reject("no"), "", "hello\n", decision.Rejected},
		{"answered in the terminal first", byFile(nil), "Enter", "hello from the model\n", decision.Withdrawn},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			dk := startDesk(t, e, tc.who)
			target := dk.writeFile(t, "a.txt", "hello\n")
			api := fakeAnthropic(t, "Edit", map[string]any{"file_path": target, "old_string": "hello", "new_string": "hello from the model"})
			seedClaudeConfig(t, e, dk.root)
			port := ""
			for _, s := range dk.doors.Status() {
				if s.Name == "claude-code" {
					port = s.Addr[strings.LastIndex(s.Addr, ":")+1:]
				}
			}
			e.vars = append(e.vars, "ANTHROPIC_BASE_URL="+api.URL, "ANTHROPIC_API_KEY="+fakeAnthropicKey, "CLAUDE_CODE_SSE_PORT="+port)
			start := time.Now()
			debug := filepath.Join(e.home, "claude-debug.log")
			term := startTerminal(t, e, dk.root, bin, "--permission-mode", "default", "--debug-file", debug)
			t.Cleanup(func() {
				if t.Failed() {
					b, _ := os.ReadFile(debug)
					t.Logf("claude debug log:\n%s", b)
				}
			})
			// The IDE must be connected before the turn starts: the MCP
			// handshake done, which claude's debug log tells.
			eventually(t, 60*time.Second, "claude connecting to the Claude door", func() bool {
				for _, s := range dk.doors.Status() {
					if s.Name == "claude-code" && s.Ready > 0 {
						return true
					}
				}
				return false
			})
			term.waitScreen(30*time.Second, "? for shortcuts")
			// claude treats the IDE as connected a moment after the handshake,
			// and shows no sign when: a prompt sent at once gets no diff. There
			// is no event to wait on, so this one wait is a fixed settle time.
			time.Sleep(claudeIDESettle)
			term.submit("change hello in a.txt")
			if tc.terminal != "" {
				term.waitScreen(60*time.Second, "Do you want to make this edit")
				eventually(t, 30*time.Second, "the diff waiting at the desk", func() bool { return len(dk.List()) == 1 })
				// Keys sent while the dialog is still mounting are lost: type
				// again until the answer lands.
				var o review.Outcome
				eventually(t, 30*time.Second, "the terminal answer reaching claude", func() bool {
					select {
					case o = <-dk.decided:
						return true
					default:
						if strings.Contains(term.screen(), "Do you want to make this edit") {
							term.send(tc.terminal)
						}
						return false
					}
				})
				dk.decided <- o
			}
			o := dk.outcome(t, 90*time.Second)
			if o.Status != tc.status {
				t.Errorf("outcome %s; want %s", o.Status, tc.status)
			}
			if tc.want != "hello\n" {
				eventually(t, 30*time.Second, "claude writing a.txt", func() bool { return readFile(t, target) == tc.want })
			} else {
				term.waitScreen(30*time.Second, "? for shortcuts")
				if got := readFile(t, target); got != tc.want {
					t.Errorf("a.txt = %q; want %q", got, tc.want)
				}
			}
			t.Logf("%s took %s", tc.name, time.Since(start).Round(time.Second))
		})
	}
}
