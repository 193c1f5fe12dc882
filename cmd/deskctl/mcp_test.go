package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpClient connects an in-memory MCP client to `deskctl mcp`'s server for
// the desk at sock, working in dir.
func mcpClient(t *testing.T, sock, dir string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := newMCPServer(sock, dir).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

func toolText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestMCPToolsList(t *testing.T) {
	cs := mcpClient(t, filepath.Join(t.TempDir(), "none.sock"), t.TempDir())
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	if got, want := strings.Join(names, " "), "apply_patch approve edit multi_edit replace_in_file write_to_file"; got != want {
		t.Errorf("tools = %s; want %s", got, want)
	}
}

func TestMCPEditTools(t *testing.T) {
	for _, tc := range []struct {
		name     string
		tool     string
		args     map[string]any
		person   func(p review.Proposal) review.Decision
		wantErr  bool
		wantText string
		wantFile string
	}{
		{"write_to_file approved", "write_to_file", map[string]any{"path": "f.txt", "content": "new\n"}, approveAs(""), false, "saved", "new\n"},
		{"replace_in_file edited", "replace_in_file", map[string]any{"path": "f.txt", "diff": "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n"}, approveAs("a\nmine\n"), false, "mine", "a\nmine\n"},
		{"edit rejected", "edit", map[string]any{"file_path": "f.txt", "old_string": "b", "new_string": "B"}, rejectWith("keep b"), true, "keep b", "a\nb\n"},
		{"multi_edit approved", "multi_edit", map[string]any{"file_path": "f.txt", "edits": []map[string]any{{"old_string": "a", "new_string": "A"}, {"old_string": "b", "new_string": "B"}}}, approveAs(""), false, "saved", "A\nB\n"},
		{"apply_patch approved", "apply_patch", map[string]any{"patch": "*** Begin Patch\n*** Update File: f.txt\n@@\n a\n-b\n+c\n*** End Patch\n"}, approveAs(""), false, "saved", "a\nc\n"},
		{"edit rejected with a comment", "edit", map[string]any{"file_path": "f.txt", "old_string": "b", "new_string": "B"}, commenting(rejectWith(""), 2, "lower case, please"), true,
			"Line 2 of your proposed text:\n```\nB\n```\nComment: lower case, please\n", "a\nb\n"},
		{"write_to_file approved with a comment", "write_to_file", map[string]any{"path": "f.txt", "content": "new\n"}, commenting(approveAs(""), 1, "add a header next"), false,
			"Line 1 of your proposed text:\n```\nnew\n```\nComment: add a header next\n", "new\n"},
		{"edit that does not apply", "edit", map[string]any{"file_path": "f.txt", "old_string": "zzz", "new_string": "B"}, approveAs(""), true, "zzz", "a\nb\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, sock := deskDeciding(t, tc.person)
			path := filepath.Join(root, "f.txt")
			os.WriteFile(path, []byte("a\nb\n"), 0o644)
			cs := mcpClient(t, sock, root)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError != tc.wantErr || !strings.Contains(toolText(res), tc.wantText) {
				t.Errorf("%s = error %v, %q; want error %v and %q", tc.tool, res.IsError, toolText(res), tc.wantErr, tc.wantText)
			}
			if b, _ := os.ReadFile(path); string(b) != tc.wantFile {
				t.Errorf("%s holds %q; want %q", path, b, tc.wantFile)
			}
		})
	}
}

func TestMCPApprove(t *testing.T) {
	root, sock := deskDeciding(t, approveAs("a\nmine\n"))
	path := filepath.Join(root, "f.txt")
	os.WriteFile(path, []byte("a\nb\n"), 0o644)
	for _, tc := range []struct {
		name, sock, tool string
		input            map[string]any
		want             string
	}{
		{"edit approved with the person's text", sock, "Edit", map[string]any{"file_path": path, "old_string": "b", "new_string": "B"},
			`{"behavior":"allow","updatedInput":{"file_path":"` + path + `","new_string":"a\nmine\n","old_string":"a\nb\n"}}`},
		{"not an edit", sock, "Bash", map[string]any{"command": "ls"}, `{"behavior":"deny","message":"DiffDesk reviews only file edits`},
		{"no desk", filepath.Join(t.TempDir(), "none.sock"), "Write", map[string]any{"file_path": path, "content": "x"}, `{"behavior":"deny","message":"DiffDesk is not running`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := mcpClient(t, tc.sock, root)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "approve", Arguments: map[string]any{"tool_name": tc.tool, "input": tc.input, "tool_use_id": "toolu_1"}})
			if err != nil {
				t.Fatal(err)
			}
			want := strings.ReplaceAll(tc.want, "\n", `\n`)
			if !strings.HasPrefix(toolText(res), want) {
				t.Errorf("approve %s = %s; want %s", tc.tool, toolText(res), want)
			}
		})
	}
	if b, _ := os.ReadFile(path); string(b) != "a\nb\n" {
		t.Errorf("the desk wrote %s (%q); the agent writes it", path, b)
	}
}

// TestMCPApproveReportAfterTheTool: the permission-prompt tool's allow
// carries no text to the model, so the PostToolUse hook for the same tool
// call (the same tool_use_id; the tool knows no session) passes the
// desk's report on — the person's patch included.
func TestMCPApproveReportAfterTheTool(t *testing.T) {
	root, sock := deskDeciding(t, approveAs("a\nmine\n"))
	path := filepath.Join(root, "f.txt")
	os.WriteFile(path, []byte("a\nb\n"), 0o644)
	input := map[string]any{"file_path": path, "old_string": "b", "new_string": "B"}
	cs := mcpClient(t, sock, root)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "approve", Arguments: map[string]any{"tool_name": "Edit", "input": input, "tool_use_id": "toolu_7"}})
	if err != nil || !strings.Contains(toolText(res), `"allow"`) {
		t.Fatalf("approve = %v, %v; want allow", toolText(res), err)
	}
	os.WriteFile(path, []byte("a\nmine\n"), 0o644) // Claude Code's Edit writes the approved text
	post, _ := json.Marshal(map[string]any{"session_id": "s9", "cwd": root, "hook_event_name": "PostToolUse",
		"tool_name": "Edit", "tool_input": input, "tool_use_id": "toolu_7"})
	out, errOut, code := deskctl(t, string(post), "hook", "claude", "--socket", sock)
	for _, want := range []string{`"hookEventName":"PostToolUse"`, `approved with changes made by the person`, `\n-B\n+mine\n`} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("PostToolUse hook = exit %d, %s (stderr %q); want %s", code, out, errOut, want)
		}
	}
	other, _ := json.Marshal(map[string]any{"session_id": "s9", "cwd": root, "hook_event_name": "PostToolUse",
		"tool_name": "Edit", "tool_input": input, "tool_use_id": "toolu_8"})
	if out, _, _ := deskctl(t, string(other), "hook", "claude", "--socket", sock); out != "" {
		t.Errorf("PostToolUse for another tool call = %s; want nothing", out)
	}
}

// TestMCPSurvivesMalformedLines: a line that is not JSON, or not a
// JSON-RPC message, gets an error with id null and the session goes on.
func TestMCPSurvivesMalformedLines(t *testing.T) {
	stdin := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`this is not json`,
		`{"jsonrpc":"2.0","id":`,
		`[]`,
		`{"jsonrpc":"1.0","id":7,"method":"x"}`,
		``,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
	}, "\n") + "\n"
	// Like an agent, keep stdin open until the last answer arrives.
	pr, pw := io.Pipe()
	go func() {
		pw.Write([]byte(stdin))
	}()
	outw := &watchWriter{want: `"id":2`, seen: make(chan struct{})}
	var errb bytes.Buffer
	codeCh := make(chan int, 1)
	go func() {
		codeCh <- run([]string{"mcp", "--socket", filepath.Join(t.TempDir(), "none.sock")}, pr, outw, &errb)
	}()
	select {
	case <-outw.seen:
	case <-time.After(time.Minute):
		t.Error("no answer to tools/list within a minute")
	case code := <-codeCh:
		t.Fatalf("deskctl mcp ended (exit %d, stderr %q) before its input did; output:\n%s", code, errb.String(), outw.String())
	}
	pw.Close()
	code, errOut, out := <-codeCh, errb.String(), outw.String()
	if code != 0 {
		t.Fatalf("deskctl mcp = exit %d, stderr %q; want it to carry on to the end of its input", code, errOut)
	}
	var codes []int
	listed := false
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var resp struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct{ Code int }
		}
		if err := json.Unmarshal([]byte(line), &resp); err != nil {
			t.Fatalf("output line %q is not JSON: %v", line, err)
		}
		switch {
		case resp.Error != nil && string(resp.ID) == "null":
			codes = append(codes, resp.Error.Code)
		case string(resp.ID) == "2" && strings.Contains(string(resp.Result), "write_to_file"):
			listed = true
		}
	}
	if want := []int{-32700, -32700, -32600, -32600}; !slices.Equal(codes, want) {
		t.Errorf("errors with id null: %v; want %v (two lines not JSON, an empty batch, a JSON-RPC 1.0 request)\n%s", codes, want, out)
	}
	if !listed {
		t.Errorf("tools/list after the malformed lines was not answered:\n%s", out)
	}
}

// watchWriter collects output and closes seen once it holds want.
type watchWriter struct {
	mu   sync.Mutex
	b    bytes.Buffer
	want string
	seen chan struct{}
	once sync.Once
}

func (w *watchWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	if strings.Contains(w.b.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

func (w *watchWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}
