package realclients

import (
	"strings"

	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
)

// geminiCLI returns the real Gemini CLI's entry script, or skips.
func geminiCLI(t *testing.T) string {
	dir := clients(t, "@google/gemini-cli")
	return filepath.Join(dir, "node_modules", "@google", "gemini-cli", "bundle", "gemini.js")
}

// geminiEnv points the CLI at the fake API with a dummy key and writes its
// settings (IDE mode on, API-key auth, no folder-trust prompt) plus extra.
func geminiEnv(t *testing.T, e *env, api *fakeModel, extra map[string]any) {
	t.Helper()
	e.vars = append(e.vars, "GEMINI_API_KEY=fake-local-stub-key", "GOOGLE_GEMINI_BASE_URL="+api.URL)
	settings := map[string]any{
		"ide":      map[string]any{"enabled": true, "hasSeenNudge": true},
		"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}, "folderTrust": map[string]any{"enabled": false}},
	}
	for k, v := range extra {
		settings[k] = v
	}
	dir := filepath.Join(e.home, ".gemini")
	os.MkdirAll(dir, 0o700)
	writeJSON(t, filepath.Join(dir, "settings.json"), settings)
}

// TestGeminiBeforeToolHook runs `gemini -p` in YOLO mode with deskctl as
// the BeforeTool hook: the person's text reaches the file through the
// complete rewritten tool_input, and a rejection leaves it alone.
func TestGeminiBeforeToolHook(t *testing.T) {
	cli := geminiCLI(t)
	for _, tc := range []struct {
		name string
		who  person
		want string
	}{
		{"accepted with the person's text", approveAs("hello from a PERSON\n"), "hello from a PERSON\n"},
		{"rejected", reject("keep it"), "hello\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			dk := startDesk(t, e, tc.who)
			target := dk.writeFile(t, "a.txt", "hello\n")
			api := fakeGemini(t, "replace", map[string]any{"file_path": target, "old_string": "hello", "new_string": "hello from the model", "instruction": "change hello"})
			geminiEnv(t, e, api, map[string]any{"hooks": map[string]any{"BeforeTool": []any{map[string]any{
				"matcher": "replace|write_file",
				"hooks":   []any{map[string]any{"type": "command", "command": deskctlBin + " hook gemini --socket " + dk.sock, "timeout": 600000}},
			}}}})
			start := time.Now()
			out, errOut, err := run(t, e, dk.root, 120*time.Second, "node", cli, "-p", "change hello in a.txt", "--approval-mode", "yolo")
			t.Logf("gemini -p took %s", time.Since(start).Round(time.Millisecond))
			if err != nil {
				t.Logf("gemini -p: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
			}
			dk.outcome(t, 10*time.Second)
			if got := readFile(t, target); got != tc.want {
				t.Errorf("a.txt = %q; want %q\ngemini said: %s\n%s", got, tc.want, out, errOut)
			}
		})
	}
}

// TestGeminiHookReport: after the person edits the proposal at the desk,
// the model's next request holds the desk's report — the person's patch —
// through AfterTool's additionalContext: BeforeTool carries no text.
func TestGeminiHookReport(t *testing.T) {
	cli := geminiCLI(t)
	e := newEnv(t)
	dk := startDesk(t, e, approveAs("hello from a PERSON\n"))
	target := dk.writeFile(t, "a.txt", "hello\n")
	api := fakeGemini(t, "replace", map[string]any{"file_path": target, "old_string": "hello", "new_string": "hello from the model", "instruction": "change hello"})
	hook := []any{map[string]any{
		"matcher": "replace|write_file",
		"hooks":   []any{map[string]any{"type": "command", "command": deskctlBin + " hook gemini --socket " + dk.sock, "timeout": 600000}},
	}}
	geminiEnv(t, e, api, map[string]any{"hooks": map[string]any{"BeforeTool": hook, "AfterTool": hook}})
	out, errOut, err := run(t, e, dk.root, 120*time.Second, "node", cli, "-p", "change hello in a.txt", "--approval-mode", "yolo")
	if err != nil {
		t.Logf("gemini -p: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	o := dk.outcome(t, 10*time.Second)
	if got := readFile(t, target); got != "hello from a PERSON\n" {
		t.Fatalf("a.txt = %q; want the person's text\ngemini said: %s\n%s", got, out, errOut)
	}
	checkToldPatch(t, api, o)
}

// TestGeminiIDE drives the real Gemini CLI in a pseudo-terminal, with IDE
// mode on and the desk's Gemini door found through the discovery file,
// while the fake API asks for a replace: the diff opens at the desk and the
// person decides — or answers in the terminal first.
func TestGeminiIDE(t *testing.T) {
	cli := geminiCLI(t)
	for _, tc := range []struct {
		name     string
		who      person
		terminal string
		want     string
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
			api := fakeGemini(t, "replace", map[string]any{"file_path": target, "old_string": "hello", "new_string": "hello from the model", "instruction": "change hello"})
			geminiEnv(t, e, api, nil)
			start := time.Now()
			term := startTerminal(t, e, dk.root, "node", cli)
			eventually(t, 60*time.Second, "gemini connecting to the Gemini door", func() bool {
				for _, s := range dk.doors.Status() {
					if s.Name == "gemini-cli" && s.Ready > 0 {
						return true
					}
				}
				return false
			})
			term.waitScreen(60*time.Second, "Type your message")
			term.submit("change hello in a.txt")
			if tc.terminal != "" {
				eventually(t, 60*time.Second, "the diff waiting at the desk", func() bool { return len(dk.List()) == 1 })
				var o review.Outcome
				eventually(t, 30*time.Second, "the terminal answer reaching gemini", func() bool {
					select {
					case o = <-dk.decided:
						return true
					default:
						if strings.Contains(term.screen(), "Allow") || strings.Contains(term.screen(), "Apply this change") {
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
				eventually(t, 30*time.Second, "gemini writing a.txt", func() bool { return readFile(t, target) == tc.want })
			} else if got := readFile(t, target); got != tc.want {
				t.Errorf("a.txt = %q; want %q", got, tc.want)
			}
			t.Logf("%s took %s", tc.name, time.Since(start).Round(time.Second))
		})
	}
}
