package review

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
)

// FormatterRule runs a formatter on the files its Glob matches: the file's
// text on stdin, the formatted text on stdout.
type FormatterRule struct {
	Glob    string        // gitignore-style glob against the path relative to its root; "*.go" matches at any depth
	Command []string      // program and arguments; "{path}" in an argument becomes the file's absolute path
	Timeout time.Duration // how long it may run; 0 means DefaultFormatterTimeout
	Root    string        // the root whose .diffdesk.toml set the rule, which applies only there; "" for the user config's
	Dir     string        // the directory it runs in; FormatterFor sets it to the file's root
	Origin  string        // where the rule is written, "FILE line N"
	glob    globPattern
}

// FormatterFor returns the first formatter rule for absPath, a file under
// the workspace root root (both absolute and symlink-resolved, as in
// Target), with Dir set to root.
func (c Config) FormatterFor(absPath, root string) (*FormatterRule, bool) {
	rel, err := filepath.Rel(root, absPath)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, false
	}
	rel = filepath.ToSlash(rel)
	for _, r := range c.Formatters {
		if r.Root != "" && r.Root != root {
			continue
		}
		if r.pattern().matchWithParents(rel, false) {
			found := r
			found.Dir = root
			return &found, true
		}
	}
	return nil, false
}

// pattern returns r's compiled glob, compiling Glob for a rule built by
// hand rather than by LoadConfig.
func (r FormatterRule) pattern() globPattern {
	if len(r.glob.segs) > 0 || r.Glob == "" {
		return r.glob
	}
	g, _, _ := compileGlob(r.Glob)
	return g
}

// FormatterError says a formatter failed; the caller keeps the text it gave
// the formatter.
type FormatterError struct {
	Command string // the command line as configured
	Path    string // the file being formatted
	Origin  string // where the rule is written
	Reason  string // e.g. "exited with status 1", "timed out after 5s"
	Stderr  string // the first lines the formatter wrote to stderr
	Err     error  // the underlying error, if any
}

// Error names the formatter, the file, why it failed, its stderr and
// where the rule is written.
func (e *FormatterError) Error() string {
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
func (e *FormatterError) Unwrap() error { return e.Err }

// Formatter output limits.
const (
	formatterStderrLines = 5       // lines of stderr kept in a FormatterError
	formatterStderrBytes = 2 << 10 // bytes of stderr kept
	formatterSlackBytes  = 1 << 20 // stdout may exceed 4× the input by this much
	formatterWaitDelay   = time.Second
)

// RunFormatter runs rule's command on text, the content of path, and
// returns what it prints. It runs in rule.Dir (else path's directory) in
// its own process group, which is killed when the timeout (rule.Timeout,
// else DefaultFormatterTimeout) passes or ctx ends. A formatter that
// cannot start, exits non-zero, times out, prints nothing for non-empty
// text or prints far more than it was given fails with *FormatterError.
func RunFormatter(ctx context.Context, rule FormatterRule, path, text string) (string, error) {
	cmdline := strings.Join(rule.Command, " ")
	fail := func(reason, stderr string, err error) (string, error) {
		return "", &FormatterError{Command: cmdline, Path: path, Origin: rule.Origin, Reason: reason, Stderr: stderr, Err: err}
	}
	if len(rule.Command) == 0 || rule.Command[0] == "" {
		return fail("no command is configured", "", nil)
	}
	timeout := rule.Timeout
	if timeout <= 0 {
		timeout = DefaultFormatterTimeout
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
