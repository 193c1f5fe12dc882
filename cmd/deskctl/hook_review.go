package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/deskrpc"
)

// toolEdit is a file-edit tool call an agent is about to make, as its hook
// or permission tool sees it: the tool's name and its complete input.
type toolEdit struct {
	Agent   string // "claude-code" or "gemini-cli"
	Session string // the agent's session id
	Turn    string // the agent's turn (Claude Code's prompt_id), if it says
	// ToolUseID is Claude Code's id of the tool call, when the hook or
	// permission tool is given one: the one thing the permission-prompt
	// tool and the PostToolUse hook both know of the call.
	ToolUseID string
	Dir       string         // the agent's working directory
	Tool      string         // Edit, MultiEdit, Write (Claude); replace, write_file (Gemini)
	Input     map[string]any // tool_input as the agent sent it
}

// toolVerdict is the desk's answer to a toolEdit.
type toolVerdict struct {
	Allow bool
	// Reason is what the agent reads on a deny: the outcome text.
	Reason string
	// Input, when not nil, is the complete rewritten tool input that makes
	// the tool write exactly the text the person approved.
	Input map[string]any
	// Report is what the agent reads on an allow: the outcome text (what
	// was approved, the person's and the formatter's patches, the final
	// content).
	Report string
	// FinalSHA256 is the hex SHA-256 of the approved content, on an allow.
	FinalSHA256 string
	// ID is the proposal's, on an allow (the Cline door tells the desk
	// what became of it: hook_cline_wrote.go).
	ID string
}

// errNotAnEdit says a tool call is not one of the file edits the desk reviews.
var errNotAnEdit = errors.New("not a file edit the desk reviews")

// toolFormats maps each reviewed tool to its edit format and whether its
// input is a whole file (content) rather than a replacement.
var toolFormats = map[string]struct {
	format engine.Format
	whole  bool
}{
	"Edit":       {engine.FormatEdit, false},
	"MultiEdit":  {engine.FormatMultiEdit, false},
	"Write":      {engine.FormatWrite, true},
	"replace":    {engine.FormatSmartEdit, false},
	"write_file": {engine.FormatWrite, true},
}

// reviewToolEdit shows e at the desk on socket as a whole-file diff and
// waits for the person. The agent writes the file itself, so the verdict
// carries the approved text when it differs from what the tool would write.
// A missing desk is an error wrapping deskrpc.ErrNoDesk.
func reviewToolEdit(ctx context.Context, socket string, e toolEdit) (toolVerdict, error) {
	tf, ok := toolFormats[e.Tool]
	if !ok {
		return toolVerdict{}, fmt.Errorf("deskctl hook: tool %q: %w", e.Tool, errNotAnEdit)
	}
	path, err := toolPath(e)
	if err != nil {
		return toolVerdict{}, err
	}
	payload, err := toolPayload(tf.format, e.Input)
	if err != nil {
		return toolVerdict{}, fmt.Errorf("deskctl hook: %s input: %w", e.Tool, err)
	}
	cl, err := deskrpc.Dial(socket)
	if err != nil {
		return toolVerdict{}, err
	}
	defer cl.Close()
	req := review.Request{Agent: e.Agent, Session: e.Session, Turn: e.Turn, Format: tf.format, Path: path, Dir: e.Dir, AgentWrites: true}
	res, err := propose(ctx, cl, req, payload, 0, finalAll) // the tool may be handed the text to write
	if err != nil {
		return toolVerdict{}, fmt.Errorf("deskctl hook: the desk refused %s: %w", path, err)
	}
	if res.Outcome == nil || !res.Outcome.Status.Wrote() || len(res.Outcome.Files) == 0 {
		return toolVerdict{Reason: res.Text}, nil
	}
	f := res.Outcome.Files[0]
	// A loose match (a fuzzy one, or lines the person chose for a block
	// that did not match) is text the tool's own exact match would not
	// find: the tool is given the whole file to write, as for an edit.
	unchanged := f.AsProposed() && len(f.Matches) == 0
	if tf.whole {
		content, _ := e.Input["content"].(string)
		unchanged = content == f.FinalContent
	}
	v := toolVerdict{Allow: true, Report: res.Text, FinalSHA256: f.FinalSHA256, ID: res.Outcome.ID}
	if !unchanged {
		if v.Input, err = rewrittenInput(e.Tool, e.Input, path, f.FinalContent); err != nil {
			return toolVerdict{}, err
		}
	}
	return v, nil
}

// toolPath is the absolute path of the file e edits: its file_path, taken
// from e.Dir when relative.
func toolPath(e toolEdit) (string, error) {
	path, _ := e.Input["file_path"].(string)
	if path == "" {
		return "", fmt.Errorf("deskctl hook: %s input has no file_path", e.Tool)
	}
	if !filepath.IsAbs(path) && e.Dir != "" {
		path = filepath.Join(e.Dir, path)
	}
	return path, nil
}

// payloadFields are the tool input fields each format's payload takes
// (the engine refuses unknown ones; file_path travels separately).
var payloadFields = map[engine.Format][]string{
	engine.FormatEdit:      {"old_string", "new_string", "replace_all"},
	engine.FormatMultiEdit: {"edits"},
	engine.FormatSmartEdit: {"old_string", "new_string", "expected_replacements", "allow_multiple", "instruction"},
}

// toolPayload turns a tool input into the desk's payload for format.
func toolPayload(format engine.Format, in map[string]any) (string, error) {
	if format == engine.FormatWrite {
		content, ok := in["content"].(string)
		if !ok {
			return "", errors.New(`"content" is missing`)
		}
		return content, nil
	}
	fields := map[string]any{}
	for _, k := range payloadFields[format] {
		if v, ok := in[k]; ok {
			fields[k] = v
		}
	}
	b, err := json.Marshal(fields)
	return string(b), err
}

// rewrittenInput is the tool's complete input rewritten to turn the file
// as it is on disk now into final: the whole file as old_string (what
// Claude Code itself does after an IDE accept), or the content for a write.
// Gemini replaces rather than merges the input, so every field is kept.
func rewrittenInput(tool string, in map[string]any, path, final string) (map[string]any, error) {
	out := map[string]any{}
	for k, v := range in {
		out[k] = v
	}
	if toolFormats[tool].whole {
		out["content"] = final
		return out, nil
	}
	current, err := readWorkspaceFile(path)
	if err != nil {
		return nil, fmt.Errorf("deskctl hook: reading %s to hand the tool the approved text: %w", review.Printable(path), err)
	}
	delete(out, "expected_replacements")
	delete(out, "allow_multiple")
	if tool == "MultiEdit" {
		out["edits"] = []map[string]any{{"old_string": string(current), "new_string": final}}
		return out, nil
	}
	out["old_string"], out["new_string"] = string(current), final
	if _, ok := in["replace_all"]; ok {
		out["replace_all"] = false
	}
	return out, nil
}

// readWorkspaceFile reads a file of the workspace as the desk does: at most
// engine.MaxSize bytes, the size checked before reading, and a FIFO or
// device swapped in refused rather than waited on (a hook that hangs is
// one its agent gives up on). A missing file is empty.
func readWorkspaceFile(path string) ([]byte, error) {
	s, err := atomicfile.ReadSnapshotMax(path, engine.MaxSize)
	if err != nil {
		return nil, err
	}
	return s.Content, nil
}
