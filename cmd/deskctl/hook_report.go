package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/diffdesk/diffdesk/review/atomicfile"
)

// The desk's report (protocol.md's outcome text: what was approved, the
// person's patch, the formatter's patch, the final content) has to reach
// the model, or it goes on from the text it proposed. Claude Code's
// PreToolUse hook carries it in additionalContext. Claude Code's
// PermissionRequest and Gemini CLI's BeforeTool hooks cannot: nothing they
// say on an allow reaches the model (docs/agent-protocols.md §3.4). The
// hook that runs after the tool — PostToolUse, AfterTool — can, but it is
// another process. So the reviewing hook leaves the report in a hand-off
// file and the after hook takes it.

// afterEvents are the hook events that run after the tool: they pass the
// report on and review nothing.
var afterEvents = map[string]bool{"PostToolUse": true, "AfterTool": true}

// handsOff reports whether the reviewing hook for event leaves its report
// to an after hook.
func handsOff(agent, event string) bool {
	return agent == "gemini" || event == "PermissionRequest"
}

// reportMaxAge is how long a hand-off no after hook took is kept: one
// whose agent has no after hook configured, or whose tool never ran.
const reportMaxAge = 24 * time.Hour

// handOff is what the after hook needs: the report, and the hash the file
// has once the tool has written what the desk approved.
type handOff struct {
	Report      string `json:"report"`
	FinalSHA256 string `json:"finalSha256"` // hex SHA-256 of the approved content
}

// reportKey names the hand-off for one edit of one file: by the tool
// call's id where the agent gives one (Claude Code does, to the hooks and
// to the permission-prompt tool, which knows no session), else by the
// agent's session.
type reportKey struct {
	dir                  string // reportDir
	agent, session, path string // path is absolute
	toolUseID            string
}

// newReportKey is the key of e's hand-off for the desk on socket. The
// hand-offs live beside the socket: the desk keeps that directory 0700.
func newReportKey(socket string, e toolEdit) (reportKey, bool) {
	path, err := toolPath(e)
	if err != nil {
		return reportKey{}, false
	}
	return reportKey{filepath.Join(filepath.Dir(socket), "hook-reports"), e.Agent, e.Session, path, e.ToolUseID}, true
}

// file is where the hand-off is written: under the tool call's id when
// there is one.
func (k reportKey) file() string {
	if k.toolUseID != "" {
		return k.fileFor("call", k.toolUseID)
	}
	return k.fileFor("session", k.session)
}

func (k reportKey) fileFor(kind, id string) string {
	sum := sha256.Sum256([]byte(k.agent + "\x00" + kind + "\x00" + id + "\x00" + k.path))
	return filepath.Join(k.dir, hex.EncodeToString(sum[:16])+".json")
}

// settle records the review's verdict: the report for the after hook when
// the edit was allowed, else nothing — an earlier hand-off for the same
// file is removed either way, and so are hand-offs older than reportMaxAge.
func (k reportKey) settle(v toolVerdict) error {
	os.Remove(k.file())
	k.prune()
	if !v.Allow {
		return nil
	}
	b, err := json.Marshal(handOff{Report: v.Report, FinalSHA256: v.FinalSHA256})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(k.dir, 0o700); err != nil {
		return err
	}
	_, err = atomicfile.Save(k.file(), b, 0o600)
	return err
}

func (k reportKey) prune() {
	entries, _ := os.ReadDir(k.dir)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > reportMaxAge {
			os.Remove(filepath.Join(k.dir, e.Name()))
		}
	}
}

// take removes k's hand-off and returns its report if the file holds the
// content the desk approved: a tool that failed, or wrote something else,
// gets no report claiming the edit was applied.
//
// The hand-off is looked for under the tool call's id, then under the
// session: a reviewing hook that was given no id left it there.
func (k reportKey) take() (string, bool) {
	files := []string{k.fileFor("session", k.session)}
	if k.toolUseID != "" {
		files = append([]string{k.file()}, files...)
	}
	var b []byte
	var err error
	for _, f := range files {
		if b, err = os.ReadFile(f); err == nil {
			os.Remove(f)
			break
		}
	}
	if err != nil {
		return "", false
	}
	var h handOff
	if json.Unmarshal(b, &h) != nil {
		return "", false
	}
	content, err := readWorkspaceFile(k.path)
	if err != nil || atomicfile.Hash(content) != h.FinalSHA256 {
		return "", false
	}
	return h.Report, true
}

// geminiEscapes is said before a report Gemini CLI passes on, which it
// does with < and > escaped.
const geminiEscapes = "(Gemini CLI shows < and > in this report as &lt; and &gt;; the file has < and >.)\n"

// hookReport is an after hook's answer: the report the reviewing hook
// left for this edit as additionalContext, or nil when there is none (the
// tool is not one the desk reviews, the PreToolUse hook already said it,
// the tool did not write the approved text).
func hookReport(socket string, e toolEdit, event string) any {
	if _, ok := toolFormats[e.Tool]; !ok {
		return nil
	}
	k, ok := newReportKey(socket, e)
	if !ok {
		return nil
	}
	report, ok := k.take()
	if !ok {
		return nil
	}
	if e.Agent == "gemini-cli" && strings.ContainsAny(report, "<>") {
		report = geminiEscapes + report
	}
	return map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": event, "additionalContext": report}}
}
