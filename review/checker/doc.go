// Package checker runs a project's checkers (linters, compilers, vet
// tools) on the text an agent proposes, before anything is written, and
// returns only the problems the proposal adds.
//
// A Checker is a command with "{file}", "{path}" or "{overlay}" in its
// arguments (see Checker.Command for what each becomes). The real file is
// never touched: the text being checked reaches the tool on stdin, as a
// shadow copy in a temporary directory, or through a Go overlay file that
// points the real path at such a copy, so that go vet sees the rest of
// the package from disk and the file as proposed. Temporary files are
// removed before Run or Check returns, also when the context ends.
//
// Check runs a checker on the file as it was (the base) and as proposed,
// concurrently, and keeps the proposal's problems that the base does not
// have. Problems are matched across the two texts through engine's line
// diff: a base problem on an unchanged line matches a proposal problem
// with the same message on that line's new number, and one on a changed
// line matches one with the same message in the same change. A problem
// that only moved with its line is therefore not new; two identical
// problems where the base had one leave one new.
//
// Output is read in one of three formats (Format): lines such as
// "path:line:col: message" from stdout and stderr, SARIF 2.1 or ESLint's
// JSON from stdout. Output is capped (outputLimit); a checker that cannot
// start, crashes, times out, prints too much or exits non-zero without
// naming a problem fails with an *Error naming the checker and what
// happened, never with a made-up Problem. Every command runs in its own
// process group, which is killed when the timeout passes or the context
// ends (a changed proposal cancels its check).
//
// Presets are ready checkers for common tools (gofmt, go vet, shellcheck,
// python, ruff, eslint); Preset's doc says what each needs installed.
//
// The package does not import Fyne or the desk: the desk runs checks and
// the window shows their problems. Lines and columns are 1-based; a column
// is counted as the tool counts it (bytes for Go's tools, characters for
// most others).
package checker
