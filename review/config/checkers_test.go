package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review/checker"
	"github.com/diffdesk/diffdesk/review/internal/testfs"
)

func TestCheckerConfig(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	testfs.Write(t, dir, map[string]string{
		"user.toml": "[[checker]]\npreset = \"go-vet\"\ntimeout = \"3m\"\n" +
			"[[checker]]\nglob = \"*.sh\"\ncommand = [\"/usr/bin/shellcheck\", \"--format=gcc\", \"{file}\"]\nseverity = \"warning\"\n",
		"a/" + FileName: "[[checker]]\npreset = \"gofmt\"\nname = \"gofmt -e\"\nglob = \"/cmd/*.go\"\n" +
			"[[checker]]\npreset = \"shellcheck\"\n",
		"b/keep": "",
	})
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	c, err := LoadTrusting(filepath.Join(dir, "user.toml"), []string{a, b}, trustAll)
	if err != nil {
		t.Fatal(err)
	}
	vet := c.Checkers[len(c.Checkers)-2]
	want := checker.Checker{Name: "go vet", Glob: "*.go", Command: []string{"go", "vet", "-overlay", "{overlay}", "."},
		Timeout: 3 * time.Minute, Origin: filepath.Join(dir, "user.toml") + " line 1"}
	if !equalChecker(vet.Checker, want) || vet.Root != "" {
		t.Errorf("the user's go-vet preset = %+v; want %+v", vet, want)
	}
	for _, x := range []struct {
		root, rel string
		want      []string // names
	}{
		{a, "cmd/tool.go", []string{"gofmt -e", "go vet"}},
		{a, "main.go", []string{"go vet"}},
		{b, "cmd/tool.go", []string{"go vet"}},
		// a's shellcheck preset and the user's checker (named for its
		// program) share a name: a's is kept, not both.
		{a, "x/run.sh", []string{"shellcheck"}},
		{b, "x/run.sh", []string{"shellcheck"}},
		{a, "README.md", nil},
		{a, "../outside.go", nil},
	} {
		var got []string
		for _, k := range c.CheckersFor(filepath.Join(x.root, x.rel), x.root) {
			got = append(got, k.Name)
		}
		if !slices.Equal(got, x.want) {
			t.Errorf("CheckersFor(%s, %s) = %q; want %q", filepath.Base(x.root), x.rel, got, x.want)
		}
	}
	if sh := c.CheckersFor(filepath.Join(a, "run.sh"), a)[0]; sh.Command[0] != "shellcheck" {
		t.Errorf("shellcheck under a = %+v; want a's preset", sh)
	}
	if sh := c.CheckersFor(filepath.Join(b, "run.sh"), b)[0]; sh.Severity != checker.SeverityWarning || sh.Command[0] != "/usr/bin/shellcheck" {
		t.Errorf("shellcheck under b = %+v; want the user's, with its severity", sh)
	}
}

func equalChecker(a, b checker.Checker) bool {
	return a.Name == b.Name && a.Glob == b.Glob && slices.Equal(a.Command, b.Command) && a.Timeout == b.Timeout &&
		a.Format == b.Format && a.Severity == b.Severity && a.Origin == b.Origin
}

func TestCheckerConfigErrors(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"unknown preset", "[[checker]]\npreset = \"golint\"\n",
			` line 2: key checker.preset: "golint" is not a preset; use one of eslint, go-vet, gofmt, python, ruff, shellcheck, or leave preset out and set glob and command`},
		{"no glob", "\n[[checker]]\ncommand = [\"vet\"]\n",
			` line 2: key checker.glob: is missing; add e.g. glob = "*.sh", or use a preset`},
		{"no command", "[[checker]]\nglob = \"*.sh\"\ncommand = []\n",
			` line 3: key checker.command: is missing or empty; add e.g. command = ["shellcheck", "--format=gcc", "{file}"], or use a preset`},
		{"bad format", "[[checker]]\npreset = \"ruff\"\nformat = \"json\"\n",
			` line 3: key checker.format: "json" is not an output format; use "lines", "sarif" or "eslint-json"`},
		{"bad severity", "[[checker]]\npreset = \"ruff\"\nseverity = \"fatal\"\n",
			` line 3: key checker.severity: "fatal" is not a severity; use "error", "warning" or "info"`},
		{"bad timeout", "[[checker]]\npreset = \"ruff\"\ntimeout = \"soon\"\n",
			` line 3: key checker.timeout: "soon" is not a positive duration; write e.g. "300ms" or "5s"`},
		{"bad glob", "[[checker]]\npreset = \"ruff\"\nglob = \"!*.py\"\n",
			` line 3: key checker.glob: "!*.py": negation is not supported in config globs; write the paths to match`},
		{"file and overlay", "[[checker]]\nglob = \"*.go\"\ncommand = [\"vet\", \"{file}\", \"{overlay}\"]\n",
			` line 3: key checker.command: checker at CONFIG line 1: the command uses both {file} and {overlay}; use one`},
		{"unknown key", "[[checker]]\npreset = \"ruff\"\nargs = []\n",
			` line 3: key checker.args: unknown key; valid keys in checker are preset, name, glob, command, timeout, format, severity`},
		{"wrong type", "[[checker]]\ncommand = \"shellcheck\"\n",
			` line 2: key checker.command: has the wrong type (a TOML string); it must be an array of strings, e.g. command = ["shellcheck", "--format=gcc", "{file}"]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "config.toml")
			testfs.Write(t, dir, map[string]string{"config.toml": c.data})
			_, err := Load(file, nil)
			want := file + strings.ReplaceAll(c.want, "CONFIG", file)
			var ce *Error
			if !errors.As(err, &ce) || err.Error() != want {
				t.Errorf("Load(%q) error =\n%v\nwant\n%s", c.data, err, want)
			}
		})
	}
}

// TestUntrustedCheckersAreOff: a repository's checker runs a program on
// every proposed file, so it waits for trust like a formatter, and the
// trust question shows its exact command.
func TestUntrustedCheckersAreOff(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	testfs.Write(t, dir, map[string]string{
		"user.toml": "[[checker]]\npreset = \"gofmt\"\n",
		"repo/" + FileName: "[[checker]]\nname = \"lint\"\nglob = \"*\"\ncommand = [\"sh\", \"-c\", \"id > pwned\"]\n" +
			"[[checker]]\npreset = \"go-vet\"\n",
	})
	root := filepath.Join(dir, "repo")
	c, err := LoadTrusting(filepath.Join(dir, "user.toml"), []string{root}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, k := range c.CheckersFor(filepath.Join(root, "a.go"), root) {
		names = append(names, k.Name)
	}
	if !slices.Equal(names, []string{"gofmt"}) {
		t.Errorf("CheckersFor under the untrusted repo = %q; want only the user's gofmt", names)
	}
	un := c.Untrusted()
	if len(un) != 1 {
		t.Fatalf("Untrusted() = %+v; want the repo's file", un)
	}
	want := []string{
		`checker "lint" at line 1: on files matching "*" runs ["sh", "-c", "id > pwned"] in the file's directory while you review (the proposed text on stdin; at most 30s)`,
		`checker "go vet" at line 5: on files matching "*.go" runs ["go", "vet", "-overlay", "{overlay}", "."] in the file's directory while you review (the proposed text in a temporary copy, overlaid on the package; at most 2m0s)`,
	}
	if got := un[0].Rules(); !slices.Equal(got, want) {
		t.Errorf("Rules() =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	trusted, _ := c.WithTrusted(root)
	names = nil
	for _, k := range trusted.CheckersFor(filepath.Join(root, "a.go"), root) {
		names = append(names, k.Name)
	}
	if !slices.Equal(names, []string{"lint", "go vet", "gofmt"}) {
		t.Errorf("CheckersFor once trusted = %q; want the repo's, then the user's", names)
	}
}

// TestExampleConfigHasEveryKey: the documented example shows every key
// the config reads.
func TestExampleConfigHasEveryKey(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "config", "example.toml"))
	if err != nil {
		t.Fatal(err)
	}
	lines := tomlKeyLines(data)
	present := map[string]bool{}
	for k := range lines {
		parts := strings.Split(k, ".")
		var kept []string
		for _, p := range parts {
			if p == "" || p[0] < '0' || p[0] > '9' { // drop array indexes
				kept = append(kept, p)
			}
		}
		present[strings.Join(kept, ".")] = true
	}
	for table, keys := range configKeys {
		for _, k := range keys {
			if table != "" {
				k = table + "." + k
			}
			if !present[k] {
				t.Errorf("example.toml has no %s", k)
			}
		}
	}
}
