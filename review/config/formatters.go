package config

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/diffdesk/diffdesk/review/glob"
)

// FormatterRule runs a formatter on the files its Glob matches: the file's
// text on stdin, the formatted text on stdout.
type FormatterRule struct {
	Glob    string        // gitignore-style glob against the path relative to its root; "*.go" matches at any depth
	Command []string      // program and arguments; "{path}" in an argument becomes the file's absolute path
	Timeout time.Duration // how long it may run; 0 means DefaultFormatterTimeout
	Root    string        // the root whose .diffdesk.toml set the rule, which applies only there; "" for the user config's
	Dir     string        // the directory it runs in; FormatterFor sets it to the file's root
	Origin  string        // where the rule is written, "FILE line N"
	glob    glob.Pattern
}

// FormatterFor returns the first formatter rule for absPath, a file under
// the workspace root root (both absolute and symlink-resolved, as in
// Target), with Dir set to root.
func (c Config) FormatterFor(absPath, root string) (*FormatterRule, bool) {
	rel, err := filepath.Rel(root, absPath)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, false
	}
	rel = filepath.ToSlash(rel)
	for _, r := range c.Formatters {
		if r.Root != "" && r.Root != root {
			continue
		}
		if r.pattern().MatchWithParents(rel, false) {
			found := r
			found.Dir = root
			return &found, true
		}
	}
	return nil, false
}

// pattern returns r's compiled glob, compiling Glob for a rule built by
// hand rather than by Load.
func (r FormatterRule) pattern() glob.Pattern {
	if !r.glob.IsZero() || r.Glob == "" {
		return r.glob
	}
	g, _, _ := glob.Compile(r.Glob)
	return g
}
