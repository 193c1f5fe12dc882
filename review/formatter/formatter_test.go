package formatter

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review/config"
)

// runFormatterWithin runs Run and fails the test if it has not
// returned within a generous bound, instead of hanging.
func runFormatterWithin(t *testing.T, rule config.FormatterRule, path, text string) (string, error) {
	t.Helper()
	type result struct {
		out string
		err error
	}
	done := make(chan result, 1)
	// Ends when Run returns; the buffered channel never blocks it.
	go func() {
		out, err := Run(context.Background(), rule, path, text)
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		return r.out, r.err
	case <-time.After(30 * time.Second):
		t.Fatalf("Run(%q) did not return", rule.Command)
		return "", nil
	}
}

// shellDir skips the test when there is no sh and returns a temporary
// directory with symlinks resolved, as pwd prints it.
func shellDir(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh on PATH")
	}
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestRunFormatter(t *testing.T) {
	dir := shellDir(t)
	file := filepath.Join(dir, "src", "x.txt")
	for _, c := range []struct {
		name    string
		command []string
		text    string
		want    string
	}{
		{"stdin to stdout", []string{"sh", "-c", "tr a-z A-Z"}, "hello\n", "HELLO\n"},
		{"path substituted", []string{"sh", "-c", `cat; printf '%s\n' "$1"`, "sh", "--file={path}"}, "x\n", "x\n--file=" + file + "\n"},
		{"runs in the root", []string{"pwd"}, "ignored\n", dir + "\n"},
		{"empty text may stay empty", []string{"cat"}, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := runFormatterWithin(t, config.FormatterRule{Command: c.command, Dir: dir}, file, c.text)
			if err != nil || got != c.want {
				t.Errorf("Run(%q) = %q, %v; want %q", c.command, got, err, c.want)
			}
		})
	}
}

func TestRunFormatterFailures(t *testing.T) {
	dir := shellDir(t)
	file := filepath.Join(dir, "x.go")
	for _, c := range []struct {
		name    string
		rule    config.FormatterRule
		want    string // the whole message
		wantErr error  // errors.Is target, if any
	}{
		{"exit 1 with stderr",
			config.FormatterRule{Command: []string{"sh", "-c", "cat >/dev/null; echo 'x.go:3:1: expected declaration' >&2; echo second >&2; exit 1"}, Origin: "/cfg line 4"},
			`formatter "sh -c cat >/dev/null; echo 'x.go:3:1: expected declaration' >&2; echo second >&2; exit 1" failed on ` + file +
				`: exited with status 1: x.go:3:1: expected declaration | second; check the [[formatter]] at /cfg line 4`, nil},
		{"not installed",
			config.FormatterRule{Command: []string{"no-such-formatter-diffdesk"}},
			`formatter "no-such-formatter-diffdesk" failed on ` + file + `: could not run: exec: "no-such-formatter-diffdesk": executable file not found in $PATH`, exec.ErrNotFound},
		{"prints nothing",
			config.FormatterRule{Command: []string{"sh", "-c", "cat >/dev/null"}},
			`formatter "sh -c cat >/dev/null" failed on ` + file + `: printed nothing; a formatter must read the file on stdin and print the formatted file on stdout`, nil},
		{"no command",
			config.FormatterRule{},
			`formatter "" failed on ` + file + `: no command is configured`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := runFormatterWithin(t, c.rule, file, "package x\n")
			var fe *Error
			if !errors.As(err, &fe) {
				t.Fatalf("Run(%q) = %q, %v; want a *Error", c.rule.Command, out, err)
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

// TestRunFormatterTimeout uses a formatter that blocks opening a FIFO
// nobody writes to.
func TestRunFormatterTimeout(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "never")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	rule := config.FormatterRule{Command: []string{"cat", fifo}, Timeout: 100 * time.Millisecond, Dir: dir}
	_, err := runFormatterWithin(t, rule, filepath.Join(dir, "x.txt"), "text\n")
	var fe *Error
	if !errors.As(err, &fe) || fe.Reason != "timed out after 100ms" || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Run(blocking) = %v; want a timeout *Error", err)
	}
	want := `formatter "cat ` + fifo + `" failed on ` + filepath.Join(dir, "x.txt") + `: timed out after 100ms`
	if err.Error() != want {
		t.Errorf("Run(blocking) error =\n%s\nwant\n%s", err, want)
	}
}

// TestRunFormatterKillsProcessGroup stops a formatter whose child blocks
// opening a FIFO nobody writes to, while holding the formatter's stdout.
// The whole process group must die: afterwards the FIFO has no reader.
func TestRunFormatterKillsProcessGroup(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh on PATH")
	}
	dir := t.TempDir()
	never, ready := filepath.Join(dir, "never"), filepath.Join(dir, "ready")
	for _, f := range []string{never, ready} {
		if err := syscall.Mkfifo(f, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Cancel once the formatter says its child is running. This goroutine
	// ends when ready has been read: written by the formatter, or released
	// below if the formatter never wrote it.
	go func() {
		defer cancel()
		_, _ = os.ReadFile(ready)
	}()
	rule := config.FormatterRule{Command: []string{"sh", "-c", `cat "$1" & echo started > "$2"; wait`, "sh", never, ready}, Timeout: time.Minute, Dir: dir}
	_, err := Run(ctx, rule, filepath.Join(dir, "x.txt"), "text\n")
	if f, err := os.OpenFile(ready, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		f.Close() // release the reader goroutine if the formatter never wrote
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run(canceled) = %v; want context.Canceled", err)
	}
	w, err := os.OpenFile(never, os.O_WRONLY|syscall.O_NONBLOCK, 0)
	if err == nil {
		w.Close()
		t.Fatal("the formatter's child still has the FIFO open: the process group was not killed")
	}
	if !errors.Is(err, syscall.ENXIO) {
		t.Fatalf("opening the FIFO: %v; want ENXIO (no reader)", err)
	}
}

func TestRunFormatterCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, config.FormatterRule{Command: []string{"cat"}}, filepath.Join(t.TempDir(), "x"), "x")
	var fe *Error
	if !errors.As(err, &fe) || !errors.Is(err, context.Canceled) {
		t.Errorf("Run(canceled) = %v; want a *Error wrapping context.Canceled", err)
	}
}

func TestRunFormatterGofmt(t *testing.T) {
	if _, err := exec.LookPath("gofmt"); err != nil {
		t.Skip("gofmt not on PATH")
	}
	dir := t.TempDir()
	rule := config.FormatterRule{Command: []string{"gofmt"}, Dir: dir}
	got, err := runFormatterWithin(t, rule, filepath.Join(dir, "x.go"), "package x\nfunc  f( ) {return}\n")
	if want := "package x\n\nfunc f() { return }\n"; err != nil || got != want {
		t.Errorf("Run(gofmt) = %q, %v; want %q", got, err, want)
	}
	_, err = runFormatterWithin(t, rule, filepath.Join(dir, "x.go"), "package x\nfunc {\n")
	var fe *Error
	if !errors.As(err, &fe) || !strings.Contains(fe.Stderr, "2:6") {
		t.Errorf("Run(gofmt, bad syntax) = %v; want a *Error quoting gofmt's position", err)
	}
}

// TestRunFormatterFloods runs formatters that print far more than their
// caps (5 MB against a 10-byte input): too much stdout fails with a *Error,
// too much stderr is cut to the first lines and bytes, and what is kept
// stays within the caps.
func TestRunFormatterFloods(t *testing.T) {
	dir := shellDir(t)
	file := filepath.Join(dir, "x.go")
	const flood = "head -c 5000000 /dev/zero | tr '\\0' x"
	const text = "package x\n"

	t.Run("stdout", func(t *testing.T) {
		rule := config.FormatterRule{Command: []string{"sh", "-c", "cat >/dev/null; " + flood}}
		out, err := runFormatterWithin(t, rule, file, text)
		want := `formatter ` + strconv.Quote("sh -c cat >/dev/null; "+flood) + ` failed on ` + file + `: printed more than 1048616 bytes for 10 bytes of input`
		if err == nil || err.Error() != want || out != "" {
			t.Errorf("Run(5 MB on stdout) = %d bytes, %v; want the error\n%s", len(out), err, want)
		}
	})
	t.Run("stderr", func(t *testing.T) {
		rule := config.FormatterRule{Command: []string{"sh", "-c", "cat >/dev/null; " + flood + " >&2; exit 1"}}
		out, err := runFormatterWithin(t, rule, file, text)
		var fe *Error
		if !errors.As(err, &fe) || fe.Reason != "exited with status 1" {
			t.Fatalf("Run(5 MB on stderr, exit 1) = %q, %v; want a *Error for the exit status", out, err)
		}
		if len(fe.Stderr) > formatterStderrBytes+len("…") || !strings.HasPrefix(fe.Stderr, "xxxx") {
			t.Errorf("Run(5 MB on stderr) quotes %d bytes of stderr (%.20q…); want at most %d, the first", len(fe.Stderr), fe.Stderr, formatterStderrBytes)
		}
	})
	t.Run("stderr on success", func(t *testing.T) {
		rule := config.FormatterRule{Command: []string{"sh", "-c", "cat; " + flood + " >&2"}}
		out, err := runFormatterWithin(t, rule, file, text)
		if err != nil || out != text {
			t.Errorf("Run(5 MB on stderr, exit 0) = %q, %v; want %q: stderr alone is no failure", out, err, text)
		}
	})
}
