package main

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
	"github.com/tailscale/hujson"
)

// TestMain lets the test binary run as deskctl itself (DESKCTL_AS_MAIN=1):
// setup's hooks are run the way an agent runs them, through sh.
func TestMain(m *testing.M) {
	if os.Getenv("DESKCTL_AS_MAIN") == "1" {
		main()
	}
	os.Exit(m.Run())
}

// setupHome gives the test a home and state directory of its own and a
// deskctl executable (this test binary, DESKCTL_AS_MAIN=1) to name.
func setupHome(t *testing.T) (home, exe string) {
	t.Helper()
	home = t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CODEX_HOME", "")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	exe = filepath.Join(home, "bin", "deskctl")
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(exe), 0o755)
	if err := os.WriteFile(exe, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return home, exe
}

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readTestFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A user's Claude Code settings: strict JSON, four-space indentation, a
// hook of their own, and the README's old hook line naming deskctl without
// a path (where deskctl is not on the agent's PATH, the edit went through).
const claudeSettings = `{
    "model": "opus",
    "permissions": {"allow": ["Bash(ls:*)"]},
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "my-bash-guard"}]},
            {"matcher": "Edit|MultiEdit|Write", "hooks": [{"type": "command", "command": "deskctl hook claude", "timeout": 600}]}
        ]
    },
    "theme": "dark"
}
`

func TestSetupClaude(t *testing.T) {
	home, exe := setupHome(t)
	path := filepath.Join(home, ".claude", "settings.json")
	writeTestFile(t, path, claudeSettings)

	// Shown, asked, declined: nothing written.
	out, errOut, code := deskctl(t, "n\n", "setup", "claude", "--deskctl", exe)
	if code != 1 || readTestFile(t, path) != claudeSettings || !strings.Contains(errOut, "nothing was written") {
		t.Fatalf("declined setup = exit %d, stderr %q; want exit 1 and the file untouched", code, errOut)
	}
	for _, want := range []string{"change " + path, `-            {"matcher": "Edit|MultiEdit|Write", "hooks": [{"type": "command", "command": "deskctl hook claude", "timeout": 600}]}`, `+                        "command": "` + exe + ` hook claude || exit 2",`, "[y/N]"} {
		if !strings.Contains(out, want) {
			t.Errorf("setup showed:\n%s\nwant it to hold %q", out, want)
		}
	}

	if _, errOut, code := deskctl(t, "y\n", "setup", "claude", "--deskctl", exe); code != 0 {
		t.Fatalf("setup claude = exit %d: %s", code, errOut)
	}
	got := readTestFile(t, path)
	var s struct {
		Model string
		Theme string
		Hooks map[string][]struct {
			Matcher string
			Hooks   []struct {
				Type, Command string
				Timeout       int
			}
		}
	}
	if err := json.Unmarshal([]byte(got), &s); err != nil {
		t.Fatalf("settings after setup are not JSON: %v\n%s", err, got)
	}
	pre := s.Hooks["PreToolUse"]
	if s.Model != "opus" || s.Theme != "dark" || len(pre) != 2 || pre[0].Hooks[0].Command != "my-bash-guard" ||
		pre[1].Matcher != "Edit|MultiEdit|Write" || pre[1].Hooks[0].Command != exe+" hook claude || exit 2" || pre[1].Hooks[0].Timeout != 600 {
		t.Errorf("settings after setup:\n%s\nwant the user's settings and hook kept, and one DiffDesk hook by absolute path", got)
	}
	// The rest of the file is as it was, line for line.
	for _, line := range strings.Split(claudeSettings, "\n") {
		if !strings.Contains(line, "deskctl") && !strings.Contains(got, line) {
			t.Errorf("setup changed the user's line %q:\n%s", line, got)
		}
	}

	// Again: nothing to do.
	out, _, code = deskctl(t, "", "setup", "claude", "--deskctl", exe)
	if code != 0 || readTestFile(t, path) != got || !strings.Contains(out, "set up already") {
		t.Errorf("second setup = exit %d, %q; want nothing changed", code, out)
	}

	// Undo: exactly what was there.
	if out, errOut, code := deskctl(t, "", "setup", "claude", "--undo", "--yes"); code != 0 || readTestFile(t, path) != claudeSettings {
		t.Errorf("undo = exit %d, %s %s; file now:\n%s\nwant the original byte for byte", code, out, errOut, readTestFile(t, path))
	}
}

// TestSetupUndoAfterChange: a settings file the person changed after setup
// loses only DiffDesk's entries on undo, their change stays.
func TestSetupUndoAfterChange(t *testing.T) {
	home, exe := setupHome(t)
	path := filepath.Join(home, ".claude", "settings.json")
	if _, errOut, code := deskctl(t, "", "setup", "claude", "--yes", "--deskctl", exe); code != 0 {
		t.Fatalf("setup = exit %d: %s", code, errOut)
	}
	set := readTestFile(t, path)
	changed := strings.Replace(set, "{", "{\n  \"theme\": \"light\",", 1)
	writeTestFile(t, path, changed)
	if _, errOut, code := deskctl(t, "", "setup", "claude", "--undo", "--yes"); code != 0 {
		t.Fatalf("undo = exit %d: %s", code, errOut)
	}
	got := readTestFile(t, path)
	if strings.Contains(got, "deskctl") || !strings.Contains(got, `"theme": "light"`) || !json.Valid([]byte(got)) {
		t.Errorf("undo after a change left:\n%s\nwant the person's theme and no hook", got)
	}
	// A file setup made and nobody changed is removed again.
	cursor := filepath.Join(home, ".cursor", "mcp.json")
	deskctl(t, "", "setup", "cursor", "--yes", "--deskctl", exe)
	if _, err := os.Stat(cursor); err != nil {
		t.Fatalf("setup cursor made no %s: %v", cursor, err)
	}
	deskctl(t, "", "setup", "cursor", "--yes", "--undo")
	if _, err := os.Stat(cursor); !os.IsNotExist(err) {
		t.Errorf("undo left %s, which setup made: %v", cursor, err)
	}
}

// Gemini CLI's settings allow comments; they stay, and the project's file
// is written with --project.
func TestSetupGeminiProject(t *testing.T) {
	_, exe := setupHome(t)
	repo := t.TempDir()
	os.Mkdir(filepath.Join(repo, ".git"), 0o755)
	sub := filepath.Join(repo, "src")
	os.Mkdir(sub, 0o755)
	t.Chdir(sub)
	path := filepath.Join(repo, ".gemini", "settings.json")
	orig := "{\n  // keep IDE mode on\n  \"ide\": {\"enabled\": true},\n  \"hooks\": {\n    \"BeforeTool\": []\n  }\n}\n"
	writeTestFile(t, path, orig)
	if _, errOut, code := deskctl(t, "", "setup", "gemini", "--project", "--yes", "--deskctl", exe); code != 0 {
		t.Fatalf("setup gemini --project = exit %d: %s", code, errOut)
	}
	got := readTestFile(t, path)
	v, err := hujson.Parse([]byte(got))
	if err != nil {
		t.Fatalf("settings after setup do not parse: %v\n%s", err, got)
	}
	v.Standardize()
	var s struct {
		Hooks map[string][]struct {
			Matcher string
			Hooks   []struct {
				Command string
				Timeout int
			}
		}
	}
	json.Unmarshal(v.Pack(), &s)
	bt, at := s.Hooks["BeforeTool"], s.Hooks["AfterTool"]
	if !strings.Contains(got, "// keep IDE mode on") || len(bt) != 1 || len(at) != 1 || bt[0].Hooks[0].Timeout != 600000 ||
		bt[0].Matcher != "replace|write_file" || at[0].Hooks[0].Command != exe+" hook gemini || exit 2" {
		t.Errorf("gemini settings after setup:\n%s", got)
	}
	deskctl(t, "", "setup", "gemini", "--project", "--yes", "--undo")
	if got := readTestFile(t, path); got != orig {
		t.Errorf("undo left:\n%s\nwant:\n%s", got, orig)
	}
}

func TestSetupCodexTOML(t *testing.T) {
	home, exe := setupHome(t)
	path := filepath.Join(home, ".codex", "config.toml")
	orig := "model = \"gpt-5\"   # mine\n\n[mcp_servers.other]\ncommand = \"other\"\n"
	writeTestFile(t, path, orig)
	if _, errOut, code := deskctl(t, "", "setup", "codex", "--yes", "--deskctl", exe); code != 0 {
		t.Fatalf("setup codex = exit %d: %s", code, errOut)
	}
	got := readTestFile(t, path)
	var cfg struct {
		Model      string
		MCPServers map[string]struct {
			Command string
			Args    []string
		} `toml:"mcp_servers"`
	}
	if err := toml.Unmarshal([]byte(got), &cfg); err != nil {
		t.Fatalf("config after setup is not TOML: %v\n%s", err, got)
	}
	if !strings.HasPrefix(got, orig) || cfg.MCPServers["diffdesk"].Command != exe || strings.Join(cfg.MCPServers["diffdesk"].Args, " ") != "mcp" || cfg.MCPServers["other"].Command != "other" {
		t.Errorf("config after setup:\n%s", got)
	}
	// A server of the same name with another path is replaced in place.
	before := strings.Replace(got, exe, "/old/deskctl", 1) + "\n[profiles.x]\nmodel = \"o3\"\n"
	writeTestFile(t, path, before)
	if _, errOut, code := deskctl(t, "", "setup", "codex", "--yes", "--deskctl", exe); code != 0 {
		t.Fatalf("setup codex again = exit %d: %s", code, errOut)
	}
	if got := readTestFile(t, path); strings.Contains(got, "/old/deskctl") || strings.Count(got, "[mcp_servers.diffdesk]") != 1 || !strings.HasSuffix(got, "[profiles.x]\nmodel = \"o3\"\n") {
		t.Errorf("config after replacing the server:\n%s", got)
	}
	// Undo restores what that setup found; with the file changed since,
	// it takes out only the table.
	deskctl(t, "", "setup", "codex", "--yes", "--undo")
	if got := readTestFile(t, path); got != before {
		t.Errorf("undo left:\n%q\nwant:\n%q", got, before)
	}
	deskctl(t, "", "setup", "codex", "--yes", "--undo")
	if got := readTestFile(t, path); got != orig+"\n[profiles.x]\nmodel = \"o3\"\n" {
		t.Errorf("second undo left:\n%q", got)
	}
}

// TestSetupRefusesBrokenSettings: a settings file that does not parse is
// named with what is wrong, and left alone.
func TestSetupRefusesBrokenSettings(t *testing.T) {
	home, exe := setupHome(t)
	path := filepath.Join(home, ".claude", "settings.json")
	writeTestFile(t, path, "{\"model\": ")
	_, errOut, code := deskctl(t, "", "setup", "claude", "--yes", "--deskctl", exe)
	if code != 1 || !strings.Contains(errOut, path) || !strings.Contains(errOut, "not JSON") || readTestFile(t, path) != "{\"model\": " {
		t.Errorf("setup on broken settings = exit %d, %q", code, errOut)
	}
	writeTestFile(t, path, `{"hooks": []}`)
	if _, errOut, code := deskctl(t, "", "setup", "claude", "--yes", "--deskctl", exe); code != 1 || !strings.Contains(errOut, `"hooks"`) {
		t.Errorf("setup on hooks that are not an object = exit %d, %q", code, errOut)
	}
	if _, errOut, code := deskctl(t, "", "setup", "nosuch"); code != 2 || !strings.Contains(errOut, "unknown agent") {
		t.Errorf("setup nosuch = exit %d, %q", code, errOut)
	}
}

// TestSetupHookFailsClosed runs the hook command setup wrote the way the
// agents run it (sh -c, the hook's JSON on stdin): with no desk it blocks
// (exit 2); with deskctl gone from where setup found it — the shell's 127,
// which Claude Code and Gemini CLI take as "carry on" — it blocks too.
func TestSetupHookFailsClosed(t *testing.T) {
	home, exe := setupHome(t)
	t.Setenv("DESKCTL_AS_MAIN", "1")
	t.Setenv("DIFFDESK_SOCKET", filepath.Join(home, "none.sock"))
	if _, errOut, code := deskctl(t, "", "setup", "claude", "--yes", "--deskctl", exe); code != 0 {
		t.Fatalf("setup = exit %d: %s", code, errOut)
	}
	var s struct {
		Hooks map[string][]struct{ Hooks []struct{ Command string } }
	}
	json.Unmarshal([]byte(readTestFile(t, filepath.Join(home, ".claude", "settings.json"))), &s)
	command := s.Hooks["PreToolUse"][0].Hooks[0].Command
	in := `{"hook_event_name":"PreToolUse","tool_name":"Edit","cwd":"/tmp","tool_input":{"file_path":"/tmp/x","old_string":"a","new_string":"b"}}`
	runHook := func() (int, string) {
		cmd := exec.Command("sh", "-c", command)
		cmd.Env = append(os.Environ(), "PATH=/usr/bin:/bin") // no deskctl on the PATH
		cmd.Stdin = strings.NewReader(in)
		var errOut strings.Builder
		cmd.Stderr = &errOut
		cmd.Stdout = io.Discard
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), errOut.String()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0, errOut.String()
	}
	if code, errOut := runHook(); code != 2 || !strings.Contains(errOut, "not running") {
		t.Errorf("hook with no desk = exit %d, %q; want 2 and why", code, errOut)
	}
	os.Remove(exe)
	if code, errOut := runHook(); code != 2 {
		t.Errorf("hook whose deskctl is gone = exit %d, %q; want 2 (127 lets the edit through)", code, errOut)
	}
}

// TestSetupKeepsLayout: what setup adds is laid out as the file is — a
// file on one line stays on one line, a tab-indented one gets tabs.
func TestSetupKeepsLayout(t *testing.T) {
	home, exe := setupHome(t)
	path := filepath.Join(home, ".cursor", "mcp.json")
	for _, tc := range []struct{ orig, want string }{
		{`{"mcpServers":{"x":{"command":"x"}}}`, `{"mcpServers":{"x":{"command":"x"},"diffdesk":{"command":"` + exe + `","args":["mcp"]}}}`},
		{"{\n\t\"a\": 1\n}\n", "{\n\t\"a\": 1,\n\t\"mcpServers\": {\n\t\t\"diffdesk\": {\n\t\t\t\"command\": \"" + exe + "\",\n\t\t\t\"args\": [\n\t\t\t\t\"mcp\"\n\t\t\t]\n\t\t}\n\t}\n}\n"},
	} {
		writeTestFile(t, path, tc.orig)
		deskctl(t, "", "setup", "cursor", "--yes", "--deskctl", exe)
		if got := readTestFile(t, path); got != tc.want {
			t.Errorf("setup of %q wrote:\n%s\nwant:\n%s", tc.orig, got, tc.want)
		}
		deskctl(t, "", "setup", "cursor", "--yes", "--undo")
		if got := readTestFile(t, path); got != tc.orig {
			t.Errorf("undo left %q; want %q", got, tc.orig)
		}
	}
}

func TestDeskHookRE(t *testing.T) {
	for cmd, want := range map[string]bool{
		"deskctl hook claude":                        true,
		"/opt/x/bin/deskctl hook gemini --socket /s": true,
		"'/home/me/my tools/deskctl' hook claude":    true,
		"/tmp/glue-deskctl hook claude || exit 2":    true,
		"/usr/bin/my-bash-guard hook":                false,
		"echo deskctl":                               false,
		"/home/deskctl/bin/guard hook claude":        false,
	} {
		if got := deskHookRE.MatchString(cmd); got != want {
			t.Errorf("deskHookRE.MatchString(%q) = %v; want %v", cmd, got, want)
		}
	}
}

// TestSetupEndHooksNeverBlock: the hooks setup adds at a turn's or
// session's end (and after a tool's failure) exit 0 with no desk and with
// deskctl gone: a block at Gemini CLI's AfterAgent or Claude Code's Stop
// makes the agent carry on — a real gemini -p went round for 700 s with
// deskctl deleted (exit 2, and then the shell's 127, which Gemini CLI
// takes as a block too).
func TestSetupEndHooksNeverBlock(t *testing.T) {
	for _, tc := range []struct{ agent, file string }{{"claude", ".claude/settings.json"}, {"gemini", ".gemini/settings.json"}} {
		t.Run(tc.agent, func(t *testing.T) {
			home, exe := setupHome(t)
			t.Setenv("DESKCTL_AS_MAIN", "1")
			t.Setenv("DIFFDESK_SOCKET", filepath.Join(home, "none.sock"))
			if _, errOut, code := deskctl(t, "", "setup", tc.agent, "--yes", "--deskctl", exe); code != 0 {
				t.Fatalf("setup = exit %d: %s", code, errOut)
			}
			var s struct {
				Hooks map[string][]struct{ Hooks []struct{ Command string } }
			}
			json.Unmarshal([]byte(readTestFile(t, filepath.Join(home, tc.file))), &s)
			ends := map[string]bool{"Stop": true, "SessionEnd": true, "AfterAgent": true, "PostToolUseFailure": true}
			run := func(command, event string) int {
				cmd := exec.Command("sh", "-c", command)
				cmd.Env = append(os.Environ(), "PATH=/usr/bin:/bin")
				cmd.Stdin = strings.NewReader(`{"session_id":"s","hook_event_name":"` + event + `","tool_name":"Edit","tool_input":{"file_path":"/tmp/x"}}`)
				err := cmd.Run()
				if ee, ok := err.(*exec.ExitError); ok {
					return ee.ExitCode()
				}
				return 0
			}
			n := 0
			for event, groups := range s.Hooks {
				if !ends[event] {
					continue
				}
				n++
				command := groups[0].Hooks[0].Command
				if code := run(command, event); code != 0 {
					t.Errorf("%s with no desk = exit %d; want 0", event, code)
				}
				os.Rename(exe, exe+".gone")
				if code := run(command, event); code != 0 {
					t.Errorf("%s with deskctl gone = exit %d; want 0 (Gemini CLI blocks on any other code that prints)", event, code)
				}
				os.Rename(exe+".gone", exe)
			}
			if want := map[string]int{"claude": 3, "gemini": 2}[tc.agent]; n != want {
				t.Errorf("%d end hooks set up; want %d", n, want)
			}
		})
	}
}
