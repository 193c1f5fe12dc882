package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/journal"
)

// deskDeciding serves a desk over a temporary workspace whose proposals are
// decided by person, standing in for the one at the window; it returns the
// workspace root and the socket.
func deskDeciding(t *testing.T, person func(p review.Proposal) review.Decision) (root, sock string) {
	t.Helper()
	return deskServing(t, person, nil)
}

// deskHolding is deskDeciding with the person at the desk (review.Desk.Attend,
// as the window does): a failure they could place is held, and held
// handles it (Place or Dismiss) before person decides what it becomes.
func deskHolding(t *testing.T, person func(p review.Proposal) review.Decision, held func(d *review.Desk, p review.Proposal)) (root, sock string) {
	t.Helper()
	return deskServing(t, person, held)
}

// deskServing serves the desk of deskDeciding and deskHolding.
func deskServing(t *testing.T, person func(p review.Proposal) review.Decision, held func(d *review.Desk, p review.Proposal)) (root, sock string) {
	t.Helper()
	root = t.TempDir()
	dir, err := os.MkdirTemp("", "dd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock = filepath.Join(dir, "desk.sock")
	j, err := journal.Open(context.Background(), filepath.Join(dir, "j.db"))
	if err != nil {
		t.Fatal(err)
	}
	desk, err := review.NewDesk(review.Options{FailureText: agenttext.Failure, Roots: []string{root}, Config: config.Default(), Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	root = desk.Roots()[0]
	leave := func() {}
	if held != nil {
		leave = desk.Attend()
	}
	pending := make(chan review.Event, 64)
	cancelSub := desk.Subscribe(func(e review.Event) {
		if e.Kind == review.EventPending || e.Kind == review.EventAdded && held != nil {
			pending <- e
		}
	})
	l, err := deskrpc.Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	// Ends when the test's cleanup cancels ctx.
	go func() { served <- deskrpc.NewServer(desk).Serve(ctx, l) }()
	// Ends when the test's cleanup closes pending.
	decided := make(chan struct{})
	go func() {
		defer close(decided)
		for ev := range pending {
			p, ok := desk.Get(ev.ID)
			switch {
			case !ok:
			case p.State == review.StateHeld:
				held(desk, p)
			case ev.Kind == review.EventPending:
				desk.Decide(ctx, ev.ID, person(p))
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-served
		cancelSub()
		close(pending)
		<-decided
		leave()
		desk.Close()
		j.Close()
	})
	return root, sock
}

// approveAs returns a person who approves with text as the file's content
// ("" approves the proposal as it is).
func approveAs(text string) func(review.Proposal) review.Decision {
	return func(p review.Proposal) review.Decision {
		if text == "" {
			return review.Decision{Verdict: decision.Approved}
		}
		return review.Decision{Verdict: decision.ApprovedEdited, Edited: map[string]string{p.Files[0].Path: text}}
	}
}

// rejectWith returns a person who rejects, saying why.
func rejectWith(why string) func(review.Proposal) review.Decision {
	return func(review.Proposal) review.Decision {
		return review.Decision{Verdict: decision.Rejected, Feedback: why}
	}
}

// commenting returns person deciding as before, with a comment on line
// of the new side of the proposal's first file.
func commenting(person func(review.Proposal) review.Decision, line int, text string) func(review.Proposal) review.Decision {
	return func(p review.Proposal) review.Decision {
		dec := person(p)
		dec.Comments = []decision.Comment{{Path: p.Files[0].Path, Side: decision.SideNew, Line: line, Text: text}}
		return dec
	}
}

func hookJSON(t *testing.T, event, tool, cwd string, input map[string]any) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"session_id": "s1", "cwd": cwd, "hook_event_name": event, "tool_name": tool, "tool_input": input})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestHookAnswers(t *testing.T) {
	for _, tc := range []struct {
		name, agent, event, tool string
		input                    func(path string) map[string]any
		person                   func(review.Proposal) review.Decision
		want                     func(path string) []string // parts of the answer, JSON
	}{
		{"claude edit approved", "claude", "PreToolUse", "Edit",
			func(p string) map[string]any {
				return map[string]any{"file_path": p, "old_string": "b", "new_string": "B", "replace_all": false}
			},
			approveAs(""),
			func(p string) []string {
				return []string{`{"hookSpecificOutput":{"additionalContext":"Your edit to ` + p + ` was approved as proposed.\n`,
					`"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"approved in DiffDesk"}}`}
			}},
		{"claude edit approved with the person's text", "claude", "PreToolUse", "Edit",
			func(p string) map[string]any {
				return map[string]any{"file_path": p, "old_string": "b", "new_string": "B", "replace_all": false}
			},
			approveAs("a\nmine\n"),
			func(p string) []string {
				return []string{`"additionalContext":"Your edit to ` + p + ` was approved with changes made by the person`, "\n-B\n+mine\n",
					`"permissionDecision":"allow","permissionDecisionReason":"approved in DiffDesk",` +
						`"updatedInput":{"file_path":"` + p + `","new_string":"a\nmine\n","old_string":"a\nb\n","replace_all":false}}}`}
			}},
		{"claude write rejected", "claude", "PreToolUse", "Write",
			func(p string) map[string]any { return map[string]any{"file_path": p, "content": "new\n"} },
			rejectWith("keep b"),
			func(string) []string {
				return []string{`"permissionDecision":"deny","permissionDecisionReason":"The person reviewing this edit rejected it`}
			}},
		{"claude edit approved with a comment", "claude", "PreToolUse", "Edit",
			func(p string) map[string]any {
				return map[string]any{"file_path": p, "old_string": "b", "new_string": "B", "replace_all": false}
			},
			commenting(approveAs(""), 2, "why upper case?"),
			func(string) []string {
				return []string{"Line 2 of your proposed text:\n```\nB\n```\nComment: why upper case?\n", `"permissionDecision":"allow"`}
			}},
		{"claude write rejected with a comment", "claude", "PreToolUse", "Write",
			func(p string) map[string]any { return map[string]any{"file_path": p, "content": "new\n"} },
			commenting(rejectWith(""), 1, "keep a and b"),
			func(p string) []string {
				return []string{`"permissionDecision":"deny","permissionDecisionReason":"The person reviewing this edit rejected it`,
					"In " + p + ":\n\nLine 1 of your proposed text:\n```\nnew\n```\nComment: keep a and b\n"}
			}},
		{"claude permission request edited", "claude", "PermissionRequest", "Write",
			func(p string) map[string]any { return map[string]any{"file_path": p, "content": "new\n"} },
			approveAs("newer\n"),
			func(p string) []string {
				return []string{`{"hookSpecificOutput":{"decision":{"behavior":"allow","updatedInput":{"content":"newer\n","file_path":"` + p + `"}},"hookEventName":"PermissionRequest"}}`}
			}},
		// The hooks ask the desk for every final text: an outcome without
		// it (an approval as proposed) must not become an empty file.
		{"claude permission request approved as proposed", "claude", "PermissionRequest", "Write",
			func(p string) map[string]any { return map[string]any{"file_path": p, "content": "new\n"} },
			approveAs(""),
			func(p string) []string {
				return []string{`"updatedInput":{"content":"new\n","file_path":"` + p + `"}`}
			}},
		{"gemini write approved as proposed", "gemini", "BeforeTool", "write_file",
			func(p string) map[string]any { return map[string]any{"file_path": p, "content": "new\n"} },
			approveAs(""),
			func(string) []string { return []string{`{"decision":"allow"}`} }},
		{"gemini replace edited: complete tool_input", "gemini", "BeforeTool", "replace",
			func(p string) map[string]any {
				return map[string]any{"file_path": p, "old_string": "b", "new_string": "B", "instruction": "capitalize b"}
			},
			approveAs("a\nmine\n"),
			func(p string) []string {
				return []string{`{"decision":"allow","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"file_path":"` + p +
					`","instruction":"capitalize b","new_string":"a\nmine\n","old_string":"a\nb\n"}}}`}
			}},
		{"gemini write rejected with a comment", "gemini", "BeforeTool", "write_file",
			func(p string) map[string]any { return map[string]any{"file_path": p, "content": "new\n"} },
			commenting(rejectWith("keep b"), 1, "not new"),
			func(string) []string {
				return []string{`{"decision":"deny","reason":"The person reviewing this edit rejected it`, "```\nnew\n```\nComment: not new\n"}
			}},
		{"gemini write rejected", "gemini", "BeforeTool", "write_file",
			func(p string) map[string]any { return map[string]any{"file_path": p, "content": "new\n"} },
			rejectWith("keep b"),
			func(string) []string {
				return []string{`{"decision":"deny","reason":"The person reviewing this edit rejected it`}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, sock := deskDeciding(t, tc.person)
			path := filepath.Join(root, "f.txt")
			os.WriteFile(path, []byte("a\nb\n"), 0o644)
			out, errOut, code := deskctl(t, hookJSON(t, tc.event, tc.tool, root, tc.input(path)), "hook", tc.agent, "--socket", sock)
			for _, want := range tc.want(path) {
				want = strings.ReplaceAll(want, "\n", `\n`) // as JSON spells a newline
				if code != 0 || !strings.Contains(out, want) {
					t.Errorf("hook %s = exit %d, %s (stderr %q); want %s", tc.agent, code, out, errOut, want)
				}
			}
			if b, _ := os.ReadFile(path); string(b) != "a\nb\n" {
				t.Errorf("the desk wrote %s (%q); the agent writes it", path, b)
			}
		})
	}
}

// TestHookReportAfterTheTool: where the reviewing hook's allow cannot carry
// the desk's report to the model, the same command as the after hook
// passes it on — once, and only if the tool wrote what was approved.
func TestHookReportAfterTheTool(t *testing.T) {
	for _, tc := range []struct {
		name, agent, before, after, tool string
		wrote                            bool // the agent's tool writes the approved text
		want                             []string
	}{
		{"claude PermissionRequest, then PostToolUse", "claude", "PermissionRequest", "PostToolUse", "Edit", true,
			[]string{`{"hookSpecificOutput":{"additionalContext":"Your edit to `, `approved with changes made by the person`, "\n-B\n+mine\n", `"hookEventName":"PostToolUse"}}`}},
		{"gemini BeforeTool, then AfterTool", "gemini", "BeforeTool", "AfterTool", "replace", true,
			[]string{`{"hookSpecificOutput":{"additionalContext":"Your edit to `, "\n-B\n+mine\n", `"hookEventName":"AfterTool"}}`}},
		{"the tool failed", "gemini", "BeforeTool", "AfterTool", "replace", false, nil},
		{"PreToolUse said it already", "claude", "PreToolUse", "PostToolUse", "Edit", true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, sock := deskDeciding(t, approveAs("a\nmine\n"))
			path := filepath.Join(root, "f.txt")
			os.WriteFile(path, []byte("a\nb\n"), 0o644)
			input := map[string]any{"file_path": path, "old_string": "b", "new_string": "B"}
			if out, errOut, code := deskctl(t, hookJSON(t, tc.before, tc.tool, root, input), "hook", tc.agent, "--socket", sock); code != 0 || !strings.Contains(out, `"allow"`) {
				t.Fatalf("%s hook = exit %d, %s (stderr %q); want allow", tc.before, code, out, errOut)
			}
			if tc.wrote {
				os.WriteFile(path, []byte("a\nmine\n"), 0o644)
			}
			after := hookJSON(t, tc.after, tc.tool, root, input)
			out, errOut, code := deskctl(t, after, "hook", tc.agent, "--socket", sock)
			for _, want := range tc.want {
				if want = strings.ReplaceAll(want, "\n", `\n`); code != 0 || !strings.Contains(out, want) {
					t.Errorf("%s hook = exit %d, %s (stderr %q); want %s", tc.after, code, out, errOut, want)
				}
			}
			if tc.want == nil && (code != 0 || out != "") {
				t.Errorf("%s hook = exit %d, %s (stderr %q); want exit 0 and nothing", tc.after, code, out, errOut)
			}
			if again, _, _ := deskctl(t, after, "hook", tc.agent, "--socket", sock); again != "" {
				t.Errorf("%s hook run again = %s; want nothing: the report was passed on", tc.after, again)
			}
		})
	}
}

// TestHookReportEscapesForGemini: Gemini CLI passes on < and > as &lt; and
// &gt;, so the report says the file has the real characters.
func TestHookReportEscapesForGemini(t *testing.T) {
	root, sock := deskDeciding(t, approveAs("a\n<mine>\n"))
	path := filepath.Join(root, "f.txt")
	os.WriteFile(path, []byte("a\nb\n"), 0o644)
	input := map[string]any{"file_path": path, "content": "a\n<B>\n"}
	deskctl(t, hookJSON(t, "BeforeTool", "write_file", root, input), "hook", "gemini", "--socket", sock)
	os.WriteFile(path, []byte("a\n<mine>\n"), 0o644)
	out, _, _ := deskctl(t, hookJSON(t, "AfterTool", "write_file", root, input), "hook", "gemini", "--socket", sock)
	var got struct {
		HookSpecificOutput struct{ AdditionalContext string }
	}
	json.Unmarshal([]byte(out), &got)
	if !strings.HasPrefix(got.HookSpecificOutput.AdditionalContext, geminiEscapes) || !strings.Contains(got.HookSpecificOutput.AdditionalContext, "+<mine>") {
		t.Errorf("AfterTool report = %q; want it to start with %q and hold the patch", got.HookSpecificOutput.AdditionalContext, geminiEscapes)
	}
}

// TestHookWithoutDeskBlocks: with no desk running the hook blocks the edit
// (exit 2, which both agents take as "blocked", with the reason), so an
// edit is never written unreviewed because the desk was not started.
func TestHookWithoutDeskBlocks(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "none.sock")
	for _, tc := range []struct{ agent, event, tool string }{
		{"claude", "PreToolUse", "Edit"},
		{"claude", "PermissionRequest", "Write"},
		{"gemini", "BeforeTool", "replace"},
	} {
		in := hookJSON(t, tc.event, tc.tool, "/tmp", map[string]any{"file_path": "/tmp/x", "old_string": "a", "new_string": "b", "content": "c"})
		out, errOut, code := deskctl(t, in, "hook", tc.agent, "--socket", sock)
		if code != 2 || out != "" || !strings.Contains(errOut, "not running") || !strings.Contains(errOut, "blocked") {
			t.Errorf("hook %s %s without a desk = exit %d, stdout %q, stderr %q; want exit 2 and why on stderr", tc.agent, tc.event, code, out, errOut)
		}
	}
	if _, errOut, code := deskctl(t, "{}", "hook", "claude", "--without-desk", "allow"); code != 2 || !strings.Contains(errOut, "block or ask") {
		t.Errorf("--without-desk allow = exit %d, %q; want a usage error (exit 2, which blocks)", code, errOut)
	}
}

func TestHookWithoutDeskAsks(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "none.sock")
	for _, tc := range []struct{ agent, event, tool, want string }{
		{"claude", "PreToolUse", "Edit", `"permissionDecision":"ask"`},
		{"claude", "PermissionRequest", "Edit", `{"systemMessage":"DiffDesk is not running`},
		{"gemini", "BeforeTool", "replace", `"decision":"ask"`},
	} {
		t.Run(tc.agent+" "+tc.event, func(t *testing.T) {
			in := hookJSON(t, tc.event, tc.tool, "/tmp", map[string]any{"file_path": "/tmp/x", "old_string": "a", "new_string": "b"})
			out, errOut, code := deskctl(t, in, "hook", tc.agent, "--socket", sock, "--without-desk", "ask")
			if code != 0 || !strings.Contains(out, tc.want) || strings.Contains(out, "allow") || !strings.Contains(errOut, "not running") {
				t.Errorf("hook without a desk = exit %d, %s, stderr %q; want %s and a message", code, out, errOut, tc.want)
			}
		})
	}
}

func TestHookIgnoresOtherTools(t *testing.T) {
	out, _, code := deskctl(t, hookJSON(t, "PreToolUse", "Bash", "/tmp", map[string]any{"command": "ls"}), "hook", "claude")
	if code != 0 || out != "" {
		t.Errorf("hook for Bash = exit %d, %q; want exit 0 and no opinion", code, out)
	}
}

// TestHookBlocksWhatItCannotRead: input that is not a hook event's JSON
// blocks the tool (exit 2, the reason on stderr) in both agents; exit 1
// would let the edit through unreviewed.
func TestHookBlocksWhatItCannotRead(t *testing.T) {
	for _, agent := range []string{"claude", "gemini"} {
		for _, stdin := range []string{"", "\n", "not json", "null", "{}", `{"tool_name":"Edit"}`, `{"hook_event_name":"PreToolUse","tool_name":"Edit"`} {
			out, errOut, code := deskctl(t, stdin, "hook", agent, "--socket", filepath.Join(t.TempDir(), "none.sock"))
			if code != 2 || out != "" || !strings.Contains(errOut, "blocked") {
				t.Errorf("hook %s with stdin %q = exit %d, stdout %q, stderr %q; want exit 2 and the reason on stderr", agent, stdin, code, out, errOut)
			}
		}
	}
}

// FuzzHookWithoutDesk feeds any input to both hooks with no desk running
// (the seeds: f.Add and testdata/fuzz/FuzzHookWithoutDesk). They must
// fail closed: never allow, never exit 1 (which lets the edit through);
// exit 2 with a reason, JSON that asks or denies, or — only for a tool
// the desk does not review, or after the tool ran — no opinion.
func FuzzHookWithoutDesk(f *testing.F) {
	f.Add("claude", `{"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"/x","old_string":"a","new_string":"b"}}`)
	f.Add("claude", `{"hook_event_name":"PermissionRequest","tool_name":"Write","tool_input":{"file_path":"x","content":"c"}}`)
	f.Add("gemini", `{"hook_event_name":"BeforeTool","tool_name":"replace","tool_input":{"file_path":"/x","old_string":"a","new_string":"b"}}`)
	f.Add("gemini", `{"tool_name":"write_file","tool_input":{"file_path":1}}`)
	f.Add("claude", `not json`)
	sock := filepath.Join(f.TempDir(), "none.sock")
	f.Fuzz(func(t *testing.T, agent, stdin string) {
		if agent != "claude" && agent != "gemini" {
			return
		}
		out, errOut, code := deskctl(t, stdin, "hook", agent, "--socket", sock)
		if strings.Contains(out, `"allow"`) {
			t.Errorf("hook %s with no desk allowed: input %q, output %s", agent, stdin, out)
		}
		switch {
		case code == 2:
			if out != "" || errOut == "" {
				t.Errorf("hook %s, input %q: exit 2 with stdout %q, stderr %q; want the reason on stderr alone", agent, stdin, out, errOut)
			}
		case code != 0:
			t.Errorf("hook %s, input %q: exit %d; want 0 or 2 (exit 1 lets the edit through)", agent, stdin, code)
		case out == "":
			in, err := readHookInput(strings.NewReader(stdin))
			if _, reviewed := toolFormats[in.ToolName]; err != nil || reviewed && !afterEvents[in.Event] {
				t.Errorf("hook %s, input %q: no opinion on a reviewed tool; want ask, deny or exit 2", agent, stdin)
			}
		case !json.Valid([]byte(out)):
			t.Errorf("hook %s, input %q: stdout %q is not JSON", agent, stdin, out)
		}
	})
}

// TestHookNamesTheTurn: Claude Code's prompt_id reaches the desk as the
// proposal's turn, so one prompt's edits form one changeset.
func TestHookNamesTheTurn(t *testing.T) {
	got := make(chan review.Proposal, 1)
	root, sock := deskDeciding(t, func(p review.Proposal) review.Decision {
		got <- p
		return review.Decision{Verdict: decision.Rejected}
	})
	path := filepath.Join(root, "f.txt")
	b, _ := json.Marshal(map[string]any{"session_id": "s1", "prompt_id": "prompt-7", "cwd": root, "hook_event_name": "PreToolUse",
		"tool_name": "Write", "tool_input": map[string]any{"file_path": path, "content": "new\n"}})
	if _, errOut, code := deskctl(t, string(b), "hook", "claude", "--socket", sock); code != 0 {
		t.Fatalf("hook = exit %d (%s)", code, errOut)
	}
	if p := <-got; p.Session != "s1" || p.Turn != "prompt-7" {
		t.Errorf("proposal session %q, turn %q; want s1, prompt-7", p.Session, p.Turn)
	}
}
