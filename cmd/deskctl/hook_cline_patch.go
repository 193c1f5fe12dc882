package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/deskrpc"
)

// Cline's apply_patch (docs/agent-protocols.md §6.5) takes the Codex patch
// grammar, several files in one call. The desk shows what the patch does as
// the engine applies it; Cline's own parser is looser (a hunk it cannot
// place fuzzily is skipped), so once the person approves, the tool is
// always given a patch of its own that turns each file, whole, into exactly
// the approved text.

// Markers of the Codex patch grammar as Cline's parser reads them.
const (
	patchBegin  = "*** Begin Patch"
	patchEnd    = "*** End Patch"
	patchAdd    = "*** Add File: "
	patchUpdate = "*** Update File: "
	patchDelete = "*** Delete File: "
)

// clinePatchText is an apply_patch call's patch: its "input" field, or the
// input itself when it is a string (Cline takes both).
func clinePatchText(call *clineCall) string {
	var s string
	if json.Unmarshal(call.Input, &s) == nil {
		return s
	}
	p, _ := call.fields()["input"].(string)
	return p
}

// clinePatchReview shows an apply_patch call at the desk and returns the
// answer; ok is false for a call the desk has no opinion on.
func clinePatchReview(ctx context.Context, socket string, ev clineEvent, wait time.Duration, stderr io.Writer) (clineControl, bool) {
	patch := clinePatchText(ev.ToolCall)
	if strings.TrimSpace(patch) == "" {
		return clineControl{}, false // Cline refuses an empty patch itself
	}
	e := clineToolEdit(ev, ev.ToolCall)
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	res, err := clinePropose(ctx, socket, e, clineNormalPatch(patch, e.Dir))
	if err != nil {
		return clineFailed(err, socket, wait, stderr), true
	}
	if res.Outcome == nil || !res.Outcome.Status.Wrote() || len(res.Outcome.Files) == 0 {
		return clineBlock(res.Text), true
	}
	rewritten, first, why := clinePatchRewrite(res.Outcome.Files)
	if why != "" {
		final := map[string]string{}
		for _, f := range res.Outcome.Files {
			if !f.Deleted {
				final[f.Path] = f.FinalContent
			}
		}
		clineAgentWrote(socket, res.Outcome.ID, "DiffDesk's hook kept Cline's apply_patch from running: "+why, stderr)
		return clineBlock(clineApprovedText(why, final)), true
	}
	for _, f := range res.Outcome.Files {
		if f.Path == first {
			e.Input = map[string]any{"file_path": f.Path}
			if k, ok := newReportKey(socket, e); ok {
				if err := k.settle(toolVerdict{Allow: true, Report: res.Text, FinalSHA256: f.FinalSHA256}); err != nil {
					fmt.Fprintf(stderr, "deskctl hook cline: the report for the model is lost: %v\n", err)
				}
			}
		}
	}
	clineExpectWrite(socket, ev, res.Outcome.ID, stderr)
	return clineControl{OverrideInput: map[string]any{"input": rewritten}}, true
}

// clinePatchWrappers are the lines around a patch Cline drops when the
// patch has no sentinels (apply-patch-parser.ts BASH_WRAPPERS).
var clinePatchWrappers = []string{"%%bash", "apply_patch", "EOF", "```"}

// clineNormalPatch is the patch as Cline's apply_patch reads it
// (apply-patch.ts normalizePatchInput), for the engine: a "\r" ending a
// line dropped; from its Begin to its last End sentinel, or, without them,
// shell-wrapper and blank lines around it dropped and the sentinels added;
// and a file named by an absolute path inside dir named relative to it,
// as the engine's patches name files.
func clineNormalPatch(patch, dir string) string {
	lines := strings.Split(patch, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	begin, end := -1, -1
	for i, l := range lines {
		if begin < 0 && strings.HasPrefix(l, patchBegin) {
			begin = i
		}
		if strings.HasPrefix(l, patchEnd) {
			end = i
		}
	}
	if begin >= 0 && end > begin {
		lines = lines[begin : end+1]
	} else if begin < 0 && end < 0 {
		wrapper := func(l string) bool {
			if strings.TrimSpace(l) == "" {
				return true
			}
			for _, w := range clinePatchWrappers {
				if strings.HasPrefix(l, w) {
					return true
				}
			}
			return false
		}
		for len(lines) > 0 && wrapper(lines[0]) {
			lines = lines[1:]
		}
		for len(lines) > 0 && wrapper(lines[len(lines)-1]) {
			lines = lines[:len(lines)-1]
		}
		lines = append(append([]string{patchBegin}, lines...), patchEnd)
	}
	for i, l := range lines {
		for _, m := range []string{patchAdd, patchUpdate, patchDelete, "*** Move to: "} {
			p, ok := strings.CutPrefix(l, m)
			if !ok {
				continue
			}
			p = strings.TrimSpace(p)
			if rel, err := filepath.Rel(dir, p); err == nil && filepath.IsAbs(p) && rel != ".." && !strings.HasPrefix(rel, "../") {
				lines[i] = m + filepath.ToSlash(rel)
			}
		}
	}
	return strings.Join(lines, "\n")
}

// clinePropose proposes a patch at the desk and waits for the person.
func clinePropose(ctx context.Context, socket string, e toolEdit, patch string) (proposeResult, error) {
	cl, err := deskrpc.Dial(socket)
	if err != nil {
		return proposeResult{}, err
	}
	defer cl.Close() // withdraws the proposal if the wait was given up
	req := review.Request{Agent: "cline", Session: e.Session, Format: engine.FormatPatch, Dir: e.Dir, AgentWrites: true}
	res, err := propose(ctx, cl, req, patch, 0, finalAll) // the patch is rewritten from the final texts
	if err != nil {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		return res, fmt.Errorf("the desk refused the patch: %w", err)
	}
	return res, nil
}

// clinePatchRewrite is the patch that makes Cline's apply_patch write
// exactly each file's approved text: a deleted file deleted, a new one
// added, a changed one replaced whole (every line it has now removed, every
// approved line added: a chunk Cline's parser finds at the file's first
// line). first is the first file it writes, whose hash the report waits
// for. why says why it cannot: Cline's apply_patch writes only "\n" line
// endings (it reads files with "\r\n" turned into "\n" and drops a "\r"
// ending any patch line).
func clinePatchRewrite(files []review.FileOutcome) (patch, first, why string) {
	var b strings.Builder
	b.WriteString(patchBegin + "\n")
	sections := 0
	for _, f := range files {
		current, exists, err := readCurrent(f.Path)
		if err != nil {
			return "", "", fmt.Sprintf("DiffDesk could not read %s again to hand Cline the approved text (%v); nothing was written.", f.Path, err)
		}
		if f.Deleted {
			if exists {
				b.WriteString(patchDelete + f.Path + "\n")
				sections++
			}
			continue
		}
		if strings.Contains(f.FinalContent, "\r\n") || strings.HasSuffix(f.FinalContent, "\r") {
			return "", "", fmt.Sprintf("The approved text of %s has \\r\\n line endings, and Cline's apply_patch writes only \\n: it would change every line, so nothing was written. Edit this file with Cline's editor tool, or have the person change its line endings first.", f.Path)
		}
		now := strings.ReplaceAll(current, "\r\n", "\n")
		switch {
		case !exists:
			b.WriteString(patchAdd + f.Path + "\n")
			for _, l := range strings.Split(f.FinalContent, "\n") {
				b.WriteString("+" + l + "\n")
			}
		case now == f.FinalContent && now == current:
			continue
		default:
			b.WriteString(patchUpdate + f.Path + "\n@@\n")
			for _, l := range strings.Split(now, "\n") {
				b.WriteString("-" + l + "\n")
			}
			for _, l := range strings.Split(f.FinalContent, "\n") {
				b.WriteString("+" + l + "\n")
			}
		}
		sections++
		if first == "" {
			first = f.Path
		}
	}
	if sections == 0 {
		return "", "", "The person approved the files as they are now, without this patch; nothing was written."
	}
	b.WriteString(patchEnd + "\n")
	return b.String(), first, ""
}

// clineTakeReport is the desk's report for the tool call an after hook
// (PostToolUse) reports on, once the file holds the approved text: by the
// editor's path, or by each file an apply_patch call wrote.
func clineTakeReport(socket string, ev clineEvent) (string, bool) {
	e := clineToolEdit(ev, ev.ToolResult)
	var paths []string
	if ev.ToolResult.Name == "apply_patch" {
		for _, l := range strings.Split(clinePatchText(ev.ToolResult), "\n") {
			for _, m := range []string{patchUpdate, patchAdd} {
				if p, ok := strings.CutPrefix(l, m); ok {
					paths = append(paths, strings.TrimSpace(p))
				}
			}
		}
	} else if p, ok := e.Input["file_path"].(string); ok {
		paths = []string{p}
	}
	for _, p := range paths {
		e.Input = map[string]any{"file_path": p}
		if k, ok := newReportKey(socket, e); ok {
			if report, ok := k.take(); ok {
				return report, true
			}
		}
	}
	return "", false
}
