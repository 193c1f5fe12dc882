package config

import (
	"path"
	"slices"
	"strings"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/glob"
)

// AutoApproveRule approves, without a person, an edit that meets all of its
// conditions; an absent condition accepts anything. A protected path is
// never auto-approved, whatever the rules say.
type AutoApproveRule struct {
	Agent    string          // glob on the agent's name, case-insensitive, e.g. "claude*"; "" = any agent
	Path     string          // gitignore-style glob on the path relative to its root, e.g. "docs/**"; "" = any path
	Kinds    []engine.Format // edit kinds allowed; empty = any kind
	MaxLines *int            // most changed lines (added + removed) allowed; nil = any size
	NewFile  *bool           // true: only new files; false: only existing files; nil: either
	Loose    bool            // also edits applied by a loose match (not the agent's exact text); never an edit cut short
	Root     string          // the root whose .diffdesk.toml set the rule, which applies only there; "" for the user config's
	Origin   string          // where the rule is written, "FILE line N"
	glob     glob.Pattern
}

// AutoRequest describes one file of a proposal for AutoApprove.
type AutoRequest struct {
	Agent     string        // the agent's name
	Root      string        // the workspace root holding the file (Target.Root); workspace rules need it
	Rel       string        // the path relative to Root, slash-separated (Target.Rel)
	Kind      engine.Format // the edit's format
	Added     int           // lines added
	Removed   int           // lines removed
	Protected bool          // Target.Protected
	NewFile   bool          // the file does not exist yet
	Loose     bool          // the edit was applied by a loose match (File.Loose)
}

// AutoApprove returns the first rule that approves req without a person,
// described as "auto_approve rule at FILE line N". Protected paths are
// never approved.
func (c Config) AutoApprove(req AutoRequest) (rule string, ok bool) {
	if req.Protected {
		return "", false
	}
	for _, r := range c.AutoApproveRules {
		if r.allows(req) {
			return "auto_approve rule at " + r.Origin, true
		}
	}
	return "", false
}

// pattern returns r's compiled path glob, compiling Path for a rule built
// by hand rather than by Load.
func (r AutoApproveRule) pattern() glob.Pattern {
	if !r.glob.IsZero() || r.Path == "" {
		return r.glob
	}
	g, _, _ := glob.Compile(r.Path)
	return g
}

// allows reports whether every condition of r holds for req.
func (r AutoApproveRule) allows(req AutoRequest) bool {
	if r.Root != "" && r.Root != req.Root {
		return false
	}
	if r.Agent != "" {
		ok, err := path.Match(strings.ToLower(r.Agent), strings.ToLower(req.Agent))
		if err != nil || !ok {
			return false
		}
	}
	if r.Path != "" && (req.Rel == "" || !r.pattern().MatchWithParents(req.Rel, false)) {
		return false
	}
	if len(r.Kinds) > 0 && !slices.Contains(r.Kinds, req.Kind) {
		return false
	}
	if r.MaxLines != nil && req.Added+req.Removed > *r.MaxLines {
		return false
	}
	if r.NewFile != nil && *r.NewFile != req.NewFile {
		return false
	}
	if req.Loose && !r.Loose {
		return false
	}
	return true
}
