package config

import (
	"fmt"
	"strings"

	"github.com/diffdesk/diffdesk/review/glob"
)

// ProtectedPattern is one protected-path pattern (gitignore syntax,
// matched against the path relative to its root; see glob.Pattern). It
// matches regardless of case, so ".GIT/config" is protected on a
// case-insensitive file system too.
type ProtectedPattern struct {
	Pattern string // as written, e.g. ".env*"
	Origin  string // "built-in" or "FILE line N"
	Reason  string // why a person must decide (built-ins); "" for a pattern from a config file
	glob    glob.Pattern
}

// Match reports whether the pattern protects rel (slash-separated, relative
// to its root) or a directory above it, in any case. It compiles Pattern
// for a pattern built by hand rather than by Load.
func (p ProtectedPattern) Match(rel string) bool {
	g := p.glob
	if g.IsZero() {
		if p.Pattern == "" {
			return false
		}
		g, _, _ = glob.Compile(strings.ToLower(p.Pattern))
	}
	return g.MatchWithParents(strings.ToLower(rel), false)
}

// Protection returns what a match of p tells the person and the agent.
func (p ProtectedPattern) Protection() Protection {
	return Protection{Pattern: p.Pattern, Origin: p.Origin, Reason: p.Reason}
}

// Protection says why a path needs a person: the protected pattern that
// matched it, where that pattern is set, and why. The zero Protection
// means the path is not protected.
type Protection struct {
	Pattern string // as written, e.g. ".claude/"
	Origin  string // "built-in" or "FILE line N"
	Reason  string // e.g. "Claude Code's settings: can switch off the hooks that send edits here"; "" for a config file's pattern
}

// IsZero reports whether p is no protection at all.
func (p Protection) IsZero() bool { return p.Pattern == "" }

// String returns the reason and the rule, e.g.
// `git internals: … (rule ".git", built-in)`, or for a config file's
// pattern `protected by rule "secrets/" at FILE line N`; "" for the zero
// Protection.
func (p Protection) String() string {
	switch {
	case p.IsZero():
		return ""
	case p.Reason == "":
		return fmt.Sprintf("protected by rule %q at %s", p.Pattern, p.Origin)
	}
	return fmt.Sprintf("%s (rule %q, %s)", p.Reason, p.Pattern, p.Origin)
}

// builtinProtected are the built-in protected patterns, each group with
// the reason a person must see an edit to it. They cover what runs code or
// decides without the person once written — version-control internals,
// the agents' own settings, hooks and MCP servers, editor tasks and
// settings, CI workflows, git-hook managers, package-manager settings —
// and what holds secrets or pins what gets installed. A store that lives
// in a directory of its own (.ssh/, .aws/, .claude/) is protected whole;
// one file among others by its path at any depth ("**/.docker/config.json").
//
// The agents' instruction files (CLAUDE.md, GEMINI.md, AGENTS.md,
// .cursorrules, a .clinerules file) are not protected: they are prose the
// agent is asked to keep current, they run nothing, and the person sees
// every edit to them in the diff as usual. The directories beside them
// that hold settings, hooks and commands are protected.
var builtinProtected = []struct {
	reason   string
	patterns []string
}{
	{"git internals: a crafted .git file or directory (config, hooks) runs code on the next git command",
		[]string{".git"}},
	{"git submodules: points the next submodule update at a repository and path of the agent's choosing",
		[]string{".gitmodules"}},
	{"version-control internals: their config and hooks run code on the next command",
		[]string{".hg/", ".svn/"}},
	{"Claude Code's settings: can switch off the hooks that send edits here, or allow any command",
		[]string{".claude/"}},
	{"Gemini CLI's settings: can switch off the hooks that send edits here, or allow any command",
		[]string{".gemini/"}},
	{"MCP server list: starts the programs it names in the agent's next session",
		[]string{".mcp.json"}},
	{"Cline's hooks, plugins and settings: can switch off the hooks that send edits here, or run any program",
		[]string{".cline/"}},
	{"an agent's settings, hooks or MCP servers: can run programs or change what the agent may do unasked",
		[]string{".codex/", ".cursor/", ".windsurf/", ".roo/", ".roomodes", ".clinerules/", ".continue/", ".kiro/", ".aider.conf.yml"}},
	{"editor settings and tasks: can run programs when the folder is opened",
		[]string{".vscode/", ".idea/", "*.code-workspace"}},
	{"dev container definition: its commands run when the container is built or opened",
		[]string{".devcontainer/", ".devcontainer.json"}},
	{"direnv: runs as shell code when a shell enters the directory",
		[]string{".envrc"}},
	{"git hooks: run code on the next commit or push",
		[]string{".husky/", ".pre-commit-config.yaml", "lefthook.yml", ".lefthook.yml"}},
	{"CI definition: runs with the repository's secrets on the next push",
		[]string{"**/.github/workflows/", "**/.github/actions/", ".gitlab-ci.yml", ".circleci/", ".buildkite/", "azure-pipelines.yml", "bitbucket-pipelines.yml", "Jenkinsfile"}},
	{"package-manager settings: change where packages come from, hold tokens, or run code on install",
		[]string{".npmrc", ".yarnrc", ".yarnrc.yml", ".pnpmfile.cjs", ".pypirc"}},
	{"environment file: usually holds secrets",
		[]string{".env*"}},
	{"credentials: holds passwords or tokens",
		[]string{".netrc", "_netrc", ".git-credentials", ".pgpass", ".my.cnf", ".s3cfg", ".boto", ".vault-token",
			"**/.cargo/credentials*", "**/.gem/credentials", ".terraformrc", ".htpasswd", "**/.docker/config.json", "**/.config/gh/hosts.yml"}},
	{"private key or keystore",
		[]string{"id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*", "*.pem", "*.key", "*.p12", "*.pfx", "*.keystore", "*.jks"}},
	{"credential store: holds keys, passwords or tokens",
		[]string{".ssh/", ".gnupg/", ".aws/", ".azure/", ".kube/", "**/.config/gcloud/"}},
	{"infrastructure state: holds secrets and decides what the next apply destroys",
		[]string{"*.tfstate", "*.tfstate.backup"}},
	{"lockfile: pins exactly which packages get installed",
		[]string{"package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock", "bun.lockb",
			"deno.lock", "go.sum", "Cargo.lock", "poetry.lock", "Pipfile.lock", "uv.lock", "pdm.lock",
			"Gemfile.lock", "composer.lock", "mix.lock", "pubspec.lock", "Podfile.lock", "Package.resolved",
			"packages.lock.json", "gradle.lockfile", "flake.lock"}},
	{"DiffDesk's own rules: an agent could widen its own permissions",
		[]string{FileName, ".diffdeskignore", ".clineignore", ".geminiignore", ".aiderignore"}},
}

// DefaultProtected lists the built-in protected patterns (builtinProtected
// without the reasons), in order. The user config's unprotect removes
// entries.
var DefaultProtected = func() []string {
	var out []string
	for _, g := range builtinProtected {
		out = append(out, g.patterns...)
	}
	return out
}()

// protectedReasons maps each built-in pattern to its reason.
var protectedReasons = func() map[string]string {
	out := map[string]string{}
	for _, g := range builtinProtected {
		for _, p := range g.patterns {
			out[p] = g.reason
		}
	}
	return out
}()
