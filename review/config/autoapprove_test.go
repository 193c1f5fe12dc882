package config

import (
	"path/filepath"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/internal/testfs"
)

func TestAutoApprove(t *testing.T) {
	dir := t.TempDir()
	testfs.Write(t, dir, map[string]string{"c.toml": `
[[auto_approve]]
agent = "claude*"

[[auto_approve]]
path = "docs/**"

[[auto_approve]]
kind = ["edit", "multi-edit"]

[[auto_approve]]
max_lines = 3

[[auto_approve]]
new_file = true

[[auto_approve]]
new_file = false
agent = "gemini"
path = "*.md"
kind = ["write"]
max_lines = 10
`})
	file := filepath.Join(dir, "c.toml")
	all, err := Load(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	// only keeps rule n (1-based) so that each condition is tested alone.
	only := func(n int) Config {
		c := all
		c.AutoApproveRules = all.AutoApproveRules[n-1 : n]
		return c
	}
	base := AutoRequest{Agent: "codex", Rel: "src/main.go", Kind: engine.FormatSearchReplace, Added: 20, Removed: 20}
	with := func(f func(*AutoRequest)) AutoRequest {
		r := base
		f(&r)
		return r
	}
	cases := []struct {
		name string
		rule int
		req  AutoRequest
		want bool
	}{
		{"agent glob", 1, with(func(r *AutoRequest) { r.Agent = "claude-code" }), true},
		{"agent glob is case-insensitive", 1, with(func(r *AutoRequest) { r.Agent = "Claude" }), true},
		{"other agent", 1, base, false},
		{"path glob", 2, with(func(r *AutoRequest) { r.Rel = "docs/guide/intro.md" }), true},
		{"path outside glob", 2, with(func(r *AutoRequest) { r.Rel = "src/docs/x.md" }), false},
		{"kind listed", 3, with(func(r *AutoRequest) { r.Kind = engine.FormatMultiEdit }), true},
		{"kind not listed", 3, base, false},
		{"lines at the limit", 4, with(func(r *AutoRequest) { r.Added, r.Removed = 2, 1 }), true},
		{"lines over the limit", 4, with(func(r *AutoRequest) { r.Added, r.Removed = 2, 2 }), false},
		{"new file wanted", 5, with(func(r *AutoRequest) { r.NewFile = true }), true},
		{"existing file", 5, base, false},
		{"every condition holds", 6, AutoRequest{Agent: "Gemini", Rel: "a/b.md", Kind: engine.FormatWrite, Added: 5, Removed: 5}, true},
		{"one condition fails: new file", 6, AutoRequest{Agent: "gemini", Rel: "a/b.md", Kind: engine.FormatWrite, Added: 5, Removed: 5, NewFile: true}, false},
		{"one condition fails: size", 6, AutoRequest{Agent: "gemini", Rel: "a/b.md", Kind: engine.FormatWrite, Added: 6, Removed: 5}, false},
		{"protected never", 1, with(func(r *AutoRequest) { r.Agent = "claude"; r.Protected = true }), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rule, ok := only(c.rule).AutoApprove(c.req)
			if ok != c.want {
				t.Errorf("AutoApprove(%+v) with rule %d = %q, %v; want %v", c.req, c.rule, rule, ok, c.want)
			}
		})
	}
	t.Run("first rule that allows is named", func(t *testing.T) {
		rule, ok := all.AutoApprove(with(func(r *AutoRequest) { r.Rel = "docs/a.md"; r.Added, r.Removed = 1, 0 }))
		if want := "auto_approve rule at " + file + " line 5"; !ok || rule != want {
			t.Errorf("AutoApprove = %q, %v; want %q", rule, ok, want)
		}
	})
	t.Run("protected beats every rule", func(t *testing.T) {
		if rule, ok := all.AutoApprove(AutoRequest{Agent: "claude", Rel: ".env", Protected: true, NewFile: true}); ok {
			t.Errorf("AutoApprove(protected) = %q, true; want false", rule)
		}
	})
	t.Run("no rules", func(t *testing.T) {
		if _, ok := Default().AutoApprove(base); ok {
			t.Error("AutoApprove with no rules = true; want false")
		}
	})
}

// TestRulesBuiltByHand checks that rules made without Load work.
func TestRulesBuiltByHand(t *testing.T) {
	root := t.TempDir()
	c := Config{
		Formatters:       []FormatterRule{{Glob: "*.go", Command: []string{"gofmt"}}},
		AutoApproveRules: []AutoApproveRule{{Path: "docs/**", Origin: "test"}},
		Protected:        []ProtectedPattern{{Pattern: "Secret/", Origin: "test"}},
	}
	if r, ok := c.FormatterFor(filepath.Join(root, "a", "x.go"), root); !ok || r.Command[0] != "gofmt" {
		t.Errorf("FormatterFor(a/x.go) = %+v, %v; want gofmt", r, ok)
	}
	if _, ok := c.AutoApprove(AutoRequest{Rel: "docs/a.md"}); !ok {
		t.Error("AutoApprove(docs/a.md) = false; want true")
	}
	if !c.Protected[0].Match("secret/k.txt") {
		t.Error(`ProtectedPattern "Secret/" does not match secret/k.txt; want it to, in any case`)
	}
}

// TestAutoApproveLooseNeedsOptIn: an edit applied by a loose match passes
// only a rule that says loose = true.
func TestAutoApproveLooseNeedsOptIn(t *testing.T) {
	dir := t.TempDir()
	testfs.Write(t, dir, map[string]string{
		"strict.toml": "[[auto_approve]]\npath = \"docs/**\"\n",
		"loose.toml":  "[[auto_approve]]\npath = \"docs/**\"\nloose = true\n",
	})
	req := AutoRequest{Rel: "docs/a.md", Loose: true}
	for file, want := range map[string]bool{"strict.toml": false, "loose.toml": true} {
		c, err := Load(filepath.Join(dir, file), nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := c.AutoApprove(req); ok != want {
			t.Errorf("%s: AutoApprove(a loose match) = %v; want %v", file, ok, want)
		}
		req.Loose = false
		if _, ok := c.AutoApprove(req); !ok {
			t.Errorf("%s: AutoApprove(an exact match) = false; want true", file)
		}
		req.Loose = true
	}
}
