package config

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Trust reports whether the person trusts the .diffdesk.toml of root (an
// absolute, symlink-resolved workspace root) whose exact bytes have the
// SHA-256 sha256 (lowercase hex). A nil Trust trusts nothing.
type Trust func(root, sha256 string) bool

// WorkspaceFile is one root's .diffdesk.toml as read: its content's hash,
// whether the person trusts that content, and what in it waits for trust.
//
// Whatever a repository's file holds that runs a program or decides
// without a person (formatters, auto_approve rules, checkers, and any
// such rule added later) lives here and is turned on by Config.apply only
// when Trusted, and is listed by Rules.
type WorkspaceFile struct {
	Root             string            // the workspace root, absolute and symlink-resolved
	File             string            // Root's .diffdesk.toml
	SHA256           string            // of the exact bytes read, lowercase hex
	Trusted          bool              // the person trusts this content: its rules are on
	Formatters       []FormatterRule   // each runs a program on approved files
	AutoApproveRules []AutoApproveRule // each approves edits without a person
	Checkers         []CheckerRule     // each runs a program on proposed files while the person reviews
	MaxFileBytes     *int64            // [limits] max_file_bytes; nil if unset
	Settle           *time.Duration    // [desk] settle; nil if unset

	user WorkspaceSettings // the user's limits and settle window, for Rules
}

// ContentKey names the file with its content: two keys are equal only
// for the same bytes of the same file.
func (f WorkspaceFile) ContentKey() string { return f.File + " " + f.SHA256 }

// NeedsTrust reports whether f holds anything that applies only once the
// person trusts it.
func (f WorkspaceFile) NeedsTrust() bool { return len(f.Rules()) > 0 }

// Rules describes, one line each, what f turns on once trusted: the exact
// command of each formatter and checker, what each auto_approve rule lets through
// without a person, a raised file-size limit, a settle window. Strings from
// the file are quoted, so control characters cannot disguise a command.
// Protections and a lowered limit are not listed: they apply untrusted.
func (f WorkspaceFile) Rules() []string {
	var rules []string
	for _, r := range f.Formatters {
		timeout := r.Timeout
		if timeout == 0 {
			timeout = DefaultFormatterTimeout
		}
		rules = append(rules, fmt.Sprintf("formatter at %s: on files matching %s runs %s in %s (the file's text on stdin; at most %v)",
			f.at(r.Origin), strconv.Quote(r.Glob), quoteList(r.Command), strconv.Quote(f.Root), timeout))
	}
	for _, r := range f.Checkers {
		rules = append(rules, fmt.Sprintf("checker %s at %s: %s", strconv.Quote(r.Name), f.at(r.Origin), describeChecker(r)))
	}
	for _, r := range f.AutoApproveRules {
		rules = append(rules, fmt.Sprintf("auto_approve at %s: approves without a person %s", f.at(r.Origin), describeAuto(r)))
	}
	if m := f.MaxFileBytes; m != nil && *m > f.user.Limits.MaxFileBytes {
		rules = append(rules, fmt.Sprintf("[limits] max_file_bytes = %d: raises the file-size limit from %d bytes", *m, f.user.Limits.MaxFileBytes))
	}
	if s := f.Settle; s != nil {
		rules = append(rules, fmt.Sprintf("[desk] settle = %q: holds each approval %v for a format-on-save editor and records its change (yours: %v)",
			s.String(), *s, f.user.Settle))
	}
	return rules
}

// at is a rule's origin without the file name, e.g. "line 3".
func (f WorkspaceFile) at(origin string) string {
	return strings.TrimPrefix(origin, f.File+" ")
}

// describeAuto says what an auto_approve rule lets through.
func describeAuto(r AutoApproveRule) string {
	parts := []string{"any agent's edits", "to any path", "of any kind", "of any size"}
	if r.Agent != "" {
		parts[0] = "edits by agents matching " + strconv.Quote(r.Agent)
	}
	if r.Path != "" {
		parts[1] = "to paths matching " + strconv.Quote(r.Path)
	}
	if len(r.Kinds) > 0 {
		kinds := make([]string, len(r.Kinds))
		for i, k := range r.Kinds {
			kinds[i] = string(k)
		}
		parts[2] = "of kind " + strings.Join(kinds, ", ")
	}
	if r.MaxLines != nil {
		parts[3] = fmt.Sprintf("of at most %d changed lines", *r.MaxLines)
	}
	switch {
	case r.NewFile == nil:
		parts = append(parts, "new files and existing ones")
	case *r.NewFile:
		parts = append(parts, "new files only")
	default:
		parts = append(parts, "existing files only")
	}
	if r.Loose {
		parts = append(parts, "also edits applied by a loose match")
	}
	return strings.Join(parts, ", ") + " (protected paths still need a person)"
}

// quoteList writes a command as a list of quoted arguments, e.g.
// ["sh", "-c", "id; cat"].
func quoteList(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = strconv.Quote(a)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// Untrusted returns the workspace files whose rules are off because the
// person has not trusted their content, in root order.
func (c Config) Untrusted() []WorkspaceFile {
	var out []WorkspaceFile
	for _, f := range c.WorkspaceFiles {
		if !f.Trusted && f.NeedsTrust() {
			out = append(out, f)
		}
	}
	return out
}

// WithTrusted returns c with the workspace file of root trusted, its
// rules on exactly as they were read (the file is not read again, so a
// change since cannot slip in). c is unchanged; ok is false if root has
// no workspace file.
func (c Config) WithTrusted(root string) (_ Config, ok bool) {
	i := slices.IndexFunc(c.WorkspaceFiles, func(f WorkspaceFile) bool { return f.Root == root })
	if i < 0 {
		return c, false
	}
	c.WorkspaceFiles = slices.Clone(c.WorkspaceFiles)
	c.WorkspaceFiles[i].Trusted = true
	c.Workspaces = maps.Clone(c.Workspaces)
	c.apply()
	return c, true
}
