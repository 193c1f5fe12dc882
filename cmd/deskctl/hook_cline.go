package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf16"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/deskrpc"
)

// Cline's door (docs/agent-protocols.md, "Cline"): Cline runs an executable
// file named PreToolUse (and PostToolUse) from its hooks directories with the
// event's JSON on stdin, and reads one JSON object from stdout. Its current
// CLI (cline 3.0.65, @cline/core 0.0.86) offers a hook these controls:
//   - "overrideInput": the tool runs with this input instead of the model's;
//   - "context": text the model reads after the tool's result;
//   - "cancel": stops the whole run — the model never reads why.
// It has no "skip this tool, telling the model why": an edit the person
// rejects is answered with an input Cline's tool refuses before it touches
// any file ({}), and the reason as context. And Cline fails open: a hook
// that prints no JSON, prints bad JSON or runs past 120 s lets the tool run.
// So deskctl always answers, in time (clineWait), and the hook file setup
// writes answers for deskctl when deskctl itself cannot run.

// clineEvent is what Cline writes on a hook's stdin (the fields the desk uses).
type clineEvent struct {
	HookName       string     `json:"hookName"` // tool_call (PreToolUse), tool_result (PostToolUse), …
	TaskID         string     `json:"taskId"`
	WorkspaceRoots []string   `json:"workspaceRoots"`
	ToolCall       *clineCall `json:"tool_call"`
	ToolResult     *clineCall `json:"tool_result"`
	// A task's end (agent_abort, agent_error): why.
	Reason string          `json:"reason"`
	Error  json.RawMessage `json:"error"`
}

// clineCall is a tool call as a Cline hook event names it.
type clineCall struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"` // an object; apply_patch also takes a bare string
	Error json.RawMessage `json:"error"` // tool_result: what went wrong, if anything
}

// fields is the call's input as an object (empty when it is not one).
func (c *clineCall) fields() map[string]any {
	var m map[string]any
	json.Unmarshal(c.Input, &m)
	if m == nil {
		m = map[string]any{}
	}
	return m
}

// clineControl is a Cline hook's answer.
type clineControl struct {
	OverrideInput any    `json:"overrideInput,omitempty"`
	Context       string `json:"context,omitempty"`
}

// clineRefused is the input Cline's editor and apply_patch tools refuse
// before they read or write a file (their schemas require path and
// new_text, or input): how a hook keeps a tool from running while the run
// goes on and the model reads the context.
var clineRefused = map[string]any{}

// clineWait is how long the hook waits for the person by default: Cline
// kills a tool hook after 120 s and then runs the tool unreviewed.
const clineWait = 110 * time.Second

// clineEditLimit is Cline's limit on the editor's old_text and new_text, in
// UTF-16 code units (INPUT_ARG_CHAR_LIMIT): a longer one fails the tool.
const clineEditLimit = 6000

// clineBlocked is what the model reads before the reason the edit was not made.
const clineBlocked = "DiffDesk blocked this edit: the tool was not run and no file was changed (Cline's \"Invalid input\" error above is DiffDesk's doing: a Cline hook can keep a tool from running only by giving it an input it refuses)."

// runClineHook implements `deskctl hook cline`: Cline's PreToolUse hook
// shows an edit at the desk and answers with the person's verdict;
// its PostToolUse hook passes on the desk's report. It always answers an
// edit it could not review with a block, never with silence.
func runClineHook(ctx context.Context, x *invocation, socket string, wait time.Duration) int {
	var ev clineEvent
	if err := json.NewDecoder(x.stdin).Decode(&ev); err != nil {
		return writeClineControl(x.stdout, x.stderr, clineBlock(fmt.Sprintf("DiffDesk could not read Cline's hook event (%v).", err)))
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch {
	case ev.HookName == "tool_call" && ev.ToolCall != nil:
		c, ok := clineReview(ctx, socket, ev, wait, x.stderr)
		if !ok {
			return 0 // not an edit, or one Cline refuses itself: no opinion
		}
		return writeClineControl(x.stdout, x.stderr, c)
	case clineTaskEnds[ev.HookName] != "":
		clineTaskEnded(socket, ev, x.stderr)
	case ev.HookName == "tool_result" && ev.ToolResult != nil:
		if id, ok := clineTakePending(socket, ev); ok {
			clineAgentWrote(socket, id, clineToolNote(ev.ToolResult), x.stderr)
		}
		if report, ok := clineTakeReport(socket, ev); ok {
			return writeClineControl(x.stdout, x.stderr, clineControl{Context: report})
		}
	}
	return 0
}

// writeClineControl prints c as Cline reads a hook's answer: the last line
// starting HOOK_CONTROL and a tab, so that nothing else printed can make it
// unreadable (which Cline takes as "run the tool").
func writeClineControl(stdout, stderr io.Writer, c clineControl) int {
	b, err := json.Marshal(c)
	if err == nil {
		_, err = fmt.Fprintf(stdout, "HOOK_CONTROL\t%s\n", b)
	}
	if err != nil {
		fmt.Fprintf(stderr, "deskctl hook cline: the answer could not be written (%v)\n", err)
		return 1 // the hook file then prints its own block
	}
	return 0
}

// clineBlock is the answer that keeps the tool from running, telling the
// model why.
func clineBlock(why string) clineControl {
	return clineControl{OverrideInput: clineRefused, Context: clineBlocked + "\n" + why}
}

// clineToolEdit is the toolEdit of a Cline tool call.
func clineToolEdit(ev clineEvent, call *clineCall) toolEdit {
	dir, _ := os.Getwd() // Cline runs its hooks in the session's working directory, as its tools
	if dir == "" && len(ev.WorkspaceRoots) > 0 {
		dir = ev.WorkspaceRoots[0]
	}
	in := call.fields()
	if p, ok := in["path"].(string); ok {
		in["file_path"] = p // toolPath's name for it
	}
	return toolEdit{Agent: "cline", Session: ev.TaskID, ToolUseID: call.ID, Dir: dir, Tool: call.Name, Input: in}
}

// clineReview shows the edit of ev's tool call at the desk and returns the
// answer; ok is false for a tool call the desk has no opinion on.
func clineReview(ctx context.Context, socket string, ev clineEvent, wait time.Duration, stderr io.Writer) (clineControl, bool) {
	switch ev.ToolCall.Name {
	case "editor":
	case "apply_patch":
		return clinePatchReview(ctx, socket, ev, wait, stderr)
	default:
		return clineControl{}, false
	}
	e := clineToolEdit(ev, ev.ToolCall)
	path, err := toolPath(e)
	if err != nil {
		return clineControl{}, false // Cline refuses an editor call without a path itself
	}
	current, exists, err := readCurrent(path)
	if err != nil {
		return clineBlock(fmt.Sprintf("DiffDesk could not read %s to show the edit (%v).", path, err)), true
	}
	proposed, ok := clineEditorResult(e.Input, current, exists)
	if !ok {
		return clineControl{}, false // the editor fails by itself, writing nothing
	}
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	v, err := clineAsk(ctx, socket, e, path, proposed)
	k, keyed := newReportKey(socket, e)
	if keyed {
		if err := k.settle(v); err != nil {
			fmt.Fprintf(stderr, "deskctl hook cline: the report for the model is lost: %v\n", err)
		}
	}
	switch {
	case err != nil:
		return clineFailed(err, socket, wait, stderr), true
	case !v.Allow:
		return clineBlock(v.Reason), true
	case v.Input == nil:
		clineExpectWrite(socket, ev, v.ID, stderr)
		return clineControl{}, false // approved as proposed: the tool runs as asked, the report follows its result
	}
	final := v.Input["content"].(string)
	in, why := clineRewrite(e.Input, current, exists, final)
	if why != "" {
		if keyed {
			k.settle(toolVerdict{}) // nothing will be written: no report claims it was
		}
		clineAgentWrote(socket, v.ID, "DiffDesk's hook kept Cline's editor from running: "+why, stderr)
		return clineBlock(clineApprovedText(why, map[string]string{path: final})), true
	}
	clineExpectWrite(socket, ev, v.ID, stderr)
	return clineControl{OverrideInput: in}, true
}

// clineShownMax is the most approved text the model is shown when the
// approval could not be written (Cline cuts a hook's context at 50,000).
const clineShownMax = 20000

// clineApprovedText is why an approved edit was not written, with the text
// the person approved for each file, so the model can make that change
// another way.
func clineApprovedText(why string, final map[string]string) string {
	var b strings.Builder
	b.WriteString(why)
	paths := make([]string, 0, len(final))
	for p := range final {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, path := range paths {
		text := final[path]
		if len(text) > clineShownMax {
			fmt.Fprintf(&b, "\nThe text the person approved for %s (%d bytes) is in DiffDesk's history (the person can show it: deskctl history list).", path, len(text))
			continue
		}
		fmt.Fprintf(&b, "\nThe text the person approved for %s:\n%s", path, text)
	}
	return b.String()
}

// clineFailed is the answer when the review could not happen: a block
// saying why.
func clineFailed(err error, socket string, wait time.Duration, stderr io.Writer) clineControl {
	var msg string
	switch {
	case errors.Is(err, deskrpc.ErrNoDesk):
		msg = fmt.Sprintf("DiffDesk is not running (no desk at %s), so the edit was blocked rather than written unreviewed. Tell the person: start the desk (diffdesk, or deskctl serve) and ask again; deskctl doctor says what is wrong.", socket)
	case errors.Is(err, context.DeadlineExceeded):
		msg = fmt.Sprintf("The person did not decide within %s, and Cline runs a tool unreviewed once its hook has taken 120 s, so DiffDesk took the edit back from the desk. Propose it again if it is still wanted.", wait)
	default:
		msg = fmt.Sprintf("DiffDesk could not review it: %v", err)
	}
	fmt.Fprintln(stderr, "deskctl hook cline: "+msg)
	return clineBlock(msg)
}

// readCurrent reads path's text; exists is false for a file that is not there.
func readCurrent(path string) (text string, exists bool, err error) {
	s, err := atomicfile.ReadSnapshotMax(path, engine.MaxSize)
	if err != nil {
		return "", false, err
	}
	return string(s.Content), s.Exists, nil
}

// clineAsk proposes the whole new text of path at the desk and waits for the
// person: the verdict carries the approved text as Input["content"] when it
// is not the proposal.
func clineAsk(ctx context.Context, socket string, e toolEdit, path, proposed string) (toolVerdict, error) {
	cl, err := deskrpc.Dial(socket)
	if err != nil {
		return toolVerdict{}, err
	}
	defer cl.Close() // withdraws the proposal if the wait was given up
	req := review.Request{Agent: "cline", Session: e.Session, Format: engine.FormatWrite, Path: path, Dir: e.Dir, AgentWrites: true}
	res, err := propose(ctx, cl, req, proposed, 0, finalAll) // Cline may be handed the text to write
	if err != nil {
		if ctx.Err() != nil {
			return toolVerdict{}, ctx.Err()
		}
		return toolVerdict{}, fmt.Errorf("the desk refused the edit of %s: %w", path, err)
	}
	if res.Outcome == nil || !res.Outcome.Status.Wrote() || len(res.Outcome.Files) == 0 {
		return toolVerdict{Reason: res.Text}, nil
	}
	f := res.Outcome.Files[0]
	v := toolVerdict{Allow: true, Report: res.Text, FinalSHA256: f.FinalSHA256, ID: res.Outcome.ID}
	if f.FinalContent != proposed {
		v.Input = map[string]any{"content": f.FinalContent}
	}
	return v, nil
}

// clineEditorResult is the text Cline's editor tool would leave in a file
// holding current (exists: the file is there), as its executor computes it
// (sdk/packages/core/src/extensions/tools/executors/editor.ts); ok is false
// where the tool fails by itself and writes nothing.
func clineEditorResult(in map[string]any, current string, exists bool) (string, bool) {
	newText, ok := in["new_text"].(string)
	if !ok {
		return "", false
	}
	oldText, hasOld := in["old_text"].(string)
	if utf16Len(newText) > clineEditLimit || hasOld && utf16Len(oldText) > clineEditLimit {
		return "", false
	}
	if line, set, valid := clineInsertLine(in["insert_line"]); set {
		if !valid || !exists {
			return "", false
		}
		eol := clineEOL(current)
		lines := splitEOL(current)
		if line < 1 || line > len(lines)+1 {
			return "", false
		}
		out := append(append(append([]string{}, lines[:line-1]...), splitEOL(newText)...), lines[line-1:]...)
		return strings.Join(out, eol), true
	}
	if !exists {
		return newText, true
	}
	if !hasOld {
		return "", false
	}
	eol := clineEOL(current)
	old := strings.Join(splitEOL(oldText), eol)
	if old == "" || strings.Count(current, old) != 1 {
		return "", false
	}
	return strings.Replace(current, old, strings.Join(splitEOL(newText), eol), 1), true
}

// clineInsertLine is the editor's insert_line, whether it is set (not
// absent or null), and whether it is a whole number (or a string of one:
// Cline coerces it); Cline refuses one that is set and not valid.
func clineInsertLine(v any) (line int, set, valid bool) {
	switch n := v.(type) {
	case nil:
		return 0, false, false
	case float64:
		return int(n), true, n == float64(int(n))
	case string:
		i, err := strconv.Atoi(strings.TrimSpace(n))
		return i, true, err == nil
	}
	return 0, true, false
}

// clineRewrite is the editor input that turns the file as it is now into
// final, the text the person approved: the smallest run of whole lines
// around the change that occurs once in the file, as old_text. why says,
// when the editor cannot be made to write exactly final, why not.
func clineRewrite(in map[string]any, current string, exists bool, final string) (map[string]any, string) {
	path, _ := in["path"].(string)
	if !exists {
		if utf16Len(final) > clineEditLimit {
			return nil, fmt.Sprintf("The person approved the new file with changes, but the text is longer than the %d characters Cline's editor takes in one call, so nothing was written. Create the file in smaller steps (create it, then add to it), each reviewed again.", clineEditLimit)
		}
		return map[string]any{"path": path, "new_text": final}, ""
	}
	if final == current {
		return nil, "The person approved the file as it is now, without this edit; nothing was written."
	}
	if current == "" {
		return nil, "The person approved an edited text for a file that is empty now, which Cline's editor cannot write exactly (it has no text to replace); nothing was written."
	}
	eol := clineEOL(current)
	if strings.Join(splitEOL(final), eol) != final {
		return nil, "The person's approved text mixes line endings in a way Cline's editor would rewrite, so it cannot write it exactly; nothing was written."
	}
	start, end, fstart, fend := changedLines(current, final)
	for {
		old := current[start:end]
		if old != "" && strings.Count(current, old) == 1 && strings.Join(splitEOL(old), eol) == old {
			newText := final[fstart:fend]
			if utf16Len(old) > clineEditLimit || utf16Len(newText) > clineEditLimit {
				return nil, fmt.Sprintf("The person approved the edit with changes, but the changed lines are longer than the %d characters Cline's editor takes in one call, so nothing was written. Make the change in smaller edits, each reviewed again.", clineEditLimit)
			}
			return map[string]any{"path": path, "old_text": old, "new_text": newText}, ""
		}
		if start == 0 && end == len(current) {
			return nil, "The file's line endings are mixed around the change, which Cline's editor would rewrite; nothing was written."
		}
		// One more line of context on each side.
		if start > 0 {
			prev := strings.LastIndexByte(current[:start-1], '\n') + 1
			fstart -= start - prev
			start = prev
		}
		if end < len(current) {
			e := len(current)
			if i := strings.IndexByte(current[end:], '\n'); i >= 0 {
				e = end + i + 1
			}
			fend += e - end
			end = e
		}
	}
}

// changedLines returns the whole lines of a that differ from b, as
// a[start:end], and the lines of b they become, b[fstart:fend]: the common
// start and end of the two, cut back to line boundaries.
func changedLines(a, b string) (start, end, fstart, fend int) {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	start = strings.LastIndexByte(a[:p], '\n') + 1
	end = len(a) - s
	if end > start && a[end-1] != '\n' {
		if i := strings.IndexByte(a[end:], '\n'); i >= 0 {
			end += i + 1
		} else {
			end = len(a)
		}
	}
	return start, end, start, len(b) - (len(a) - end)
}

// clineEOL is the line ending Cline's editor writes into a file holding
// text: "\r\n" if the text has one anywhere, else "\n".
func clineEOL(text string) string {
	if strings.Contains(text, "\r\n") {
		return "\r\n"
	}
	return "\n"
}

// splitEOL splits text at "\r\n" and "\n", as the editor does.
func splitEOL(text string) []string {
	return strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
}

// utf16Len is the length of s as JavaScript counts it.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}
