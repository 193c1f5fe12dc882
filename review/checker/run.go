package checker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/diffdesk/diffdesk/review/internal/proc"
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

// outputLimit is the bytes kept of each of stdout and stderr; more fails
// the run.
const outputLimit = 4 << 20

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
			Reason: reason, Output: proc.FirstLines(output), Err: err}
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

	var stdin io.Reader
	if in.stdin {
		stdin = strings.NewReader(v.text)
	}
	res, err := proc.Run(ctx, proc.Command{Args: in.args, Dir: in.dir, Stdin: stdin,
		Timeout: c.timeout(), StdoutLimit: outputLimit, StderrLimit: outputLimit})
	output := res.Stderr
	if strings.TrimSpace(output) == "" {
		output = res.Stdout
	}
	var perr *proc.Error
	switch {
	case errors.As(err, &perr):
		return fail(perr.Reason, output, perr.Err)
	case res.Exit != nil && res.Exit.ExitCode() < 0:
		return fail("crashed: "+res.Exit.String(), output, res.Exit)
	case res.StdoutOver || res.StderrOver:
		return fail(fmt.Sprintf("printed more than %d bytes", outputLimit), "", nil)
	}
	problems, err := c.parse(res.Stdout, res.Stderr, in.names)
	switch {
	case err != nil:
		return fail(err.Error(), output, err)
	case len(problems) == 0 && res.Exit != nil:
		return fail(fmt.Sprintf("exited with status %d and named no problem in the file", res.Exit.ExitCode()), output, res.Exit)
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
func (c Checker) parse(stdout, stderr string, n names) ([]Problem, error) {
	var found []finding
	var err error
	switch c.Format {
	case "", FormatLines:
		found = append(parseLines(stdout), parseLines(stderr)...)
	case FormatSARIF:
		found, err = parseSARIF([]byte(stdout))
	case FormatESLintJSON:
		found, err = parseESLint([]byte(stdout))
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
