package checker

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// pythonSyntax compiles the Python source on stdin and prints a syntax
// error as "path:line:col: message"; it needs only python3.
const pythonSyntax = `import sys
src = sys.stdin.buffer.read()
try:
    compile(src, sys.argv[1], "exec", dont_inherit=True)
except SyntaxError as e:
    print("%s:%d:%d: error: %s" % (sys.argv[1], e.lineno or 0, e.offset or 0, e.msg))
    sys.exit(1)
`

// presets are the ready checkers, by name; Preset says what each needs.
var presets = map[string]Checker{
	"gofmt":      {Name: "gofmt", Glob: "*.go", Command: []string{"gofmt", "-e", "-l"}},
	"go-vet":     {Name: "go vet", Glob: "*.go", Command: []string{"go", "vet", "-overlay", "{overlay}", "."}, Timeout: 2 * time.Minute},
	"shellcheck": {Name: "shellcheck", Glob: "*.sh", Command: []string{"shellcheck", "--format=gcc", "{file}"}, Severity: SeverityWarning},
	"python":     {Name: "python", Glob: "*.py", Command: []string{"python3", "-c", pythonSyntax, "{path}"}},
	"ruff":       {Name: "ruff", Glob: "*.py", Command: []string{"ruff", "check", "--no-cache", "--output-format=concise", "--stdin-filename", "{path}", "-"}, Severity: SeverityWarning},
	"eslint":     {Name: "eslint", Glob: "*.js", Command: []string{"eslint", "--format", "json", "--stdin", "--stdin-filename", "{path}"}, Format: FormatESLintJSON},
}

// Preset returns the ready checker called name; with Origin and Glob set
// it is a checker like any other. The presets, and what each needs
// installed:
//
//   - "gofmt": gofmt -e on stdin; Go's syntax errors. Needs Go.
//   - "go-vet": go vet on the file's package with the file overlaid
//     (-overlay), so it sees the rest of the package from disk. Needs Go,
//     and the file in a module.
//   - "shellcheck": shellcheck --format=gcc on a shadow copy. Needs
//     shellcheck (Debian package shellcheck).
//   - "python": Python's own compile() on stdin; syntax errors only.
//     Needs python3.
//   - "ruff": ruff check on stdin, named by the real path so the
//     project's configuration applies. Needs ruff (pip install ruff).
//   - "eslint": eslint --format json on stdin, named by the real path.
//     Needs eslint on PATH and the project's eslint configuration; its
//     glob is "*.js" (set Glob for TypeScript).
func Preset(name string) (Checker, error) {
	c, ok := presets[name]
	if !ok {
		return Checker{}, fmt.Errorf("no checker preset %q; the presets are %s", name, strings.Join(PresetNames(), ", "))
	}
	c.Command = append([]string(nil), c.Command...)
	return c, nil
}

// PresetNames returns the names of the presets, sorted.
func PresetNames() []string {
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
