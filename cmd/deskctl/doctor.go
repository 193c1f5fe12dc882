package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/deskrpc"
)

var doctorCmd = &command{
	name:  "doctor",
	usage: "[flags]",
	short: "is a desk running, are the agents set up, do the hooks run; each problem, its fix",
	long: `Check the set-up: is a desk running and where, which doors it has open, which agents are set up
(the user's settings, and the repository's around the current directory), whether each hook
command resolves and runs as the agent runs it (through sh, with a tool the desk does not
review), and whether an agent's own edit tools still write without the desk. Each problem comes
with the command that fixes it. It exits 1 if there is a problem, 0 if there is none.`,
	flags: func(fl *flag.FlagSet) runFunc {
		socket := socketFlag(fl)
		return func(ctx context.Context, x *invocation) int { return runDoctor(ctx, x, *socket) }
	},
}

// doctorReport collects what doctor finds: lines to print, and problems
// with their fixes.
type doctorReport struct {
	w        io.Writer
	problems int
}

func (r *doctorReport) say(format string, a ...any) { fmt.Fprintf(r.w, format+"\n", a...) }

// problem reports what is wrong and the command (or step) that fixes it.
func (r *doctorReport) problem(what, fix string) {
	r.problems++
	fmt.Fprintf(r.w, "  PROBLEM: %s\n    fix: %s\n", wrap(what, helpWidth-11, strings.Repeat(" ", 11)), wrap(fix, helpWidth-9, strings.Repeat(" ", 9)))
}

// runDoctor implements `deskctl doctor`.
func runDoctor(ctx context.Context, x *invocation, socket string) int {
	r := &doctorReport{w: x.stdout}
	doctorDesk(ctx, r, socket)
	self, _ := deskctlPath("")
	home, err := os.UserHomeDir()
	if err != nil {
		return x.fail(err)
	}
	scopes := []setupEnv{{home: home, deskctl: self}}
	if root, err := projectRoot(); err == nil && root != home {
		if _, err := os.Lstat(filepath.Join(root, ".git")); err == nil {
			scopes = append(scopes, setupEnv{home: home, project: root, deskctl: self})
		}
	}
	for _, a := range setupAgents {
		doctorAgent(r, a, scopes)
	}
	switch r.problems {
	case 0:
		r.say("\nno problems found")
		return 0
	case 1:
		r.say("\n1 problem")
	default:
		r.say("\n%d problems", r.problems)
	}
	return 1
}

// doctorDesk reports the desk on socket and its doors.
func doctorDesk(ctx context.Context, r *doctorReport, socket string) {
	cl, err := deskrpc.Dial(socket)
	if err != nil {
		r.say("desk: none at %s", review.Printable(socket))
		if errors.Is(err, deskrpc.ErrNoDesk) {
			r.problem("no desk is running, so every hook blocks the agents' edits and every MCP tool fails",
				"start one: diffdesk (the window) or deskctl serve --workspace DIR; a desk on another socket: deskctl doctor --socket PATH")
		} else {
			r.problem(fmt.Sprintf("the desk's socket cannot be used: %v", err), "see deskctl status; stop the process holding it, or start the desk with --socket")
		}
		return
	}
	defer cl.Close()
	var st struct {
		Roots []string            `json:"roots"`
		Doors []review.DoorStatus `json:"doors"`
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := cl.Call(ctx, "status", struct{}{}, &st); err != nil {
		r.say("desk: at %s, not answering", review.Printable(socket))
		r.problem(fmt.Sprintf("the desk does not answer status: %v", err), "restart it (diffdesk or deskctl serve)")
		return
	}
	roots := make([]string, len(st.Roots))
	for i, root := range st.Roots {
		roots[i] = review.Printable(root)
	}
	r.say("desk: running at %s, workspaces %s", review.Printable(socket), strings.Join(roots, ", "))
	r.say("  native door: %s (deskctl propose, the hooks, deskctl mcp)", review.Printable(socket))
	if len(st.Doors) == 0 {
		r.say("  IDE doors: none open ([doors] in the config)")
	}
	for _, d := range st.Doors {
		r.say("  %s IDE door on %s: %d agent(s) connected; connect: %s", review.Printable(d.Name), review.Printable(d.Addr), d.Ready, review.Printable(d.Connect))
	}
	if wd, err := os.Getwd(); err == nil && !underAny(wd, st.Roots) {
		r.problem(fmt.Sprintf("the current directory %s is outside the desk's workspaces: the desk refuses edits there", review.Printable(wd)),
			"start the desk on it: deskctl serve --workspace "+shellQuote(wd)+" (or diffdesk there)")
	}
}

// underAny says whether path is one of roots or inside one.
func underAny(path string, roots []string) bool {
	for _, root := range roots {
		if rel, err := filepath.Rel(root, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// doctorAgent reports whether a is set up in each scope and checks each
// DiffDesk command its settings hold.
func doctorAgent(r *doctorReport, a *setupAgent, scopes []setupEnv) {
	r.say("\n%s:", a.title)
	found := false
	for _, env := range scopes {
		targets, err := a.targets(env)
		if err != nil {
			continue // the agent has no settings of this scope
		}
		var missing []string
		inScope := false
		for _, t := range targets {
			data, err := os.ReadFile(t.path)
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					missing = append(missing, review.Printable(t.path))
				}
				continue
			}
			cmds := t.commands(data)
			if len(cmds) == 0 {
				continue
			}
			found, inScope = true, true
			flag := ""
			if env.project != "" {
				flag = " --project"
			}
			r.say("  set up in %s", review.Printable(t.path))
			for _, c := range cmds {
				doctorCommand(r, a, c, flag)
			}
			if env.deskctl != "" {
				if now, err := t.add(data); err == nil && string(now) != string(data) {
					r.problem(fmt.Sprintf("%s names another deskctl than this one (%s), or an older entry", review.Printable(t.path), env.deskctl),
						"deskctl setup "+a.name+flag)
				}
			}
		}
		if a.whole && inScope && len(missing) > 0 {
			flag := ""
			if env.project != "" {
				flag = " --project"
			}
			r.problem(fmt.Sprintf("%s: not there, though the rest of the setup is (an older deskctl set it up)", strings.Join(missing, ", ")), "deskctl setup "+a.name+flag)
		}
	}
	if !found {
		r.say("  not set up (deskctl setup %s)", a.name)
		return
	}
	if a.bypass != "" && !codexReadOnly(a, scopes) {
		r.problem(a.bypass, a.bypassFix)
	}
}

// doctorCommand checks one DiffDesk command of an agent's settings: that
// its program is named by an absolute path, is there, and runs. A hook is
// run as the agent runs it, through sh, with a tool the desk does not
// review, so nothing is proposed.
func doctorCommand(r *doctorReport, a *setupAgent, command, flag string) {
	r.say("    command: %s", review.Printable(command))
	prog := firstWord(command)
	fix := "deskctl setup " + a.name + flag
	switch fi, err := os.Stat(prog); {
	case !filepath.IsAbs(prog):
		r.problem(fmt.Sprintf("%q is named without a path: where it is not on the agent's PATH the command is not found, which the agents take as \"carry on\"", prog), fix)
		return
	case err != nil:
		r.problem(fmt.Sprintf("%s is not there (%v): the command cannot run", prog, err), "install deskctl (make install), then "+fix)
		return
	case fi.Mode().Perm()&0o111 == 0:
		r.problem(fmt.Sprintf("%s is not executable", prog), "chmod +x "+shellQuote(prog))
		return
	}
	isHook := deskHookRE.MatchString(command)
	if isHook && !a.ownFallback && !strings.HasSuffix(strings.TrimSpace(command), "|| exit 2") {
		r.problem("the hook does not end with || exit 2: if deskctl ever cannot run, the agent writes the edit unreviewed", fix)
	}
	var cmd *exec.Cmd
	if isHook {
		cmd = exec.Command("sh", "-c", command)
		cmd.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse","tool_name":"DiffDeskDoctor","tool_input":{}}`)
	} else {
		cmd = exec.Command(prog, "help")
	}
	out, err := runWithTimeout(cmd, 10*time.Second)
	if err != nil {
		r.problem(fmt.Sprintf("the command does not run: %v %s", err, strings.TrimSpace(out)), "reinstall deskctl (make install), then "+fix)
		return
	}
	r.say("      runs")
}

// runWithTimeout runs cmd and returns its combined output.
func runWithTimeout(cmd *exec.Cmd, d time.Duration) (string, error) {
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return "", err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return out.String(), err
	case <-time.After(d):
		cmd.Process.Kill()
		<-done
		return out.String(), fmt.Errorf("no answer in %s", d)
	}
}

// firstWord is a shell command line's program, unquoted.
func firstWord(command string) string {
	command = strings.TrimSpace(command)
	if strings.HasPrefix(command, "'") {
		var b strings.Builder
		for s := command; strings.HasPrefix(s, "'"); {
			end := strings.IndexByte(s[1:], '\'')
			if end < 0 {
				return s[1:]
			}
			b.WriteString(s[1 : 1+end])
			s = s[2+end:]
			if strings.HasPrefix(s, `\''`) {
				b.WriteByte('\'')
				s = s[2:]
				continue
			}
			break
		}
		return b.String()
	}
	if i := strings.IndexAny(command, " \t"); i >= 0 {
		return command[:i]
	}
	return command
}

// codexReadOnly says whether a is Codex with a read-only sandbox in one of
// its config files: then its own edits are refused and go through the desk.
func codexReadOnly(a *setupAgent, scopes []setupEnv) bool {
	if a.name != "codex" {
		return false
	}
	for _, env := range scopes {
		targets, err := a.targets(env)
		if err != nil {
			continue
		}
		for _, t := range targets {
			data, err := os.ReadFile(t.path)
			if err == nil && codexSandbox(data) == "read-only" {
				return true
			}
		}
	}
	return false
}
