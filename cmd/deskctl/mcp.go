package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Arguments of the MCP tools.
type (
	mcpWriteArgs struct {
		Path    string `json:"path" jsonschema:"the file to write, absolute or relative to the project directory"`
		Content string `json:"content" jsonschema:"the file's complete new content"`
	}
	mcpReplaceInFileArgs struct {
		Path string `json:"path" jsonschema:"the file to edit"`
		Diff string `json:"diff" jsonschema:"one or more SEARCH/REPLACE blocks: ------- SEARCH, the exact lines, =======, the new lines, +++++++ REPLACE"`
	}
	mcpEditArgs struct {
		FilePath   string `json:"file_path" jsonschema:"the file to edit"`
		OldString  string `json:"old_string" jsonschema:"the exact text to replace; it must occur once unless replace_all"`
		NewString  string `json:"new_string" jsonschema:"the text to put in its place"`
		ReplaceAll bool   `json:"replace_all,omitempty" jsonschema:"replace every occurrence"`
	}
	mcpMultiEditArgs struct {
		FilePath string           `json:"file_path" jsonschema:"the file to edit"`
		Edits    []engine.Replace `json:"edits" jsonschema:"replacements applied in order; all apply or none"`
	}
	mcpPatchArgs struct {
		Patch string `json:"patch" jsonschema:"a Codex apply_patch envelope (*** Begin Patch … *** End Patch) or a unified diff"`
		Dir   string `json:"dir,omitempty" jsonschema:"the directory the patch's paths are relative to; default the project directory"`
	}
	mcpApproveArgs struct {
		ToolName  string         `json:"tool_name"`
		Input     map[string]any `json:"input"`
		ToolUseID string         `json:"tool_use_id,omitempty"`
	}
)

var mcpCmd = &command{
	name:  "mcp",
	usage: "[flags]",
	short: "an MCP server on stdio through which any agent's edits wait for the person",
	long: `An MCP server on stdio for any agent. Its tools write_to_file, replace_in_file, edit,
multi_edit and apply_patch send the edit to the running desk and return the person's decision;
approve answers Claude Code's --permission-prompt-tool.`,
	flags: func(fl *flag.FlagSet) runFunc {
		socket := socketFlag(fl)
		return func(ctx context.Context, x *invocation) int { return runMCP(ctx, x, *socket) }
	},
}

// runMCP implements `deskctl mcp`: an MCP server on stdin/stdout whose
// tools send edits to the desk at socket and return the person's decision.
func runMCP(ctx context.Context, x *invocation, socket string) int {
	dir, err := os.Getwd()
	if err != nil {
		return x.fail(err)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	out := &lockedWriter{w: x.stdout}
	in := mcpLines(x.stdin, out)
	defer in.Close()
	// The filter bounds the lines (mcpMaxLine); the SDK need not.
	t := &mcp.IOTransport{Reader: in, Writer: nopWriteCloser{out}, MaxLineLength: -1}
	if err := newMCPServer(socket, dir).Run(ctx, t); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		return x.fail(err)
	}
	return 0
}

// nopWriteCloser lets the server close its output without closing stdout
// under a test.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// mcpBridge sends the MCP tools' edits to the desk at socket; relative paths
// are taken from dir.
type mcpBridge struct {
	socket, dir string
}

// newMCPServer is the MCP server `deskctl mcp` runs.
func newMCPServer(socket, dir string) *mcp.Server {
	b := mcpBridge{socket: socket, dir: dir}
	s := mcp.NewServer(&mcp.Implementation{Name: "diffdesk", Title: "DiffDesk", Version: "1"}, &mcp.ServerOptions{
		Instructions: "Every edit you make with these tools is shown to a person in DiffDesk, who approves, edits or rejects it. " +
			"Each tool waits for that decision and returns what happened and the file's final content: base later edits on it.",
	})
	mcp.AddTool(s, &mcp.Tool{Name: "write_to_file", Description: "Create or overwrite a file with complete content, after a person approves it in DiffDesk."},
		func(ctx context.Context, req *mcp.CallToolRequest, in mcpWriteArgs) (*mcp.CallToolResult, any, error) {
			return b.propose(ctx, req, engine.FormatWrite, in.Path, in.Content)
		})
	mcp.AddTool(s, &mcp.Tool{Name: "replace_in_file", Description: "Edit a file with SEARCH/REPLACE blocks, after a person approves it in DiffDesk."},
		func(ctx context.Context, req *mcp.CallToolRequest, in mcpReplaceInFileArgs) (*mcp.CallToolResult, any, error) {
			return b.propose(ctx, req, engine.FormatSearchReplace, in.Path, in.Diff)
		})
	mcp.AddTool(s, &mcp.Tool{Name: "edit", Description: "Replace old_string with new_string in a file, after a person approves it in DiffDesk."},
		func(ctx context.Context, req *mcp.CallToolRequest, in mcpEditArgs) (*mcp.CallToolResult, any, error) {
			return b.proposeJSON(ctx, req, engine.FormatEdit, in.FilePath, engine.Replace{Old: in.OldString, New: in.NewString, ReplaceAll: in.ReplaceAll})
		})
	mcp.AddTool(s, &mcp.Tool{Name: "multi_edit", Description: "Apply several replacements to one file, all or none, after a person approves them in DiffDesk."},
		func(ctx context.Context, req *mcp.CallToolRequest, in mcpMultiEditArgs) (*mcp.CallToolResult, any, error) {
			return b.proposeJSON(ctx, req, engine.FormatMultiEdit, in.FilePath, engine.MultiEdit{Edits: in.Edits})
		})
	mcp.AddTool(s, &mcp.Tool{Name: "apply_patch", Description: "Apply a multi-file patch (Codex apply_patch or unified diff), after a person approves it in DiffDesk."},
		func(ctx context.Context, req *mcp.CallToolRequest, in mcpPatchArgs) (*mcp.CallToolResult, any, error) {
			return b.proposeIn(ctx, req, review.Request{Format: engine.FormatPatch, Dir: b.abs(in.Dir)}, in.Patch)
		})
	mcp.AddTool(s, &mcp.Tool{Name: "approve", Description: "Claude Code's --permission-prompt-tool: file edits are decided by a person in DiffDesk; other tools are denied."},
		func(ctx context.Context, req *mcp.CallToolRequest, in mcpApproveArgs) (*mcp.CallToolResult, any, error) {
			return b.approve(ctx, in)
		})
	return s
}

// abs resolves p against the bridge's directory ("" is the directory).
func (b mcpBridge) abs(p string) string {
	if p == "" {
		return b.dir
	}
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(b.dir, p)
}

func (b mcpBridge) proposeJSON(ctx context.Context, req *mcp.CallToolRequest, format engine.Format, path string, edit any) (*mcp.CallToolResult, any, error) {
	payload, err := json.Marshal(edit)
	if err != nil {
		return nil, nil, err
	}
	return b.propose(ctx, req, format, path, string(payload))
}

func (b mcpBridge) propose(ctx context.Context, req *mcp.CallToolRequest, format engine.Format, path, payload string) (*mcp.CallToolResult, any, error) {
	if path == "" {
		return nil, nil, fmt.Errorf("no file given: set the path of the file to %s", format)
	}
	return b.proposeIn(ctx, req, review.Request{Format: format, Path: b.abs(path), Dir: b.dir}, payload)
}

// proposeIn sends r to the desk and waits for the person. The outcome text
// is the tool's result; anything but an approval is a tool error.
func (b mcpBridge) proposeIn(ctx context.Context, req *mcp.CallToolRequest, r review.Request, payload string) (*mcp.CallToolResult, any, error) {
	r.Agent = "mcp"
	if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil && p.ClientInfo.Name != "" {
		r.Agent = p.ClientInfo.Name
	}
	r.Session = req.Session.ID()
	cl, err := deskrpc.Dial(b.socket)
	if err != nil {
		return nil, nil, fmt.Errorf("%w (nothing was written)", err)
	}
	defer cl.Close()
	res, err := propose(ctx, cl, r, payload, 0, finalChanged) // the tool result is the text
	if err != nil {
		return nil, nil, fmt.Errorf("the desk refused the edit: %w", err)
	}
	out := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Text}}}
	out.IsError = res.Outcome == nil || !res.Outcome.Status.Wrote()
	return out, nil, nil
}

// approve answers Claude Code's permission prompt: a file edit goes to the
// person at the desk; anything else, or no desk, is denied with the reason.
func (b mcpBridge) approve(ctx context.Context, in mcpApproveArgs) (*mcp.CallToolResult, any, error) {
	e := toolEdit{Agent: "claude-code", ToolUseID: in.ToolUseID, Dir: b.dir, Tool: in.ToolName, Input: in.Input}
	v, err := reviewToolEdit(ctx, b.socket, e)
	if k, ok := newReportKey(b.socket, e); ok && !errors.Is(err, errNotAnEdit) {
		// The answer carries no text to the model; Claude Code's
		// PostToolUse hook passes the report on (hook_report.go).
		if err := k.settle(v); err != nil {
			fmt.Fprintf(os.Stderr, "deskctl mcp: the report for the agent is lost: %v\n", err)
		}
		if err := k.expectWrite(v.ID); err != nil {
			fmt.Fprintf(os.Stderr, "deskctl mcp: the desk will not learn whether Claude Code wrote the file: %v\n", err)
		}
	}
	switch {
	case errors.Is(err, errNotAnEdit):
		v.Reason = fmt.Sprintf("DiffDesk reviews only file edits (Edit, MultiEdit, Write), not %s; allow it with --allowedTools %s if it should run.", in.ToolName, in.ToolName)
	case errors.Is(err, deskrpc.ErrNoDesk):
		v.Reason = "DiffDesk is not running, so nobody could review this edit; start it with `diffdesk` or `deskctl serve` and try again."
	case err != nil:
		v.Reason = err.Error()
	}
	b2, err := json.Marshal(permissionDecision(v, in.Input))
	if err != nil {
		return nil, nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b2)}}}, nil, nil
}
