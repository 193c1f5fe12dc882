package proc

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// zeros is an endless reader with no WriteTo, so io.Copy hands its output
// to the writer's ReadFrom if it has one, as it does a pipe's.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestCappedCopy(t *testing.T) {
	const limit, total = 1000, 5 << 20
	w := &capped{limit: limit}
	n, err := io.Copy(w, io.LimitReader(zeros{}, total))
	if n != total || err != nil {
		t.Errorf("io.Copy(capped, %d bytes) = %d, %v; want all taken without error", total, n, err)
	}
	if w.buf.Len() != limit || !w.over {
		t.Errorf("capped after %d bytes keeps %d, over %v; want %d, over true", total, w.buf.Len(), w.over, limit)
	}
}

func TestCappedUnder(t *testing.T) {
	w := &capped{limit: 10}
	if _, err := io.WriteString(w, "0123456789"); err != nil || w.buf.String() != "0123456789" || w.over {
		t.Errorf("capped(10) after 10 bytes = %q, over %v, %v; want all kept, not over", w.buf.String(), w.over, err)
	}
}

func TestRun(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh on PATH")
	}
	dir := t.TempDir()
	run := func(script string, stdin io.Reader) (Result, error) {
		return Run(context.Background(), Command{Args: []string{"sh", "-c", script}, Dir: dir, Stdin: stdin,
			Timeout: time.Minute, StdoutLimit: 100, StderrLimit: 10})
	}

	res, err := run("tr a-z A-Z; pwd >&2; exit 3", strings.NewReader("hi\n"))
	if err != nil || res.Stdout != "HI\n" || res.Stderr != dir[:10] || !res.StderrOver || res.StdoutOver ||
		res.Exit == nil || res.Exit.ExitCode() != 3 {
		t.Errorf("Run(tr, pwd, exit 3) = %+v, %v; want stdout HI, stderr the first 10 bytes of %s (over), exit 3, no error", res, err, dir)
	}

	res, err = run("head -c 5000000 /dev/zero; head -c 5000000 /dev/zero >&2", nil)
	if err != nil || len(res.Stdout) != 100 || len(res.Stderr) != 10 || !res.StdoutOver || !res.StderrOver || res.Exit != nil {
		t.Errorf("Run(5 MB each) kept %d and %d bytes, over %v and %v, exit %v, %v; want 100 and 10, both over, exit 0",
			len(res.Stdout), len(res.Stderr), res.StdoutOver, res.StderrOver, res.Exit, err)
	}

	res, err = run("cat", nil)
	if err != nil || res.Stdout != "" {
		t.Errorf("Run(cat, no stdin) = %+v, %v; want no output, no error", res, err)
	}
}

func TestRunFailures(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name    string
		ctx     context.Context
		cmd     Command
		want    string
		wantErr error
	}{
		{"no command", context.Background(), Command{Timeout: time.Minute}, "no command is configured", nil},
		{"not installed", context.Background(), Command{Args: []string{"no-such-tool-diffdesk"}, Timeout: time.Minute},
			`could not run: exec: "no-such-tool-diffdesk": executable file not found in $PATH`, exec.ErrNotFound},
		{"stopped", ctx, Command{Args: []string{"cat"}, Timeout: time.Minute}, "stopped: context canceled", context.Canceled},
		{"timed out", context.Background(), Command{Args: []string{"sleep", "60"}, Timeout: 50 * time.Millisecond},
			"timed out after 50ms", context.DeadlineExceeded},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Run(c.ctx, c.cmd)
			var pe *Error
			if !errors.As(err, &pe) || err.Error() != c.want {
				t.Fatalf("Run(%q) = %v; want *Error %q", c.cmd.Args, err, c.want)
			}
			if c.wantErr != nil && !errors.Is(err, c.wantErr) {
				t.Errorf("Run(%q) = %v; want it to wrap %v", c.cmd.Args, err, c.wantErr)
			}
		})
	}
}

func TestFirstLines(t *testing.T) {
	long := strings.Repeat("é", 2000) // 4000 bytes
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"\n  a  \n\n b\n", "a\nb"},
		{"1\n2\n3\n4\n5\n6\n", "1\n2\n3\n4\n5"},
		{long, strings.Repeat("é", 1024) + "…"},
		{"x" + long, "x" + strings.Repeat("é", 1023) + "…"}, // the cut half character is dropped
	} {
		if got := FirstLines(c.in); got != c.want {
			t.Errorf("FirstLines(%.20q) = %.20q (%d bytes); want %.20q (%d bytes)", c.in, got, len(got), c.want, len(c.want))
		}
	}
}
