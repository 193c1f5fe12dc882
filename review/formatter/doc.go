// Package formatter runs a configured formatter over approved text: the
// text on stdin, the formatted text on stdout, with a timeout, a capped
// stderr and the whole process group killed when it overruns.
package formatter
