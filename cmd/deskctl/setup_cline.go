package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Cline's hooks are files, not settings: Cline runs every executable file
// named PreToolUse or PostToolUse (with or without an extension such as
// .sh) in $CLINE_DIR/hooks (default ~/.cline/hooks), ~/Documents/Cline/Hooks
// and a repository's .cline/hooks and .clinerules/hooks, by the interpreter
// its first line names. deskctl setup cline writes one file for each event,
// both the same small script.

// clineHookEvents are the hook files setup writes for Cline.
var clineHookEvents = []string{"PreToolUse", "PostToolUse"}

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

// clineHookScript is the hook file: deskctl by its absolute path, and, when
// deskctl cannot run (moved, deleted, broken), an answer of its own that
// blocks the tool, since Cline runs a tool unreviewed when its hook prints
// no answer.
func clineHookScript(deskctl, socket string) string {
	cmd := clineQuote(deskctl) + " hook cline"
	if socket != "" {
		cmd += " --socket " + clineQuote(socket)
	}
	block, _ := json.Marshal(clineBlock(fmt.Sprintf("The DiffDesk hook could not run %s (moved, deleted, or failing). Tell the person to run `deskctl doctor`, or `deskctl setup cline` again.", deskctl)))
	return "#!/bin/sh\n" + clineHookMarker + ".\n" +
		"# Cline's edits wait at DiffDesk before they are written; `deskctl setup --undo cline` removes it.\n" +
		"# Cline runs a tool unreviewed when its hook prints no answer, so when deskctl cannot run\n" +
		"# this answers for it, blocking the tool.\n" +
		cmd + " && exit 0\n" +
		"printf 'HOOK_CONTROL\\t%s\\n' " + clineQuote(string(block)) + "\n"
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
var clineHookCommandRE = regexp.MustCompile(`(?m)^(.*\shook cline\b.*?) && exit 0$`)

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

// clineQuote quotes s for sh.
func clineQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
