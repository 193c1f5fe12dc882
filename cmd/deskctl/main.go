// Command deskctl is DiffDesk's agent-side and headless command line: apply
// and diff edits offline, and (with a desk running) propose edits and watch
// the queue. It needs no GUI libraries and builds with CGO_ENABLED=0.
package main

import (
	"fmt"
	"io"
	"os"
)

const usage = `deskctl — DiffDesk's command line

Usage:
  deskctl apply --format F --file PATH [--edit EDITFILE] [--json]
        apply an edit in memory and print the resulting file (never writes PATH)
        F: write | search-replace | edit | multi-edit | smart-edit
  deskctl apply --format patch --root DIR [--edit EDITFILE]
        apply a Codex apply_patch or unified diff; print {"files":{path: content|null}}
  deskctl diff OLD NEW [--json]
        unified diff of two files; --json gives hunks with word-level spans
  deskctl serve [--workspace DIR]... [--decide approve|reject] [--socket PATH]
        run the desk without a window, on the same socket and rules
  deskctl propose --format F --file PATH [--edit EDITFILE] [--agent NAME] [--stream N] [--json]
        send an edit to the running desk and wait for the decision
        exit 0 approved, 3 rejected or withdrawn, 1 error
  deskctl status [--json]
        is a desk running, where, and what waits
  deskctl demo [--socket PATH] [--dir DIR] [--fast]
        a scripted agent session against the running desk: a streamed new file,
        SEARCH/REPLACE edits, a failing block, a big file, a stale edit
  deskctl mcp [--socket PATH]
        an MCP server on stdio for any agent: write_to_file, replace_in_file, edit,
        multi_edit, apply_patch (each waits for the person) and approve (Claude Code's
        --permission-prompt-tool)
  deskctl hook claude|gemini [--socket PATH]
        an agent hook (Claude PreToolUse/PermissionRequest, Gemini BeforeTool): shows the
        edit at the desk and answers allow, deny with the reason, or allow with the
        person's text; without a desk it leaves the decision to the agent's prompt
  deskctl history list|show|diff|restore|prune [...]
        browse checkpoints, compare any two points or a point with the disk, restore
        (a dry run until --apply; undoable), prune; deskctl history help for details
  deskctl help
        this text

The edit payload is read from EDITFILE, or from standard input when --edit is absent.
The desk's socket is $DIFFDESK_SOCKET, else $XDG_RUNTIME_DIR/diffdesk/desk.sock; --socket overrides.
`

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

// run dispatches a deskctl command and returns its exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "apply":
		return runApply(args[1:], stdin, stdout, stderr)
	case "diff":
		return runDiff(args[1:], stdout, stderr)
	case "serve":
		return runServe(args[1:], stdout, stderr)
	case "propose":
		return runPropose(args[1:], stdin, stdout, stderr)
	case "status":
		return runStatus(args[1:], stdout, stderr)
	case "demo":
		return runDemo(args[1:], stdout, stderr)
	case "history":
		return runHistory(args[1:], stdout, stderr)
	case "mcp":
		return runMCP(args[1:], stdin, stdout, stderr)
	case "hook":
		return runHook(args[1:], stdin, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "deskctl: unknown command %q\n\n%s", args[0], usage)
	return 2
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return fmt.Sprint(*l) }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }
