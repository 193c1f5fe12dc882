package checker

import (
	"fmt"
	"path/filepath"
	"strings"
)

// inlineCodeFlags are the interpreters that take program text as an
// argument, and the options that say the next argument is that text.
var inlineCodeFlags = map[string][]string{
	"sh": {"c"}, "bash": {"c"}, "dash": {"c"}, "zsh": {"c"}, "ksh": {"c"}, "mksh": {"c"}, "ash": {"c"},
	"fish": {"c", "command"}, "csh": {"c"}, "tcsh": {"c"}, "busybox": {"c"},
	"python": {"c"}, "python3": {"c"}, "perl": {"e", "E"}, "ruby": {"e"}, "node": {"e", "p", "eval", "print"},
}

// InlinePlaceholder refuses a command that puts one of placeholders (such
// as "{file}") inside the program text of a shell's -c (or perl's -e,
// node's -e, python's -c): the file name — an agent's choice, for a new
// file — would be read as code there ("$(touch X).md" runs touch). The
// placeholders are not quoted instead: no quoting is right for every
// shell and language. The error says the fix: pass the name as an
// argument of its own, after the program text. env in front is looked
// through; "busybox sh" too.
func InlinePlaceholder(command []string, placeholders ...string) error {
	args := command
	for len(args) > 0 && (filepath.Base(args[0]) == "env" || filepath.Base(args[0]) == "busybox" && len(args) > 1) {
		args = args[1:]
		for len(args) > 0 && (strings.HasPrefix(args[0], "-") || strings.Contains(args[0], "=")) && filepath.Base(args[0]) != "busybox" {
			args = args[1:] // env's options and NAME=value
		}
	}
	if len(args) == 0 {
		return nil
	}
	prog := strings.TrimSuffix(filepath.Base(args[0]), ".exe")
	flags, ok := inlineCodeFlags[prog]
	if !ok && strings.HasPrefix(prog, "python") {
		flags, ok = inlineCodeFlags["python"]
	}
	if !ok {
		return nil
	}
	takesCode := func(opt string) bool {
		long := strings.HasPrefix(opt, "--")
		opt = strings.TrimLeft(opt, "-")
		for _, f := range flags {
			if long && opt == f || !long && len(f) == 1 && strings.Contains(opt, f) {
				return true
			}
		}
		return false
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			return nil // the program's arguments (a script file) begin: no inline code
		}
		if a == "--" || !takesCode(a) {
			continue
		}
		if i+1 >= len(args) {
			return nil
		}
		code := args[i+1]
		for _, p := range placeholders {
			if strings.Contains(code, p) {
				return fmt.Errorf("%s inside the program text of %s %s: the file's name (an agent's choice, for a new file) would run as code there; "+
					"pass it as an argument of its own after the text instead, e.g. [%q, %q, %q, %q, %q]",
					p, prog, a, prog, a, strings.ReplaceAll(code, p, `"$1"`), prog, p)
			}
		}
		return nil
	}
	return nil
}
