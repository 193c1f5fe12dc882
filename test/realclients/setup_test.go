package realclients

import (
	"os"
	"path/filepath"
	"testing"
)

// setUpCase is one run of a real agent with the settings deskctl setup
// wrote: with the desk, with no desk, or with deskctl gone from the path
// setup wrote (no deskctl on the PATH either: the agents run a hook
// named without a path, or one that is gone, as a non-blocking error).
type setUpCase struct {
	name         string
	desk, remove bool
	want         string
}

var setUpCases = []setUpCase{
	{"the desk decides", true, false, "hello from a PERSON\n"},
	{"no desk running: blocked", false, false, "hello\n"},
	{"deskctl gone: blocked", true, true, "hello\n"},
}

// setUpAgent copies deskctl into e's home, runs its `setup AGENT --yes`
// with e's environment (the user's settings under e's home) and the
// desk's socket, and returns the copy.
func setUpAgent(t *testing.T, e *env, agent, sock string) string {
	t.Helper()
	buildDeskctl(t)
	own := filepath.Join(e.home, "bin", "deskctl")
	os.MkdirAll(filepath.Dir(own), 0o755)
	data, err := os.ReadFile(deskctlBin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(own, data, 0o755); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := run(t, e, e.home, 30e9, own, "setup", agent, "--yes", "--socket", sock)
	if err != nil {
		t.Fatalf("deskctl setup %s: %v\n%s%s", agent, err, out, errOut)
	}
	t.Logf("deskctl setup %s:\n%s", agent, out)
	return own
}

// caseDesk is the desk of a case: a running one deciding as who, or only
// a workspace and a socket nobody listens on.
func caseDesk(t *testing.T, e *env, tc setUpCase, who person) (root, sock string, dk *desk) {
	if tc.desk {
		dk = startDesk(t, e, who)
		return dk.root, dk.sock, dk
	}
	root = filepath.Join(e.home, "proj")
	os.MkdirAll(root, 0o755)
	return root, filepath.Join(e.tmp, "nobody.sock"), nil
}

// TestClaudeSetUpByDeskctl: `deskctl setup claude` writes the user's
// settings and the real `claude -p` reads them (no --settings): the
// person's text reaches the file; with no desk, or with deskctl gone,
// the edit is blocked, never written unreviewed.
func TestClaudeSetUpByDeskctl(t *testing.T) {
	bin := claudeBin(t)
	for _, tc := range setUpCases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.vars = append(e.vars[:len(e.vars):len(e.vars)], "PATH=/usr/bin:/bin")
			root, sock, dk := caseDesk(t, e, tc, approveAs("hello from a PERSON\n"))
			target := filepath.Join(root, "a.txt")
			os.WriteFile(target, []byte("hello\n"), 0o644)
			own := setUpAgent(t, e, "claude", sock)
			if tc.remove {
				os.Remove(own)
			}
			api := fakeAnthropic(t, "Edit", map[string]any{"file_path": target, "old_string": "hello", "new_string": "hello from the model"})
			e.vars = append(e.vars, "ANTHROPIC_BASE_URL="+api.URL, "ANTHROPIC_API_KEY=sk-ant-fake-local-stub-0000000000000000")
			out, errOut, err := run(t, e, root, 120e9, bin, "-p", "change hello in a.txt", "--output-format", "json", "--permission-mode", "acceptEdits")
			if err != nil {
				t.Logf("claude -p: %v\nstderr:\n%s", err, errOut)
			}
			if dk != nil && !tc.remove {
				dk.outcome(t, 10e9)
			}
			if got := readFile(t, target); got != tc.want {
				t.Errorf("a.txt = %q; want %q\nclaude said: %s", got, tc.want, out)
			}
		})
	}
}

// TestGeminiSetUpByDeskctl: the same with `deskctl setup gemini` and the
// real `gemini -p` in YOLO mode, which writes whatever no hook blocks.
func TestGeminiSetUpByDeskctl(t *testing.T) {
	cli := geminiCLI(t)
	for _, tc := range setUpCases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			root, sock, dk := caseDesk(t, e, tc, approveAs("hello from a PERSON\n"))
			target := filepath.Join(root, "a.txt")
			os.WriteFile(target, []byte("hello\n"), 0o644)
			api := fakeGemini(t, "replace", map[string]any{"file_path": target, "old_string": "hello", "new_string": "hello from the model", "instruction": "change hello"})
			geminiEnv(t, e, api, nil)
			own := setUpAgent(t, e, "gemini", sock)
			if tc.remove {
				os.Remove(own)
			}
			out, errOut, err := run(t, e, root, 120e9, "node", cli, "-p", "change hello in a.txt", "--approval-mode", "yolo")
			if err != nil {
				t.Logf("gemini -p: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
			}
			// A hook that blocks at AfterAgent makes Gemini CLI go on:
			// deskctl gone, it went round until killed (TestSetupEndHooksNeverBlock).
			if n := len(api.afterToolCall()); n > 3 {
				t.Errorf("%d model requests after the tool call; want the one that ends the turn (an end hook blocking keeps the agent going)\ngemini said: %s", n, out)
			}
			if dk != nil && !tc.remove {
				dk.outcome(t, 10e9)
			}
			if got := readFile(t, target); got != tc.want {
				t.Errorf("a.txt = %q; want %q\ngemini said: %s\n%s", got, tc.want, out, errOut)
			}
		})
	}
}
