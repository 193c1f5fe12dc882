package review

import (
	"errors"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// globCases follow the rules and examples of the gitignore documentation.
var globCases = []struct {
	pattern string
	path    string
	isDir   bool
	want    bool
}{
	// A pattern without a slash matches a name at any depth.
	{"hello.*", "hello.txt", false, true},
	{"hello.*", "a/b/hello.c", false, true},
	{"hello.*", "hello", false, false},
	{"*.go", "cmd/x/main.go", false, true},
	{"*.go", "main.go.txt", false, false},
	// A slash at the start or in the middle anchors to the base.
	{"/hello.*", "hello.txt", false, true},
	{"/hello.*", "a/hello.txt", false, false},
	{"doc/frotz", "doc/frotz", false, true},
	{"doc/frotz", "a/doc/frotz", false, false},
	{"doc/*.txt", "doc/a.txt", false, true},
	{"doc/*.txt", "doc/sub/a.txt", false, false},
	// A trailing slash matches directories only.
	{"frotz/", "frotz", true, true},
	{"frotz/", "a/frotz", true, true},
	{"frotz/", "frotz", false, false},
	{"doc/frotz/", "doc/frotz", true, true},
	{"doc/frotz/", "a/doc/frotz", true, false},
	// "**".
	{"**/foo", "foo", false, true},
	{"**/foo", "a/b/foo", false, true},
	{"**/foo/bar", "foo/bar", false, true},
	{"**/foo/bar", "x/foo/bar", false, true},
	{"**/foo/bar", "x/foo/baz", false, false},
	{"abc/**", "abc/x", false, true},
	{"abc/**", "abc/x/y", false, true},
	{"abc/**", "abc", true, false},
	{"a/**/b", "a/b", false, true},
	{"a/**/b", "a/x/b", false, true},
	{"a/**/b", "a/x/y/b", false, true},
	{"a/**/b", "a/x/y/c", false, false},
	{"a**b", "axxb", false, true},
	{"a**b", "ax/b", false, false},
	{"**", "any/thing", false, true},
	// Wildcards never match a slash.
	{"a/*", "a/b", false, true},
	{"a/*", "a/b/c", false, false},
	{"a?c", "abc", false, true},
	{"a?c", "ac", false, false},
	{"a?c", "aéc", false, true},
	{"*", ".hidden", false, true},
	// Classes.
	{"foo[0-9]", "foo7", false, true},
	{"foo[0-9]", "foox", false, false},
	{"[!a]bc", "xbc", false, true},
	{"[!a]bc", "abc", false, false},
	{"[^a]bc", "abc", false, false},
	{"[]x]y", "]y", false, true},
	{"[a-]z", "-z", false, true},
	{"[[:digit:]]x", "5x", false, true},
	{"[[:digit:]]x", "ax", false, false},
	{"[[:upper:]]*", "Makefile", false, true},
	{"[abc", "[abc", false, false}, // unclosed: never matches, as in git
	// Escapes, comments and spaces.
	{`\#file`, "#file", false, true},
	{`\!important`, "!important", false, true},
	{`a\*b`, "a*b", false, true},
	{`a\*b`, "axb", false, false},
	{`[\]]x`, "]x", false, true},
	{"foo  ", "foo", false, true},
	{`foo\ `, "foo ", false, true},
	{`foo\ `, "foo", false, false},
	{"a//b", "a/b", false, true},
}

func TestGlobMatch(t *testing.T) {
	for _, c := range globCases {
		t.Run(c.pattern+"~"+c.path, func(t *testing.T) {
			p, skip, _ := compileGlob(c.pattern)
			if skip {
				t.Fatalf("compileGlob(%q) skipped the pattern", c.pattern)
			}
			if got := p.match(c.path, c.isDir); got != c.want {
				t.Errorf("compileGlob(%q).match(%q, dir=%v) = %v; want %v", c.pattern, c.path, c.isDir, got, c.want)
			}
		})
	}
}

func TestCompileGlobSkipsAndErrors(t *testing.T) {
	for _, c := range []struct {
		line    string
		skip    bool
		wantErr bool
	}{
		{"", true, false},
		{"   ", true, false},
		{"# a comment", true, false},
		{"/", true, false},
		{"!", true, false},
		{`\#x`, false, false},
		{"a[b", false, true},
		{"[[:nosuch:]]", false, true},
		{"ok\r", false, false},
	} {
		t.Run(c.line, func(t *testing.T) {
			_, skip, err := compileGlob(c.line)
			if skip != c.skip || (err != nil) != c.wantErr {
				t.Errorf("compileGlob(%q) = skip %v, err %v; want skip %v, error %v", c.line, skip, err, c.skip, c.wantErr)
			}
		})
	}
}

// writeFiles creates files (content by slash-separated path) under dir.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestIgnoreStacks(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		path  string
		want  string // "FILE:LINE" of the deciding pattern; "" = not ignored
	}{
		{"plain", map[string]string{".clineignore": "build/\n"}, "build/out.js", ".clineignore:1"},
		{"negation", map[string]string{".clineignore": "*.log\n!keep.log\n"}, "keep.log", ""},
		{"negation ignored", map[string]string{".clineignore": "*.log\n!keep.log\n"}, "x.log", ".clineignore:1"},
		{"no re-include inside an ignored dir", map[string]string{".diffdeskignore": "build/\n!build/keep.js\n"}, "build/keep.js", ".diffdeskignore:1"},
		{"last match wins", map[string]string{".geminiignore": "!a.txt\na.txt\n"}, "a.txt", ".geminiignore:2"},
		{"nested file overrides", map[string]string{".aiderignore": "*.tmp\n", "sub/.aiderignore": "!x.tmp\n"}, "sub/x.tmp", ""},
		{"nested file anchors to its dir", map[string]string{"sub/.clineignore": "/gen\n"}, "sub/gen/a.go", "sub/.clineignore:1"},
		{"nested anchor elsewhere", map[string]string{"sub/.clineignore": "/gen\n"}, "gen/a.go", ""},
		{"tools do not re-include each other", map[string]string{".clineignore": "secret.txt\n", ".aiderignore": "!secret.txt\n"}, "secret.txt", ".clineignore:1"},
		{"comments count as lines", map[string]string{".clineignore": "# generated\n\n*.min.js\n"}, "web/app.min.js", ".clineignore:3"},
		{"no ignore files", map[string]string{"a.go": ""}, "a.go", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, c.files)
			var ic ignoreCache
			v, ok, err := ic.ignored(root, c.path, false)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if ok {
				rel, _ := filepath.Rel(root, v.file)
				got = filepath.ToSlash(rel) + ":" + strconv.Itoa(v.line)
			}
			if got != c.want {
				t.Errorf("ignored(%q) = %q; want %q", c.path, got, c.want)
			}
		})
	}
}

func TestIgnoreCacheReloads(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{".clineignore": "a.txt\n"})
	var ic ignoreCache
	if _, ok, _ := ic.ignored(root, "b.txt", false); ok {
		t.Fatal("b.txt ignored before the ignore file lists it")
	}
	writeFiles(t, root, map[string]string{".clineignore": "a.txt\nb.txt\n"}) // size changes
	if _, ok, _ := ic.ignored(root, "b.txt", false); !ok {
		t.Error("b.txt not ignored after the ignore file was changed")
	}
	if err := os.Remove(filepath.Join(root, ".clineignore")); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := ic.ignored(root, "a.txt", false); ok {
		t.Error("a.txt still ignored after the ignore file was removed")
	}
}

// TestIgnoreAgreesWithGit compares the matcher with git check-ignore on
// real files, when git is installed.
func TestIgnoreAgreesWithGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not on PATH")
	}
	patterns := "*.log\n!keep.log\n/root-only\ndoc/*.txt\nbuild/\n!build/keep.js\n**/deep/x\nabc/**\na/**/b\nfoo[0-9]\n[!q]ux\n\\#hash\n\\!bang\ntrail\\ \nlogs/**/*.gz\n*.bak\n!/*.bak\n"
	paths := []string{
		"a.log", "keep.log", "sub/keep.log", "sub/a.log", "root-only", "sub/root-only", "doc/a.txt", "doc/s/a.txt",
		"build/x.js", "build/keep.js", "sub/build/y", "deep/x", "q/deep/x", "abc/d", "abc/e/f", "a/b", "a/x/y/b",
		"foo1", "s/foo2", "foox", "aux", "qux", "#hash", "!bang", "trail ", "trail", "logs/a/b/c.gz", "logs/c.gz",
		"x.bak", "d/x.bak", "plain.go",
	}
	root := t.TempDir()
	if out, err := exec.Command(git, "init", "-q", root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	files := map[string]string{".gitignore": patterns, ".clineignore": patterns}
	for _, p := range paths {
		files[p] = "x"
	}
	writeFiles(t, root, files)
	var ic ignoreCache
	for _, p := range paths {
		t.Run(p, func(t *testing.T) {
			cmd := exec.Command(git, "check-ignore", "-q", "--no-index", p)
			cmd.Dir = root
			err := cmd.Run()
			var exit *exec.ExitError
			if err != nil && !errors.As(err, &exit) {
				t.Fatal(err)
			}
			gitSays := err == nil
			_, weSay, err := ic.ignored(root, p, false)
			if err != nil {
				t.Fatal(err)
			}
			if weSay != gitSays {
				t.Errorf("ignored(%q) = %v; git check-ignore says %v", p, weSay, gitSays)
			}
		})
	}
}

// refMatchSegs is the obvious exponential definition of matchGlobSegs, to
// check the linear one against.
func refMatchSegs(segs, parts []string, trailing bool) bool {
	if len(segs) == 0 {
		return len(parts) == 0
	}
	if segs[0] == "**" {
		min := 0
		if len(segs) == 1 && trailing {
			min = 1
		}
		for i := min; i <= len(parts); i++ {
			if refMatchSegs(segs[1:], parts[i:], trailing) {
				return true
			}
		}
		return false
	}
	return len(parts) > 0 && matchGlobSegment(segs[0], parts[0]) && refMatchSegs(segs[1:], parts[1:], trailing)
}

// FuzzGlob checks that no pattern or path makes the matcher panic, that
// segment matching agrees with its exponential definition, and that
// single-segment matching agrees with path.Match where their syntaxes
// overlap.
func FuzzGlob(f *testing.F) {
	for _, c := range globCases {
		f.Add(c.pattern, c.path)
	}
	f.Add("**/a/**/b/**", "x/a/y/b/z")
	f.Add("[[:alpha:]-z]?*", "q-x")
	f.Fuzz(func(t *testing.T, pattern, name string) {
		p, skip, _ := compileGlob(pattern)
		if skip {
			return
		}
		_ = p.match(name, false)
		_ = p.matchWithParents(name, true)
		parts := strings.Split(name, "/")
		if len(p.segs) <= 8 && len(parts) <= 8 {
			if got, want := matchGlobSegs(p.segs, parts), refMatchSegs(p.segs, parts, true); got != want {
				t.Fatalf("matchGlobSegs(%q, %q) = %v; the definition says %v", p.segs, parts, got, want)
			}
		}
		if strings.ContainsAny(pattern, "/!^:]") || strings.Contains(name, "/") || !utf8.ValidString(pattern) || !utf8.ValidString(name) {
			return
		}
		want, err := path.Match(pattern, name)
		if err == nil && matchGlobSegment(pattern, name) != want {
			t.Fatalf("matchGlobSegment(%q, %q) = %v; path.Match says %v", pattern, name, !want, want)
		}
	})
}

// BenchmarkGlobManyDoubleStars matches a pattern with many "**" against a
// deep path it does not match: the worst case for backtracking.
func BenchmarkGlobManyDoubleStars(b *testing.B) {
	p, _, _ := compileGlob(strings.Repeat("**/a/", 12) + "b")
	deep := strings.TrimSuffix(strings.Repeat("a/", 40), "/") + "/c"
	for b.Loop() {
		if p.match(deep, false) {
			b.Fatal("matched")
		}
	}
}
