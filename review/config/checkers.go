package config

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/diffdesk/diffdesk/review/checker"
)

// CheckerRule is a project checker ([[checker]]) and where it applies.
type CheckerRule struct {
	checker.Checker        // Origin is where the rule is written, "FILE line N"
	Root            string // the root whose .diffdesk.toml set it, which applies only there; "" for the user config's
}

// CheckersFor returns every checker for absPath, a file under the
// workspace root root (both absolute and symlink-resolved, as in Target):
// a trusted workspace's first, then the user's. Of two with the same name
// (a workspace and the user both turn on a preset) the first is kept, so
// no problem is reported twice.
func (c Config) CheckersFor(absPath, root string) []checker.Checker {
	rel, err := filepath.Rel(root, absPath)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil
	}
	rel = filepath.ToSlash(rel)
	var out []checker.Checker
	seen := map[string]bool{}
	for _, r := range c.Checkers {
		if r.Root != "" && r.Root != root || seen[r.Name] || !r.Match(rel) {
			continue
		}
		seen[r.Name] = true
		out = append(out, r.Checker)
	}
	return out
}

// rawChecker is the TOML schema of a [[checker]].
type rawChecker struct {
	Preset   string   `toml:"preset"`
	Name     string   `toml:"name"`
	Glob     string   `toml:"glob"`
	Command  []string `toml:"command"`
	Timeout  string   `toml:"timeout"`
	Format   string   `toml:"format"`
	Severity string   `toml:"severity"`
}

// checker validates the n-th [[checker]]: a preset, and the keys that
// override it; without a preset, glob and command are required and the
// name defaults to the command's program.
func (v *configValidator) checker(n int, raw rawChecker) (CheckerRule, bool) {
	at := "checker." + strconv.Itoa(n)
	var c checker.Checker
	if raw.Preset != "" {
		p, err := checker.Preset(raw.Preset)
		if err != nil {
			v.fail(at+".preset", "checker.preset", fmt.Sprintf("%q is not a preset; use one of %s, or leave preset out and set glob and command", raw.Preset, strings.Join(checker.PresetNames(), ", ")))
			return CheckerRule{}, false
		}
		c = p
	}
	ok := true
	if raw.Glob != "" {
		_, gok := v.glob(at+".glob", "checker.glob", raw.Glob)
		ok = ok && gok
		c.Glob = raw.Glob
	} else if c.Glob == "" {
		v.fail(at, "checker.glob", `is missing; add e.g. glob = "*.sh", or use a preset`)
		ok = false
	}
	if raw.Command != nil {
		c.Command = raw.Command
	}
	if len(c.Command) == 0 || c.Command[0] == "" {
		v.fail(at+".command", "checker.command", `is missing or empty; add e.g. command = ["shellcheck", "--format=gcc", "{file}"], or use a preset`)
		ok = false
	}
	switch {
	case raw.Name != "":
		c.Name = raw.Name
	case c.Name == "" && len(c.Command) > 0:
		c.Name = filepath.Base(c.Command[0])
	}
	if raw.Timeout != "" {
		d, tok := v.duration(at+".timeout", "checker.timeout", raw.Timeout, false)
		ok = ok && tok
		c.Timeout = d
	}
	if raw.Format != "" {
		c.Format = checker.Format(raw.Format)
		if !oneOf(raw.Format, checker.FormatLines, checker.FormatSARIF, checker.FormatESLintJSON) {
			v.fail(at+".format", "checker.format", fmt.Sprintf("%q is not an output format; use \"lines\", \"sarif\" or \"eslint-json\"", raw.Format))
			ok = false
		}
	}
	if raw.Severity != "" {
		c.Severity = checker.Severity(raw.Severity)
		if !oneOf(raw.Severity, checker.SeverityError, checker.SeverityWarning, checker.SeverityInfo) {
			v.fail(at+".severity", "checker.severity", fmt.Sprintf("%q is not a severity; use \"error\", \"warning\" or \"info\"", raw.Severity))
			ok = false
		}
	}
	c.Origin = v.origin(at)
	if ok {
		// What the keys above do not cover, e.g. {file} with {overlay}.
		if err := c.Validate(); err != nil {
			v.fail(at+".command", "checker.command", err.Error())
			ok = false
		}
	}
	return CheckerRule{Checker: c}, ok
}

// oneOf reports whether s is one of the strings of a string type.
func oneOf[S ~string](s string, of ...S) bool {
	for _, o := range of {
		if s == string(o) {
			return true
		}
	}
	return false
}

// describeChecker says, for the trust question, what a checker runs, on
// what and where.
func describeChecker(r CheckerRule) string {
	input := "the proposed text on stdin"
	for _, a := range r.Command {
		switch {
		case strings.Contains(a, "{overlay}"):
			input = "the proposed text in a temporary copy, overlaid on the package"
		case strings.Contains(a, "{file}"):
			input = "the proposed text in a temporary copy"
		}
	}
	timeout := r.Timeout
	if timeout == 0 {
		timeout = checker.DefaultTimeout
	}
	return fmt.Sprintf("on files matching %s runs %s in the file's directory while you review (%s; at most %v)",
		strconv.Quote(r.Glob), quoteList(r.Command), input, timeout)
}
