package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
)

// clineJSON is the event Cline writes on a hook's stdin (cline 3.0.65).
func clineJSON(t *testing.T, hook, tool string, input map[string]any) string {
	t.Helper()
	call := map[string]any{"id": "call_1", "name": tool, "input": input}
	ev := map[string]any{"hookName": hook, "taskId": "conv_1", "workspaceRoots": []string{"/nowhere"}, "clineVersion": ""}
	if hook == "tool_call" {
		ev["tool_call"] = call
	} else {
		call["output"] = map[string]any{"success": true}
		ev["tool_result"] = call
	}
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// clineAnswer decodes the control deskctl printed for Cline: the last
// HOOK_CONTROL line, as Cline reads it; nil when it printed none.
func clineAnswer(t *testing.T, out string) map[string]any {
	t.Helper()
	var last string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if c, ok := strings.CutPrefix(l, "HOOK_CONTROL\t"); ok {
			last = c
		}
	}
	if last == "" {
		if strings.TrimSpace(out) != "" {
			t.Fatalf("output %q has no HOOK_CONTROL line: Cline could not read it", out)
		}
		return nil
	}
	var c map[string]any
	if err := json.Unmarshal([]byte(last), &c); err != nil {
		t.Fatalf("control %q: %v", last, err)
	}
	return c
}

// blocked says whether c keeps the tool from running: an input Cline's
// editor refuses before touching a file.
func blocked(c map[string]any) bool {
	in, ok := c["overrideInput"].(map[string]any)
	return ok && len(in) == 0
}

func TestClineHookReviews(t *testing.T) {
	edit := func(p string) map[string]any { return map[string]any{"path": p, "old_text": "b", "new_text": "B"} }
	for _, tc := range []struct {
		name   string
		person func(review.Proposal) review.Decision
		check  func(t *testing.T, path string, c map[string]any)
	}{
		{"approved", approveAs(""), func(t *testing.T, path string, c map[string]any) {
			if c != nil {
				t.Errorf("approved as proposed, the hook answered %v; want nothing (the tool runs as the model asked)", c)
			}
		}},
		{"approved with the person's text", approveAs("a\nmine\nc\n"), func(t *testing.T, path string, c map[string]any) {
			want := map[string]any{"path": path, "old_text": "b\n", "new_text": "mine\n"}
			if got, _ := json.Marshal(c["overrideInput"]); string(got) != mustJSON(t, want) {
				t.Errorf("overrideInput = %s; want %s", got, mustJSON(t, want))
			}
		}},
		{"rejected", rejectWith("keep b"), func(t *testing.T, path string, c map[string]any) {
			ctx, _ := c["context"].(string)
			if !blocked(c) || !strings.Contains(ctx, "Their reason: keep b") || !strings.Contains(ctx, "DiffDesk blocked this edit") {
				t.Errorf("rejected: %v; want the tool blocked and the reason in context", c)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, sock := deskDeciding(t, tc.person)
			path := filepath.Join(root, "f.txt")
			os.WriteFile(path, []byte("a\nb\nc\n"), 0o644)
			out, errOut, code := deskctl(t, clineJSON(t, "tool_call", "editor", edit(path)), "hook", "cline", "--socket", sock)
			if code != 0 {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			tc.check(t, path, clineAnswer(t, out))
			if b, _ := os.ReadFile(path); string(b) != "a\nb\nc\n" {
				t.Errorf("the hook wrote the file (%q): Cline's tool writes it", b)
			}
		})
	}
}

// TestClineHookReportAfterTheTool: the PostToolUse hook hands the model the
// desk's report once the file holds the approved text, and only then.
func TestClineHookReportAfterTheTool(t *testing.T) {
	root, sock := deskDeciding(t, approveAs("a\nmine\nc\n"))
	path := filepath.Join(root, "f.txt")
	os.WriteFile(path, []byte("a\nb\nc\n"), 0o644)
	in := map[string]any{"path": path, "old_text": "b", "new_text": "B"}
	out, _, _ := deskctl(t, clineJSON(t, "tool_call", "editor", in), "hook", "cline", "--socket", sock)
	c := clineAnswer(t, out)
	// Cline's tool runs with the rewritten input.
	over := c["overrideInput"].(map[string]any)
	b, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(b), over["old_text"].(string), over["new_text"].(string), 1)), 0o644)
	out, _, _ = deskctl(t, clineJSON(t, "tool_result", "editor", over), "hook", "cline", "--socket", sock)
	ctx, _ := clineAnswer(t, out)["context"].(string)
	if !strings.Contains(ctx, "with changes made by the person") || !strings.Contains(ctx, "+mine") {
		t.Errorf("PostToolUse context = %q; want the desk's report with the person's patch", ctx)
	}
	// Taken once.
	if out, _, _ = deskctl(t, clineJSON(t, "tool_result", "editor", over), "hook", "cline", "--socket", sock); clineAnswer(t, out) != nil {
		t.Errorf("the report was handed over twice: %q", out)
	}
}

func TestClineHookReportNotWhenTheToolFailed(t *testing.T) {
	root, sock := deskDeciding(t, approveAs(""))
	path := filepath.Join(root, "f.txt")
	os.WriteFile(path, []byte("a\nb\nc\n"), 0o644)
	in := map[string]any{"path": path, "old_text": "b", "new_text": "B"}
	deskctl(t, clineJSON(t, "tool_call", "editor", in), "hook", "cline", "--socket", sock)
	// The tool did not write: no report says it did.
	if out, _, _ := deskctl(t, clineJSON(t, "tool_result", "editor", in), "hook", "cline", "--socket", sock); clineAnswer(t, out) != nil {
		t.Errorf("PostToolUse after a tool that wrote nothing answered %q", out)
	}
}

// TestClineHookFailsClosed: every way the review cannot happen blocks the
// edit, telling the model why — Cline runs a tool its hook does not answer.
func TestClineHookFailsClosed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.txt")
	os.WriteFile(path, []byte("a\nb\n"), 0o644)
	edit := clineJSON(t, "tool_call", "editor", map[string]any{"path": path, "old_text": "b", "new_text": "B"})
	for _, tc := range []struct {
		name, stdin, want string
	}{
		{"no desk", edit, "DiffDesk is not running"},
		{"unreadable event", "{not json", "could not read Cline's hook event"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := deskctl(t, tc.stdin, "hook", "cline", "--socket", filepath.Join(dir, "no.sock"))
			c := clineAnswer(t, out)
			if ctx, _ := c["context"].(string); code != 0 || !blocked(c) || !strings.Contains(ctx, tc.want) {
				t.Errorf("exit %d, answer %v, stderr %q; want the tool blocked, saying %q", code, c, errOut, tc.want)
			}
		})
	}
}

// TestClineHookGivesUpInTime: a person who has not decided when --wait
// runs out gets the proposal taken back, and the edit is blocked before
// Cline would run it unreviewed.
func TestClineHookGivesUpInTime(t *testing.T) {
	root, sock := deskDeciding(t, func(review.Proposal) review.Decision { return review.Decision{} }) // never decides
	path := filepath.Join(root, "f.txt")
	os.WriteFile(path, []byte("a\nb\n"), 0o644)
	start := time.Now()
	out, _, _ := deskctl(t, clineJSON(t, "tool_call", "editor", map[string]any{"path": path, "old_text": "b", "new_text": "B"}), "hook", "cline", "--socket", sock, "--wait", "300ms")
	c := clineAnswer(t, out)
	if ctx, _ := c["context"].(string); !blocked(c) || !strings.Contains(ctx, "did not decide within 300ms") {
		t.Fatalf("answer %v after %s; want the edit blocked for want of a decision", c, time.Since(start))
	}
	// The desk withdraws it when it sees the hook's connection close.
	var st string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if st, _, _ = deskctl(t, "", "status", "--socket", sock); strings.Contains(st, "0 proposal(s) waiting") {
			return
		}
	}
	t.Errorf("the proposal still waits at the desk after the hook gave up:\n%s", st)
}

func TestClineHookIgnoresOtherTools(t *testing.T) {
	dir := t.TempDir()
	for _, stdin := range []string{
		clineJSON(t, "tool_call", "read_files", map[string]any{"files": []string{"a"}}),
		clineJSON(t, "tool_call", "run_commands", map[string]any{"commands": []string{"ls"}}),
		// An editor call Cline refuses by itself writes nothing: no review.
		clineJSON(t, "tool_call", "editor", map[string]any{"path": filepath.Join(dir, "missing.txt"), "old_text": "x", "new_text": "y", "insert_line": 2}),
		clineJSON(t, "tool_call", "apply_patch", map[string]any{"input": " "}), // Cline refuses an empty patch itself
		`{"hookName":"agent_start","taskId":"c"}`,
	} {
		out, errOut, code := deskctl(t, stdin, "hook", "cline", "--socket", filepath.Join(dir, "no.sock"))
		if code != 0 || out != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want no answer", stdin, code, out, errOut)
		}
	}
}

func TestClineEditorResult(t *testing.T) {
	for _, tc := range []struct {
		name, current string
		exists        bool
		in            map[string]any
		want          string
		ok            bool
	}{
		{"replace", "a\nb\nc\n", true, map[string]any{"old_text": "b", "new_text": "B"}, "a\nB\nc\n", true},
		{"crlf file takes crlf", "a\r\nb\r\nc\r\n", true, map[string]any{"old_text": "a\nb", "new_text": "x\ny"}, "x\r\ny\r\nc\r\n", true},
		{"not found", "a\n", true, map[string]any{"old_text": "z", "new_text": "Z"}, "", false},
		{"found twice", "a\na\n", true, map[string]any{"old_text": "a", "new_text": "Z"}, "", false},
		{"new file", "", false, map[string]any{"new_text": "hi\n"}, "hi\n", true},
		{"no old_text", "a\n", true, map[string]any{"new_text": "hi\n"}, "", false},
		{"insert", "a\nb\n", true, map[string]any{"new_text": "X", "insert_line": 2.0}, "a\nX\nb\n", true},
		{"insert at the end", "a\nb", true, map[string]any{"new_text": "X", "insert_line": "3"}, "a\nb\nX", true},
		{"insert out of range", "a\n", true, map[string]any{"new_text": "X", "insert_line": 4.0}, "", false},
		{"insert not a number", "a\n", true, map[string]any{"new_text": "X", "insert_line": 1.5}, "", false},
		{"too long", "a\n", true, map[string]any{"old_text": "a", "new_text": strings.Repeat("é", clineEditLimit+1)}, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := clineEditorResult(tc.in, tc.current, tc.exists)
			if got != tc.want || ok != tc.ok {
				t.Errorf("= %q, %v; want %q, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

// TestClineRewrite: the rewritten editor input turns the file into exactly
// the approved text, as Cline's editor applies it.
func TestClineRewrite(t *testing.T) {
	long := strings.Repeat("line\n", 2000)
	for _, tc := range []struct {
		name, current, final string
		wantOld, why         string
	}{
		{"one line", "a\nb\nc\n", "a\nB\nc\n", "b\n", ""},
		{"not unique widens", "x\nb\nx\nb\n", "x\nb\nx\nB\n", "b\nx\nb\n", ""},
		{"insertion", "a\nc\n", "a\nb\nc\n", "a\nc\n", ""},
		{"no final newline", "a\nb", "a\nB", "b", ""},
		{"crlf", "a\r\nb\r\n", "a\r\nB\r\n", "b\r\n", ""},
		{"unchanged", "a\n", "a\n", "", "approved the file as it is now"},
		{"empty file", "", "a\n", "", "empty now"},
		{"mixed endings", "a\r\nb\r\n", "a\r\nB\n", "", "mixes line endings"},
		{"too long", long, strings.Replace(long, "line", "LINE", -1), "", "longer than the 6000 characters"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, why := clineRewrite(map[string]any{"path": "/p"}, tc.current, true, tc.final)
			if tc.why != "" {
				if !strings.Contains(why, tc.why) {
					t.Errorf("why = %q; want it to say %q", why, tc.why)
				}
				return
			}
			if why != "" || in["old_text"] != tc.wantOld {
				t.Fatalf("= %v, %q; want old_text %q", in, why, tc.wantOld)
			}
			got, ok := clineEditorResult(in, tc.current, true)
			if !ok || got != tc.final {
				t.Errorf("Cline's editor would write %q (ok %v); want %q", got, ok, tc.final)
			}
		})
	}
}

// TestClineHookScript: the hook file setup writes answers for a deskctl
// that cannot run with a control that blocks the tool, and adds nothing
// Cline could misread to what a working deskctl prints.
func TestClineHookScript(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	runScript := func(deskctlPath string) string {
		t.Helper()
		hook := filepath.Join(dir, "PreToolUse")
		os.WriteFile(hook, []byte(clineHookScript("PreToolUse", deskctlPath, filepath.Join(dir, "it's.sock"))), 0o755)
		cmd := exec.Command(sh, hook)
		cmd.Stdin = strings.NewReader(clineJSON(t, "tool_call", "editor", map[string]any{"path": "/x", "old_text": "a", "new_text": "b"}))
		out, _ := cmd.Output()
		return string(out)
	}
	gone := filepath.Join(dir, "bin's", "deskctl")
	c := clineAnswer(t, runScript(gone))
	if ctx, _ := c["context"].(string); !blocked(c) || !strings.Contains(ctx, "could not run "+gone) {
		t.Errorf("with deskctl gone the hook answered %v; want the tool blocked, naming it", c)
	}
	fake := filepath.Join(dir, "fake-deskctl")
	os.WriteFile(fake, []byte("#!/bin/sh\necho \"$@\" > "+filepath.Join(dir, "args")+"\nprintf 'HOOK_CONTROL\\t{}\\n'\n"), 0o755)
	if out := runScript(fake); out != "HOOK_CONTROL\t{}\n" {
		t.Errorf("with deskctl working the hook printed %q; want deskctl's answer alone", out)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "args")); string(b) != "hook cline --socket "+filepath.Join(dir, "it's.sock")+"\n" {
		t.Errorf("deskctl ran with %q", b)
	}
	for _, event := range clineHookEvents {
		if cmds := clineHookCommands([]byte(clineHookScript(event, gone, ""))); len(cmds) != 1 || cmds[0] != shellQuote(gone)+" hook cline" {
			t.Errorf("%s: clineHookCommands = %q", event, cmds)
		}
	}
}

// TestSetupClineLeavesTheirHook: a PreToolUse hook of the person's own is
// not overwritten; setup says what to do instead.
func TestSetupClineLeavesTheirHook(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLINE_DIR", "")
	mine := filepath.Join(home, ".cline", "hooks", "PreToolUse")
	os.MkdirAll(filepath.Dir(mine), 0o755)
	os.WriteFile(mine, []byte("#!/bin/sh\necho '{}'\n"), 0o755)
	exe, _ := os.Executable()
	_, errOut, code := deskctl(t, "", "setup", "--yes", "--deskctl", exe, "cline")
	if code == 0 || !strings.Contains(errOut, "a Cline hook of your own") {
		t.Errorf("setup over the person's hook: exit %d, stderr %q; want a refusal saying why", code, errOut)
	}
	if b, _ := os.ReadFile(mine); string(b) != "#!/bin/sh\necho '{}'\n" {
		t.Errorf("the person's hook was changed: %q", b)
	}
}

// TestClinePatchReview: an apply_patch call waits at the desk; approved,
// Cline's tool is handed a patch that writes each file whole, exactly as
// approved; rejected, it is blocked with the reason.
func TestClinePatchReview(t *testing.T) {
	patch := func(p string) string {
		return "*** Begin Patch\n*** Update File: " + p + "\n@@\n a\n-b\n+B\n*** Add File: " + filepath.Join(filepath.Dir(p), "new.txt") + "\n+fresh\n*** End Patch"
	}
	for _, tc := range []struct {
		name   string
		person func(review.Proposal) review.Decision
		want   func(dir string) string // the rewritten patch; "" for a block
		reason string
	}{
		{"approved", approveAs(""), func(dir string) string {
			return "*** Begin Patch\n*** Update File: " + filepath.Join(dir, "f.txt") + "\n@@\n-a\n-b\n-c\n-\n+a\n+B\n+c\n+\n" +
				"*** Add File: " + filepath.Join(dir, "new.txt") + "\n+fresh\n+\n*** End Patch\n"
		}, ""},
		{"rejected", rejectWith("not now"), func(string) string { return "" }, "Their reason: not now"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, sock := deskDeciding(t, tc.person)
			t.Chdir(root) // Cline runs its hooks in the session's directory
			path := filepath.Join(root, "f.txt")
			os.WriteFile(path, []byte("a\nb\nc\n"), 0o644)
			out, errOut, _ := deskctl(t, clineJSON(t, "tool_call", "apply_patch", map[string]any{"input": patch(path)}), "hook", "cline", "--socket", sock)
			c := clineAnswer(t, out)
			if want := tc.want(root); want != "" {
				over, _ := c["overrideInput"].(map[string]any)
				if over["input"] != want {
					t.Errorf("overrideInput = %q\nwant %q\n(stderr %q)", over["input"], want, errOut)
				}
				return
			}
			if ctx, _ := c["context"].(string); !blocked(c) || !strings.Contains(ctx, tc.reason) {
				t.Errorf("answer %v; want the tool blocked with %q", c, tc.reason)
			}
		})
	}
}

func TestClinePatchRewrite(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	same, crlf, gone := write("same.txt", "x\n"), write("crlf.txt", "a\r\nb\r\n"), write("gone.txt", "bye\n")
	// A file approved as it is needs no section; a deleted one is deleted.
	p, first, why := clinePatchRewrite([]review.FileOutcome{{Path: same, FinalContent: "x\n"}, {Path: gone, Deleted: true}})
	if why != "" || first != "" || p != "*** Begin Patch\n*** Delete File: "+gone+"\n*** End Patch\n" {
		t.Errorf("= %q, %q, %q", p, first, why)
	}
	// Cline's apply_patch cannot write \r\n.
	if _, _, why := clinePatchRewrite([]review.FileOutcome{{Path: crlf, FinalContent: "a\r\nB\r\n"}}); !strings.Contains(why, "line endings") {
		t.Errorf("a CRLF file: why = %q; want it blocked for its line endings", why)
	}
	// No final newline: the last line is replaced without one.
	if p, _, _ := clinePatchRewrite([]review.FileOutcome{{Path: same, FinalContent: "y"}}); !strings.Contains(p, "\n-x\n-\n+y\n*** End Patch") {
		t.Errorf("= %q", p)
	}
	if _, _, why := clinePatchRewrite([]review.FileOutcome{{Path: same, FinalContent: "x\n"}}); !strings.Contains(why, "as they are now") {
		t.Errorf("nothing to write: why = %q", why)
	}
}

// TestClineHookApprovedButNotWritable: an approval Cline's editor cannot
// write exactly (here: into a file that is empty now) is blocked, and the
// model reads that nothing was written and the approved text — not the
// report saying it was applied.
func TestClineHookApprovedButNotWritable(t *testing.T) {
	root, sock := deskDeciding(t, approveAs("the PERSON's line\n"))
	path := filepath.Join(root, "empty.txt")
	os.WriteFile(path, nil, 0o644)
	out, _, _ := deskctl(t, clineJSON(t, "tool_call", "editor", map[string]any{"path": path, "new_text": "x\n", "insert_line": 1.0}), "hook", "cline", "--socket", sock)
	c := clineAnswer(t, out)
	ctx, _ := c["context"].(string)
	if !blocked(c) || !strings.Contains(ctx, "nothing was written") || !strings.Contains(ctx, "the PERSON's line") || strings.Contains(ctx, "has been applied") {
		t.Errorf("answer %v; want the tool blocked, saying nothing was written, with the approved text", c)
	}
	if out, _, _ := deskctl(t, clineJSON(t, "tool_result", "editor", map[string]any{"path": path}), "hook", "cline", "--socket", sock); clineAnswer(t, out) != nil {
		t.Errorf("PostToolUse reported an edit that was not written: %q", out)
	}
}

// TestClineHookRefusesAFIFO: the hook reads the file Cline's editor is
// about to change, to show the edit. A FIFO there (a cloned repository
// can hold one) made the hook wait forever — and a hook that never
// answers is one Cline gives up on. It is read as the desk reads: bounded,
// and a FIFO refused at once, the edit blocked saying why.
func TestClineHookRefusesAFIFO(t *testing.T) {
	root, sock := deskDeciding(t, func(review.Proposal) review.Decision { return review.Decision{Verdict: decision.Approved} })
	path := filepath.Join(root, "f.txt")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	type answer struct {
		out  string
		code int
	}
	done := make(chan answer, 1)
	go func() {
		out, _, code := deskctl(t, clineJSON(t, "tool_call", "editor", map[string]any{"path": path, "old_text": "b", "new_text": "B"}), "hook", "cline", "--socket", sock, "--wait", "5s")
		done <- answer{out, code}
	}()
	select {
	case a := <-done:
		c := clineAnswer(t, a.out)
		if ctx, _ := c["context"].(string); a.code != 0 || !blocked(c) || !strings.Contains(ctx, "could not read") {
			t.Errorf("exit %d, answer %v; want the edit blocked, saying the file could not be read", a.code, c)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the hook still waits on the FIFO after 20 s")
	}
}
