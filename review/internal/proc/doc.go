// Package proc runs the outside tools review calls (formatters, checkers):
// a command in its own process group, its stdin from a reader, its stdout
// and stderr kept up to a limit each (a tool that prints more never grows
// memory past the limit; the run says it printed more), and the whole
// group killed with SIGKILL when the timeout passes or the context ends.
// It also quotes the start of a tool's output for an error message.
package proc
