package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The test binary is deskdiff itself when git runs it as its external diff.
func TestMain(m *testing.M) {
	if os.Getenv("DESKDIFF_TEST_MAIN") == "1" {
		main()
	}
	os.Exit(m.Run())
}

// gitRepo is a repository in a temporary directory with git's user and
// system configuration out of the way.
type gitRepo struct {
	t   *testing.T
	dir string
	env []string
}

func newGitRepo(t *testing.T) *gitRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	r := &gitRepo{t: t, dir: t.TempDir()}
	r.env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	r.git("init", "-q", "-b", "main")
	return r
}

// git runs git in the repository and returns its output; a failure fails
// the test unless allowed.
func (r *gitRepo) run(allowFail bool, env []string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = r.dir, append(r.env, env...)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil && !allowFail {
		r.t.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return out.String()
}

func (r *gitRepo) git(args ...string) string { return r.run(false, nil, args...) }

func (r *gitRepo) write(name, content string, mode os.FileMode) {
	r.t.Helper()
	p := filepath.Join(r.dir, name)
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		r.t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		r.t.Fatal(err)
	}
}

// external is git's diff with deskdiff (this test binary) as its external
// diff, beside git's own histogram diff, for the same arguments.
func (r *gitRepo) external(args ...string) (deskdiff, git string) {
	r.t.Helper()
	self, err := os.Executable()
	if err != nil {
		r.t.Fatal(err)
	}
	deskdiff = r.run(false, []string{"GIT_EXTERNAL_DIFF=" + self, "DESKDIFF_TEST_MAIN=1"}, append([]string{"diff", "--ext-diff", "--no-color"}, args...)...)
	git = r.git(append([]string{"diff", "--no-ext-diff", "--no-color", "--histogram"}, args...)...)
	return deskdiff, git
}

// As git's external diff, deskdiff prints what git's own diff prints, byte
// for byte: headers for modes, new, deleted, renamed and binary files,
// quoted names, CRLF lines and a missing newline at the end.
func TestGitExternalDiffPrintsWhatGitPrints(t *testing.T) {
	r := newGitRepo(t)
	r.write("mode.sh", "echo a\necho b\n", 0o644)
	r.write("gone.txt", "x\ny\n", 0o644)
	r.write("crlf.txt", "one\r\ntwo\r\nthree\r\n", 0o644)
	r.write("tail.txt", "a\nb", 0o644)
	r.write("only-mode", "same\n", 0o644)
	r.write("data.bin", "\x00\x01", 0o644)
	r.write("move.go", "package m\n\nfunc A() {}\n\nfunc B() {}\n\nfunc C() {}\n", 0o644)
	r.git("add", ".")
	r.git("commit", "-qm", "base")

	r.write("mode.sh", "echo a\necho c\n", 0o755)
	os.Remove(filepath.Join(r.dir, "gone.txt"))
	r.write("crlf.txt", "one\r\nTWO\r\nthree\r\n", 0o644)
	r.write("tail.txt", "a\nb\nc", 0o644)
	r.write("only-mode", "same\n", 0o755)
	r.write("data.bin", "\x00\x02", 0o644)
	r.write("new file é.txt", "hello\n", 0o644)
	r.write("empty", "", 0o644)
	r.git("add", "-N", "new file é.txt", "empty")
	got, want := r.external()
	if got != want || !strings.Contains(want, `"b/new file \303\251.txt"`+"\t") || !strings.Contains(want, "Binary files") {
		t.Errorf("work tree: deskdiff as git's external diff printed\n%s\ngit printed\n%s", got, want)
	}

	r.git("add", "-A")
	r.git("mv", "move.go", "moved.go")
	r.write("moved.go", "package m\n\nfunc A() {}\n\nfunc B() { b() }\n\nfunc C() {}\n", 0o644)
	r.git("add", "-A")
	got, want = r.external("--cached", "-M")
	if got != want || !strings.Contains(want, "rename from move.go") {
		t.Errorf("index with renames: deskdiff printed\n%s\ngit printed\n%s", got, want)
	}
}

// An unmerged path is named, as git names it.
func TestGitExternalDiffUnmergedPath(t *testing.T) {
	r := newGitRepo(t)
	r.write("f", "a\n", 0o644)
	r.git("add", "f")
	r.git("commit", "-qm", "1")
	r.git("checkout", "-qb", "side")
	r.write("f", "b\n", 0o644)
	r.git("commit", "-qam", "2")
	r.git("checkout", "-q", "main")
	r.write("f", "c\n", 0o644)
	r.git("commit", "-qam", "3")
	r.run(true, nil, "merge", "-q", "side") // conflicts
	got, want := r.external("--cached")
	if got != want || want != "* Unmerged path f\n" {
		t.Errorf("deskdiff printed %q; git printed %q", got, want)
	}
}

func TestTwoFiles(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("keep\nfoo(a, b)\nkeep\n"), 0o644)
	os.WriteFile(b, []byte("keep\nfoo(a, c)\nkeep\n"), 0o644)
	var out, stderr bytes.Buffer
	if code := run([]string{"-U", "1", a, b}, &out, &stderr); code != 0 {
		t.Fatalf("deskdiff -U 1: exit %d: %s", code, stderr.String())
	}
	name := strings.TrimPrefix(dir, "/")
	want := "--- a/" + name + "/a.txt\n+++ b/" + name + "/b.txt\n@@ -1,3 +1,3 @@\n keep\n-foo(a, b)\n+foo(a, c)\n keep\n"
	if out.String() != want {
		t.Errorf("deskdiff -U 1 = %q; want %q", out.String(), want)
	}

}

func TestUsageAndReadErrors(t *testing.T) {
	dir := t.TempDir()
	text, binary := filepath.Join(dir, "text"), filepath.Join(dir, "binary")
	os.WriteFile(text, []byte("a\n"), 0o644)
	os.WriteFile(binary, []byte("a\x00b"), 0o644)
	tests := []struct {
		name    string
		args    []string
		code    int
		message string
	}{
		{"help", []string{"--help"}, 0, "GIT_EXTERNAL_DIFF=deskdiff"},
		{"missing file", []string{text, filepath.Join(dir, "missing")}, 1, "cannot read " + filepath.Join(dir, "missing") + ": no such file or directory"},
		{"binary file", []string{binary, text}, 1, binary + ": file is not editable text"},
		{"three files", []string{text, text, text}, 2, "want two files, OLD and NEW, or git's external-diff arguments; got 3"},
		{"unknown flag", []string{"--nope", text, text}, 2, "flag provided but not defined: -nope"},
		{"git's file gone", []string{"p", filepath.Join(dir, "missing"), ".", ".", text, ".", "100644"}, 1, "cannot read " + filepath.Join(dir, "missing")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, stderr bytes.Buffer
			code := run(tt.args, &out, &stderr)
			if code != tt.code || !strings.Contains(stderr.String(), tt.message) || (code != 0 && out.Len() > 0) {
				t.Errorf("deskdiff %q = exit %d, stderr %q, stdout %q; want exit %d, stderr containing %q", tt.args, code, stderr.String(), out.String(), tt.code, tt.message)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	var out, errOut strings.Builder
	if code := run([]string{"--version"}, &out, &errOut); code != 0 || !strings.HasPrefix(out.String(), "deskdiff ") || !strings.Contains(out.String(), "go1.") {
		t.Errorf("deskdiff --version = exit %d, %q, %q", code, out.String(), errOut.String())
	}
}

// One file from a person is a usage error, not git's unmerged path.
func TestOneFileIsAMistake(t *testing.T) {
	t.Setenv("GIT_DIFF_PATH_COUNTER", "")
	var out, errOut strings.Builder
	if code := run([]string{"notes.txt"}, &out, &errOut); code != 2 || out.Len() != 0 || !strings.Contains(errOut.String(), "want two files") {
		t.Errorf("deskdiff notes.txt = exit %d, %q, %q; want exit 2 and a usage error", code, out.String(), errOut.String())
	}
}
