package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/checker"
	"github.com/diffdesk/diffdesk/review/glob"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// Config is DiffDesk's configuration: the user's config file merged with
// the .diffdesk.toml of each workspace root (see Load). The zero
// Config is not useful; start from Default.
type Config struct {
	Formatters       []FormatterRule         // trusted workspaces' rules first (roots in order), then the user's; FormatterFor takes the first match
	AutoApproveRules []AutoApproveRule       // trusted workspaces' rules first, then the user's; AutoApprove takes the first that allows
	Checkers         []CheckerRule           // trusted workspaces' checkers first, then the user's; CheckersFor takes every match
	Protected        []ProtectedPattern      // built-ins less unprotect, then the user's, then every workspace's
	Limits           Limits                  // the user's limits (or the defaults); LimitsFor gives a root's
	Settle           time.Duration           // the user's settle window for format-on-save editors; 0 = do not wait; SettleFor gives a root's
	Doors            Doors                   // which front doors are on
	Retention        journal.RetentionPolicy // how much history the journal keeps ([history], user file only); zero keeps all
	HoldFailed       bool                    // a failed edit a person could place waits for the person at the desk ([review] hold_failed, user file only; default on)
	// Connect lists the desks a window reviews with diffdesk --desks
	// ([[connect]], user file only): each an address as --connect takes
	// it, with a label. review/remote checks the addresses.
	Connect []ConnectEntry
	Files   []string // the config files that were read, in order
	// Workspaces holds, by absolute root, the limits and settle window in
	// force there: its .diffdesk.toml's as far as trust allows, else the
	// user's.
	Workspaces map[string]WorkspaceSettings
	// WorkspaceFiles are the roots' .diffdesk.toml files that were read,
	// in root order, with what each holds and whether it is trusted.
	WorkspaceFiles []WorkspaceFile

	userFormatters []FormatterRule   // the user file's, after every trusted workspace's
	userAuto       []AutoApproveRule // the same for auto_approve rules
	userCheckers   []CheckerRule     // the same for checkers
}

// ConnectEntry is one [[connect]] of the user config: a desk the window
// reviews, named by Label.
type ConnectEntry struct {
	Label   string
	Address string
	Origin  string // "FILE line N", for messages
}

// Limits bounds what the desk reviews.
type Limits struct {
	MaxFileBytes int64 // largest file (current or proposed) the desk accepts, in bytes
}

// Doors says which front doors a desk opens.
type Doors struct {
	Native bool // the JSON-RPC Unix socket (deskctl, MCP bridge, scripts)
	Claude bool // the Claude Code IDE WebSocket door
	Gemini bool // the Gemini CLI IDE companion door
}

// WorkspaceSettings are the settings in force under one workspace root:
// its .diffdesk.toml's values, else the user's.
type WorkspaceSettings struct {
	File   string        // the .diffdesk.toml read; "" if the root has none
	Limits Limits        // limits in force under the root
	Settle time.Duration // settle window in force under the root
}

// The defaults.
const (
	DefaultMaxFileBytes     = 10 << 20         // 10 MiB
	DefaultFormatterTimeout = 10 * time.Second // for rules without timeout
	// MaxSettle bounds [desk] settle: a format-on-save editor answers in
	// well under a second, and the agent waits out the window for every
	// approval.
	MaxSettle = time.Minute
	// FileName is the per-workspace config file at a root.
	FileName = ".diffdesk.toml"
)

// Default returns the configuration used when no file sets anything:
// no formatters, no auto-approve rules, the built-in protected patterns,
// 10 MiB files, no settle window, every door on, failed edits held for
// the person at the desk.
func Default() Config {
	c := Config{
		Limits:     Limits{MaxFileBytes: DefaultMaxFileBytes},
		Doors:      Doors{Native: true, Claude: true, Gemini: true},
		Workspaces: map[string]WorkspaceSettings{},
		HoldFailed: true,
	}
	for _, p := range DefaultProtected {
		g, _, _ := glob.Compile(strings.ToLower(p))
		c.Protected = append(c.Protected, ProtectedPattern{Pattern: p, Origin: "built-in", Reason: protectedReasons[p], glob: g})
	}
	return c
}

// LimitsFor returns the limits in force under root (an absolute,
// symlink-resolved workspace root).
func (c Config) LimitsFor(root string) Limits {
	if w, ok := c.Workspaces[root]; ok {
		return w.Limits
	}
	return c.Limits
}

// SettleFor returns the settle window in force under root.
func (c Config) SettleFor(root string) time.Duration {
	if w, ok := c.Workspaces[root]; ok {
		return w.Settle
	}
	return c.Settle
}

// DefaultPath returns the user config file:
// $XDG_CONFIG_HOME/diffdesk/config.toml, or ~/.config/diffdesk/config.toml
// when XDG_CONFIG_HOME is unset or relative (as the XDG spec says).
func DefaultPath() (string, error) {
	if dir := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(dir) {
		return filepath.Join(dir, "diffdesk", "config.toml"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("finding the config file: %w; set XDG_CONFIG_HOME", err)
	}
	return filepath.Join(home, ".config", "diffdesk", "config.toml"), nil
}

// Error is a problem in a config file.
type Error struct {
	File string // the config file
	Line int    // 1-based; 0 if unknown
	Key  string // dotted key, e.g. "formatter.timeout"; "" for a syntax error
	Msg  string // what is wrong and what to do
}

// Error returns "FILE line N: key KEY: MSG".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, " line %d", e.Line)
	}
	if e.Key != "" {
		fmt.Fprintf(&b, ": key %s", e.Key)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// Load reads the user's config file (skipped when userFile is "";
// a missing file is fine) and the .diffdesk.toml of each root (missing is
// fine), and merges them over Default, trusting no workspace file: see
// LoadTrusting.
func Load(userFile string, roots []string) (Config, error) {
	return LoadTrusting(userFile, roots, nil)
}

// LoadTrusting is Load with trust saying which workspace files the person
// trusts (nil: none). The files merge so:
//   - formatters, auto_approve rules and checkers: a trusted workspace's
//     rules apply only under its root and come before the user's; an
//     untrusted workspace's are off (WorkspaceFile.Rules lists them);
//   - protected: the union of the built-ins, the user's and every
//     workspace's, trusted or not; only the user file may unprotect
//     built-ins;
//   - [limits]: a trusted workspace's value wins under its root; an
//     untrusted one's only if it is lower than the user's;
//   - [desk] settle: a trusted workspace's value wins under its root;
//   - [doors], [history] and [review]: the user file only.
//
// Every problem in a file is a *Error naming the file, line and key;
// the problems of all files are joined with errors.Join.
func LoadTrusting(userFile string, roots []string, trust Trust) (Config, error) {
	c := Default()
	var problems []error
	if userFile != "" {
		fc, found, err := readConfigFile(userFile, true)
		if err == nil && found {
			err = c.mergeUser(fc)
		}
		problems = append(problems, err)
	}
	for _, r := range roots {
		root, err := ResolveRoot(r)
		if err != nil {
			return Config{}, err
		}
		if _, seen := c.Workspaces[root]; seen {
			continue
		}
		c.Workspaces[root] = WorkspaceSettings{}
		file := filepath.Join(root, FileName)
		fc, found, err := readConfigFile(file, false)
		problems = append(problems, err)
		if err != nil || !found {
			continue
		}
		c.Files = append(c.Files, file)
		c.Protected = append(c.Protected, fc.protected...)
		f := WorkspaceFile{Root: root, File: file, SHA256: fc.sha256, MaxFileBytes: fc.maxFileBytes, Settle: fc.settle,
			user: WorkspaceSettings{Limits: c.Limits, Settle: c.Settle}}
		for _, r := range fc.formatters {
			r.Root = root
			f.Formatters = append(f.Formatters, r)
		}
		for _, a := range fc.auto {
			a.Root = root
			f.AutoApproveRules = append(f.AutoApproveRules, a)
		}
		for _, k := range fc.checkers {
			k.Root = root
			f.Checkers = append(f.Checkers, k)
		}
		f.Trusted = trust != nil && trust(root, fc.sha256)
		c.WorkspaceFiles = append(c.WorkspaceFiles, f)
	}
	if err := errors.Join(problems...); err != nil {
		return Config{}, err
	}
	c.userFormatters, c.userAuto, c.userCheckers = c.Formatters, c.AutoApproveRules, c.Checkers
	c.apply()
	return c, nil
}

// apply derives the rules and settings in force from the user's and the
// workspace files, each workspace file's by whether it is trusted.
func (c *Config) apply() {
	var formatters []FormatterRule
	var auto []AutoApproveRule
	var checkers []CheckerRule
	for root := range c.Workspaces {
		c.Workspaces[root] = WorkspaceSettings{Limits: c.Limits, Settle: c.Settle}
	}
	for _, f := range c.WorkspaceFiles {
		ws := WorkspaceSettings{File: f.File, Limits: c.Limits, Settle: c.Settle}
		if m := f.MaxFileBytes; m != nil && (f.Trusted || *m < ws.Limits.MaxFileBytes) {
			ws.Limits.MaxFileBytes = *m
		}
		if f.Trusted {
			formatters = append(formatters, f.Formatters...)
			auto = append(auto, f.AutoApproveRules...)
			checkers = append(checkers, f.Checkers...)
			if f.Settle != nil {
				ws.Settle = *f.Settle
			}
		}
		c.Workspaces[f.Root] = ws
	}
	c.Formatters = append(formatters, c.userFormatters...)
	c.AutoApproveRules = append(auto, c.userAuto...)
	c.Checkers = append(checkers, c.userCheckers...)
}

// mergeUser applies the user's file to c.
func (c *Config) mergeUser(fc fileConfig) error {
	c.Files = append(c.Files, fc.file)
	for _, u := range fc.unprotect {
		i := slices.IndexFunc(c.Protected, func(p ProtectedPattern) bool { return p.Pattern == u.pattern })
		if i < 0 {
			return &Error{File: fc.file, Line: u.line, Key: "unprotect",
				Msg: fmt.Sprintf("%q is not a built-in protected pattern; use one of %s", u.pattern, strings.Join(DefaultProtected, " "))}
		}
		c.Protected = slices.Delete(c.Protected, i, i+1)
	}
	c.Protected = append(c.Protected, fc.protected...)
	c.Formatters = fc.formatters
	c.AutoApproveRules = fc.auto
	c.Checkers = fc.checkers
	if fc.maxFileBytes != nil {
		c.Limits.MaxFileBytes = *fc.maxFileBytes
	}
	if fc.settle != nil {
		c.Settle = *fc.settle
	}
	if fc.retention != nil {
		c.Retention = *fc.retention
	}
	if fc.holdFailed != nil {
		c.HoldFailed = *fc.holdFailed
	}
	c.Connect = fc.connect
	d := fc.doors
	for _, door := range []struct {
		set *bool
		dst *bool
	}{{d.Native, &c.Doors.Native}, {d.Claude, &c.Doors.Claude}, {d.Gemini, &c.Doors.Gemini}} {
		if door.set != nil {
			*door.dst = *door.set
		}
	}
	return nil
}

// fileConfig is one config file, validated.
type fileConfig struct {
	file         string
	sha256       string // of the file's exact bytes
	formatters   []FormatterRule
	auto         []AutoApproveRule
	checkers     []CheckerRule
	protected    []ProtectedPattern
	unprotect    []unprotectEntry
	maxFileBytes *int64
	settle       *time.Duration
	doors        rawDoors
	retention    *journal.RetentionPolicy
	holdFailed   *bool
	connect      []ConnectEntry
}

type unprotectEntry struct {
	pattern string
	line    int
}

// rawConfig is the TOML schema of a config file.
type rawConfig struct {
	Formatter   []rawFormatter   `toml:"formatter"`
	AutoApprove []rawAutoApprove `toml:"auto_approve"`
	Checker     []rawChecker     `toml:"checker"`
	Protected   []string         `toml:"protected"`
	Unprotect   []string         `toml:"unprotect"`
	Limits      struct {
		MaxFileBytes *int64 `toml:"max_file_bytes"`
	} `toml:"limits"`
	Desk struct {
		Settle *string `toml:"settle"`
	} `toml:"desk"`
	Doors   rawDoors `toml:"doors"`
	History struct {
		KeepFor string `toml:"keep_for"`
		MaxSize string `toml:"max_size"`
	} `toml:"history"`
	Review struct {
		HoldFailed *bool `toml:"hold_failed"`
	} `toml:"review"`
	Connect []rawConnect `toml:"connect"`
}

type rawConnect struct {
	Label   string `toml:"label"`
	Address string `toml:"address"`
}

type rawFormatter struct {
	Glob    string   `toml:"glob"`
	Command []string `toml:"command"`
	Timeout string   `toml:"timeout"`
}

type rawAutoApprove struct {
	Agent    string   `toml:"agent"`
	Path     string   `toml:"path"`
	Kind     []string `toml:"kind"`
	MaxLines *int     `toml:"max_lines"`
	NewFile  *bool    `toml:"new_file"`
	Loose    bool     `toml:"loose"`
}

type rawDoors struct {
	Native *bool `toml:"native"`
	Claude *bool `toml:"claude"`
	Gemini *bool `toml:"gemini"`
}

// configKeys lists the valid keys of each table, and configKeyTypes what
// each key holds, for error messages.
var configKeys = map[string][]string{
	"":             {"formatter", "auto_approve", "checker", "protected", "unprotect", "limits", "desk", "doors", "history", "review", "connect"},
	"connect":      {"label", "address"},
	"formatter":    {"glob", "command", "timeout"},
	"checker":      {"preset", "name", "glob", "command", "timeout", "format", "severity"},
	"auto_approve": {"agent", "path", "kind", "max_lines", "new_file", "loose"},
	"limits":       {"max_file_bytes"},
	"desk":         {"settle"},
	"doors":        {"native", "claude", "gemini"},
	"history":      {"keep_for", "max_size"},
	"review":       {"hold_failed"},
}

var configKeyTypes = map[string]string{
	"formatter":              `an array of tables: [[formatter]]`,
	"auto_approve":           `an array of tables: [[auto_approve]]`,
	"checker":                `an array of tables: [[checker]]`,
	"checker.preset":         `a string, e.g. preset = "go-vet"`,
	"checker.name":           `a string, e.g. name = "shellcheck"`,
	"checker.glob":           `a string, e.g. glob = "*.sh"`,
	"checker.command":        `an array of strings, e.g. command = ["shellcheck", "--format=gcc", "{file}"]`,
	"checker.timeout":        `a duration string, e.g. timeout = "2m"`,
	"checker.format":         `a string: "lines", "sarif" or "eslint-json"`,
	"checker.severity":       `a string: "error", "warning" or "info"`,
	"protected":              `an array of strings, e.g. protected = ["secrets/"]`,
	"unprotect":              `an array of strings, e.g. unprotect = ["go.sum"]`,
	"limits":                 `a table: [limits]`,
	"desk":                   `a table: [desk]`,
	"doors":                  `a table: [doors]`,
	"history":                `a table: [history]`,
	"history.keep_for":       `an age string, e.g. keep_for = "90d"`,
	"history.max_size":       `a size string, e.g. max_size = "2GB"`,
	"review":                 `a table: [review]`,
	"review.hold_failed":     `a boolean, e.g. hold_failed = false`,
	"connect":                `an array of tables: [[connect]]`,
	"connect.label":          `a string, e.g. label = "devbox"`,
	"connect.address":        `a string, e.g. address = "ssh://me@devbox"`,
	"formatter.glob":         `a string, e.g. glob = "*.go"`,
	"formatter.command":      `an array of strings, e.g. command = ["gofmt"]`,
	"formatter.timeout":      `a duration string, e.g. timeout = "5s"`,
	"auto_approve.agent":     `a string, e.g. agent = "claude*"`,
	"auto_approve.path":      `a string, e.g. path = "docs/**"`,
	"auto_approve.kind":      `an array of strings, e.g. kind = ["write", "search-replace"]`,
	"auto_approve.max_lines": `an integer, e.g. max_lines = 50`,
	"auto_approve.new_file":  `a boolean, e.g. new_file = false`,
	"auto_approve.loose":     `a boolean, e.g. loose = true`,
	"limits.max_file_bytes":  `an integer number of bytes, e.g. max_file_bytes = 10485760`,
	"desk.settle":            `a duration string, e.g. settle = "300ms"`,
	"doors.native":           `a boolean, e.g. native = true`,
	"doors.claude":           `a boolean, e.g. claude = true`,
	"doors.gemini":           `a boolean, e.g. gemini = true`,
}

// maxConfigFileBytes bounds a config file (1 MiB).
const maxConfigFileBytes = 1 << 20

// readConfigFile reads and validates one config file; found is false if it
// does not exist.
func readConfigFile(file string, user bool) (fc fileConfig, found bool, err error) {
	data, err := readRegular(file, maxConfigFileBytes, user)
	if errors.Is(err, os.ErrNotExist) {
		return fileConfig{}, false, nil
	}
	if err != nil {
		return fileConfig{}, false, err
	}
	if len(data) > maxConfigFileBytes {
		return fileConfig{}, false, &Error{File: file, Msg: fmt.Sprintf("is %d bytes; a config file may be at most %d", len(data), maxConfigFileBytes)}
	}
	fc, err = parseConfig(file, data, user)
	fc.sha256 = atomicfile.Hash(data)
	return fc, true, err
}

// readRegular reads a config file of at most max bytes (and one more, to
// tell a longer one), opened without blocking: a FIFO or device in its
// place is refused, not waited on. The user's own file (user) must be
// the user's and writable by no one else (checkUserConfigOwner).
func readRegular(file string, max int64, user bool) ([]byte, error) {
	f, err := os.OpenFile(file, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("reading config: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("reading config: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, &Error{File: file, Msg: fmt.Sprintf("is not a regular file (%s); put a config file there, or remove it", fi.Mode().Type())}
	}
	if user {
		if err := checkUserConfigOwner(file, fi); err != nil {
			return nil, err
		}
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("reading config %s: %w", file, err)
	}
	return data, nil
}

// parseConfig decodes and validates data, the contents of file.
func parseConfig(file string, data []byte, user bool) (fileConfig, error) {
	var raw rawConfig
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return fileConfig{}, tomlConfigError(file, err)
	}
	lines := tomlKeyLines(data)
	v := configValidator{file: file, lines: lines}
	fc := fileConfig{file: file, doors: raw.Doors, maxFileBytes: raw.Limits.MaxFileBytes}
	for i, f := range raw.Formatter {
		if r, ok := v.formatter(i+1, f); ok {
			fc.formatters = append(fc.formatters, r)
		}
	}
	for i, a := range raw.AutoApprove {
		if r, ok := v.autoApprove(i+1, a); ok {
			fc.auto = append(fc.auto, r)
		}
	}
	for i, k := range raw.Checker {
		if r, ok := v.checker(i+1, k); ok {
			fc.checkers = append(fc.checkers, r)
		}
	}
	for i, p := range raw.Protected {
		key := "protected." + strconv.Itoa(i+1)
		if _, ok := v.glob(key, "protected", p); ok {
			g, _, _ := glob.Compile(strings.ToLower(p))
			fc.protected = append(fc.protected, ProtectedPattern{Pattern: p, Origin: v.origin(key), glob: g})
		}
	}
	for i, p := range raw.Unprotect {
		key := "unprotect." + strconv.Itoa(i+1)
		if !user {
			v.fail(key, "unprotect", "only the user config may remove built-in protections; a workspace may only add them")
			break
		}
		fc.unprotect = append(fc.unprotect, unprotectEntry{pattern: p, line: v.line(key)})
	}
	if m := raw.Limits.MaxFileBytes; m != nil && *m <= 0 {
		v.fail("limits.max_file_bytes", "limits.max_file_bytes", fmt.Sprintf("must be a positive number of bytes, not %d; e.g. max_file_bytes = 10485760", *m))
	}
	if s := raw.Desk.Settle; s != nil {
		if d, ok := v.duration("desk.settle", "desk.settle", *s, true); ok && d > MaxSettle {
			v.fail("desk.settle", "desk.settle", fmt.Sprintf("%q is too long: the settle window must be between 0s and %v (the desk holds each approval's answer that long); write e.g. \"300ms\"", *s, MaxSettle))
		} else if ok {
			fc.settle = &d
		}
	}
	if !user && (raw.Doors != rawDoors{}) {
		v.fail("doors", "doors", "front doors are set in the user config only; move [doors] there")
	}
	if h := raw.History; h.KeepFor != "" || h.MaxSize != "" {
		switch p, err := journal.ParseRetentionPolicy(h.KeepFor, h.MaxSize); {
		case !user:
			v.fail("history", "history", "history retention is set in the user config only (the journal is per user); move [history] there")
		case err != nil:
			key := "history.keep_for"
			if strings.HasPrefix(err.Error(), "history.max_size") {
				key = "history.max_size"
			}
			v.fail(key, key, err.Error())
		default:
			fc.retention = &p
		}
	}
	if h := raw.Review.HoldFailed; h != nil {
		if !user {
			v.fail("review.hold_failed", "review.hold_failed", "holding failed edits for the person is set in the user config only; move [review] there")
		} else {
			fc.holdFailed = h
		}
	}
	labels := map[string]bool{}
	for i, c := range raw.Connect {
		key := "connect." + strconv.Itoa(i+1)
		switch {
		case !user:
			v.fail(key, "connect", "the desks a window reviews are listed in the user config only; move [[connect]] there")
		case strings.TrimSpace(c.Label) == "" || strings.TrimSpace(c.Address) == "":
			v.fail(key, "connect", `needs both a label and an address, e.g. label = "devbox" and address = "ssh://me@devbox"`)
		case labels[c.Label]:
			v.fail(key, "connect.label", fmt.Sprintf("the label %q is given twice; each desk needs its own", c.Label))
		default:
			labels[c.Label] = true
			fc.connect = append(fc.connect, ConnectEntry{Label: c.Label, Address: c.Address, Origin: v.origin(key)})
		}
		if !user {
			break
		}
	}
	return fc, errors.Join(v.errs...)
}

// configValidator collects semantic errors with their lines.
type configValidator struct {
	file  string
	lines map[string]int
	errs  []error
}

// line returns the line of an indexed key such as "formatter.2.timeout",
// falling back to its enclosing table or array.
func (v *configValidator) line(key string) int {
	for {
		if n, ok := v.lines[key]; ok {
			return n
		}
		i := strings.LastIndexByte(key, '.')
		if i < 0 {
			return 0
		}
		key = key[:i]
	}
}

func (v *configValidator) origin(key string) string {
	if n := v.line(key); n > 0 {
		return fmt.Sprintf("%s line %d", v.file, n)
	}
	return v.file
}

// fail records an error at the indexed key lineKey, shown as key.
func (v *configValidator) fail(lineKey, key, msg string) {
	v.errs = append(v.errs, &Error{File: v.file, Line: v.line(lineKey), Key: key, Msg: msg})
}

func (v *configValidator) glob(lineKey, key, s string) (glob.Pattern, bool) {
	if strings.HasPrefix(s, "!") {
		msg := fmt.Sprintf("%q: negation is not supported in config globs; write the paths to match", s)
		if key == "protected" {
			msg = fmt.Sprintf("%q: negation is not supported here; to drop a built-in protection use unprotect in the user config", s)
		}
		v.fail(lineKey, key, msg)
		return glob.Pattern{}, false
	}
	g, skip, err := glob.Compile(s)
	switch {
	case skip:
		v.fail(lineKey, key, fmt.Sprintf("%q is not a pattern; write a gitignore-style glob such as \"*.go\" or \"docs/**\"", s))
		return glob.Pattern{}, false
	case err != nil:
		v.fail(lineKey, key, fmt.Sprintf("%q: %v", s, err))
		return glob.Pattern{}, false
	}
	return g, true
}

func (v *configValidator) duration(lineKey, key, s string, zeroOK bool) (time.Duration, bool) {
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 || (d == 0 && !zeroOK) {
		v.fail(lineKey, key, fmt.Sprintf("%q is not a positive duration; write e.g. \"300ms\" or \"5s\"", s))
		return 0, false
	}
	return d, true
}

func (v *configValidator) formatter(n int, f rawFormatter) (FormatterRule, bool) {
	at := "formatter." + strconv.Itoa(n)
	ok := true
	var g glob.Pattern
	if f.Glob == "" {
		v.fail(at, "formatter.glob", `is missing; add e.g. glob = "*.go"`)
		ok = false
	} else {
		g, ok = v.glob(at+".glob", "formatter.glob", f.Glob)
	}
	if len(f.Command) == 0 || f.Command[0] == "" {
		v.fail(at+".command", "formatter.command", `is missing or empty; add e.g. command = ["gofmt"] (the file's text arrives on stdin, the formatted text leaves on stdout)`)
		ok = false
	} else if err := checker.InlinePlaceholder(f.Command, "{path}"); err != nil {
		v.fail(at+".command", "formatter.command", err.Error())
		ok = false
	}
	var timeout time.Duration
	if f.Timeout != "" {
		var tok bool
		timeout, tok = v.duration(at+".timeout", "formatter.timeout", f.Timeout, false)
		ok = ok && tok
	}
	return FormatterRule{Glob: f.Glob, Command: f.Command, Timeout: timeout, Origin: v.origin(at), glob: g}, ok
}

func (v *configValidator) autoApprove(n int, a rawAutoApprove) (AutoApproveRule, bool) {
	at := "auto_approve." + strconv.Itoa(n)
	r := AutoApproveRule{Agent: a.Agent, Path: a.Path, NewFile: a.NewFile, Loose: a.Loose, Origin: v.origin(at)}
	ok := true
	if _, err := path.Match(a.Agent, ""); err != nil {
		v.fail(at+".agent", "auto_approve.agent", fmt.Sprintf("%q is not a valid glob (use *, ? and [a-z]); e.g. agent = \"claude*\"", a.Agent))
		ok = false
	}
	if a.Path != "" {
		var pok bool
		r.glob, pok = v.glob(at+".path", "auto_approve.path", a.Path)
		ok = ok && pok
	}
	for i, k := range a.Kind {
		if !slices.Contains(engine.Formats, engine.Format(k)) {
			v.fail(at+".kind."+strconv.Itoa(i+1), "auto_approve.kind", fmt.Sprintf("%q is not an edit kind; use some of %s", k, formatNames()))
			ok = false
			continue
		}
		r.Kinds = append(r.Kinds, engine.Format(k))
	}
	if a.MaxLines != nil {
		if *a.MaxLines < 0 {
			v.fail(at+".max_lines", "auto_approve.max_lines", fmt.Sprintf("must be 0 or more changed lines, not %d", *a.MaxLines))
			ok = false
		}
		r.MaxLines = a.MaxLines
	}
	return r, ok
}

func formatNames() string {
	names := make([]string, len(engine.Formats))
	for i, f := range engine.Formats {
		names[i] = strconv.Quote(string(f))
	}
	return strings.Join(names, ", ")
}

// tomlConfigError turns a go-toml error into *ConfigErrors.
func tomlConfigError(file string, err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) {
		errs := make([]error, 0, len(strict.Errors))
		for i := range strict.Errors {
			errs = append(errs, unknownKeyError(file, &strict.Errors[i]))
		}
		return errors.Join(errs...)
	}
	var de *toml.DecodeError
	if !errors.As(err, &de) {
		return &Error{File: file, Msg: err.Error()}
	}
	line, _ := de.Position()
	key := strings.Join(de.Key(), ".")
	msg := strings.TrimPrefix(de.Error(), "toml: ")
	if rest, ok := strings.CutPrefix(msg, "cannot decode TOML "); ok {
		got, _, _ := strings.Cut(rest, " into")
		msg = fmt.Sprintf("has the wrong type (a TOML %s)", got)
		if want, ok := configKeyTypes[key]; ok {
			msg += "; it must be " + want
		}
	} else {
		msg = "invalid TOML: " + msg
	}
	return &Error{File: file, Line: line, Key: key, Msg: msg}
}

// unknownKeyError names an unknown key and the valid ones around it.
func unknownKeyError(file string, de *toml.DecodeError) error {
	line, _ := de.Position()
	k := de.Key()
	table := strings.Join(k[:max(len(k)-1, 0)], ".")
	valid, known := configKeys[table]
	msg := "unknown key"
	switch {
	case known && table == "":
		msg += "; valid top-level keys are " + strings.Join(valid, ", ")
	case known:
		msg += fmt.Sprintf("; valid keys in %s are %s", table, strings.Join(valid, ", "))
	default:
		msg += fmt.Sprintf("; %s takes no sub-tables", table)
	}
	if len(k) > 0 {
		if s := closestKey(k[len(k)-1], valid); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
	}
	return &Error{File: file, Line: line, Key: strings.Join(k, "."), Msg: msg}
}

// closestKey returns the valid key within edit distance 2 of k, if any.
func closestKey(k string, valid []string) string {
	best, bestD := "", 3
	for _, v := range valid {
		if d := editDistance(k, v); d < bestD {
			best, bestD = v, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between short ASCII keys.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// tomlKeyLines maps each key of a valid TOML document to its 1-based line.
// Array tables are numbered from 1 ("formatter.2.glob") and so are array
// elements ("protected.3").
func tomlKeyLines(data []byte) map[string]int {
	lines := map[string]int{}
	var p unstable.Parser
	p.Reset(data)
	counts := map[string]int{}
	table := ""
	var newlines []int // offsets of '\n', to turn offsets into lines in O(log n)
	for i, c := range data {
		if c == '\n' {
			newlines = append(newlines, i)
		}
	}
	lineOf := func(n *unstable.Node) int {
		off := int(n.Raw.Offset)
		return 1 + sort.SearchInts(newlines, off)
	}
	for p.NextExpression() {
		e := p.Expression()
		key, first := tomlKeyPath(e.Key())
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			if e.Kind == unstable.ArrayTable {
				counts[key]++
				key += "." + strconv.Itoa(counts[key])
			}
			table = key
			if first != nil {
				lines[key] = lineOf(first)
			}
		case unstable.KeyValue:
			if table != "" {
				key = table + "." + key
			}
			if first != nil {
				lines[key] = lineOf(first)
			}
			if val := e.Value(); val != nil && val.Kind == unstable.Array {
				it := val.Children()
				for i := 1; it.Next(); i++ {
					if n := it.Node(); n.Raw.Length > 0 {
						lines[key+"."+strconv.Itoa(i)] = lineOf(n)
					}
				}
			}
		}
	}
	return lines
}

// tomlKeyPath joins a key's parts with dots and returns its first part.
func tomlKeyPath(it unstable.Iterator) (string, *unstable.Node) {
	var parts []string
	var first *unstable.Node
	for it.Next() {
		n := it.Node()
		if first == nil {
			first = n
		}
		parts = append(parts, string(n.Data))
	}
	return strings.Join(parts, "."), first
}

// ResolveRoot makes root absolute and resolves its symlinks; it must be an
// existing directory.
func ResolveRoot(root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("workspace root %s: %w", root, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("workspace root %s does not exist or cannot be read: %w; create it or fix the path", root, err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("workspace root %s: %w", root, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("workspace root %s is not a directory; pass the project directory", root)
	}
	return real, nil
}
