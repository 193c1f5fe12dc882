package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/diffdesk/diffdesk/review/atomicfile"
)

// Claude Code and Gemini CLI write an approved file themselves (the
// proposal's agentWrites): the desk records the approval when the person
// decides, and what happens next is the agent's — another PreToolUse or
// BeforeTool hook of the person's own may block the tool after ours, the
// tool may fail (the file changed in between), the person may interrupt.
// So the reviewing hook leaves the proposal's id for the hook that runs
// after the tool, which tells the desk (the protocol's agentWrote, as the
// Cline door does: hook_cline_wrote.go); the desk checks the disk itself
// and records an approval not written as failed. A tool that never
// reaches its after hook is told at the end of the turn or session (Claude
// Code's Stop and SessionEnd, Gemini CLI's AfterAgent and SessionEnd): every
// approval of the session no after hook took is checked then.

// endEvents are the hook events of a turn's or a session's end: they tell
// the desk about the approvals no after hook took, and answer nothing.
var endEvents = map[string]bool{"Stop": true, "SessionEnd": true, "AfterAgent": true}

// failedEvents are the after hooks of a tool that failed (Claude Code's
// PostToolUseFailure): no report, but the desk is told.
var failedEvents = map[string]bool{"PostToolUseFailure": true}

// pendingWrite is what the reviewing hook leaves for the after hook when
// it lets an approved edit run: the proposal the tool is to carry out.
type pendingWrite struct {
	ProposalID string `json:"proposalId"`
	Agent      string `json:"agent"`
	Session    string `json:"session"`
	Path       string `json:"path"`
}

// wroteFile is where k's pending write is kept: beside its report
// hand-off, under the same key (the tool call's id, else the session).
func (k reportKey) wroteFile(kind, id string) string {
	return strings.TrimSuffix(k.fileFor(kind, id), ".json") + ".wrote"
}

// expectWrite leaves proposal id for k's after hook; an earlier one for
// the same key is replaced, and with id "" (a denial) removed.
func (k reportKey) expectWrite(id string) error {
	kind, key := "session", k.session
	if k.toolUseID != "" {
		kind, key = "call", k.toolUseID
	}
	f := k.wroteFile(kind, key)
	os.Remove(f)
	if id == "" {
		return nil
	}
	b, err := json.Marshal(pendingWrite{ProposalID: id, Agent: k.agent, Session: k.session, Path: k.path})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(k.dir, 0o700); err != nil {
		return err
	}
	_, err = atomicfile.Save(f, b, 0o600)
	return err
}

// takeWrite removes and returns the proposal id the reviewing hook left for
// k's tool call: under the call's id, then under the session.
func (k reportKey) takeWrite() (string, bool) {
	files := []string{k.wroteFile("session", k.session)}
	if k.toolUseID != "" {
		files = append([]string{k.wroteFile("call", k.toolUseID)}, files...)
	}
	for _, f := range files {
		if p, ok := readPendingWrite(f); ok {
			os.Remove(f)
			return p.ProposalID, true
		}
	}
	return "", false
}

func readPendingWrite(f string) (pendingWrite, bool) {
	b, err := os.ReadFile(f)
	if err != nil {
		return pendingWrite{}, false
	}
	var p pendingWrite
	if json.Unmarshal(b, &p) != nil || p.ProposalID == "" {
		return pendingWrite{}, false
	}
	return p, true
}

// hookWrote is an after hook's account to the desk of the approval the
// reviewing hook left for e's tool call, if any: note is what the tool
// said went wrong ("" for nothing).
func hookWrote(socket string, e toolEdit, note string, stderr io.Writer) {
	if _, ok := toolFormats[e.Tool]; !ok {
		return
	}
	k, ok := newReportKey(socket, e)
	if !ok {
		return
	}
	if id, ok := k.takeWrite(); ok {
		agentWrote(socket, id, note, "deskctl hook "+hookAgentName(e.Agent), stderr)
	}
}

// hookSessionEnded tells the desk about every approval of agent's session
// that no after hook took: the tool never reached it (another hook blocked
// it, the person interrupted, the run ended).
func hookSessionEnded(socket, agent, session, event string, stderr io.Writer) {
	if session == "" {
		return
	}
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(socket), "hook-reports", "*.wrote"))
	for _, f := range files {
		p, ok := readPendingWrite(f)
		if !ok || p.Agent != agent || p.Session != session {
			continue
		}
		os.Remove(f)
		note := fmt.Sprintf("%s's %s hook came with no after-tool hook for this approval: the tool did not run (another hook blocked it, the person interrupted it, or the run ended)", agent, event)
		agentWrote(socket, p.ProposalID, note, "deskctl hook "+hookAgentName(agent), stderr)
	}
}

// hookAgentName is deskctl hook's argument for an agent's door name.
func hookAgentName(agent string) string {
	return map[string]string{"claude-code": "claude", "gemini-cli": "gemini"}[agent]
}

// hookToolError is what an after hook's input says the tool got wrong:
// Claude Code's PostToolUseFailure error (and whether the person
// interrupted), Gemini CLI's tool_response.error; "" for none.
func hookToolError(in hookInput) string {
	var parts []string
	if e := clineErrorText(in.Error); e != "" {
		parts = append(parts, e)
	}
	if in.IsInterrupt {
		parts = append(parts, "the person interrupted it")
	}
	var r struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(in.ToolResponse, &r) == nil {
		if e := clineErrorText(r.Error); e != "" {
			parts = append(parts, e)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "the agent's tool failed: " + strings.Join(parts, "; ")
}
