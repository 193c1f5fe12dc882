// Command deskdiff prints DiffDesk's unified diff of two text files — the
// histogram diff of deskctl diff and the window — and serves as git's
// external diff (GIT_EXTERNAL_DIFF, diff.external). It links only the
// engine's line diff, so each run starts as fast as git: that matters where
// it runs once per file. (deskctl diff --json gives hunks with word-level
// spans.)
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/diffdesk/diffdesk/cmd/internal/filediff"
	"github.com/diffdesk/diffdesk/internal/version"
)

const usage = `usage: deskdiff [-U N] OLD NEW
       GIT_EXTERNAL_DIFF=deskdiff git diff …    (or: git config diff.external deskdiff)

The unified diff of two text files, as git diff --no-index --histogram prints it after its
"diff --git" and "index" lines (deskctl diff --json gives the hunks with word-level spans).
Lines are compared and printed as the files have them, so a change of line endings shows. Given git's
external-diff arguments (PATH OLD-FILE OLD-HEX OLD-MODE NEW-FILE NEW-HEX NEW-MODE [NEW-PATH
MESSAGE], or PATH alone for an unmerged path, with git's GIT_DIFF_PATH_COUNTER set), it prints one path's diff with git's own
headers. Flags come before the files. It exits 0 whether or not the files differ, 1 if a file
cannot be read (or, given two files, is not text), 2 on a usage error.

Flags:
`

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run runs a deskdiff command line and returns its exit code.
func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("deskdiff", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() {
		fmt.Fprint(stderr, usage)
		fl.PrintDefaults()
	}
	lines := filediff.ContextFlag(fl)
	showVersion := fl.Bool("version", false, "print the version (module version, commit) and exit")
	if err := fl.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if *showVersion {
		fmt.Fprintln(stdout, version.Line("deskdiff"))
		return 0
	}
	var err error
	switch files := fl.Args(); len(files) {
	case 2:
		err = filediff.Files(stdout, files[0], files[1], *lines)
	case 1:
		// git names an unmerged path with one argument; from a person,
		// one file is a mistake (git sets GIT_DIFF_PATH_COUNTER).
		if os.Getenv("GIT_DIFF_PATH_COUNTER") == "" {
			fmt.Fprintf(stderr, "deskdiff: want two files, OLD and NEW; got one, %s\nRun 'deskdiff --help' for details.\n", files[0])
			return 2
		}
		err = filediff.Git(stdout, files, *lines)
	case 7, 9:
		err = filediff.Git(stdout, files, *lines)
	default:
		fmt.Fprintf(stderr, "deskdiff: want two files, OLD and NEW, or git's external-diff arguments; got %d arguments\nRun 'deskdiff --help' for details.\n", len(files))
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "deskdiff: %v\n", err)
		return 1
	}
	return 0
}
