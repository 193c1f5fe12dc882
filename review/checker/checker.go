package checker

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/diffdesk/diffdesk/review/glob"
)

// Checker is one project checker: a command run on a file's text whose
// output names problems.
type Checker struct {
	Name string // shown as each Problem's Source and in errors, e.g. "go vet"
	// Glob is the gitignore-style glob of the files it checks, against the
	// path relative to the workspace root; "*.go" matches at any depth.
	Glob string
	// Command is the program and its arguments. In an argument, "{file}"
	// becomes a shadow copy of the text being checked, in a temporary
	// directory under the file's own name; "{overlay}" becomes a Go
	// overlay file (go help build, -overlay) that replaces the file's real
	// path with such a copy; "{path}" becomes the file's real absolute
	// path, for tools that take the name of text they read from stdin
	// (--stdin-filename) and must not read it. Without {file} or
	// {overlay}, the text is on stdin. The command runs in the file's
	// directory.
	Command  []string
	Timeout  time.Duration // how long one run may take; 0 means DefaultTimeout
	Format   Format        // how to read its output; "" means FormatLines
	Severity Severity      // of a problem whose output says none; "" means SeverityError
	Origin   string        // where the rule is written, "FILE line N", for errors
}

// DefaultTimeout is how long a run of a checker without Timeout may take.
const DefaultTimeout = 30 * time.Second

// Format says how a checker's output names problems.
type Format string

// The output formats.
const (
	// FormatLines reads lines "path:line:col: message" or "path:line:
	// message" (also "path(line,col): message") on stdout and stderr, as
	// gofmt -e, go vet, gcc, shellcheck -f gcc, ruff's concise format,
	// mypy and yamllint -f parsable print them. A leading "error:",
	// "warning:", "note:" or "[error]" gives the severity; a trailing
	// "[code]" (or ESLint's unix "[Error/rule]") the code.
	FormatLines Format = "lines"
	// FormatSARIF reads one SARIF 2.1 log on stdout (ruff, semgrep,
	// clang's -fdiagnostics-format=sarif, many linters' --format sarif).
	FormatSARIF Format = "sarif"
	// FormatESLintJSON reads ESLint's --format json on stdout (ESLint 9
	// dropped its line formats).
	FormatESLintJSON Format = "eslint-json"
)

// Severity is how bad a problem is.
type Severity string

// The severities, as VS Code and SARIF name them.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
	SeverityInfo    Severity = "info" // notes, style and hints
)

// Problem is one problem a checker found.
type Problem struct {
	// Line is the 1-based line in the checked text (never past its last
	// line); 0 when the tool names no line.
	Line     int      `json:"line"`
	Col      int      `json:"col,omitempty"` // 1-based, as the tool counts; 0 when it names none
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	Source   string   `json:"source"`         // the checker's Name
	Code     string   `json:"code,omitempty"` // the tool's rule, e.g. "SC2086", "F401"; "" if none
	// Path is "" for a problem in the checked file, else the absolute path
	// of the other file it is in: go vet reports the callers a changed
	// signature breaks in the package's other files.
	Path string `json:"path,omitempty"`
}

// String returns the problem as "line:col: severity: message [code]",
// prefixed with its path when it is in another file.
func (p Problem) String() string {
	var b strings.Builder
	if p.Path != "" {
		b.WriteString(p.Path + ":")
	}
	fmt.Fprintf(&b, "%d:", p.Line)
	if p.Col > 0 {
		fmt.Fprintf(&b, "%d:", p.Col)
	}
	fmt.Fprintf(&b, " %s: %s", p.Severity, p.Message)
	if p.Code != "" {
		fmt.Fprintf(&b, " [%s]", p.Code)
	}
	return b.String()
}

// Validate reports what is wrong with c as configured: no name or
// command, an unknown format or severity, a glob that does not compile,
// a negative timeout, or {file} with {overlay}.
func (c Checker) Validate() error {
	var errs []error
	if c.Name == "" {
		errs = append(errs, errors.New("no name"))
	}
	if len(c.Command) == 0 || c.Command[0] == "" {
		errs = append(errs, errors.New("no command"))
	}
	if c.uses(placeholderFile) && c.uses(placeholderOverlay) {
		errs = append(errs, errors.New("the command uses both {file} and {overlay}; use one"))
	}
	if err := InlinePlaceholder(c.Command, placeholderFile, placeholderOverlay, placeholderPath); err != nil {
		errs = append(errs, err)
	}
	switch c.Format {
	case "", FormatLines, FormatSARIF, FormatESLintJSON:
	default:
		errs = append(errs, fmt.Errorf("unknown format %q; use %q, %q or %q", c.Format, FormatLines, FormatSARIF, FormatESLintJSON))
	}
	switch c.Severity {
	case "", SeverityError, SeverityWarning, SeverityInfo:
	default:
		errs = append(errs, fmt.Errorf("unknown severity %q; use %q, %q or %q", c.Severity, SeverityError, SeverityWarning, SeverityInfo))
	}
	if c.Timeout < 0 {
		errs = append(errs, fmt.Errorf("negative timeout %v", c.Timeout))
	}
	if c.Glob == "" {
		errs = append(errs, errors.New("no glob"))
	} else if _, _, err := glob.Compile(c.Glob); err != nil {
		errs = append(errs, fmt.Errorf("glob: %w", err))
	}
	if len(errs) == 0 {
		return nil
	}
	where := c.Origin
	if where == "" {
		where = fmt.Sprintf("%q", c.Name)
	}
	return fmt.Errorf("checker at %s: %w", where, errors.Join(errs...))
}

// Match reports whether c checks the file at rel, a slash-separated path
// relative to its workspace root. A glob that does not compile matches
// nothing (Validate reports it).
func (c Checker) Match(rel string) bool {
	g, skip, err := glob.Compile(c.Glob)
	return err == nil && !skip && g.MatchWithParents(rel, false)
}

// The placeholders of Command.
const (
	placeholderFile    = "{file}"
	placeholderOverlay = "{overlay}"
	placeholderPath    = "{path}"
)

// uses reports whether an argument of c's command holds placeholder.
func (c Checker) uses(placeholder string) bool {
	for _, a := range c.Command {
		if strings.Contains(a, placeholder) {
			return true
		}
	}
	return false
}

func (c Checker) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}

func (c Checker) severity() Severity {
	if c.Severity != "" {
		return c.Severity
	}
	return SeverityError
}
