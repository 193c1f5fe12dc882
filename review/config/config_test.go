package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/internal/testfs"
)

const fullUserConfig = `# DiffDesk user config
protected = ["secrets/", "*.sqlite"]
unprotect = ["go.sum"]

[[formatter]]
glob = "*.go"
command = ["gofmt"]
timeout = "5s"

[[formatter]]
glob = "web/**/*.ts"
command = ["prettier", "--stdin-filepath", "{path}"]

[[auto_approve]]
agent = "claude*"
path = "docs/**"
kind = ["write", "search-replace"]
max_lines = 50
new_file = false

[limits]
max_file_bytes = 2048

[desk]
settle = "300ms"

[doors]
native = true
claude = false
`

func TestLoadConfigUserFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "config.toml")
	testfs.Write(t, dir, map[string]string{"config.toml": fullUserConfig})
	c, err := Load(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Formatters) != 2 {
		t.Fatalf("Load: %d formatters; want 2", len(c.Formatters))
	}
	f := c.Formatters[0]
	if f.Glob != "*.go" || !slices.Equal(f.Command, []string{"gofmt"}) || f.Timeout != 5*time.Second || f.Root != "" || f.Origin != file+" line 5" {
		t.Errorf("formatter 1 = %+v", f)
	}
	if got := c.Formatters[1].Timeout; got != 0 {
		t.Errorf("formatter 2 timeout = %v; want 0 (the default applies when run)", got)
	}
	if len(c.AutoApproveRules) != 1 {
		t.Fatalf("Load: %d auto_approve rules; want 1", len(c.AutoApproveRules))
	}
	a := c.AutoApproveRules[0]
	if a.Agent != "claude*" || a.Path != "docs/**" || !slices.Equal(a.Kinds, []engine.Format{engine.FormatWrite, engine.FormatSearchReplace}) ||
		a.MaxLines == nil || *a.MaxLines != 50 || a.NewFile == nil || *a.NewFile || a.Origin != file+" line 14" {
		t.Errorf("auto_approve 1 = %+v", a)
	}
	if c.Limits.MaxFileBytes != 2048 || c.Settle != 300*time.Millisecond {
		t.Errorf("limits %+v settle %v; want 2048 bytes and 300ms", c.Limits, c.Settle)
	}
	if c.Doors != (Doors{Native: true, Claude: false, Gemini: true}) {
		t.Errorf("doors = %+v; want native and gemini on, claude off", c.Doors)
	}
	var patterns []string
	for _, p := range c.Protected {
		patterns = append(patterns, p.Pattern)
	}
	if slices.Contains(patterns, "go.sum") || !slices.Contains(patterns, "secrets/") || !slices.Contains(patterns, ".env*") {
		t.Errorf("protected = %q; want built-ins less go.sum, plus secrets/", patterns)
	}
	if !slices.Equal(c.Files, []string{file}) {
		t.Errorf("Files = %q; want [%q]", c.Files, file)
	}
}

// TestExampleConfig keeps the documented example of every key valid.
func TestExampleConfig(t *testing.T) {
	c, err := Load(filepath.Join("testdata", "config", "example.toml"), nil)
	if err != nil {
		t.Fatalf("Load(example.toml): %v", err)
	}
	if len(c.Formatters) != 2 || len(c.AutoApproveRules) != 1 || len(c.Checkers) != 2 || c.Settle != 300*time.Millisecond || c.Limits.MaxFileBytes != DefaultMaxFileBytes {
		t.Errorf("Load(example.toml) = %+v; want 2 formatters, 1 rule, 2 checkers, 300ms settle, 10 MiB", c)
	}
}

func TestLoadConfigMissingFilesAreDefaults(t *testing.T) {
	root := t.TempDir()
	c, err := Load(filepath.Join(root, "nope.toml"), []string{root})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Formatters) != 0 || len(c.AutoApproveRules) != 0 || len(c.Files) != 0 ||
		c.Limits.MaxFileBytes != DefaultMaxFileBytes || c.Doors != (Doors{true, true, true}) || len(c.Protected) != len(DefaultProtected) {
		t.Errorf("Load with no files = %+v; want the defaults", c)
	}
}

func TestLoadConfigWorkspaceMerge(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	testfs.Write(t, dir, map[string]string{
		"user.toml": "[[formatter]]\nglob = \"*.go\"\ncommand = [\"gofmt\"]\n[limits]\nmax_file_bytes = 1000\n[desk]\nsettle = \"1s\"\n",
		"a/" + FileName: "protected = [\"fixtures/\"]\n[[formatter]]\nglob = \"*.go\"\ncommand = [\"goimports\"]\n" +
			"[[auto_approve]]\npath = \"docs/**\"\n[limits]\nmax_file_bytes = 50\n",
		"b/keep": "",
	})
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	c, err := LoadTrusting(filepath.Join(dir, "user.toml"), []string{a, b}, trustAll)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []struct {
		file, root string
		want       string
	}{
		{filepath.Join(a, "x.go"), a, "goimports"},
		{filepath.Join(b, "x.go"), b, "gofmt"},
	} {
		r, ok := c.FormatterFor(x.file, x.root)
		if !ok || r.Command[0] != x.want || r.Dir != x.root {
			t.Errorf("FormatterFor(%q) = %+v, %v; want %s run in %s", x.file, r, ok, x.want, x.root)
		}
	}
	if got := c.LimitsFor(a).MaxFileBytes; got != 50 {
		t.Errorf("LimitsFor(a) = %d; want the workspace's 50", got)
	}
	if got := c.LimitsFor(b).MaxFileBytes; got != 1000 {
		t.Errorf("LimitsFor(b) = %d; want the user's 1000", got)
	}
	if got := c.SettleFor(a); got != time.Second {
		t.Errorf("SettleFor(a) = %v; want the user's 1s", got)
	}
	last := c.Protected[len(c.Protected)-1]
	if last.Pattern != "fixtures/" || last.Origin != filepath.Join(a, FileName)+" line 1" {
		t.Errorf("last protected = %+v; want a's fixtures/ at line 1", last)
	}
	if rule, ok := c.AutoApprove(AutoRequest{Root: a, Rel: "docs/x.md"}); !ok {
		t.Error("a's auto_approve rule does not apply under a")
	} else if want := "auto_approve rule at " + filepath.Join(a, FileName) + " line 5"; rule != want {
		t.Errorf("AutoApprove rule = %q; want %q", rule, want)
	}
	if _, ok := c.AutoApprove(AutoRequest{Root: b, Rel: "docs/x.md"}); ok {
		t.Error("a's auto_approve rule applies under b")
	}
	if want := []string{filepath.Join(dir, "user.toml"), filepath.Join(a, FileName)}; !slices.Equal(c.Files, want) {
		t.Errorf("Files = %q; want %q", c.Files, want)
	}
}

func TestLoadConfigErrors(t *testing.T) {
	cases := []struct {
		name string
		user bool
		data string
		want string // the message after "FILE"
	}{
		{"unknown key", true, "[[formatter]]\nglob = \"*.go\"\ncommand = [\"gofmt\"]\ntimout = \"5s\"\n",
			` line 4: key formatter.timout: unknown key; valid keys in formatter are glob, command, timeout (did you mean "timeout"?)`},
		{"unknown top-level key", true, "protect = [\"x\"]\n",
			` line 1: key protect: unknown key; valid top-level keys are formatter, auto_approve, checker, protected, unprotect, limits, desk, doors, history, review, connect (did you mean "protected"?)`},
		{"wrong type", true, "[[formatter]]\nglob = \"*.go\"\ncommand = \"gofmt\"\n",
			` line 3: key formatter.command: has the wrong type (a TOML string); it must be an array of strings, e.g. command = ["gofmt"]`},
		{"wrong type in table", true, "[limits]\nmax_file_bytes = \"10MB\"\n",
			` line 2: key limits.max_file_bytes: has the wrong type (a TOML string); it must be an integer number of bytes, e.g. max_file_bytes = 10485760`},
		{"syntax", true, "protected = [\".env\"\n",
			` line 1: invalid TOML: array is incomplete`},
		{"bad duration", true, "[[formatter]]\nglob = \"*.go\"\ncommand = [\"gofmt\"]\ntimeout = \"5 seconds\"\n",
			` line 4: key formatter.timeout: "5 seconds" is not a positive duration; write e.g. "300ms" or "5s"`},
		{"zero timeout", true, "[[formatter]]\nglob = \"*.go\"\ncommand = [\"gofmt\"]\ntimeout = \"0s\"\n",
			` line 4: key formatter.timeout: "0s" is not a positive duration; write e.g. "300ms" or "5s"`},
		{"missing glob", true, "\n[[formatter]]\ncommand = [\"gofmt\"]\n",
			` line 2: key formatter.glob: is missing; add e.g. glob = "*.go"`},
		{"missing command", true, "[[formatter]]\nglob = \"*.go\"\ncommand = [\"gofmt\"]\n[[formatter]]\nglob = \"*.py\"\ncommand = []\n",
			` line 6: key formatter.command: is missing or empty; add e.g. command = ["gofmt"] (the file's text arrives on stdin, the formatted text leaves on stdout)`},
		{"bad kind", true, "[[auto_approve]]\nkind = [\n  \"write\",\n  \"rewrite\",\n]\n",
			` line 4: key auto_approve.kind: "rewrite" is not an edit kind; use some of "write", "search-replace", "edit", "multi-edit", "smart-edit", "patch"`},
		{"negative max_lines", true, "[[auto_approve]]\nmax_lines = -1\n",
			` line 2: key auto_approve.max_lines: must be 0 or more changed lines, not -1`},
		{"bad agent glob", true, "[[auto_approve]]\nagent = \"claude[\"\n",
			` line 2: key auto_approve.agent: "claude[" is not a valid glob (use *, ? and [a-z]); e.g. agent = "claude*"`},
		{"bad path glob", true, "[[auto_approve]]\npath = \"docs/[a\"\n",
			` line 2: key auto_approve.path: "docs/[a": a "[" has no closing "]"; escape it as "\["`},
		{"negated protected", true, "protected = [\n  \"a\",\n  \"!b\",\n]\n",
			` line 3: key protected: "!b": negation is not supported here; to drop a built-in protection use unprotect in the user config`},
		{"negated formatter glob", true, "[[formatter]]\nglob = \"!*.go\"\ncommand = [\"gofmt\"]\n",
			` line 2: key formatter.glob: "!*.go": negation is not supported in config globs; write the paths to match`},
		{"empty protected", true, "protected = [\"\"]\n",
			` line 1: key protected: "" is not a pattern; write a gitignore-style glob such as "*.go" or "docs/**"`},
		{"unknown unprotect", true, "unprotect = [\"go.mod\"]\n",
			` line 1: key unprotect: "go.mod" is not a built-in protected pattern; use one of ` + strings.Join(DefaultProtected, " ")},
		{"non-positive limit", true, "[limits]\nmax_file_bytes = 0\n",
			` line 2: key limits.max_file_bytes: must be a positive number of bytes, not 0; e.g. max_file_bytes = 10485760`},
		{"workspace unprotect", false, "unprotect = [\"go.sum\"]\n",
			` line 1: key unprotect: only the user config may remove built-in protections; a workspace may only add them`},
		{"settle too long", true, "[desk]\nsettle = \"1000h\"\n",
			` line 2: key desk.settle: "1000h" is too long: the settle window must be between 0s and 1m0s (the desk holds each approval's answer that long); write e.g. "300ms"`},
		{"workspace settle too long", false, "\n[desk]\nsettle = \"61s\"\n",
			` line 3: key desk.settle: "61s" is too long: the settle window must be between 0s and 1m0s`},
		{"workspace doors", false, "\n[doors]\nclaude = false\n",
			` line 2: key doors: front doors are set in the user config only; move [doors] there`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			var file string
			var roots []string
			if c.user {
				file = filepath.Join(dir, "config.toml")
				testfs.Write(t, dir, map[string]string{"config.toml": c.data})
			} else {
				roots = []string{dir}
				testfs.Write(t, dir, map[string]string{FileName: c.data})
			}
			at := file
			if !c.user {
				at = filepath.Join(dir, FileName)
			}
			_, err = Load(file, roots)
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("Load error = %v; want a *Error", err)
			}
			if got := strings.TrimPrefix(err.Error(), at); !strings.HasPrefix(got, c.want) || !strings.HasPrefix(err.Error(), at) {
				t.Errorf("Load error =\n%s\nwant\n%s%s", err, at, c.want)
			}
		})
	}
}

func TestLoadConfigReportsEveryProblem(t *testing.T) {
	dir := t.TempDir()
	testfs.Write(t, dir, map[string]string{"c.toml": "[[formatter]]\nglob = \"*.go\"\n\n[[auto_approve]]\nkind = [\"nope\"]\n"})
	_, err := Load(filepath.Join(dir, "c.toml"), nil)
	if err == nil || !strings.Contains(err.Error(), "line 1: key formatter.command") || !strings.Contains(err.Error(), "line 5: key auto_approve.kind") {
		t.Errorf("Load error = %v; want both the formatter and the auto_approve problem", err)
	}
}

func TestLoadConfigReportsEveryFile(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	testfs.Write(t, dir, map[string]string{"user.toml": "[limits]\nmax_file_bytes = -1\n", "a/" + FileName: "[desk]\nsettle = \"soon\"\n"})
	_, err = Load(filepath.Join(dir, "user.toml"), []string{filepath.Join(dir, "a")})
	if err == nil || !strings.Contains(err.Error(), "user.toml line 2") || !strings.Contains(err.Error(), FileName+" line 2") {
		t.Errorf("Load error = %v; want the problems of both files", err)
	}
}

func TestLoadConfigMissingRoot(t *testing.T) {
	_, err := Load("", []string{filepath.Join(t.TempDir(), "nope")})
	if err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("Load with a missing root = %v; want a does-not-exist error", err)
	}
}

func TestDefaultConfigPath(t *testing.T) {
	home := t.TempDir()
	for _, c := range []struct {
		name, xdg, want string
	}{
		{"xdg", "/xdg/conf", "/xdg/conf/diffdesk/config.toml"},
		{"relative xdg ignored", "rel/conf", filepath.Join(home, ".config", "diffdesk", "config.toml")},
		{"unset", "", filepath.Join(home, ".config", "diffdesk", "config.toml")},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("HOME", home)
			t.Setenv("XDG_CONFIG_HOME", c.xdg)
			got, err := DefaultPath()
			if err != nil || got != c.want {
				t.Errorf("DefaultPath() = %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func TestTomlKeyLines(t *testing.T) {
	data := []byte("a = 1\n[[f]]\ng = \"x\"\n\n[[f]]\ng = \"y\"\nlist = [\n  \"p\",\n  \"q\",\n]\n[t]\n'quoted key' = 2\n")
	got := tomlKeyLines(data)
	for key, want := range map[string]int{"a": 1, "f.1": 2, "f.1.g": 3, "f.2": 5, "f.2.g": 6, "f.2.list": 7, "f.2.list.2": 9, "t": 11, "t.quoted key": 12} {
		if got[key] != want {
			t.Errorf("tomlKeyLines()[%q] = %d; want %d", key, got[key], want)
		}
	}
}

// FuzzParseConfig checks that no config file makes the loader panic, and
// that every rejection is a *Error naming the file.
func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(fullUserConfig))
	if example, err := os.ReadFile(filepath.Join("testdata", "config", "example.toml")); err == nil {
		f.Add(example)
	}
	f.Add([]byte("[[formatter]]\nglob = \"[\"\ncommand = []\ntimeout = \"-1s\"\n"))
	f.Add([]byte("protected = [[1], \"!x\", \"\"]\n[doors]\nnative = 1\n"))
	f.Add([]byte("formatter = [{glob = \"*.go\", command = [\"gofmt\"]}]\n"))
	f.Add([]byte("[[auto_approve]]\nmax_lines = 99999999999999999999\nkind = [\"patch\", 3]\n"))
	f.Add([]byte("x = \n[limits\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, user := range []bool{true, false} {
			_, err := parseConfig("fuzz.toml", data, user)
			if err == nil {
				continue
			}
			var ce *Error
			if !errors.As(err, &ce) || ce.File != "fuzz.toml" {
				t.Fatalf("parseConfig(%q) error = %#v; want a *Error for fuzz.toml", data, err)
			}
		}
	})
}

func TestConfigFileTooLarge(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(file, []byte(strings.Repeat("# x\n", maxConfigFileBytes/4+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	var ce *Error
	if _, err := Load(file, nil); !errors.As(err, &ce) {
		t.Errorf("Load(big file) = %v; want a *Error", err)
	}
}

func TestHistoryRetentionConfig(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "config.toml")
	os.WriteFile(user, []byte("[history]\nkeep_for = \"90d\"\nmax_size = \"2GB\"\n"), 0o644)
	c, err := Load(user, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Retention.MaxAge != 90*24*time.Hour || c.Retention.MaxBytes != 2_000_000_000 {
		t.Errorf("Retention = %+v; want 90 days and 2 GB", c.Retention)
	}
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, FileName), []byte("[history]\nkeep_for = \"1d\"\n"), 0o644)
	if _, err := Load("", []string{root}); err == nil || !strings.Contains(err.Error(), "user config only") {
		t.Errorf("[history] in a workspace file: %v; want an error saying it belongs in the user config", err)
	}
	os.WriteFile(user, []byte("[history]\nmax_size = \"lots\"\n"), 0o644)
	if _, err := Load(user, nil); err == nil || !strings.Contains(err.Error(), "history.max_size") {
		t.Errorf("bad max_size: %v; want an error naming history.max_size", err)
	}
}

// TestHoldFailedConfig: on by default, off by the user's [review]
// hold_failed = false, and refused in a workspace file.
func TestHoldFailedConfig(t *testing.T) {
	if !Default().HoldFailed {
		t.Error("Default().HoldFailed = false; want failed edits held for the person by default")
	}
	dir := t.TempDir()
	user := filepath.Join(dir, "config.toml")
	os.WriteFile(user, []byte("[review]\nhold_failed = false\n"), 0o644)
	c, err := Load(user, nil)
	if err != nil || c.HoldFailed {
		t.Errorf("Load([review] hold_failed = false) = HoldFailed %v, %v; want false", c.HoldFailed, err)
	}
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, FileName), []byte("[review]\nhold_failed = false\n"), 0o644)
	if _, err := Load("", []string{root}); err == nil || !strings.Contains(err.Error(), "review.hold_failed") || !strings.Contains(err.Error(), "user config only") {
		t.Errorf("[review] in a workspace file: %v; want an error naming review.hold_failed and the user config", err)
	}
	os.WriteFile(user, []byte("[review]\nhold_failed = \"no\"\n"), 0o644)
	if _, err := Load(user, nil); err == nil || !strings.Contains(err.Error(), "hold_failed") {
		t.Errorf("hold_failed = \"no\": %v; want an error naming hold_failed", err)
	}
}
