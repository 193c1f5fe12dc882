package realclients

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review/decision"
)

// clineBin returns the real cline binary of the npm package for this
// platform (Bun-compiled; the package's node wrapper only finds and runs
// it), or skips.
func clineBin(t *testing.T) string {
	dir := clients(t, "cline")
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	bin := filepath.Join(dir, "node_modules", "@cline", "cli-"+runtime.GOOS+"-"+arch, "bin", "cline")
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("the cline binary for this platform is not in %s", bin)
	}
	return bin
}

// fakeOpenAI serves the OpenAI chat completions API (streamed SSE or
// plain JSON), as Cline's OpenAI-compatible provider calls it.
func fakeOpenAI(t *testing.T, tool string, input map[string]any) *fakeModel {
	f := &fakeModel{tool: tool, input: input}
	f.URL = serveFake(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			http.NotFound(w, r)
			return
		}
		var req struct{ Stream bool }
		json.Unmarshal(body, &req)
		args, _ := json.Marshal(f.input)
		useTool := f.askOnce(body, `"role":"tool"`)
		if !req.Stream {
			w.Header().Set("Content-Type", "application/json")
			msg := `{"role":"assistant","content":"Done."}`
			finish := "stop"
			if useTool {
				msg = fmt.Sprintf(`{"role":"assistant","content":null,"tool_calls":[{"id":"call_fake1","type":"function","function":{"name":%q,"arguments":%q}}]}`, f.tool, args)
				finish = "tool_calls"
			}
			fmt.Fprintf(w, `{"id":"chatcmpl-fake","object":"chat.completion","created":1,"model":"fake-model","choices":[{"index":0,"message":%s,"finish_reason":%q}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`, msg, finish)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := func(choices string) {
			fmt.Fprintf(w, "data: {\"id\":\"chatcmpl-fake\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"fake-model\",\"choices\":%s}\n\n", choices)
		}
		if useTool {
			chunk(fmt.Sprintf(`[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_fake1","type":"function","function":{"name":%q,"arguments":%q}}]},"finish_reason":null}]`, f.tool, args))
			chunk(`[{"index":0,"delta":{},"finish_reason":"tool_calls"}]`)
		} else {
			chunk(`[{"index":0,"delta":{"role":"assistant","content":"Done."},"finish_reason":null}]`)
			chunk(`[{"index":0,"delta":{},"finish_reason":"stop"}]`)
		}
		io.WriteString(w, "data: [DONE]\n\n")
	}))
	return f
}

// clineEnv points cline, in e's home, at the fake API as its
// OpenAI-compatible provider (through `cline auth`, its own way) and, with
// sock, puts DiffDesk's hook files into ~/.cline/hooks for the desk there.
func clineEnv(t *testing.T, e *env, bin string, api *fakeModel, sock string) {
	t.Helper()
	clineEnvModel(t, e, bin, api, sock, "fake-model")
}

// clineEnvModel is clineEnv with the model id Cline is told; one holding
// "gpt" gets apply_patch instead of editor.
func clineEnvModel(t *testing.T, e *env, bin string, api *fakeModel, sock, model string) {
	t.Helper()
	out, errOut, err := run(t, e, e.home, 60*time.Second, bin, "auth", "-p", "openai", "-k", "sk-fake-local-stub", "-m", model, "-b", api.URL+"/v1")
	if err != nil {
		t.Fatalf("cline auth: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	if sock != "" {
		clineHooks(t, e, deskctlBin, sock)
	}
}

// clineHooks writes DiffDesk's PreToolUse and PostToolUse hook files into
// e's ~/.cline/hooks with `deskctl setup cline`, deskctl being the binary
// at the path given.
func clineHooks(t *testing.T, e *env, deskctl, sock string) {
	t.Helper()
	out, errOut, err := run(t, e, e.home, 30*time.Second, deskctl, "setup", "--yes", "--socket", sock, "cline")
	if err != nil {
		t.Fatalf("deskctl setup cline: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	for _, name := range []string{"PreToolUse", "PostToolUse"} {
		if _, err := os.Stat(filepath.Join(e.home, ".cline", "hooks", name)); err != nil {
			t.Fatalf("deskctl setup cline wrote no %s hook: %v\n%s", name, err, out)
		}
	}
}

// runCline runs `cline --json PROMPT` in dir: act mode, every tool
// approved by Cline itself (its default), so the hook is the only review.
func runCline(t *testing.T, e *env, bin, dir string) string {
	t.Helper()
	start := time.Now()
	out, errOut, err := run(t, e, dir, 150*time.Second, bin, "--json", "change hello in a.txt")
	t.Logf("cline took %s", time.Since(start).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("cline: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	return out
}

// TestClineEditorHook runs the real cline with the fake model asking for an
// editor call and DiffDesk's hook files: approved, the file holds the
// model's text; approved with the person's text, it holds that and the
// model reads the person's patch; rejected, the file is untouched and the
// model reads the person's reason.
func TestClineEditorHook(t *testing.T) {
	bin := clineBin(t)
	for _, tc := range []struct {
		name string
		who  person
		want string
	}{
		{"approved", approve(), "hello from the model\n"},
		{"approved with the person's text", approveAs("hello from a PERSON\n"), "hello from a PERSON\n"},
		{"rejected", reject("keep the greeting short"), "hello\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			dk := startDesk(t, e, tc.who)
			target := dk.writeFile(t, "a.txt", "hello\n")
			api := fakeOpenAI(t, "editor", map[string]any{"path": target, "old_text": "hello", "new_text": "hello from the model"})
			clineEnv(t, e, bin, api, dk.sock)
			out := runCline(t, e, bin, dk.root)
			o := dk.outcome(t, 10*time.Second)
			if got := readFile(t, target); got != tc.want {
				t.Fatalf("a.txt = %q; want %q\ncline said:\n%s", got, tc.want, out)
			}
			switch tc.name {
			case "approved with the person's text":
				checkToldPatch(t, api, o)
			case "rejected":
				if !api.toldAfterToolCall("keep the greeting short") {
					t.Errorf("no model request after the tool call holds the person's reason; cline said:\n%s", out)
				}
			default:
				if !api.toldAfterToolCall("Do not resend this edit") {
					t.Errorf("no model request after the tool call holds the desk's report")
				}
			}
		})
	}
}

// TestClineEditorCreatesEdited: a new file the editor would create is
// written with the person's text instead, through the rewritten input.
func TestClineEditorCreatesEdited(t *testing.T) {
	bin := clineBin(t)
	e := newEnv(t)
	dk := startDesk(t, e, approveAs("made by a PERSON\n"))
	target := filepath.Join(dk.root, "new.txt")
	api := fakeOpenAI(t, "editor", map[string]any{"path": target, "new_text": "made by the model\n"})
	clineEnv(t, e, bin, api, dk.sock)
	out := runCline(t, e, bin, dk.root)
	o := dk.outcome(t, 10*time.Second)
	if got := readFile(t, target); got != "made by a PERSON\n" {
		t.Fatalf("new.txt = %q; want the person's text\ncline said:\n%s", got, out)
	}
	checkToldPatch(t, api, o)
}

// TestClinePatchHook runs the real cline with a model id that gets
// apply_patch: the person's decision reaches the file through the patch
// the hook hands Cline (each file whole, as approved), and the reason or
// the person's patch reaches the model.
func TestClinePatchHook(t *testing.T) {
	bin := clineBin(t)
	for _, tc := range []struct {
		name string
		who  person
		want string
	}{
		{"approved", approve(), "hello from the model\n"},
		{"approved with the person's text", approveAs("hello from a PERSON\n"), "hello from a PERSON\n"},
		{"rejected", reject("keep the greeting short"), "hello\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			dk := startDesk(t, e, tc.who)
			target := dk.writeFile(t, "a.txt", "hello\n")
			api := fakeOpenAI(t, "apply_patch", map[string]any{"input": "*** Begin Patch\n*** Update File: a.txt\n@@\n-hello\n+hello from the model\n*** End Patch"})
			clineEnvModel(t, e, bin, api, dk.sock, "gpt-fake")
			out := runCline(t, e, bin, dk.root)
			o := dk.outcome(t, 10*time.Second)
			if got := readFile(t, target); got != tc.want {
				t.Fatalf("a.txt = %q; want %q\ncline said:\n%s", got, tc.want, out)
			}
			switch tc.name {
			case "approved with the person's text":
				checkToldPatch(t, api, o)
			case "rejected":
				if !api.toldAfterToolCall("keep the greeting short") {
					t.Errorf("no model request after the tool call holds the person's reason; cline said:\n%s", out)
				}
			default:
				if !api.toldAfterToolCall("Do not resend this edit") {
					t.Errorf("no model request after the tool call holds the desk's report")
				}
			}
		})
	}
}

// TestClineHookGivesUp: a person who has not decided when the hook's wait
// runs out (here 3 s; by default 110 s, inside Cline's 120) gets the
// proposal taken back, and cline does not run the tool: the model reads
// why.
func TestClineHookGivesUp(t *testing.T) {
	bin := clineBin(t)
	e := newEnv(t)
	dk := startDesk(t, e, byFile(nil)) // nobody decides
	target := dk.writeFile(t, "a.txt", "hello\n")
	api := fakeOpenAI(t, "editor", map[string]any{"path": target, "old_text": "hello", "new_text": "hello from the model"})
	clineEnv(t, e, bin, api, dk.sock)
	hook := filepath.Join(e.home, ".cline", "hooks", "PreToolUse")
	script := readFile(t, hook)
	if !strings.Contains(script, " hook cline ") {
		t.Fatalf("the hook file runs no deskctl hook cline:\n%s", script)
	}
	os.WriteFile(hook, []byte(strings.Replace(script, " hook cline ", " hook cline --wait 3s ", 1)), 0o755)
	out := runCline(t, e, bin, dk.root)
	if got := readFile(t, target); got != "hello\n" {
		t.Errorf("a.txt = %q after the hook gave up; want it untouched\ncline said:\n%s", got, out)
	}
	if !api.toldAfterToolCall("did not decide within 3s") {
		t.Errorf("the model was not told the person did not decide in time; cline said:\n%s", out)
	}
	if o := dk.outcome(t, 10*time.Second); o.Status != decision.Withdrawn {
		t.Errorf("the proposal ended %s; want it withdrawn", o.Status)
	}
}

// TestClineHookWithoutDesk: with no desk running the hook blocks the edit
// and the model reads why — Cline itself would run the tool.
func TestClineHookWithoutDesk(t *testing.T) {
	bin := clineBin(t)
	e := newEnv(t)
	root := filepath.Join(e.home, "proj")
	os.MkdirAll(root, 0o755)
	target := filepath.Join(root, "a.txt")
	os.WriteFile(target, []byte("hello\n"), 0o644)
	api := fakeOpenAI(t, "editor", map[string]any{"path": target, "old_text": "hello", "new_text": "hello from the model"})
	clineEnv(t, e, bin, api, filepath.Join(e.home, "no.sock"))
	out := runCline(t, e, bin, root)
	if got := readFile(t, target); got != "hello\n" {
		t.Errorf("a.txt = %q with no desk running; want it untouched\ncline said:\n%s", got, out)
	}
	if !api.toldAfterToolCall("DiffDesk is not running") {
		t.Errorf("the model was not told the desk is not running; cline said:\n%s", out)
	}
}

// TestClineHookWithoutDeskctl: the hook file answers for a deskctl that is
// gone (moved or deleted after setup): the edit is blocked, not let through.
func TestClineHookWithoutDeskctl(t *testing.T) {
	bin := clineBin(t)
	e := newEnv(t)
	dk := startDesk(t, e, approve())
	target := dk.writeFile(t, "a.txt", "hello\n")
	api := fakeOpenAI(t, "editor", map[string]any{"path": target, "old_text": "hello", "new_text": "hello from the model"})
	gone := filepath.Join(e.home, "bin", "deskctl")
	os.MkdirAll(filepath.Dir(gone), 0o755)
	b, err := os.ReadFile(deskctlBin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gone, b, 0o755); err != nil {
		t.Fatal(err)
	}
	clineEnv(t, e, bin, api, "")
	clineHooks(t, e, gone, dk.sock)
	os.Remove(gone)
	out := runCline(t, e, bin, dk.root)
	if got := readFile(t, target); got != "hello\n" {
		t.Errorf("a.txt = %q with deskctl gone; want it untouched\ncline said:\n%s", got, out)
	}
	if !api.toldAfterToolCall("could not run " + gone) {
		t.Errorf("the model was not told the hook could not run deskctl; cline said:\n%s", out)
	}
}
