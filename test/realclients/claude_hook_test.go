package realclients

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// claudeBin returns the real claude binary from the npm package (its
// postinstall is not needed), or skips.
func claudeBin(t *testing.T) string {
	dir := clients(t, "@anthropic-ai/claude-code")
	bin := filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code-linux-x64", "claude")
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("the claude binary for this platform is not in %s", bin)
	}
	return bin
}

// writeJSON writes v to path.
func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// claudeHookSettings writes a --settings file with deskctl, talking to the
// desk on sock, as the hook for each event (docs/agent-protocols.md §3.1).
func claudeHookSettings(t *testing.T, e *env, sock string, events ...string) string {
	t.Helper()
	hooks := map[string]any{}
	for _, ev := range events {
		hooks[ev] = []any{map[string]any{
			"matcher": "Edit|MultiEdit|Write",
			"hooks":   []any{map[string]any{"type": "command", "command": deskctlBin + " hook claude --socket " + sock, "timeout": 600}},
		}}
	}
	settings := filepath.Join(e.home, "settings.json")
	writeJSON(t, settings, map[string]any{"hooks": hooks})
	return settings
}

// TestClaudePrintModeHooks runs `claude -p` with the fake API asking for an
// Edit and deskctl as the PreToolUse or PermissionRequest hook.
func TestClaudePrintModeHooks(t *testing.T) {
	bin := claudeBin(t)
	for _, tc := range []struct {
		name, event string
		who         person
		want        string
	}{
		{"PreToolUse accepted with the person's text", "PreToolUse", approveAs("hello from a PERSON\n"), "hello from a PERSON\n"},
		{"PreToolUse rejected", "PreToolUse", reject("keep it"), "hello\n"},
		{"PermissionRequest accepted", "PermissionRequest", approve(), "hello from the model\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			dk := startDesk(t, e, tc.who)
			target := dk.writeFile(t, "a.txt", "hello\n")
			api := fakeAnthropic(t, "Edit", map[string]any{"file_path": target, "old_string": "hello", "new_string": "hello from the model"})
			e.vars = append(e.vars, "ANTHROPIC_BASE_URL="+api.URL, "ANTHROPIC_API_KEY=sk-ant-fake-local-stub-0000000000000000")
			settings := claudeHookSettings(t, e, dk.sock, tc.event)
			start := time.Now()
			out, errOut, err := run(t, e, dk.root, 120*time.Second, bin, "-p", "change hello in a.txt", "--settings", settings, "--output-format", "json")
			t.Logf("claude -p took %s", time.Since(start).Round(time.Millisecond))
			if err != nil {
				t.Fatalf("claude -p: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
			}
			if got := readFile(t, target); got != tc.want {
				t.Errorf("a.txt = %q; want %q\nclaude said: %s", got, tc.want, out)
			}
			dk.outcome(t, 10*time.Second)
		})
	}
}

// TestClaudeHookReport: after the person edits the proposal at the desk,
// the model's next request holds the desk's report — the person's patch —
// through PreToolUse's additionalContext, or through PostToolUse's when
// the review ran in PermissionRequest, which carries no text.
func TestClaudeHookReport(t *testing.T) {
	bin := claudeBin(t)
	for _, events := range [][]string{{"PreToolUse"}, {"PermissionRequest", "PostToolUse"}} {
		t.Run(strings.Join(events, " and "), func(t *testing.T) {
			e := newEnv(t)
			dk := startDesk(t, e, approveAs("hello from a PERSON\n"))
			target := dk.writeFile(t, "a.txt", "hello\n")
			api := fakeAnthropic(t, "Edit", map[string]any{"file_path": target, "old_string": "hello", "new_string": "hello from the model"})
			e.vars = append(e.vars, "ANTHROPIC_BASE_URL="+api.URL, "ANTHROPIC_API_KEY=sk-ant-fake-local-stub-0000000000000000")
			settings := claudeHookSettings(t, e, dk.sock, events...)
			out, errOut, err := run(t, e, dk.root, 120*time.Second, bin, "-p", "change hello in a.txt", "--settings", settings, "--output-format", "json")
			if err != nil {
				t.Fatalf("claude -p: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
			}
			o := dk.outcome(t, 10*time.Second)
			if got := readFile(t, target); got != "hello from a PERSON\n" {
				t.Fatalf("a.txt = %q; want the person's text\nclaude said: %s", got, out)
			}
			checkToldPatch(t, api, o)
		})
	}
}

// TestClaudePermissionPromptTool runs `claude -p` with `deskctl mcp` as the
// --permission-prompt-tool; the person edits the text, and the model's next
// request holds the person's patch, passed on by the PostToolUse hook (the
// tool's allow carries no text).
func TestClaudePermissionPromptTool(t *testing.T) {
	bin := claudeBin(t)
	e := newEnv(t)
	dk := startDesk(t, e, approveAs("hello from a PERSON\n"))
	target := dk.writeFile(t, "a.txt", "hello\n")
	api := fakeAnthropic(t, "Edit", map[string]any{"file_path": target, "old_string": "hello", "new_string": "hello from the model"})
	e.vars = append(e.vars, "ANTHROPIC_BASE_URL="+api.URL, "ANTHROPIC_API_KEY=sk-ant-fake-local-stub-0000000000000000")
	config := filepath.Join(e.home, "mcp.json")
	writeJSON(t, config, map[string]any{"mcpServers": map[string]any{"desk": map[string]any{
		"command": deskctlBin, "args": []string{"mcp", "--socket", dk.sock},
	}}})
	settings := claudeHookSettings(t, e, dk.sock, "PostToolUse")
	out, errOut, err := run(t, e, dk.root, 120*time.Second, bin, "-p", "change hello in a.txt", "--mcp-config", config,
		"--permission-prompt-tool", "mcp__desk__approve", "--settings", settings, "--output-format", "json")
	if err != nil {
		t.Fatalf("claude -p: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	o := dk.outcome(t, 10*time.Second)
	if got := readFile(t, target); got != "hello from a PERSON\n" {
		t.Fatalf("a.txt = %q; want the person's text\nclaude said: %s", got, out)
	}
	checkToldPatch(t, api, o)
}

// TestClaudeHookWithoutDesk: with no desk running the hook asks, which in
// -p mode means the edit is not made — never a silent allow.
func TestClaudeHookWithoutDesk(t *testing.T) {
	bin := claudeBin(t)
	e := newEnv(t)
	root := filepath.Join(e.home, "proj")
	os.MkdirAll(root, 0o755)
	target := filepath.Join(root, "a.txt")
	os.WriteFile(target, []byte("hello\n"), 0o644)
	api := fakeAnthropic(t, "Edit", map[string]any{"file_path": target, "old_string": "hello", "new_string": "hello from the model"})
	e.vars = append(e.vars, "ANTHROPIC_BASE_URL="+api.URL, "ANTHROPIC_API_KEY=sk-ant-fake-local-stub-0000000000000000")
	settings := claudeHookSettings(t, e, filepath.Join(e.home, "no.sock"), "PreToolUse")
	out, errOut, err := run(t, e, root, 120*time.Second, bin, "-p", "change hello in a.txt", "--settings", settings, "--output-format", "json")
	if err != nil {
		t.Fatalf("claude -p: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	if got := readFile(t, target); got != "hello\n" {
		t.Errorf("a.txt = %q with no desk running; want it untouched", got)
	}
}
