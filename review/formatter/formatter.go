package formatter

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/internal/proc"
)

// Error says a formatter failed; the caller keeps the text it gave
// the formatter.
type Error struct {
	Command string // the command line as configured
	Path    string // the file being formatted
	Origin  string // where the rule is written
	Reason  string // e.g. "exited with status 1", "timed out after 5s"
	Stderr  string // the first lines the formatter wrote to stderr (at most 2 KiB)
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
	formatterStderrBytes = 2 << 10 // bytes of stderr kept
	formatterSlackBytes  = 1 << 20 // stdout may exceed 4× the input by this much
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
		return "", &Error{Command: cmdline, Path: path, Origin: rule.Origin, Reason: reason, Stderr: proc.FirstLines(stderr), Err: err}
	}
	timeout := rule.Timeout
	if timeout <= 0 {
		timeout = config.DefaultFormatterTimeout
	}
	args := make([]string, len(rule.Command))
	for i, a := range rule.Command {
		args[i] = strings.ReplaceAll(a, "{path}", path)
	}
	dir := rule.Dir
	if dir == "" {
		dir = filepath.Dir(path)
	}
	limit := 4*len(text) + formatterSlackBytes
	res, err := proc.Run(ctx, proc.Command{Args: args, Dir: dir, Stdin: strings.NewReader(text),
		Timeout: timeout, StdoutLimit: limit, StderrLimit: formatterStderrBytes})
	var perr *proc.Error
	switch {
	case errors.As(err, &perr):
		return fail(perr.Reason, res.Stderr, perr.Err)
	case res.Exit != nil:
		return fail(fmt.Sprintf("exited with status %d", res.Exit.ExitCode()), res.Stderr, res.Exit)
	case res.StdoutOver:
		return fail(fmt.Sprintf("printed more than %d bytes for %d bytes of input", limit, len(text)), res.Stderr, nil)
	case res.Stdout == "" && text != "":
		return fail("printed nothing; a formatter must read the file on stdin and print the formatted file on stdout", res.Stderr, nil)
	}
	return res.Stdout, nil
}
