package checker

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within runs f and fails the test if it has not returned within a
// generous bound, instead of hanging.
func within[T any](t *testing.T, f func() (T, error)) (T, error) {
	t.Helper()
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	// Ends when f returns; the buffered channel never blocks it.
	go func() {
		v, err := f()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-time.After(2 * time.Minute):
		t.Fatal("the checker did not return")
		var zero T
		return zero, nil
	}
}

func needSh(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh on PATH")
	}
}

// workDir returns a symlink-free temporary directory holding x.txt.
func workDir(t *testing.T) (dir, file string) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	file = filepath.Join(dir, "x.txt")
	if err := os.WriteFile(file, []byte("on disk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, file
}

// grepBad is a fake checker: every line holding BAD is a problem, printed
// as "NAME:LINE: found BAD" for the text in $1 (else stdin) named $2.
const grepBad = `grep -n BAD ${1:--} | sed "s#^\([0-9]*\):.*#${2:--}:\1: found BAD#"; true`

func TestRunInputs(t *testing.T) {
	needSh(t)
	dir, file := workDir(t)
	other := filepath.Join(dir, "other.txt")
	if err := os.WriteFile(other, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	text := "ok\nBAD\nok\nBAD too\n"
	want := []Problem{
		{Line: 2, Severity: SeverityWarning, Message: "found BAD", Source: "fake"},
		{Line: 4, Severity: SeverityWarning, Message: "found BAD", Source: "fake"},
	}
	for _, c := range []struct {
		name    string
		command []string
		want    []Problem
	}{
		{"text on stdin, named -", []string{"sh", "-c", grepBad}, want},
		{"text on stdin, named by {path}", []string{"sh", "-c", grepBad, "sh", "", "{path}"}, want},
		{"shadow copy under the file's name", []string{"sh", "-c", `test "$(basename "$1")" = x.txt && ` + grepBad, "sh", "{file}", "{file}"}, want},
		{"shadow copy named relative to the file's directory", []string{"sh", "-c", grepBad, "sh", "{file}", "x.txt"}, want},
		{"another file on disk", []string{"sh", "-c", `echo "$1:3:2: error: broken [E1]"`, "sh", other},
			[]Problem{{Path: other, Line: 3, Col: 2, Severity: SeverityError, Message: "broken", Source: "fake", Code: "E1"}}},
		{"a path that is no file is not a location", []string{"sh", "-c", `echo "12:30:45: started"; echo "nofile.txt:1: gone"`}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			ck := Checker{Name: "fake", Glob: "*.txt", Command: c.command, Severity: SeverityWarning}
			got, err := within(t, func() ([]Problem, error) { return ck.Run(context.Background(), file, text) })
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Errorf("Run(%q) = %v, %v; want %v", c.command, got, err, c.want)
			}
		})
	}
	if b, _ := os.ReadFile(file); string(b) != "on disk\n" {
		t.Errorf("the real file now holds %q; a checker must never touch it", b)
	}
}

// TestCheckOverlay checks the overlay a {overlay} command gets: the file
// and the proposal's other files replaced by shadow copies of the version
// being checked, a created file absent from the base, a deleted one from
// the proposal.
func TestCheckOverlay(t *testing.T) {
	needSh(t)
	dir, file := workDir(t)
	created, deleted, changed := filepath.Join(dir, "new.txt"), filepath.Join(dir, "old.txt"), filepath.Join(dir, "b.txt")
	// The fake tool prints, for each entry of the overlay, the entry's
	// real path and the content of its shadow copy ("" when removed).
	script := `grep -o '"[^"]*":"[^"]*"' "$1" | tr -d '"' | while IFS=: read -r real shadow; do
		printf '%s:1: %s\n' "$real" "$(if [ -n "$shadow" ]; then cat "$shadow"; else echo removed; fi)"; done`
	ck := Checker{Name: "fake", Glob: "*.txt", Command: []string{"sh", "-c", script, "sh", "{overlay}"}}
	for _, p := range []string{deleted, changed} {
		if err := os.WriteFile(p, []byte("disk\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	base, err := ck.run(context.Background(), version{path: file, text: "base", base: true, othersBase: true,
		others: []File{{Path: created, Proposed: "made", Created: true}, {Path: deleted, Base: "was", Deleted: true}, {Path: changed, Base: "b0", Proposed: "b1"}}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range base {
		got[p.Path] = p.Message
	}
	want := map[string]string{"": "base", deleted: "was", changed: "b0"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the base run's overlay gave %v; want %v (the created file absent: its real path is not on disk)", got, want)
	}

	f := File{Path: file, Base: "base", Proposed: "proposed"}
	added, err := within(t, func() ([]Problem, error) {
		return ck.Check(context.Background(), f, File{Path: changed, Base: "b0", Proposed: "b1"}, File{Path: deleted, Base: "was", Deleted: true})
	})
	wantAdded := []Problem{
		{Line: 1, Severity: SeverityError, Message: "proposed", Source: "fake"},
		{Line: 1, Severity: SeverityError, Message: "b1", Source: "fake", Path: changed},
		{Line: 1, Severity: SeverityError, Message: "removed", Source: "fake", Path: deleted},
	}
	if err != nil || !reflect.DeepEqual(added, wantAdded) {
		t.Errorf("Check(overlay) = %v, %v; want %v", added, err, wantAdded)
	}
}

func TestRunFailures(t *testing.T) {
	needSh(t)
	_, file := workDir(t)
	for _, c := range []struct {
		name    string
		ck      Checker
		want    string // the whole message
		wantErr error  // errors.Is target, if any
	}{
		{"not installed",
			Checker{Name: "lint", Command: []string{"no-such-checker-diffdesk", "{file}"}, Origin: "/cfg line 3"},
			`checker "lint" failed on ` + file + `: could not run: exec: "no-such-checker-diffdesk": executable file not found in $PATH; check the [[checker]] at /cfg line 3`,
			exec.ErrNotFound},
		{"exit status without a problem",
			Checker{Name: "lint", Command: []string{"sh", "-c", "echo 'lint: no configuration file found' >&2; echo 'see --help' >&2; exit 2"}},
			`checker "lint" failed on ` + file + `: exited with status 2 and named no problem in the file: lint: no configuration file found | see --help`, nil},
		{"exit status naming only a missing file",
			Checker{Name: "lint", Command: []string{"sh", "-c", "echo 'gone.txt:1: error: x'; exit 1"}},
			`checker "lint" failed on ` + file + `: exited with status 1 and named no problem in the file: gone.txt:1: error: x`, nil},
		{"crash, even after naming a problem",
			Checker{Name: "lint", Command: []string{"sh", "-c", "echo '-:1: error: x'; kill -SEGV $$"}},
			`checker "lint" failed on ` + file + `: crashed: signal: segmentation fault: -:1: error: x`, nil},
		{"too much output",
			Checker{Name: "lint", Command: []string{"sh", "-c", "head -c 5000000 /dev/zero | tr '\\0' x"}},
			`checker "lint" failed on ` + file + `: printed more than 4194304 bytes`, nil},
		{"not SARIF",
			Checker{Name: "lint", Format: FormatSARIF, Command: []string{"sh", "-c", "echo 'Usage: lint [flags]'"}},
			`checker "lint" failed on ` + file + `: printed no SARIF log on stdout: invalid character 'U' looking for beginning of value: Usage: lint [flags]`, nil},
		{"no command",
			Checker{Name: "lint"},
			`checker "lint" failed on ` + file + `: no command is configured`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := within(t, func() ([]Problem, error) { return c.ck.Run(context.Background(), file, "text\n") })
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("Run(%q) = %v, %v; want a *Error", c.ck.Command, got, err)
			}
			if err.Error() != c.want {
				t.Errorf("Run error =\n%s\nwant\n%s", err, c.want)
			}
			if c.wantErr != nil && !errors.Is(err, c.wantErr) {
				t.Errorf("Run error = %v; want it to wrap %v", err, c.wantErr)
			}
		})
	}
}

// TestCheckBaseFailure: the base run's failure is reported as such, not
// hidden behind the proposal run it stopped.
func TestCheckBaseFailure(t *testing.T) {
	needSh(t)
	_, file := workDir(t)
	ck := Checker{Name: "lint", Command: []string{"sh", "-c", "grep -q PROPOSED || { echo cannot read the old text >&2; exit 9; }"}}
	_, err := within(t, func() ([]Problem, error) {
		return ck.Check(context.Background(), File{Path: file, Base: "old\n", Proposed: "PROPOSED\n"})
	})
	want := `checker "lint" failed on ` + file + ` (as it was before the proposal): exited with status 9 and named no problem in the file: cannot read the old text`
	if err == nil || err.Error() != want {
		t.Errorf("Check error =\n%v\nwant\n%s", err, want)
	}
}

// TestRunTimeout uses a checker that blocks opening a FIFO nobody writes
// to.
func TestRunTimeout(t *testing.T) {
	dir, file := workDir(t)
	fifo := filepath.Join(dir, "never")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ck := Checker{Name: "slow", Command: []string{"cat", fifo}, Timeout: 100 * time.Millisecond}
	_, err := within(t, func() ([]Problem, error) { return ck.Run(context.Background(), file, "x\n") })
	want := `checker "slow" failed on ` + file + `: timed out after 100ms`
	if err == nil || err.Error() != want || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Run(blocking) = %v; want %q wrapping context.DeadlineExceeded", err, want)
	}
}

// TestCheckCanceledKillsAndCleansUp cancels a check whose checker's child
// blocks opening a FIFO nobody writes to. The whole process group must
// die (afterwards the FIFO has no reader) and the shadow copy must be
// gone when Check returns.
func TestCheckCanceledKillsAndCleansUp(t *testing.T) {
	needSh(t)
	dir, file := workDir(t)
	never, ready := filepath.Join(dir, "never"), filepath.Join(dir, "ready")
	for _, f := range []string{never, ready} {
		if err := syscall.Mkfifo(f, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	shadowPath := make(chan string, 1)
	// Cancels once the checker says its child is running, and hands on the
	// shadow copy's path. Ends when ready has been read: written by the
	// checker, or released below if the checker never wrote it.
	go func() {
		defer cancel()
		b, _ := os.ReadFile(ready)
		shadowPath <- strings.TrimSpace(string(b))
	}()
	ck := Checker{Name: "stuck", Timeout: time.Hour,
		Command: []string{"sh", "-c", `cat "$2" & echo "$1" > "$3"; wait`, "sh", "{file}", never, ready}}
	// Created: the base has nothing to check, so only the proposal runs.
	_, err := within(t, func() ([]Problem, error) {
		return ck.Check(ctx, File{Path: file, Proposed: "x\n", Created: true})
	})
	if f, err := os.OpenFile(ready, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		f.Close() // release the reader goroutine if the checker never wrote
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Check(canceled) = %v; want context.Canceled", err)
	}
	if w, err := os.OpenFile(never, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		w.Close()
		t.Error("the checker's child still has the FIFO open: the process group was not killed")
	} else if !errors.Is(err, syscall.ENXIO) {
		t.Errorf("opening the FIFO: %v; want ENXIO (no reader)", err)
	}
	p := <-shadowPath
	if !strings.HasSuffix(p, "/x.txt") {
		t.Fatalf("the checker got %q as {file}; want a shadow copy named x.txt", p)
	}
	if _, err := os.Stat(filepath.Dir(filepath.Dir(p))); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the check's temporary directory %s is still there (%v)", filepath.Dir(filepath.Dir(p)), err)
	}
}

func TestValidate(t *testing.T) {
	for _, name := range PresetNames() {
		c, err := Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Validate(); err != nil {
			t.Errorf("preset %q: %v", name, err)
		}
	}
	bad := Checker{Origin: "/cfg line 7", Glob: "a/[", Command: []string{"x", "{file}", "{overlay}"}, Format: "xml", Severity: "fatal", Timeout: -1}
	want := `checker at /cfg line 7: no name` +
		"\nthe command uses both {file} and {overlay}; use one" +
		"\nunknown format \"xml\"; use \"lines\", \"sarif\" or \"eslint-json\"" +
		"\nunknown severity \"fatal\"; use \"error\", \"warning\" or \"info\"" +
		"\nnegative timeout -1ns" +
		"\nglob: "
	if err := bad.Validate(); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Validate() =\n%v\nwant it to start\n%s", err, want)
	}
	if err := (Checker{Name: "x", Command: []string{"x"}}).Validate(); err == nil || err.Error() != `checker at "x": no glob` {
		t.Errorf(`Validate(no glob) = %v; want checker at "x": no glob`, err)
	}
}

func TestPresetUnknown(t *testing.T) {
	_, err := Preset("golint")
	want := `no checker preset "golint"; the presets are eslint, go-vet, gofmt, python, ruff, shellcheck`
	if err == nil || err.Error() != want {
		t.Errorf("Preset(golint) = %v; want %s", err, want)
	}
}

func TestMatch(t *testing.T) {
	c, _ := Preset("go-vet")
	for rel, want := range map[string]bool{"x.go": true, "a/b/x.go": true, "x.py": false} {
		if got := c.Match(rel); got != want {
			t.Errorf("Match(%q) = %v; want %v", rel, got, want)
		}
	}
}

func TestOverlayJSONIsGoShape(t *testing.T) {
	_, file := workDir(t)
	ck := Checker{Name: "x", Command: []string{"true", "{overlay}"}}
	in, err := ck.prepare(version{path: file, text: "t"}, true)
	defer in.remove()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(in.args[1])
	if err != nil {
		t.Fatal(err)
	}
	var ov struct{ Replace map[string]string }
	if err := json.Unmarshal(b, &ov); err != nil || len(ov.Replace) != 1 || filepath.Base(ov.Replace[file]) != "x.txt" {
		t.Errorf("overlay = %s (%v); want {\"Replace\":{%q: <shadow>/x.txt}}", b, err, file)
	}
}
