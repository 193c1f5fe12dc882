// Package formatter runs a configured formatter over approved text: the
// text on stdin, the formatted text on stdout, with a timeout, capped
// output (stderr is cut to its first 2 KiB; stdout past 4× the input plus
// 1 MiB fails the run) and the whole process group killed when it
// overruns. review/internal/proc runs the command.
package formatter
