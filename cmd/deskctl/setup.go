package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
)

// setupAgent is an agent deskctl setup connects to the desk: the settings
// files it edits and what its door can and cannot do. Agents are
// registered with registerSetupAgent, each from the file of its door.
type setupAgent struct {
	name    string // as typed: "claude"
	title   string // "Claude Code"
	door    string // what setup connects, one line
	carries string // what the door carries, and what not
	// bypass, when not "", says that the agent's own edit tools still
	// write without the desk; bypassFix how to turn them off.
	bypass, bypassFix string
	// ownFallback says the agent's hook files answer for a deskctl that
	// cannot run themselves, blocking the edit, instead of "|| exit 2"
	// (Cline: setup_cline.go).
	ownFallback bool
	// whole says every target is part of one setup (Cline's hook files):
	// doctor names one missing where another of the same scope is there.
	whole bool
	// targets are the settings files for env, each with its edit.
	targets func(env setupEnv) ([]setupTarget, error)
}

// setupEnv is where setup writes and what it writes there.
type setupEnv struct {
	home    string // the user's home directory
	project string // the repository's root with --project, else ""
	deskctl string // the absolute path of the deskctl the settings name
	socket  string // the --socket the hooks pass, "" for the default socket
}

// setupTarget is one settings file and DiffDesk's entries in it.
type setupTarget struct {
	path string      // absolute
	mode os.FileMode // a new file's mode
	// add returns the file's content with DiffDesk's entries set up
	// (old is nil for a file that does not exist); old itself when they are.
	add func(old []byte) ([]byte, error)
	// remove returns the content without DiffDesk's entries; nil for a
	// file that then holds nothing of its own (deleted on undo).
	remove func(old []byte) ([]byte, error)
	// commands returns the DiffDesk commands the file holds: each hook's
	// command line, each MCP server's command.
	commands func(old []byte) []string
}

// setupAgents are the agents setup knows, in the order help lists them.
var setupAgents []*setupAgent

// registerSetupAgent adds a to the agents deskctl setup and doctor know.
func registerSetupAgent(a *setupAgent) {
	if setupAgentNamed(a.name) != nil {
		panic("deskctl setup: agent " + a.name + " registered twice")
	}
	setupAgents = append(setupAgents, a)
}

// setupAgentNamed is the agent called name, or nil.
func setupAgentNamed(name string) *setupAgent {
	for _, a := range setupAgents {
		if a.name == name {
			return a
		}
	}
	return nil
}

var setupCmd = &command{
	name:  "setup",
	usage: "[flags] AGENT…",
	short: "connect an agent to the desk: write its hook or MCP server into its settings",
	long: `Connect an agent to the desk: write DiffDesk's hook or MCP server into the agent's settings file,
with deskctl named by its absolute path (an agent that cannot find a hook's command lets the edit
through). It shows the exact change to each file and asks before writing (--yes writes without
asking); it keeps the file's other settings, comments and layout; run again, it changes nothing.
--undo restores each file as it was before setup, or, if the file changed since, removes only
DiffDesk's entries. --project writes the repository's settings (its root: the git work tree
around the current directory) instead of the user's. Run with no AGENT, it lists the agents and
what each door carries.`,
	words: func() []string {
		var names []string
		for _, a := range setupAgents {
			names = append(names, a.name)
		}
		return names
	},
	flags: func(fl *flag.FlagSet) runFunc {
		var o setupOptions
		fl.BoolVar(&o.project, "project", false, "write the settings of the repository around the current directory, not the user's")
		fl.BoolVar(&o.yes, "yes", false, "write without asking (for scripts)")
		fl.BoolVar(&o.undo, "undo", false, "restore each settings file as it was before setup")
		fl.StringVar(&o.deskctl, "deskctl", "", "the deskctl `PATH` the settings name (default: this deskctl)")
		fl.StringVar(&o.socket, "socket", "", "the desk's socket `PATH` the hooks pass (default: the desk's default socket)")
		return func(_ context.Context, x *invocation) int { return runSetup(x, o) }
	},
}

// setupOptions are the flags of deskctl setup.
type setupOptions struct {
	project, yes, undo bool
	deskctl, socket    string
}

// runSetup implements `deskctl setup`.
func runSetup(x *invocation, o setupOptions) int {
	if len(x.args) == 0 {
		writeSetupAgents(x.stdout)
		return 0
	}
	var agents []*setupAgent
	for _, name := range x.args {
		a := setupAgentNamed(name)
		if a == nil {
			return x.usageError("unknown agent %q; deskctl setup with no agent lists them", name)
		}
		agents = append(agents, a)
	}
	env, err := newSetupEnv(o)
	if err != nil {
		return x.fail(err)
	}
	var changes []setupChange
	for _, a := range agents {
		targets, err := a.targets(env)
		if err != nil {
			return x.fail(fmt.Errorf("%s: %w", a.title, err))
		}
		for _, t := range targets {
			c, err := planSetup(t, o.undo)
			if err != nil {
				return x.fail(fmt.Errorf("%s: %w", a.title, err))
			}
			if c.old.equal(c.new) {
				fmt.Fprintf(x.stdout, "%s: %s %s\n", a.title, review.Printable(t.path), c.note)
				continue
			}
			c.agent = a
			changes = append(changes, c)
		}
	}
	if len(changes) == 0 {
		return 0
	}
	for _, c := range changes {
		c.show(x.stdout)
	}
	if !o.yes && !confirm(x, "Write this?") {
		fmt.Fprintln(x.stderr, "nothing was written (--yes writes without asking)")
		return 1
	}
	for _, c := range changes {
		if err := c.write(); err != nil {
			return x.fail(err)
		}
		verb := "set up"
		if o.undo {
			verb = "undone"
		}
		fmt.Fprintf(x.stdout, "%s: %s %s\n", c.agent.title, review.Printable(c.target.path), verb)
	}
	if !o.undo {
		for _, a := range agents {
			if a.bypass != "" {
				fmt.Fprintf(x.stdout, "note (%s): %s To turn them off: %s.\n", a.title, a.bypass, a.bypassFix)
			}
		}
	}
	return 0
}

// writeSetupAgents lists the agents setup knows and their doors.
func writeSetupAgents(w io.Writer) {
	fmt.Fprintln(w, "deskctl setup AGENT connects these agents (deskctl doctor checks them):")
	for _, a := range setupAgents {
		fmt.Fprintf(w, "\n  %-9s %s: %s\n", a.name, a.title, a.door)
		fmt.Fprintf(w, "  %-9s %s\n", "", wrap(a.carries, helpWidth-12, strings.Repeat(" ", 12)))
		if a.bypass != "" {
			fmt.Fprintf(w, "  %-9s %s\n", "", wrap("Not reviewed: "+a.bypass+" To turn them off: "+a.bypassFix+".", helpWidth-12, strings.Repeat(" ", 12)))
		}
	}
}

// newSetupEnv resolves where setup writes and the deskctl it names.
func newSetupEnv(o setupOptions) (setupEnv, error) {
	var env setupEnv
	var err error
	if env.home, err = os.UserHomeDir(); err != nil {
		return env, err
	}
	if o.project {
		if env.project, err = projectRoot(); err != nil {
			return env, err
		}
	}
	if o.undo {
		return env, nil // undo names no deskctl
	}
	if env.deskctl, err = deskctlPath(o.deskctl); err != nil {
		return env, err
	}
	if o.socket != "" {
		if env.socket, err = filepath.Abs(o.socket); err != nil {
			return env, err
		}
	}
	return env, nil
}

// projectRoot is the root of the git work tree around the current
// directory, else the current directory.
func projectRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir, nil
		}
		if filepath.Dir(dir) == dir {
			return wd, nil
		}
	}
}

// deskctlPath is the absolute path of the deskctl the settings will name:
// path, else this executable. It must be an executable file that stays:
// not a go run build in a temporary directory.
func deskctlPath(path string) (string, error) {
	if path == "" {
		exe, err := os.Executable()
		if err != nil {
			return "", fmt.Errorf("cannot tell where this deskctl is (%v); say it with --deskctl PATH", err)
		}
		path = exe
		if strings.Contains(path, string(filepath.Separator)+"go-build") {
			return "", fmt.Errorf("this deskctl is a temporary build (%s, from go run): install it (make install or go install) and run its setup, or say which with --deskctl PATH", path)
		}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	fi, err := os.Stat(abs)
	switch {
	case err != nil:
		return "", fmt.Errorf("--deskctl %s: %v", path, err)
	case !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0:
		return "", fmt.Errorf("--deskctl %s is not an executable file", abs)
	}
	return abs, nil
}

// fileState is a settings file's content, or its absence.
type fileState struct {
	exists bool
	data   []byte
	mode   os.FileMode
}

func (a fileState) equal(b fileState) bool {
	return a.exists == b.exists && bytes.Equal(a.data, b.data)
}

func readFileState(path string) (fileState, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fileState{}, nil
	}
	if err != nil {
		return fileState{}, err
	}
	if !fi.Mode().IsRegular() {
		return fileState{}, fmt.Errorf("%s is not a regular file", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fileState{}, err
	}
	return fileState{exists: true, data: data, mode: fi.Mode().Perm()}, nil
}

// setupChange is what setup (or undo) does to one settings file.
type setupChange struct {
	agent    *setupAgent
	target   setupTarget
	old, new fileState
	note     string       // why nothing changes, when nothing does
	backup   *setupBackup // what to record (setup) or drop (undo)
	undo     bool
}

// planSetup works out the change to t: DiffDesk's entries set up, or
// with undo taken out again.
func planSetup(t setupTarget, undo bool) (setupChange, error) {
	old, err := readFileState(t.path)
	if err != nil {
		return setupChange{}, err
	}
	c := setupChange{target: t, old: old, new: old, undo: undo}
	b, _ := loadSetupBackup(t.path)
	if undo {
		c.note = "has nothing of DiffDesk's"
		if b != nil && old.exists && b.Wrote == sha(old.data) {
			// Untouched since setup wrote it: exactly what was there.
			c.new = fileState{exists: b.Existed, data: []byte(b.Original), mode: old.mode}
			c.backup = b
			return c, nil
		}
		if !old.exists {
			return c, nil
		}
		data, err := t.remove(old.data)
		if err != nil {
			return c, fmt.Errorf("%s: %w", t.path, err)
		}
		c.new = fileState{exists: data != nil, data: data, mode: old.mode}
		if b != nil {
			c.backup = b
		}
		return c, nil
	}
	data, err := t.add(nilIfAbsent(old))
	if err != nil {
		return c, fmt.Errorf("%s: %w", t.path, err)
	}
	c.note = "is set up already"
	mode := old.mode
	if !old.exists {
		mode = t.mode
	}
	c.new = fileState{exists: true, data: data, mode: mode}
	// What undo restores: what the file held before setup wrote it; if it
	// is still exactly what an earlier setup wrote, what that one found.
	switch {
	case b != nil && old.exists && b.Wrote == sha(old.data):
		c.backup = &setupBackup{Path: t.path, Existed: b.Existed, Original: b.Original}
	default:
		c.backup = &setupBackup{Path: t.path, Existed: old.exists, Original: string(old.data)}
	}
	c.backup.Wrote = sha(data)
	return c, nil
}

func nilIfAbsent(s fileState) []byte {
	if !s.exists {
		return nil
	}
	if s.data == nil {
		return []byte{}
	}
	return s.data
}

// show prints the change as a unified diff of the file.
func (c setupChange) show(w io.Writer) {
	p := review.Printable(c.target.path)
	switch {
	case !c.old.exists:
		fmt.Fprintf(w, "%s: new file %s\n", c.agent.title, p)
	case !c.new.exists:
		fmt.Fprintf(w, "%s: delete %s (setup made it)\n", c.agent.title, p)
	default:
		fmt.Fprintf(w, "%s: change %s\n", c.agent.title, p)
	}
	a, b := engine.SplitLines(string(c.old.data)), engine.SplitLines(string(c.new.data))
	oldName, newName := p, p
	if !c.old.exists {
		oldName = "/dev/null"
	}
	if !c.new.exists {
		newName = "/dev/null"
	}
	engine.WriteGitUnified(w, oldName, newName, a, b, engine.DiffLines(a, b), 3)
}

// write makes the change: the backup first, then the file, atomically.
func (c setupChange) write() error {
	if c.undo {
		if c.new.exists {
			if err := writeFileAtomic(c.target.path, c.new.data, c.new.mode); err != nil {
				return err
			}
		} else if err := os.Remove(c.target.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if c.backup != nil {
			return c.backup.drop()
		}
		return nil
	}
	if err := c.backup.save(); err != nil {
		return fmt.Errorf("keeping what %s held, for --undo: %w; nothing was written", c.target.path, err)
	}
	return writeFileAtomic(c.target.path, c.new.data, c.new.mode)
}

// writeFileAtomic writes data to path through a temporary file beside it,
// creating the directories (0700: agents' settings are private).
func writeFileAtomic(path string, data []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".diffdesk-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// confirm asks question on x's stdout and reads yes or no from its stdin.
func confirm(x *invocation, question string) bool {
	fmt.Fprintf(x.stdout, "%s [y/N] ", question)
	line, _ := bufio.NewReader(x.stdin).ReadString('\n')
	fmt.Fprintln(x.stdout)
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}

// setupBackup is what a settings file held before setup wrote it, kept
// for --undo in DiffDesk's state directory.
type setupBackup struct {
	Path     string `json:"path"`
	Existed  bool   `json:"existed"`
	Original string `json:"original"`
	Wrote    string `json:"wrote"` // SHA-256 of what setup wrote
}

// setupBackupFile is where the backup of the settings file path is kept.
func setupBackupFile(path string) string {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "diffdesk", "setup", sha(append([]byte(path), 0))[:24]+".json")
}

func loadSetupBackup(path string) (*setupBackup, error) {
	data, err := os.ReadFile(setupBackupFile(path))
	if err != nil {
		return nil, err
	}
	var b setupBackup
	if err := json.Unmarshal(data, &b); err != nil || b.Path != path {
		return nil, fmt.Errorf("%s is not setup's backup of %s", setupBackupFile(path), path)
	}
	return &b, nil
}

func (b *setupBackup) save() error {
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(setupBackupFile(b.Path), data, 0o600)
}

func (b *setupBackup) drop() error {
	err := os.Remove(setupBackupFile(b.Path))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
