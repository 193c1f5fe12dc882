package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
)

// command is an entry of deskctl's command table: a group of commands
// (deskctl itself, history) or a leaf that parses flags and runs. Its help
// is generated from these fields and the flags it defines.
type command struct {
	name  string // as typed after its parent: "restore"
	usage string // the usage line after the command's path: "ID [flags]"
	short string // one line for the parent's list of commands
	long  string // what help says about it, wrapped at 100 columns; "" = short

	// flags (a leaf's) defines the command's flags on fl and returns its
	// run, bound to their values.
	flags func(fl *flag.FlagSet) runFunc
	subs  []*command // a group's commands
	// words, if not nil, are the words a leaf's arguments may be, for
	// shell completion (deskctl completion).
	words func() []string
}

// runFunc runs a leaf command once its flags are parsed and returns its
// exit code.
type runFunc func(ctx context.Context, x *invocation) int

// invocation is one run of a command: which, as typed, with what.
type invocation struct {
	cmd            *command
	path           string   // the command as typed: "deskctl history restore"
	args           []string // a leaf's positional arguments, its flags parsed out
	stdin          io.Reader
	stdout, stderr io.Writer
}

// dispatch runs x: a group hands its arguments to the command they name
// (or prints help), a leaf parses its flags and runs.
func dispatch(ctx context.Context, x *invocation) int {
	c := x.cmd
	if c.subs == nil {
		return runLeaf(ctx, x)
	}
	if len(x.args) == 0 {
		writeHelp(x.stderr, x.path, c)
		return 2
	}
	if name := x.args[0]; name == "help" || name == "-h" || name == "--help" {
		return help(x.path, c, x.args[1:], x.stdout, x.stderr)
	}
	sub := c.sub(x.args[0])
	if sub == nil {
		fmt.Fprintf(x.stderr, "%s: unknown command %q\n\n", x.path, x.args[0])
		writeHelp(x.stderr, x.path, c)
		return 2
	}
	return dispatch(ctx, &invocation{cmd: sub, path: x.path + " " + sub.name, args: x.args[1:],
		stdin: x.stdin, stdout: x.stdout, stderr: x.stderr})
}

// runLeaf parses a leaf's flags and runs it; -h or --help prints its help
// on stdout instead, a bad flag exits 2 with the help on stderr.
func runLeaf(ctx context.Context, x *invocation) int {
	fl := flag.NewFlagSet(x.path, flag.ContinueOnError)
	fl.SetOutput(io.Discard) // errors are reported below, prefixed with the command
	run := x.cmd.flags(fl)
	err := parseFlags(fl, x.args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		writeHelp(x.stdout, x.path, x.cmd)
		return 0
	case err != nil:
		fmt.Fprintf(x.stderr, "%s: %v\n\n", x.path, err)
		writeHelp(x.stderr, x.path, x.cmd)
		return 2
	}
	x.args = fl.Args()
	return run(ctx, x)
}

// help implements `deskctl help [COMMAND…]` and `deskctl history help
// [COMMAND]`: the help of the command names lead to from group c.
func help(path string, c *command, names []string, stdout, stderr io.Writer) int {
	for _, name := range names {
		sub := c.sub(name)
		if sub == nil {
			fmt.Fprintf(stderr, "%s: unknown command %q\n\n", path, name)
			writeHelp(stderr, path, c)
			return 2
		}
		path, c = path+" "+name, sub
	}
	writeHelp(stdout, path, c)
	return 0
}

// sub returns the command of group c called name, or nil.
func (c *command) sub(name string) *command {
	for _, s := range c.subs {
		if s.name == name {
			return s
		}
	}
	return nil
}

// usageError reports a usage error of x — the message, prefixed with the
// command, then its usage line — and returns exit code 2.
func (x *invocation) usageError(format string, a ...any) int {
	fmt.Fprintf(x.stderr, "%s: %s\nusage: %s %s\nRun '%s --help' for details.\n",
		x.path, fmt.Sprintf(format, a...), x.path, x.cmd.usage, x.path)
	return 2
}

// fail reports err, prefixed with the command, and returns exit code 1.
func (x *invocation) fail(err error) int {
	fmt.Fprintf(x.stderr, "%s: %v\n", x.path, err)
	return 1
}
