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
	"syscall"

	"github.com/diffdesk/diffdesk/review/deskrpc"
)

// hookInput is what Claude Code's PreToolUse / PermissionRequest hooks and
// Gemini CLI's BeforeTool hook write on stdin (the fields the desk uses).
type hookInput struct {
	SessionID string         `json:"session_id"`
	PromptID  string         `json:"prompt_id"` // Claude Code's id of the person's prompt: the turn the edit belongs to
	Cwd       string         `json:"cwd"`
	Event     string         `json:"hook_event_name"`
	ToolName  string         `json:"tool_name"`
	ToolInput map[string]any `json:"tool_input"`
	ToolUseID string         `json:"tool_use_id"` // Claude Code's id of the tool call; it links the review to the PostToolUse hook
	// The after hooks': what the tool answered (Claude Code's PostToolUse,
	// Gemini CLI's AfterTool, whose error is in it), Claude Code's
	// PostToolUseFailure error and whether the person interrupted it.
	ToolResponse json.RawMessage `json:"tool_response"`
	Error        json.RawMessage `json:"error"`
	IsInterrupt  bool            `json:"is_interrupt"`
}

var hookCmd = &command{
	name:  "hook",
	usage: "claude|gemini|cline [flags]",
	short: "an agent hook (Claude Code, Gemini CLI, Cline) that shows each edit at the desk",
	long: `An agent hook — Claude Code's PreToolUse or PermissionRequest, Gemini CLI's BeforeTool — reading
the hook's JSON on stdin: it shows the edit at the desk and answers allow, deny with the reason,
or allow with the person's text. Without a desk it blocks the edit (exit 2, the agents' way to
block, with the reason), unless --without-desk ask leaves it to the agent's own prompt; input
it cannot read blocks the tool too. deskctl setup writes it into the agent's settings. The
desk's report (the person's and the formatter's changes, the final content) reaches the model
through PreToolUse itself; after PermissionRequest and BeforeTool it needs the same command as
the PostToolUse or AfterTool hook. The agent writes an approved file itself: the same command as
the PostToolUse, PostToolUseFailure or AfterTool hook tells the desk whether it did (the desk
checks the file, and records an approval not written as failed), and as the Stop, AfterAgent or
SessionEnd hook it tells the desk of every approval whose tool never ran; those answer nothing
and never block.

Cline's PreToolUse and PostToolUse hook files run "deskctl hook cline" (deskctl setup cline
writes them). Cline runs a tool unreviewed when its hook prints nothing or takes 120 s, so for
Cline it always answers: without a desk, or when the person has not decided within --wait, it
blocks the edit and tells the model why (--without-desk does not apply: Cline has no prompt of
its own to leave it to).`,
	words: func() []string { return []string{"claude", "gemini", "cline"} },
	flags: func(fl *flag.FlagSet) runFunc {
		socket := socketFlag(fl)
		without := fl.String("without-desk", "block", "with no desk running: `block|ask` — block the edit, or leave it to the agent's own prompt")
		wait := fl.Duration("wait", clineWait, "cline: the `DURATION` to wait for the person before blocking the edit (Cline gives a hook 120 s)")
		return func(ctx context.Context, x *invocation) int {
			if *without != "block" && *without != "ask" {
				// Exit 2 blocks the tool: a typo here must not let edits through.
				return x.usageError("--without-desk must be block or ask, not %q", *without)
			}
			if len(x.args) > 0 && x.args[0] == "cline" {
				return runClineHook(ctx, x, *socket, *wait)
			}
			return runHook(ctx, x, *socket, *without == "ask")
		}
	},
}

// runHook implements `deskctl hook claude|gemini`: an agent's hook that
// shows the edit at the desk at socket, waits for the person and prints
// the agent's answer. Without a desk it says so and leaves the decision to
// the agent's own prompt (ask), never allowing silently. Run after the
// tool (PostToolUse, AfterTool), it passes on the desk's report. Without
// a desk it blocks the edit (exit 2), or with askWithoutDesk leaves it to
// the agent's own prompt.
func runHook(ctx context.Context, x *invocation, socket string, askWithoutDesk bool) int {
	if len(x.args) == 0 || (x.args[0] != "claude" && x.args[0] != "gemini") {
		return x.usageError("say which agent: claude, gemini or cline")
	}
	agent, stdout, stderr := x.args[0], x.stdout, x.stderr
	in, err := readHookInput(x.stdin)
	if err != nil {
		// Exit 2 blocks the tool in both agents, with stderr as the
		// reason; exit 1 would let the edit through unreviewed.
		fmt.Fprintf(stderr, "deskctl hook %s: %v; the edit was blocked, since DiffDesk could not review it\n", agent, err)
		return 2
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	name := map[string]string{"claude": "claude-code", "gemini": "gemini-cli"}[agent]
	e := toolEdit{Agent: name, Session: in.SessionID, Turn: in.PromptID, ToolUseID: in.ToolUseID, Dir: in.Cwd, Tool: in.ToolName, Input: in.ToolInput}
	var out any
	switch {
	case endEvents[in.Event]:
		// Never a block: exit 2 here would keep the agent going.
		hookSessionEnded(socket, name, in.SessionID, in.Event, stderr)
		return 0
	case failedEvents[in.Event]:
		if k, ok := newReportKey(socket, e); ok {
			k.take() // no report for a tool that failed
		}
		hookWrote(socket, e, hookToolError(in), stderr)
		return 0
	case afterEvents[in.Event]:
		out = hookReport(socket, e, in.Event)
		hookWrote(socket, e, hookToolError(in), stderr)
	default:
		out = hookReview(ctx, socket, agent, in.Event, e, stderr)
		if out == noDeskAnswer && !askWithoutDesk {
			fmt.Fprintf(stderr, "DiffDesk is not running (no desk at %s), so this edit was blocked rather than written unreviewed: start the desk (diffdesk, or deskctl serve) and try again; deskctl doctor says what is wrong.\n", socket)
			return 2
		}
		if out == noDeskAnswer {
			out = hookAsk(agent, in.Event, noDeskMsg)
			fmt.Fprintln(stderr, noDeskMsg)
		}
	}
	if out == nil {
		return 0 // no opinion: the agent carries on as usual
	}
	if err := json.NewEncoder(stdout).Encode(out); err != nil {
		fmt.Fprintf(stderr, "deskctl hook %s: the answer could not be written (%v); the edit was blocked\n", agent, err)
		return 2
	}
	return 0
}

// readHookInput reads the hook's JSON from r. Anything that is not the
// JSON of a hook event about a tool is an error.
func readHookInput(r io.Reader) (hookInput, error) {
	var in hookInput
	if err := json.NewDecoder(r).Decode(&in); err != nil {
		return hookInput{}, fmt.Errorf("standard input is not the agent's hook JSON (%v)", err)
	}
	if in.Event == "" || in.ToolName == "" && !endEvents[in.Event] {
		return hookInput{}, errors.New(`standard input is not the agent's hook JSON: it names no "hook_event_name" and "tool_name"`)
	}
	return in, nil
}

// hookReview shows e at the desk on socket and returns the answer of the
// agent's reviewing hook event, or nil for a tool the desk does not
// review. Where that answer cannot carry the report to the model, the
// report is left for the after hook (hook_report.go).
func hookReview(ctx context.Context, socket, agent, event string, e toolEdit, stderr io.Writer) any {
	v, err := reviewToolEdit(ctx, socket, e)
	if errors.Is(err, errNotAnEdit) {
		return nil
	}
	if k, ok := newReportKey(socket, e); ok && handsOff(agent, event) {
		if err := k.settle(v); err != nil {
			fmt.Fprintf(stderr, "deskctl hook %s: the report for the agent is lost: %v\n", agent, err)
		}
	}
	if k, ok := newReportKey(socket, e); ok && err == nil {
		if err := k.expectWrite(v.ID); err != nil {
			fmt.Fprintf(stderr, "deskctl hook %s: the desk will not learn whether the agent wrote the file: %v\n", agent, err)
		}
	}
	switch {
	case errors.Is(err, deskrpc.ErrNoDesk):
		return noDeskAnswer
	case err != nil:
		msg := fmt.Sprintf("DiffDesk could not review this edit (%v); answer the agent's own prompt instead.", err)
		fmt.Fprintln(stderr, msg)
		return hookAsk(agent, event, msg)
	case agent == "gemini":
		return geminiHookAnswer(v)
	case event == "PermissionRequest":
		return claudePermissionAnswer(v, e.Input)
	}
	return claudePreToolUseAnswer(v)
}

// noDeskAnswer is hookReview's answer when no desk is running: the
// caller blocks the edit, or asks.
var noDeskAnswer = &struct{ noDesk bool }{true}

// noDeskMsg is what the person reads when the hook asks for want of a desk.
const noDeskMsg = "DiffDesk is not running, so this edit was not reviewed there; answer the agent's own prompt (start it with `diffdesk` or `deskctl serve`)."

// hookAsk leaves the decision to the agent's own prompt, telling the
// person why.
func hookAsk(agent, event, msg string) any {
	switch {
	case agent == "gemini":
		return map[string]any{"decision": "ask", "reason": msg, "systemMessage": msg}
	case event == "PermissionRequest":
		// No decision: Claude Code shows its own permission dialog.
		return map[string]any{"systemMessage": msg}
	}
	return map[string]any{"systemMessage": msg, "hookSpecificOutput": map[string]any{
		"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": msg,
	}}
}

// claudePreToolUseAnswer is a PreToolUse hook's answer.
func claudePreToolUseAnswer(v toolVerdict) any {
	h := map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": v.Reason}
	if v.Allow {
		h["permissionDecision"], h["permissionDecisionReason"] = "allow", "approved in DiffDesk"
		h["additionalContext"] = v.Report // the one field of an allow that reaches the model
		if v.Input != nil {
			h["updatedInput"] = v.Input
		}
	}
	return map[string]any{"hookSpecificOutput": h}
}

// claudePermissionAnswer is a PermissionRequest hook's answer.
func claudePermissionAnswer(v toolVerdict, input map[string]any) any {
	return map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PermissionRequest", "decision": permissionDecision(v, input),
	}}
}

// permissionDecision is Claude Code's permission answer, used by the
// PermissionRequest hook and the --permission-prompt-tool. An allow always
// carries updatedInput: the rewritten input, else the agent's own.
func permissionDecision(v toolVerdict, input map[string]any) map[string]any {
	if !v.Allow {
		return map[string]any{"behavior": "deny", "message": v.Reason}
	}
	if v.Input != nil {
		input = v.Input
	}
	return map[string]any{"behavior": "allow", "updatedInput": input}
}

// geminiHookAnswer is a BeforeTool hook's answer; a rewritten tool_input is
// complete, since Gemini CLI replaces the input with it.
func geminiHookAnswer(v toolVerdict) any {
	if !v.Allow {
		return map[string]any{"decision": "deny", "reason": v.Reason}
	}
	out := map[string]any{"decision": "allow"}
	if v.Input != nil {
		out["hookSpecificOutput"] = map[string]any{"hookEventName": "BeforeTool", "tool_input": v.Input}
	}
	return out
}
