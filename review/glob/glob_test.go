package glob

import (
	"path"
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
			p, skip, _ := Compile(c.pattern)
			if skip {
				t.Fatalf("Compile(%q) skipped the pattern", c.pattern)
			}
			if got := p.Match(c.path, c.isDir); got != c.want {
				t.Errorf("Compile(%q).match(%q, dir=%v) = %v; want %v", c.pattern, c.path, c.isDir, got, c.want)
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
			_, skip, err := Compile(c.line)
			if skip != c.skip || (err != nil) != c.wantErr {
				t.Errorf("Compile(%q) = skip %v, err %v; want skip %v, error %v", c.line, skip, err, c.skip, c.wantErr)
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
		p, skip, _ := Compile(pattern)
		if skip {
			return
		}
		_ = p.Match(name, false)
		_ = p.MatchWithParents(name, true)
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
	p, _, _ := Compile(strings.Repeat("**/a/", 12) + "b")
	deep := strings.TrimSuffix(strings.Repeat("a/", 40), "/") + "/c"
	for b.Loop() {
		if p.Match(deep, false) {
			b.Fatal("matched")
		}
	}
}
