package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/ui"
)

// TestMain lets the test binary stand in for diffdesk as git's difftool:
// with $DIFFDESK_TEST_SHOWN set it runs main's comparison path, writing
// what the window would show there instead of opening it.
func TestMain(m *testing.M) {
	if out := os.Getenv("DIFFDESK_TEST_SHOWN"); out != "" {
		old, new, path, ok := compareArgs(os.Args[1:])
		if !ok {
			fmt.Fprintf(os.Stderr, "not a comparison: %q\n", os.Args[1:])
			os.Exit(2)
		}
		os.Exit(compare(old, new, labelOf(path, os.Getenv), os.Stdout, os.Stderr, func(a, b ui.CompareSide, note string) int {
			f, err := os.OpenFile(out, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				return 1
			}
			defer f.Close()
			json.NewEncoder(f).Encode(map[string]string{"old": a.Name, "new": b.Name, "note": note, "text": b.Text})
			return 0
		}))
	}
	os.Exit(m.Run())
}

// TestGitDifftoolShowsTheRealPath: git difftool hands diffdesk temporary
// copies (/tmp/git-blob-Xy12/f.go), and the window's title named them.
// With the README's configuration (--path "$MERGED") or git difftool -x
// ($BASE in the environment) it names the file as git does, a/ and b/,
// and says which file of how many; a $BASE of the person's own outside
// git difftool is not taken for a name.
func TestGitDifftoolShowsTheRealPath(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	gitRun := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "core.hooksPath=/dev/null"}, args...)...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	gitRun("init", "-q")
	write(t, repo, "sub/a.go", "package a\n")
	write(t, repo, "b.txt", "one\n")
	gitRun("add", ".")
	gitRun("commit", "-qm", "first")
	write(t, repo, "sub/a.go", "package a\n\nfunc F() {}\n")
	write(t, repo, "b.txt", "two\n")
	gitRun("commit", "-qam", "second")
	for _, tc := range []struct {
		name string
		tool []string
	}{
		{"the README's difftool.cmd", []string{"-c", "difftool.dd.cmd=" + self + ` --path "$MERGED" "$LOCAL" "$REMOTE"`, "difftool", "-y", "-t", "dd"}},
		{"git difftool -x", []string{"difftool", "-y", "-x", self}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "shown")
			cmd := exec.Command("git", append(tc.tool, "HEAD~1", "HEAD")...)
			cmd.Dir = repo
			cmd.Env = append(os.Environ(), "DIFFDESK_TEST_SHOWN="+out, "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git difftool: %v\n%s", err, b)
			}
			b, _ := os.ReadFile(out)
			var got []map[string]string
			for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				var m map[string]string
				json.Unmarshal([]byte(l), &m)
				got = append(got, m)
			}
			want := []map[string]string{
				{"old": "a/b.txt", "new": "b/b.txt", "note": "git difftool: file 1 of 2.", "text": "two\n"},
				{"old": "a/sub/a.go", "new": "b/sub/a.go", "note": "git difftool: file 2 of 2.", "text": "package a\n\nfunc F() {}\n"},
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("shown:\n%v\nwant:\n%v", got, want)
			}
		})
	}
	t.Run("a $BASE of the person's own", func(t *testing.T) {
		t.Setenv("BASE", "not/a/file.go")
		l := labelOf("", os.Getenv)
		if l.path != "" {
			t.Errorf("label %+v outside git difftool; want no path", l)
		}
	})
	t.Run("a name with a control character", func(t *testing.T) {
		a, b := ui.CompareSide{Name: "/tmp/x"}, ui.CompareSide{Name: "/tmp/y"}
		gitLabel{path: "evil\x1b[2Jname.go"}.name(&a, &b)
		if strings.ContainsRune(b.Name, 0x1b) || !strings.Contains(b.Name, "b/evil") {
			t.Errorf("name %q; want the escape shown escaped", b.Name)
		}
	})
}
