package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDoctor: no desk, a hook set up by setup that runs, the README's old
// hook line without a path, a hook whose deskctl is gone, and Codex whose
// own edit tools still write — each a problem with its fix.
func TestDoctor(t *testing.T) {
	home, exe := setupHome(t)
	t.Setenv("DESKCTL_AS_MAIN", "1")
	t.Chdir(home)
	sock := filepath.Join(home, "none.sock")
	deskctl(t, "", "setup", "gemini", "--yes", "--deskctl", exe)
	writeTestFile(t, filepath.Join(home, ".claude", "settings.json"),
		`{"hooks":{"PreToolUse":[{"matcher":"Edit","hooks":[{"type":"command","command":"deskctl hook claude"}]}]}}`)
	gone := filepath.Join(home, "gone", "deskctl")
	deskctl(t, "", "setup", "codex", "--yes", "--deskctl", exe)

	out, _, code := deskctl(t, "", "doctor", "--socket", sock)
	for _, want := range []string{
		"desk: none at " + sock, "fix: start one: diffdesk",
		"Gemini CLI:\n  set up in " + filepath.Join(home, ".gemini", "settings.json") + "\n    command: " + exe + " hook gemini || exit 2\n      runs",
		`"deskctl" is named without a path`, "fix: deskctl setup claude",
		"Codex CLI:\n  set up in", "PROBLEM: Codex's own apply_patch", `fix: add sandbox_mode = "read-only"`,
		"Cursor:\n  not set up (deskctl setup cursor)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor said:\n%s\nwant it to say %q", out, want)
		}
	}
	if code != 1 {
		t.Errorf("doctor with problems = exit %d; want 1", code)
	}
	// BeforeTool and AfterTool run the same command: it is checked, and
	// said, once.
	if n := strings.Count(out, "command: "+exe+" hook gemini || exit 2"); n != 1 {
		t.Errorf("doctor named Gemini's hook command %d times; want once:\n%s", n, out)
	}

	// Codex with a read-only sandbox: its own edits are refused.
	cfg := filepath.Join(home, ".codex", "config.toml")
	writeTestFile(t, cfg, "sandbox_mode = \"read-only\"\n"+readTestFile(t, cfg))
	// A hook whose deskctl is gone.
	os.MkdirAll(filepath.Dir(gone), 0o755)
	data, _ := os.ReadFile(exe)
	os.WriteFile(gone, data, 0o755)
	deskctl(t, "", "setup", "claude", "--yes", "--deskctl", gone)
	os.Remove(gone)
	out, _, _ = deskctl(t, "", "doctor", "--socket", sock)
	if strings.Contains(out, "Codex's own apply_patch") {
		t.Errorf("doctor with Codex's sandbox read-only still says its edits bypass the desk:\n%s", out)
	}
	if !strings.Contains(out, gone+" is not there") || !strings.Contains(out, "install deskctl (make install), then deskctl setup claude") {
		t.Errorf("doctor with the hook's deskctl gone said:\n%s", out)
	}
}

// TestDoctorClinePartlySetUp: a Cline setup from an older deskctl (the
// review's hook files without the task's end) is named, with its fix; a
// TaskCancel hook of the person's own is no problem.
func TestDoctorClinePartlySetUp(t *testing.T) {
	home, exe := setupHome(t)
	t.Setenv("DESKCTL_AS_MAIN", "1")
	t.Setenv("CLINE_DIR", "")
	t.Chdir(home)
	sock := filepath.Join(home, "none.sock")
	hooks := filepath.Join(home, ".cline", "hooks")
	writeTestFile(t, filepath.Join(hooks, "TaskCancel"), "#!/bin/sh\necho mine\n")
	deskctl(t, "", "setup", "cline", "--yes", "--deskctl", exe)
	if out, _, _ := deskctl(t, "", "doctor", "--socket", sock); strings.Contains(out, "not there, though") {
		t.Errorf("a whole setup (their own TaskCancel kept) is said to be partial:\n%s", out)
	}
	os.Remove(filepath.Join(hooks, "SessionShutdown"))
	out, _, _ := deskctl(t, "", "doctor", "--socket", sock)
	if !strings.Contains(out, filepath.Join(hooks, "SessionShutdown")+": not there,") || !strings.Contains(out, "fix: deskctl setup cline") {
		t.Errorf("doctor with SessionShutdown missing said:\n%s", out)
	}
}
