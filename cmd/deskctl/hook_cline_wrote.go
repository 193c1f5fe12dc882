package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/deskrpc"
)

// The desk records a Cline approval when the person decides, before Cline
// writes anything (the proposal's agentWrites). What happens next is
// Cline's: the hook may block the tool all the same (the editor cannot
// write the approved text exactly), another hook of the person's own may
// block or change it after ours, the tool may fail, the run may be
// cancelled. So the desk is told what became of the approval — by this
// hook at once when it blocks, by the PostToolUse hook when the tool has
// run — and checks the disk itself (the protocol's agentWrote): an
// approval not written is recorded as failed, never left "approved".
// A run that ends before a tool's PostToolUse hook (cancelled, failed,
// stopped by another hook's "cancel") tells the desk at its TaskCancel,
// TaskError or SessionShutdown hook, for every approval of the task no
// PostToolUse took (clineTaskEnded).

// clinePending is what the PreToolUse hook leaves for PostToolUse when it
// lets an approved edit run: the proposal the tool is to carry out.
type clinePending struct {
	ProposalID string `json:"proposalId"`
}

// clinePendingFile is where the PreToolUse hook leaves ev's clinePending:
// beside the report hand-offs, named by the task and the tool call's id
// (the same in the tool_call and tool_result events; not the path, which
// an input another hook overrode no longer names), the task's first, so
// that the hook at the task's end finds what no PostToolUse took.
func clinePendingFile(socket, task, call string) string {
	return clinePendingPrefix(socket, task) + clineHash(call) + ".pending.json"
}

// clinePendingPrefix starts the names of a task's pending files.
func clinePendingPrefix(socket, task string) string {
	return filepath.Join(filepath.Dir(socket), "hook-reports", "cline-"+clineHash(task)+"-")
}

func clineHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:12])
}

// clineExpectWrite leaves the proposal id for the PostToolUse hook of ev's
// tool call.
func clineExpectWrite(socket string, ev clineEvent, id string, stderr io.Writer) {
	if id == "" {
		return
	}
	b, _ := json.Marshal(clinePending{ProposalID: id})
	f := clinePendingFile(socket, ev.TaskID, ev.ToolCall.ID)
	err := os.MkdirAll(filepath.Dir(f), 0o700)
	if err == nil {
		_, err = atomicfile.Save(f, b, 0o600)
	}
	if err != nil {
		fmt.Fprintf(stderr, "deskctl hook cline: the desk will not learn whether Cline wrote %s: %v\n", id, err)
	}
}

// clineTakePending removes and returns the proposal id the PreToolUse hook
// left for ev's tool result.
func clineTakePending(socket string, ev clineEvent) (string, bool) {
	f := clinePendingFile(socket, ev.TaskID, ev.ToolResult.ID)
	b, err := os.ReadFile(f)
	if err != nil {
		return "", false
	}
	os.Remove(f)
	var p clinePending
	if json.Unmarshal(b, &p) != nil || p.ProposalID == "" {
		return "", false
	}
	return p.ProposalID, true
}

// clineAgentWrote tells the desk what became of the approval of proposal
// id (note: why it was not written, or what the tool said); the desk checks
// the files and records the approval as failed where they do not hold it.
func clineAgentWrote(socket, id, note string, stderr io.Writer) {
	agentWrote(socket, id, note, "deskctl hook cline", stderr)
}

// agentWrote tells the desk at socket what became of the approval of
// proposal id that its agent writes itself (the protocol's agentWrote);
// who names the hook in what it prints.
func agentWrote(socket, id, note, who string, stderr io.Writer) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cl, err := deskrpc.Dial(socket)
	if err == nil {
		defer cl.Close()
		var res struct {
			Status string `json:"status"`
		}
		if err = cl.Call(ctx, "agentWrote", map[string]any{"id": id, "reason": note}, &res); err == nil && res.Status == "failed" {
			fmt.Fprintf(stderr, "%s: %s was approved but not written; the history says so\n", who, id)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: could not tell the desk what became of the approval of %s: %v\n", who, id, err)
	}
}

// clineTaskEnds are the hook events of a task's end (Cline's hook files
// TaskCancel, TaskError, SessionShutdown; cline 3.0.65 runs only the last
// when another hook's "cancel" stops the run).
var clineTaskEnds = map[string]string{"agent_abort": "was cancelled", "agent_error": "failed", "session_shutdown": "ended"}

// clineTaskEnded tells the desk what became of each approval of ev's task
// that no PostToolUse hook took: the run ended before the tool did.
func clineTaskEnded(socket string, ev clineEvent, stderr io.Writer) {
	files, _ := filepath.Glob(clinePendingPrefix(socket, ev.TaskID) + "*.pending.json")
	for _, f := range files {
		b, err := os.ReadFile(f)
		os.Remove(f)
		var p clinePending
		if err != nil || json.Unmarshal(b, &p) != nil || p.ProposalID == "" {
			continue
		}
		note := "Cline's run " + clineTaskEnds[ev.HookName] + " before the tool's PostToolUse hook"
		if why := strings.TrimSpace(ev.Reason + " " + clineErrorText(ev.Error)); why != "" {
			note += ": " + why
		}
		clineAgentWrote(socket, p.ProposalID, note, stderr)
	}
}

// clineToolNote is what Cline's tool result says went wrong: its error,
// as text; "" when it has none.
func clineToolNote(r *clineCall) string {
	if e := clineErrorText(r.Error); e != "" {
		return "Cline's tool failed: " + e
	}
	return ""
}

// clineErrorText is an event's error as text: a string, or the JSON of
// anything else; "" for none.
func clineErrorText(raw json.RawMessage) string {
	t := strings.TrimSpace(string(raw))
	if t == "" || t == "null" || t == "false" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var m struct{ Message string }
	if json.Unmarshal(raw, &m) == nil && m.Message != "" {
		return m.Message
	}
	return t
}
