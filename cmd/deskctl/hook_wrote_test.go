package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// afterJSON is an after or end hook's input: hookJSON's with extra fields.
func afterJSON(t *testing.T, event, tool, cwd string, input map[string]any, extra map[string]any) string {
	t.Helper()
	m := map[string]any{}
	json.Unmarshal([]byte(hookJSON(t, event, tool, cwd, input)), &m)
	if tool == "" {
		delete(m, "tool_name")
		delete(m, "tool_input")
	}
	for k, v := range extra {
		m[k] = v
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// TestHookAgentWrote: issue 27 — Claude Code and Gemini CLI write an
// approved file themselves, and the desk recorded "approved" whatever the
// tool then did. The hook after the tool (PostToolUse, PostToolUseFailure,
// AfterTool) tells the desk, or, where the tool never reached one (another
// hook blocked it, the person interrupted it), the hook at the end of the
// turn (Stop, AfterAgent) or session (SessionEnd) does; the desk checks the
// disk and records an approval not written as failed, with why. A file
// that holds the approved text stays approved.
func TestHookAgentWrote(t *testing.T) {
	for _, tc := range []struct {
		name, agent, before, tool string
		write                     string // what the tool leaves in the file; "" for nothing
		after, afterTool          string // the next hook event, and its tool_name ("" for an end event)
		extra                     map[string]any
		want, feedback            string
	}{
		{"claude written", "claude", "PreToolUse", "Edit", "a\nB\n", "PostToolUse", "Edit", map[string]any{"tool_use_id": "t1"}, "approved", ""},
		{"claude wrote something else", "claude", "PreToolUse", "Edit", "a\nX\n", "PostToolUse", "Edit", map[string]any{"tool_use_id": "t1"}, "failed", "did not hold the approved text"},
		{"claude tool failed", "claude", "PreToolUse", "Edit", "", "PostToolUseFailure", "Edit",
			map[string]any{"tool_use_id": "t1", "error": "File has been modified since read", "is_interrupt": false}, "failed", "File has been modified since read"},
		{"claude permission request, tool blocked, turn ends", "claude", "PermissionRequest", "Write", "", "Stop", "", nil, "failed", "Stop hook came with no after-tool hook"},
		{"claude session ends", "claude", "PreToolUse", "Edit", "", "SessionEnd", "", map[string]any{"reason": "prompt_input_exit"}, "failed", "SessionEnd"},
		{"claude turn ends after the tool wrote it", "claude", "PreToolUse", "Edit", "a\nB\n", "Stop", "", nil, "approved", ""},
		{"gemini written", "gemini", "BeforeTool", "replace", "a\nB\n", "AfterTool", "replace", map[string]any{"tool_response": map[string]any{"llmContent": "ok"}}, "approved", ""},
		{"gemini tool failed", "gemini", "BeforeTool", "replace", "", "AfterTool", "replace",
			map[string]any{"tool_response": map[string]any{"error": map[string]any{"type": "edit_no_occurrence_found", "message": "Failed to edit, could not find the string to replace."}}}, "failed", "could not find the string"},
		{"gemini tool blocked, turn ends", "gemini", "BeforeTool", "write_file", "", "AfterAgent", "", nil, "failed", "AfterAgent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, sock := deskDeciding(t, approveAs(""))
			path := filepath.Join(root, "f.txt")
			os.WriteFile(path, []byte("a\nb\n"), 0o644)
			input := map[string]any{"file_path": path, "old_string": "b", "new_string": "B"}
			if tc.tool == "Write" || tc.tool == "write_file" {
				input = map[string]any{"file_path": path, "content": "a\nB\n"}
			}
			ids := map[string]any{}
			if tc.agent == "claude" {
				ids["tool_use_id"] = "t1"
			}
			if out, errOut, code := deskctl(t, afterJSON(t, tc.before, tc.tool, root, input, ids), "hook", tc.agent, "--socket", sock); code != 0 || !strings.Contains(out, `allow`) {
				t.Fatalf("%s = exit %d, %s (stderr %q); want allow", tc.before, code, out, errOut)
			}
			if tc.write != "" {
				os.WriteFile(path, []byte(tc.write), 0o644)
			}
			out, errOut, code := deskctl(t, afterJSON(t, tc.after, tc.afterTool, root, input, tc.extra), "hook", tc.agent, "--socket", sock)
			if code != 0 {
				t.Fatalf("%s = exit %d, %s (stderr %q); an after or end hook never blocks", tc.after, code, out, errOut)
			}
			if tc.afterTool == "" && out != "" {
				t.Errorf("%s answered %q; want nothing", tc.after, out)
			}
			es := historyDecisions(t, sock)
			if len(es) != 1 || es[0].Decision != tc.want || !strings.Contains(es[0].Feedback, tc.feedback) {
				t.Fatalf("history %+v; want one %s decision saying %q", es, tc.want, tc.feedback)
			}
			// Told once: a later end of the turn finds nothing left.
			if out, _, code := deskctl(t, afterJSON(t, "Stop", "", root, nil, nil), "hook", tc.agent, "--socket", sock); code != 0 || out != "" {
				t.Errorf("a second Stop = exit %d, %q", code, out)
			}
		})
	}
}

// TestHookEndEventsNeverBlock: a turn's or session's end hook with nothing
// pending, or with no desk at all, answers nothing and exits 0 (exit 2 at
// Stop or AfterAgent would keep the agent going).
func TestHookEndEventsNeverBlock(t *testing.T) {
	for _, ev := range []string{"Stop", "SessionEnd", "AfterAgent"} {
		for _, sock := range []string{filepath.Join(t.TempDir(), "none.sock")} {
			out, errOut, code := deskctl(t, `{"session_id":"s1","hook_event_name":"`+ev+`"}`, "hook", "claude", "--socket", sock)
			if code != 0 || out != "" {
				t.Errorf("%s without a desk = exit %d, %q (stderr %q); want exit 0 and nothing", ev, code, out, errOut)
			}
		}
	}
}
