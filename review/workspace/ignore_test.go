package workspace

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/diffdesk/diffdesk/review/internal/testfs"
)

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
			testfs.Write(t, root, c.files)
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
	testfs.Write(t, root, map[string]string{".clineignore": "a.txt\n"})
	var ic ignoreCache
	if _, ok, _ := ic.ignored(root, "b.txt", false); ok {
		t.Fatal("b.txt ignored before the ignore file lists it")
	}
	testfs.Write(t, root, map[string]string{".clineignore": "a.txt\nb.txt\n"}) // size changes
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
	testfs.Write(t, root, files)
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
