package proc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Command is a command line to run and its limits.
type Command struct {
	Args        []string      // the program (looked up in PATH) and its arguments
	Dir         string        // where it runs
	Stdin       io.Reader     // what it reads; nil: nothing
	Timeout     time.Duration // after which its process group is killed
	StdoutLimit int           // bytes of stdout kept
	StderrLimit int           // bytes of stderr kept
}

// Result is what a command printed and how it ended.
type Result struct {
	Stdout, Stderr         string          // the first StdoutLimit and StderrLimit bytes it printed
	StdoutOver, StderrOver bool            // it printed more than the limit
	Exit                   *exec.ExitError // it exited non-zero or was killed by a signal; nil if it exited 0
}

// Error says a command did not run to its end by itself: it could not
// start, its timeout passed or the context ended.
type Error struct {
	Reason string // "could not run: …", "timed out after 5s", "stopped: context canceled"
	Err    error  // why it could not start, context.DeadlineExceeded or the context's error
}

// Error returns the reason.
func (e *Error) Error() string { return e.Reason }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// waitDelay is how long Run waits for the command's output once it has
// exited or been killed (a child left holding its stdout).
const waitDelay = 2 * time.Second

// Run runs c in its own process group, which is killed when c.Timeout
// passes or ctx ends, and returns what it printed (also when it fails). It
// fails with *Error when the command cannot start, times out or is
// stopped; exiting non-zero is no error: see Result.Exit.
func Run(ctx context.Context, c Command) (Result, error) {
	if len(c.Args) == 0 || c.Args[0] == "" {
		return Result{}, &Error{Reason: "no command is configured"}
	}
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Args[0], c.Args[1:]...)
	cmd.Dir = c.Dir
	cmd.Stdin = c.Stdin
	stdout, stderr := &capped{limit: c.StdoutLimit}, &capped{limit: c.StderrLimit}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = waitDelay
	err := cmd.Run()

	res := Result{Stdout: stdout.buf.String(), Stderr: stderr.buf.String(), StdoutOver: stdout.over, StderrOver: stderr.over}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return res, &Error{Reason: fmt.Sprintf("timed out after %v", c.Timeout), Err: ctx.Err()}
	case ctx.Err() != nil:
		return res, &Error{Reason: "stopped: " + ctx.Err().Error(), Err: ctx.Err()}
	case errors.As(err, &res.Exit):
		return res, nil
	case err != nil:
		return res, &Error{Reason: "could not run: " + err.Error(), Err: err}
	}
	return res, nil
}

// capped keeps the first limit bytes written to it and notes whether more
// came. It never fails a write, so the process is not killed by EPIPE. Its
// buffer is a field, not embedded: io.Copy, which feeds it the command's
// output, would use an embedded bytes.Buffer's ReadFrom and never Write.
type capped struct {
	buf   bytes.Buffer
	limit int
	over  bool
}

func (b *capped) Write(p []byte) (int, error) {
	room := b.limit - b.buf.Len()
	if len(p) > room {
		b.over = true
		b.buf.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.buf.Write(p)
}

// Quoted output limits.
const (
	quoteLines = 5       // non-empty lines
	quoteBytes = 2 << 10 // bytes
)

// FirstLines returns the first five non-empty lines of s, trimmed, at most
// 2 KiB long (cut at a character, then "…"): a tool's output as an error
// message quotes it.
func FirstLines(s string) string {
	var out []string
	for l := range strings.Lines(s) {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
			if len(out) == quoteLines {
				break
			}
		}
	}
	joined := strings.Join(out, "\n")
	if len(joined) > quoteBytes {
		joined = strings.ToValidUTF8(joined[:quoteBytes], "") + "…"
	}
	return joined
}
