package formatter

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/diffdesk/diffdesk/review/config"
)

// Error says a formatter failed; the caller keeps the text it gave
// the formatter.
type Error struct {
	Command string // the command line as configured
	Path    string // the file being formatted
	Origin  string // where the rule is written
	Reason  string // e.g. "exited with status 1", "timed out after 5s"
	Stderr  string // the first lines the formatter wrote to stderr
	Err     error  // the underlying error, if any
}

// Error names the formatter, the file, why it failed, its stderr and
// where the rule is written.
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "formatter %q failed on %s: %s", e.Command, e.Path, e.Reason)
	if e.Stderr != "" {
		fmt.Fprintf(&b, ": %s", strings.ReplaceAll(e.Stderr, "\n", " | "))
	}
	if e.Origin != "" {
		fmt.Fprintf(&b, "; check the [[formatter]] at %s", e.Origin)
	}
	return b.String()
}

// Unwrap returns the underlying error, e.g. context.DeadlineExceeded.
func (e *Error) Unwrap() error { return e.Err }

// Formatter output limits.
const (
	formatterStderrLines = 5       // lines of stderr kept in a Error
	formatterStderrBytes = 2 << 10 // bytes of stderr kept
	formatterSlackBytes  = 1 << 20 // stdout may exceed 4× the input by this much
	formatterWaitDelay   = time.Second
)

// Run runs rule's command on text, the content of path, and
// returns what it prints. It runs in rule.Dir (else path's directory) in
// its own process group, which is killed when the timeout (rule.Timeout,
// else config.DefaultFormatterTimeout) passes or ctx ends. A formatter that
// cannot start, exits non-zero, times out, prints nothing for non-empty
// text or prints far more than it was given fails with *Error.
func Run(ctx context.Context, rule config.FormatterRule, path, text string) (string, error) {
	cmdline := strings.Join(rule.Command, " ")
	fail := func(reason, stderr string, err error) (string, error) {
		return "", &Error{Command: cmdline, Path: path, Origin: rule.Origin, Reason: reason, Stderr: stderr, Err: err}
	}
	if len(rule.Command) == 0 || rule.Command[0] == "" {
		return fail("no command is configured", "", nil)
	}
	timeout := rule.Timeout
	if timeout <= 0 {
		timeout = config.DefaultFormatterTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	args := make([]string, len(rule.Command))
	for i, a := range rule.Command {
		args[i] = strings.ReplaceAll(a, "{path}", path)
	}
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = rule.Dir
	if cmd.Dir == "" {
		cmd.Dir = filepath.Dir(path)
	}
	cmd.Stdin = strings.NewReader(text)
	stdout := &cappedBuffer{limit: 4*len(text) + formatterSlackBytes}
	stderr := &cappedBuffer{limit: formatterStderrBytes}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = formatterWaitDelay

	err := cmd.Run()
	errText := firstLines(stderr.String(), formatterStderrLines)
	var exitErr *exec.ExitError
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fail(fmt.Sprintf("timed out after %v", timeout), errText, ctx.Err())
	case ctx.Err() != nil:
		return fail("stopped: "+ctx.Err().Error(), errText, ctx.Err())
	case errors.As(err, &exitErr):
		return fail(fmt.Sprintf("exited with status %d", exitErr.ExitCode()), errText, err)
	case err != nil:
		return fail("could not run: "+err.Error(), errText, err)
	case stdout.over:
		return fail(fmt.Sprintf("printed more than %d bytes for %d bytes of input", stdout.limit, len(text)), errText, nil)
	case stdout.Len() == 0 && text != "":
		return fail("printed nothing; a formatter must read the file on stdin and print the formatted file on stdout", errText, nil)
	}
	return stdout.String(), nil
}

// cappedBuffer keeps the first limit bytes written to it and notes whether
// more came. It never fails a write, so the process is not killed by EPIPE.
type cappedBuffer struct {
	bytes.Buffer
	limit int
	over  bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	room := b.limit - b.Len()
	if len(p) > room {
		b.over = true
		b.Buffer.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

// firstLines returns the first n non-empty lines of s, trimmed.
func firstLines(s string, n int) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
			if len(out) == n {
				break
			}
		}
	}
	return strings.Join(out, "\n")
}
