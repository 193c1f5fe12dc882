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
// A run cancelled before its PostToolUse hook runs tells the desk nothing.

// clinePending is what the PreToolUse hook leaves for PostToolUse when it
// lets an approved edit run: the proposal the tool is to carry out.
type clinePending struct {
	ProposalID string `json:"proposalId"`
}

// clinePendingFile is where the PreToolUse hook leaves ev's clinePending:
// beside the report hand-offs, by the task and the tool call's id (the
// same in the tool_call and tool_result events; not the path, which an
// input another hook overrode no longer names).
func clinePendingFile(socket, task, call string) string {
	sum := sha256.Sum256([]byte("cline\x00pending\x00" + task + "\x00" + call))
	return filepath.Join(filepath.Dir(socket), "hook-reports", hex.EncodeToString(sum[:16])+".pending.json")
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
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cl, err := deskrpc.Dial(socket)
	if err == nil {
		defer cl.Close()
		var res struct {
			Status string `json:"status"`
		}
		if err = cl.Call(ctx, "agentWrote", map[string]any{"id": id, "reason": note}, &res); err == nil && res.Status == "failed" {
			fmt.Fprintf(stderr, "deskctl hook cline: %s was approved but not written; the history says so\n", id)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "deskctl hook cline: could not tell the desk what became of the approval of %s: %v\n", id, err)
	}
}

// clineToolNote is what Cline's tool result says went wrong: its error,
// as text; "" when it has none.
func clineToolNote(r *clineCall) string {
	raw := strings.TrimSpace(string(r.Error))
	if raw == "" || raw == "null" || raw == "false" {
		return ""
	}
	var s string
	if json.Unmarshal(r.Error, &s) == nil {
		return "Cline's tool failed: " + s
	}
	return "Cline's tool failed: " + raw
}
