package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// historyDecisions is `deskctl history list --json` of the desk at sock
// (its journal beside the socket): each entry's decision and feedback.
func historyDecisions(t *testing.T, sock string) []struct{ Decision, Feedback string } {
	t.Helper()
	out, errOut, code := deskctl(t, "", "history", "list", "--json", "--journal", filepath.Join(filepath.Dir(sock), "j.db"))
	if code != 0 {
		t.Fatalf("history list: exit %d, %s", code, errOut)
	}
	var page struct {
		Entries []struct{ Decision, Feedback string }
	}
	if err := json.Unmarshal([]byte(out), &page); err != nil {
		t.Fatalf("history list --json: %v\n%s", err, out)
	}
	return page.Entries
}

// TestClineBlockedApprovalNotRecordedApproved: an approval the hook then
// blocks (Cline's editor cannot write it exactly) is in the history as
// failed, saying it was approved and not written — never as approved.
func TestClineBlockedApprovalNotRecordedApproved(t *testing.T) {
	root, sock := deskDeciding(t, approveAs("the PERSON's line\n"))
	path := filepath.Join(root, "empty.txt")
	os.WriteFile(path, nil, 0o644)
	out, _, _ := deskctl(t, clineJSON(t, "tool_call", "editor", map[string]any{"path": path, "new_text": "x\n", "insert_line": 1.0}), "hook", "cline", "--socket", sock)
	if !blocked(clineAnswer(t, out)) {
		t.Fatalf("answer %q; want the tool blocked", out)
	}
	es := historyDecisions(t, sock)
	if len(es) != 1 || es[0].Decision != "failed" || !strings.Contains(es[0].Feedback, "but not written") || !strings.Contains(es[0].Feedback, "empty now") {
		t.Errorf("history %+v; want one failed decision saying it was approved but not written, and why", es)
	}
}

// TestClineApprovalBlockedAfterTheHook: the hook lets an approval run, but
// the tool does not write it (another hook of the person's blocked it, the
// tool failed): PostToolUse tells the desk, and the history says failed
// with Cline's error; an approval the tool wrote stays approved.
func TestClineApprovalBlockedAfterTheHook(t *testing.T) {
	for _, tc := range []struct {
		name  string
		write bool
		want  string
	}{{"not written", false, "failed"}, {"written", true, "approved"}} {
		t.Run(tc.name, func(t *testing.T) {
			root, sock := deskDeciding(t, approveAs(""))
			path := filepath.Join(root, "f.txt")
			os.WriteFile(path, []byte("a\nb\nc\n"), 0o644)
			in := map[string]any{"path": path, "old_text": "b", "new_text": "B"}
			if out, _, _ := deskctl(t, clineJSON(t, "tool_call", "editor", in), "hook", "cline", "--socket", sock); clineAnswer(t, out) != nil {
				t.Fatalf("approved as proposed, the hook answered %q", out)
			}
			if tc.write {
				os.WriteFile(path, []byte("a\nB\nc\n"), 0o644)
			}
			ev := map[string]any{}
			json.Unmarshal([]byte(clineJSON(t, "tool_result", "editor", map[string]any{})), &ev)
			ev["tool_result"].(map[string]any)["error"] = "✖ Invalid input: expected string, received undefined"
			b, _ := json.Marshal(ev)
			deskctl(t, string(b), "hook", "cline", "--socket", sock)
			es := historyDecisions(t, sock)
			if len(es) != 1 || es[0].Decision != tc.want {
				t.Fatalf("history %+v; want one %s decision", es, tc.want)
			}
			if tc.want == "failed" && !strings.Contains(es[0].Feedback, "Invalid input") {
				t.Errorf("feedback %q; want Cline's error in it", es[0].Feedback)
			}
		})
	}
}

// TestClineTaskEndRecordsUnwritten: the run ends (cancelled, failed: the
// TaskCancel, TaskError and SessionShutdown hooks) after an approval but before the tool's
// PostToolUse hook; the hook at the task's end tells the desk, and the
// history says failed with why. An approval the tool wrote, and another
// task's, are left as they are.
func TestClineTaskEndRecordsUnwritten(t *testing.T) {
	root, sock := deskDeciding(t, approveAs(""))
	path := filepath.Join(root, "f.txt")
	os.WriteFile(path, []byte("a\nb\nc\n"), 0o644)
	in := map[string]any{"path": path, "old_text": "b", "new_text": "B"}
	deskctl(t, clineJSON(t, "tool_call", "editor", in), "hook", "cline", "--socket", sock)
	other, _ := json.Marshal(map[string]any{"hookName": "agent_error", "taskId": "conv_other", "error": map[string]any{"message": "x"}})
	deskctl(t, string(other), "hook", "cline", "--socket", sock)
	if es := historyDecisions(t, sock); len(es) != 1 || es[0].Decision != "approved" {
		t.Fatalf("another task's end changed the history: %+v", es)
	}
	end, _ := json.Marshal(map[string]any{"hookName": "session_shutdown", "taskId": "conv_1", "reason": "aborted by another client"})
	out, _, code := deskctl(t, string(end), "hook", "cline", "--socket", sock)
	if code != 0 || clineAnswer(t, out) != nil {
		t.Errorf("the task's end hook: exit %d, answered %q; want nothing", code, out)
	}
	es := historyDecisions(t, sock)
	if len(es) != 1 || es[0].Decision != "failed" || !strings.Contains(es[0].Feedback, "Cline's run ended before the tool's PostToolUse hook: aborted by another client") {
		t.Errorf("history %+v; want failed, saying the run ended first", es)
	}
}

// TestSetupClineKeepsTheirTaskHook: a TaskCancel hook of the person's own
// stays, and setup writes the others (the review does not depend on it).
func TestSetupClineKeepsTheirTaskHook(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLINE_DIR", "")
	dir := filepath.Join(home, ".cline", "hooks")
	mine := filepath.Join(dir, "TaskCancel")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(mine, []byte("#!/bin/sh\necho bye\n"), 0o755)
	exe, _ := os.Executable()
	if _, errOut, code := deskctl(t, "", "setup", "--yes", "--deskctl", exe, "cline"); code != 0 {
		t.Fatalf("setup: exit %d, %s", code, errOut)
	}
	if b, _ := os.ReadFile(mine); string(b) != "#!/bin/sh\necho bye\n" {
		t.Errorf("the person's TaskCancel hook was changed: %q", b)
	}
	for _, name := range []string{"PreToolUse", "PostToolUse", "TaskError", "SessionShutdown"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || !isClineHook(b) {
			t.Errorf("%s: %v %q; want DiffDesk's hook", name, err, b)
		}
	}
}
