package main

import (
	"context"
	"flag"

	"github.com/diffdesk/diffdesk/cmd/internal/filediff"
)

var diffCmd = &command{
	name:  "diff",
	usage: "[flags] OLD NEW",
	short: "unified diff of two files; --json gives hunks with word-level spans",
	long: `The unified diff of two text files, as git prints it after its "diff --git" and "index" lines,
or with --json their hunks with word-level spans. Lines are compared and printed as the files
have them, so a change of line endings shows, as in git. It exits 0 whether or not the files
differ, 1 if a file cannot be read or is not text. deskdiff prints the same diff, and serves as
git's external diff; it starts faster, as it links nothing but the diff.`,
	flags: func(fl *flag.FlagSet) runFunc {
		o := filediff.Flags(fl)
		return func(_ context.Context, x *invocation) int { return runDiff(x, *o) }
	},
}

// runDiff implements `deskctl diff OLD NEW` (filediff.Files).
func runDiff(x *invocation, o filediff.Options) int {
	if len(x.args) != 2 {
		return x.usageError("want two files, OLD and NEW")
	}
	if err := filediff.Files(x.stdout, x.args[0], x.args[1], o); err != nil {
		return x.fail(err)
	}
	return 0
}
