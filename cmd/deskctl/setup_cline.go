package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// Cline's hooks are files, not settings: Cline runs every executable file
// named PreToolUse or PostToolUse (with or without an extension such as
// .sh) in $CLINE_DIR/hooks (default ~/.cline/hooks), ~/Documents/Cline/Hooks
// and a repository's .cline/hooks and .clinerules/hooks, by the interpreter
// its first line names. deskctl setup cline writes one file for each event,
// the same small script (PreToolUse's also answers when deskctl cannot).

// clineHookEvents are the hook files setup writes for Cline: the review
// and its report, and the task's and the session's end, where the desk
// learns of approvals a cancelled or failed run never wrote
// (hook_cline_wrote.go).
var clineHookEvents = []string{"PreToolUse", "PostToolUse", "TaskCancel", "TaskError", "SessionShutdown"}

// clineHookOptional are the hook files a file of the person's own of the
// same name is kept in place of: without them only the history's record
// of a cancelled run's approval is missing, so setup goes on.
var clineHookOptional = map[string]bool{"TaskCancel": true, "TaskError": true, "SessionShutdown": true}

func init() {
	registerSetupAgent(&setupAgent{
		name: "cline", title: "Cline",
		door: "the hook files PreToolUse, PostToolUse, TaskCancel, TaskError and SessionShutdown running `deskctl hook cline` in ~/.cline/hooks ($CLINE_DIR/hooks); with --project in the repository's .cline/hooks",
		carries: "Every editor call (create, replace, insert) and apply_patch call (the edit tool Cline gives GPT and Codex models) of the cline CLI, in its default auto-approve mode too, waits for you before it is written; the model reads a rejection's reason, your comments, your edits and the final text. " +
			"A decision must come within 110 s: Cline runs a tool unreviewed once its hook has taken 120 s, so past that the hook takes the edit back and blocks it, telling the model why. " +
			"Without a desk, or when deskctl cannot run, the edit is blocked. " +
			"An approval Cline then does not write (blocked, failed, the run cancelled) is recorded as failed in the history, not approved. " +
			"Shell commands that write files (run_commands) are not edits and are not shown: run cline --auto-approve false for Cline to ask about them itself.",
		ownFallback: true, whole: true,
		targets: func(env setupEnv) ([]setupTarget, error) {
			dir := clineHookDir(env.home, env.project)
			var targets []setupTarget
			for _, name := range clineHookEvents {
				path, script := filepath.Join(dir, name), clineHookScript(name, env.deskctl, env.socket)
				optional := clineHookOptional[name]
				targets = append(targets, setupTarget{
					path: path, mode: 0o755,
					add: func(old []byte) ([]byte, error) {
						if optional && old != nil && !isClineHook(old) {
							return old, nil // theirs stays: see clineHookOptional
						}
						return clineHookAdd(path, old, script)
					},
					remove:   func(old []byte) ([]byte, error) { return clineHookRemove(old), nil },
					commands: clineHookCommands,
				})
			}
			return targets, nil
		},
	})
}

// clineHookMarker is the line that says a hook file is DiffDesk's.
const clineHookMarker = "# DiffDesk's Cline hook, written by deskctl setup cline"

// clineHookDir is the directory setup writes Cline's hooks into: the
// repository's .cline/hooks with project, else $CLINE_DIR/hooks, else
// ~/.cline/hooks.
func clineHookDir(home, project string) string {
	switch {
	case project != "":
		return filepath.Join(project, ".cline", "hooks")
	case os.Getenv("CLINE_DIR") != "":
		return filepath.Join(os.Getenv("CLINE_DIR"), "hooks")
	}
	return filepath.Join(home, ".cline", "hooks")
}

// clineHookScript is the hook file for event: deskctl by its absolute
// path and, for PreToolUse, an answer of its own when deskctl cannot run
// (moved, deleted, broken) that blocks the tool, since Cline runs a tool
// unreviewed when its hook prints no answer. PostToolUse runs after the
// tool: without deskctl the model only misses the desk's report.
func clineHookScript(event, deskctl, socket string) string {
	cmd := shellQuote(deskctl) + " hook cline"
	if socket != "" {
		cmd += " --socket " + shellQuote(socket)
	}
	head := "#!/bin/sh\n" + clineHookMarker + ".\n" +
		"# Cline's edits wait at DiffDesk before they are written; `deskctl setup --undo cline` removes it.\n"
	if event != "PreToolUse" {
		return head + "exec " + cmd + "\n"
	}
	block, _ := json.Marshal(clineBlock(fmt.Sprintf("The DiffDesk hook could not run %s (moved, deleted, or failing). Tell the person to run `deskctl doctor`, or `deskctl setup cline` again.", deskctl)))
	return head +
		"# Cline runs a tool unreviewed when its hook prints no answer, so when deskctl cannot run\n" +
		"# this answers for it, blocking the tool.\n" +
		cmd + " && exit 0\n" +
		"printf 'HOOK_CONTROL\\t%s\\n' " + shellQuote(string(block)) + "\n"
}

// isClineHook says whether a hook file's content is DiffDesk's.
func isClineHook(b []byte) bool {
	return bytes.Contains(b, []byte(clineHookMarker))
}

// clineHookAdd is a hook file's content once setup has written it: the
// script, over a DiffDesk hook file or none; a hook of the person's own is
// left alone, with an error saying what to do.
func clineHookAdd(path string, old []byte, script string) ([]byte, error) {
	switch {
	case old == nil:
		return []byte(script), nil
	case !isClineHook(old):
		return nil, fmt.Errorf("%s is a Cline hook of your own; Cline runs every %s file, so keep yours and add DiffDesk's in another hooks directory (deskctl setup --project cline for this repository), or have yours run %q and print its answer", path, filepath.Base(path), "deskctl hook cline")
	case string(old) == script:
		return old, nil
	}
	return []byte(script), nil
}

// clineHookRemove is a hook file's content once setup --undo has taken
// DiffDesk's hook out: nil (delete the file) for DiffDesk's, the file as it
// is for one of the person's own.
func clineHookRemove(old []byte) []byte {
	if isClineHook(old) {
		return nil
	}
	return old
}

// clineHookCommandRE finds the deskctl command line in DiffDesk's hook file.
var clineHookCommandRE = regexp.MustCompile(`(?m)^(?:exec )?(.*\shook cline\b.*?)(?: && exit 0)?$`)

// clineHookCommands are the deskctl command lines a hook file holds.
func clineHookCommands(old []byte) []string {
	if !isClineHook(old) {
		return nil
	}
	var cmds []string
	for _, m := range clineHookCommandRE.FindAllSubmatch(old, -1) {
		cmds = append(cmds, string(m[1]))
	}
	return cmds
}
