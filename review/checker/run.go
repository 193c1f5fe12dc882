package checker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// Error says a checker could not tell what problems a text has. It is
// never turned into a Problem: the caller shows it as the checker's
// failure.
type Error struct {
	Checker string // the checker's Name
	Path    string // the file being checked
	Origin  string // where the rule is written, if known
	Base    bool   // it failed on the file as it was before the proposal
	Reason  string // e.g. "exited with status 2 and named no problem", "timed out after 30s"
	Output  string // the first lines it printed (stderr, else stdout)
	Err     error  // the underlying error, if any
}

// Error names the checker, the file, what happened, what it printed and
// where the rule is written.
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "checker %q failed on %s", e.Checker, e.Path)
	if e.Base {
		b.WriteString(" (as it was before the proposal)")
	}
	fmt.Fprintf(&b, ": %s", e.Reason)
	if e.Output != "" {
		fmt.Fprintf(&b, ": %s", strings.ReplaceAll(e.Output, "\n", " | "))
	}
	if e.Origin != "" {
		fmt.Fprintf(&b, "; check the [[checker]] at %s", e.Origin)
	}
	return b.String()
}

// Unwrap returns the underlying error, e.g. context.Canceled.
func (e *Error) Unwrap() error { return e.Err }

// Limits of a run.
const (
	outputLimit = 4 << 20 // bytes kept of each of stdout and stderr; more fails the run
	errorLines  = 5       // lines of output quoted in an Error
	errorBytes  = 2 << 10 // bytes of output quoted in an Error
	waitDelay   = 2 * time.Second
)

// version is one text of a file to run a checker on.
type version struct {
	path   string // the file's real absolute path
	text   string
	absent bool   // the file does not exist in this version
	base   bool   // this is the file before the proposal (for errors)
	others []File // the proposal's other files, overlaid with {overlay}
	// othersBase says whether others are taken as they were (Base) rather
	// than as proposed.
	othersBase bool
}

// Run runs c once on text, the content of the file at path (absolute),
// and returns every problem it finds, in line order. The real file is not
// read or written (see Checker.Command). It fails with *Error; when ctx
// ends the error wraps ctx.Err().
func (c Checker) Run(ctx context.Context, path, text string) ([]Problem, error) {
	return c.run(ctx, version{path: path, text: text})
}

func (c Checker) run(ctx context.Context, v version) ([]Problem, error) {
	fail := func(reason, output string, err error) ([]Problem, error) {
		return nil, &Error{Checker: c.Name, Path: v.path, Origin: c.Origin, Base: v.base,
			Reason: reason, Output: firstLines(output), Err: err}
	}
	if len(c.Command) == 0 || c.Command[0] == "" {
		return fail("no command is configured", "", nil)
	}
	overlay := c.uses(placeholderOverlay)
	if v.absent && !overlay {
		return nil, nil // only the file itself is checked, and it is not there
	}
	if err := ctx.Err(); err != nil {
		return fail("stopped: "+err.Error(), "", err)
	}
	in, err := c.prepare(v, overlay)
	defer in.remove()
	if err != nil {
		return fail("could not prepare its input: "+err.Error(), "", err)
	}

	ctx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	cmd := exec.CommandContext(ctx, in.args[0], in.args[1:]...)
	cmd.Dir = in.dir
	if in.stdin {
		cmd.Stdin = strings.NewReader(v.text)
	}
	stdout, stderr := &cappedBuffer{limit: outputLimit}, &cappedBuffer{limit: outputLimit}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = waitDelay
	err = cmd.Run()

	output := stderr.buf.String()
	if strings.TrimSpace(output) == "" {
		output = stdout.buf.String()
	}
	var exitErr *exec.ExitError
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fail(fmt.Sprintf("timed out after %v", c.timeout()), output, ctx.Err())
	case ctx.Err() != nil:
		return fail("stopped: "+ctx.Err().Error(), output, ctx.Err())
	case errors.As(err, &exitErr) && exitErr.ExitCode() < 0:
		return fail("crashed: "+exitErr.String(), output, err)
	case err != nil && exitErr == nil:
		return fail("could not run: "+err.Error(), output, err)
	case stdout.over || stderr.over:
		return fail(fmt.Sprintf("printed more than %d bytes", outputLimit), "", nil)
	}
	problems, perr := c.parse(stdout.buf.Bytes(), stderr.buf.Bytes(), in.names)
	switch {
	case perr != nil:
		return fail(perr.Error(), output, perr)
	case len(problems) == 0 && exitErr != nil:
		return fail(fmt.Sprintf("exited with status %d and named no problem in the file", exitErr.ExitCode()), output, err)
	}
	clampLines(problems, v.text)
	return problems, nil
}

// input is a run's command line, where it runs and the temporary files it
// reads.
type input struct {
	args  []string
	dir   string
	stdin bool   // the text goes on stdin
	tmp   string // the temporary directory; "" if none
	names names
}

// remove deletes the run's temporary files.
func (in input) remove() {
	if in.tmp != "" {
		os.RemoveAll(in.tmp)
	}
}

// prepare writes the shadow copies and overlay v needs and substitutes
// the placeholders of c's command.
func (c Checker) prepare(v version, overlay bool) (input, error) {
	in := input{dir: filepath.Dir(v.path), stdin: !overlay && !c.uses(placeholderFile)}
	in.names = names{dir: in.dir, self: v.path, shadows: map[string]string{}, stdin: in.stdin}
	file, overlayFile := "", ""
	if !in.stdin {
		tmp, err := os.MkdirTemp("", tempPrefix)
		if err != nil {
			return in, err
		}
		in.tmp = tmp
		if file, err = shadow(in.names.shadowPath(tmp, v.path), v.text); err != nil {
			return in, err
		}
		if overlay {
			if overlayFile, err = writeOverlay(tmp, v, file, &in.names); err != nil {
				return in, err
			}
		}
	}
	in.args = make([]string, len(c.Command))
	for i, a := range c.Command {
		a = strings.ReplaceAll(a, placeholderFile, file)
		a = strings.ReplaceAll(a, placeholderOverlay, overlayFile)
		in.args[i] = strings.ReplaceAll(a, placeholderPath, v.path)
	}
	return in, nil
}

// shadow writes text to p, making its directory, and returns p.
func shadow(p, text string) (string, error) {
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return "", err
	}
	return p, os.WriteFile(p, []byte(text), 0o600)
}

// writeOverlay writes a Go overlay file replacing v.path with file (or
// removing it when absent) and each of v.others with a shadow copy of
// its text in this version (recorded in n), and returns its path.
func writeOverlay(tmp string, v version, file string, n *names) (string, error) {
	replace := map[string]string{v.path: file}
	if v.absent {
		replace[v.path] = ""
	}
	for _, o := range v.others {
		text, absent := o.Proposed, o.Deleted
		if v.othersBase {
			text, absent = o.Base, o.Created
		}
		if absent {
			replace[o.Path] = ""
			continue
		}
		p, err := shadow(n.shadowPath(tmp, o.Path), text)
		if err != nil {
			return "", err
		}
		replace[o.Path] = p
	}
	data, err := json.Marshal(struct{ Replace map[string]string }{replace})
	if err != nil {
		return "", err
	}
	p := filepath.Join(tmp, "overlay.json")
	return p, os.WriteFile(p, data, 0o600)
}

// parse reads problems from a run's output in c's format.
func (c Checker) parse(stdout, stderr []byte, n names) ([]Problem, error) {
	var found []finding
	var err error
	switch c.Format {
	case "", FormatLines:
		found = append(parseLines(string(stdout)), parseLines(string(stderr))...)
	case FormatSARIF:
		found, err = parseSARIF(stdout)
	case FormatESLintJSON:
		found, err = parseESLint(stdout)
	default:
		err = fmt.Errorf("unknown format %q", c.Format)
	}
	if err != nil {
		return nil, err
	}
	var problems []Problem
	for _, f := range found {
		path, ok := n.resolve(f.path)
		if !ok {
			continue
		}
		sev := f.severity
		if sev == "" {
			sev = c.severity()
		}
		problems = append(problems, Problem{Line: f.line, Col: f.col, Severity: sev,
			Message: f.message, Source: c.Name, Code: f.code, Path: path})
	}
	sort.SliceStable(problems, func(i, j int) bool {
		a, b := problems[i], problems[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return problems, nil
}

// clampLines moves problems in the checked file that a tool placed past
// its last line (an error at the end of the file) onto its last line.
func clampLines(problems []Problem, text string) {
	last := max(strings.Count(text, "\n"), 1)
	if text != "" && !strings.HasSuffix(text, "\n") {
		last = strings.Count(text, "\n") + 1
	}
	for i := range problems {
		if problems[i].Path == "" && problems[i].Line > last {
			problems[i].Line = last
		}
	}
}

// cappedBuffer keeps the first limit bytes written to it and notes whether
// more came. It never fails a write, so the process is not killed by EPIPE.
// It does not embed bytes.Buffer: io.Copy would use the promoted ReadFrom
// and write past the limit.
type cappedBuffer struct {
	buf   bytes.Buffer
	limit int
	over  bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	room := b.limit - b.buf.Len()
	if len(p) > room {
		b.over = true
		b.buf.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.buf.Write(p)
}

// firstLines returns the first errorLines non-empty lines of s, trimmed,
// at most errorBytes long.
func firstLines(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
			if len(out) == errorLines {
				break
			}
		}
	}
	joined := strings.Join(out, "\n")
	if len(joined) > errorBytes {
		joined = strings.ToValidUTF8(joined[:errorBytes], "") + "…"
	}
	return joined
}
