package realclients

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review/decision"
)

// theirHook writes a hook command of the person's own, beside DiffDesk's:
// a shell script reading the event and running body.
func theirHook(t *testing.T, e *env, body string) string {
	t.Helper()
	p := filepath.Join(e.home, "their-hook.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\ncat >/dev/null\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// awaitHistory waits for the history's one decision to become want and
// returns its feedback.
func (dk *desk) awaitHistory(t *testing.T, want decision.Verdict) (decision.Verdict, string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	v, fb := dk.historyOf(t)
	for v != want && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		v, fb = dk.historyOf(t)
	}
	return v, fb
}

// agentWroteCases are the real clients' runs for TestClaudeAgentWrote and
// TestGeminiAgentWrote: the person approves; their own hook, run beside
// DiffDesk's, lets the tool write, blocks it, or changes the file first
// so that the tool fails.
var agentWroteCases = []agentWroteCase{
	{"written", nil, decision.Approved, "", "hello from the model\n"},
	{"their hook blocks the tool", func(string) string { return "%s" }, decision.Failed, "no after-tool hook", "hello\n"},
	{"the file changes before the tool runs", func(target string) string {
		return "sleep 3; printf 'goodbye\\n' > '" + target + "'"
	}, decision.Failed, "tool failed", "goodbye\n"},
}

// agentWroteCase is one run of agentWroteCases.
type agentWroteCase struct {
	name   string
	theirs func(target string) string // their hook's script body; "" for none
	want   decision.Verdict
	why    string // in the history's feedback
	file   string // a.txt after the run
}

// TestClaudeAgentWrote runs `claude -p` with the hooks deskctl setup
// writes (PreToolUse, PostToolUse, PostToolUseFailure, Stop, SessionEnd):
// the desk records the approval, then learns what Claude Code did with it
// — written: approved; blocked by another PreToolUse hook: failed when
// the turn ends (Stop); the tool failing: failed, with its error
// (PostToolUseFailure). Never "approved" for a file not written.
func TestClaudeAgentWrote(t *testing.T) {
	bin := claudeBin(t)
	for _, tc := range agentWroteCases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			dk := startDesk(t, e, approve())
			target := dk.writeFile(t, "a.txt", "hello\n")
			api := fakeAnthropic(t, "Edit", map[string]any{"file_path": target, "old_string": "hello", "new_string": "hello from the model"})
			e.vars = append(e.vars, "ANTHROPIC_BASE_URL="+api.URL, "ANTHROPIC_API_KEY=sk-ant-fake-local-stub-0000000000000000")
			ours := ourHook("claude", dk.sock)
			pre := []any{ours("Edit|MultiEdit|Write", 600)}
			if tc.theirs != nil {
				body := tc.theirs(target)
				if body == "%s" {
					body = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"their own rule"}}'`
				}
				pre = append(pre, map[string]any{"matcher": "Edit|MultiEdit|Write", "hooks": []any{map[string]any{"type": "command", "command": theirHook(t, e, body)}}})
			}
			settings := filepath.Join(e.home, "settings.json")
			writeJSON(t, settings, map[string]any{"hooks": map[string]any{
				"PreToolUse":         pre,
				"PostToolUse":        []any{ours("Edit|MultiEdit|Write", 0)},
				"PostToolUseFailure": []any{ours("Edit|MultiEdit|Write", 0)},
				"Stop":               []any{ours("", 0)},
				"SessionEnd":         []any{ours("", 0)},
			}})
			start := time.Now()
			out, errOut, err := run(t, e, dk.root, 120*time.Second, bin, "-p", "change hello in a.txt", "--settings", settings, "--output-format", "json")
			t.Logf("claude -p took %s", time.Since(start).Round(time.Millisecond))
			if err != nil {
				t.Fatalf("claude -p: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
			}
			tc.check(t, dk, target, "claude said: "+out)
		})
	}
}

// TestGeminiAgentWrote is TestClaudeAgentWrote for `gemini -p --approval-mode
// yolo` with the hooks deskctl setup writes (BeforeTool, AfterTool,
// AfterAgent, SessionEnd): blocked by another BeforeTool hook, the approval
// is failed at AfterAgent; the tool failing, at AfterTool with its error.
func TestGeminiAgentWrote(t *testing.T) {
	cli := geminiCLI(t)
	for _, tc := range agentWroteCases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			dk := startDesk(t, e, approve())
			target := dk.writeFile(t, "a.txt", "hello\n")
			api := fakeGemini(t, "replace", map[string]any{"file_path": target, "old_string": "hello", "new_string": "hello from the model", "instruction": "change hello"})
			ours := ourHook("gemini", dk.sock)
			before := []any{ours("replace|write_file", 600000)}
			if tc.theirs != nil {
				body := tc.theirs(target)
				if body == "%s" {
					body = `echo '{"decision":"deny","reason":"their own rule"}'`
				}
				before = append(before, map[string]any{"matcher": "replace|write_file", "hooks": []any{map[string]any{"type": "command", "command": theirHook(t, e, body), "timeout": 60000}}})
			}
			geminiEnv(t, e, api, map[string]any{"hooks": map[string]any{
				"BeforeTool": before,
				"AfterTool":  []any{ours("replace|write_file", 0)},
				"AfterAgent": []any{ours("", 0)},
				"SessionEnd": []any{ours("", 0)},
			}})
			start := time.Now()
			out, errOut, err := run(t, e, dk.root, 120*time.Second, "node", cli, "-p", "change hello in a.txt", "--approval-mode", "yolo")
			t.Logf("gemini -p took %s", time.Since(start).Round(time.Millisecond))
			if err != nil {
				t.Logf("gemini -p: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
			}
			tc.check(t, dk, target, "gemini said: "+out+"\n"+errOut)
		})
	}
}

// ourHook is DiffDesk's hook group for agent (claude, gemini) on the desk
// at sock, as deskctl setup writes it: for tools matching matcher ("" for
// every event), with timeout (0 for the agent's own).
func ourHook(agent, sock string) func(matcher string, timeout int) map[string]any {
	return func(matcher string, timeout int) map[string]any {
		h := map[string]any{"type": "command", "command": deskctlBin + " hook " + agent + " --socket " + sock}
		if timeout > 0 {
			h["timeout"] = timeout
		}
		g := map[string]any{"hooks": []any{h}}
		if matcher != "" {
			g["matcher"] = matcher
		}
		return g
	}
}

// check checks a run of tc: the person approved, a.txt (at target) holds
// what the case says, and the history records the case's verdict and
// reason; said is what the agent printed.
func (tc agentWroteCase) check(t *testing.T, dk *desk, target, said string) {
	t.Helper()
	if o := dk.outcome(t, 10*time.Second); o.Status != decision.Approved {
		t.Fatalf("the person's decision ended %s; want approved", o.Status)
	}
	if got := readFile(t, target); got != tc.file {
		t.Errorf("a.txt = %q; want %q\n%s", got, tc.file, said)
	}
	v, fb := dk.awaitHistory(t, tc.want)
	if v != tc.want || !strings.Contains(fb, tc.why) {
		t.Errorf("history: %s %q; want %s saying %q\n%s", v, fb, tc.want, tc.why, said)
	}
}
