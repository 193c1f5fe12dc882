package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/diffdesk/diffdesk/internal/version"
)

var versionCmd = &command{
	name:  "version",
	usage: "[flags]",
	short: "the version of this deskctl: the module's version and the commit it was built from",
	long: `The version of this deskctl (also deskctl --version): the module's version ("(devel)" when built
from a checkout) and the git commit it was built from, as the Go toolchain recorded them. The
running desk's is in deskctl status.`,
	flags: func(fl *flag.FlagSet) runFunc {
		asJSON := fl.Bool("json", false, "print it as JSON: version, commit, time, modified, go")
		return func(_ context.Context, x *invocation) int {
			if *asJSON {
				writeJSON(x.stdout, version.Read())
			} else {
				fmt.Fprintln(x.stdout, version.Line("deskctl"))
			}
			return 0
		}
	},
}

// buildTime is the time of the commit this deskctl was built from, or "".
func buildTime() string { return version.Read().Time }
