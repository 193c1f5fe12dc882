package engine

import (
	"io"
	"strconv"
	"strings"
)

// Unified returns the unified diff from a to b, as `git diff` and `diff -u`
// print it: "--- oldName" and "+++ newName" headers, then hunks headed
// "@@ -l,n +l,n @@" (1-based lines) with up to context unchanged lines
// around each change, and "\ No newline at end of file" after a last line
// without one. Changes closer than 2*context lines share a hunk. It
// returns "" when a == b.
func Unified(oldName, newName, a, b string, context int) string {
	la, lb := splitLines(a), splitLines(b)
	var sb strings.Builder
	WriteUnified(&sb, oldName, newName, la, lb, DiffLines(la, lb), context) // a strings.Builder never fails
	return sb.String()
}

// WriteUnified writes the unified diff described by ops, a diff of lines a
// to b, to w, in the format of Unified; it writes nothing when ops has no
// change. The lines are printed as given, so a caller may diff one form of
// the lines (say with "\n" endings) and print another (the file's own
// bytes) as long as both have the same number of lines. It returns the
// first error from w.
func WriteUnified(w io.Writer, oldName, newName string, a, b []string, ops []Op, context int) error {
	return writeUnified(w, oldName, newName, a, b, ops, context, false)
}

// WriteGitUnified is WriteUnified with each hunk header followed, as git's
// are, by the function line of the hunk: the nearest line of a above it
// that starts with a letter, "_" or "$" (git's default, without a diff
// driver), cut to 80 bytes and then of trailing space.
func WriteGitUnified(w io.Writer, oldName, newName string, a, b []string, ops []Op, context int) error {
	return writeUnified(w, oldName, newName, a, b, ops, context, true)
}

func writeUnified(w io.Writer, oldName, newName string, a, b []string, ops []Op, context int, funcNames bool) error {
	context = max(context, 0)
	uw := unifiedWriter{w: w}
	funcLine, searched := "", 0 // a[:searched] has been searched for funcLine
	for n := 0; n < len(ops); {
		if ops[n].Kind == OpEqual {
			n++
			continue
		}
		// ops[n:last+1] is one hunk: changes and the Equal runs between them.
		last := n
		for last+2 < len(ops) && ops[last+1].A1-ops[last+1].A0 <= 2*context {
			last += 2
		}
		if uw.buf == nil {
			uw.buf = make([]byte, 0, 64<<10)
			uw.str("--- " + oldName + "\n+++ " + newName + "\n")
		}
		before, after := 0, 0
		if n > 0 {
			before = min(context, ops[n-1].A1-ops[n-1].A0)
		}
		if last+1 < len(ops) {
			after = min(context, ops[last+1].A1-ops[last+1].A0)
		}
		a0, b0 := ops[n].A0-before, ops[n].B0-before
		a1, b1 := ops[last].A1+after, ops[last].B1+after
		uw.str("@@ -")
		uw.lineRange(a0, a1)
		uw.str(" +")
		uw.lineRange(b0, b1)
		uw.str(" @@")
		if funcNames {
			for i := a0 - 1; i >= searched; i-- {
				if l, ok := gitFuncLine(a[i]); ok {
					funcLine = l
					break
				}
			}
			searched = a0
			if funcLine != "" {
				uw.str(" " + funcLine)
			}
		}
		uw.str("\n")
		uw.lines(' ', a[a0:ops[n].A0])
		for k := n; k <= last; k++ {
			op := ops[k]
			if op.Kind == OpEqual {
				uw.lines(' ', a[op.A0:op.A1])
				continue
			}
			uw.lines('-', a[op.A0:op.A1])
			uw.lines('+', b[op.B0:op.B1])
		}
		uw.lines(' ', a[ops[last].A1:a1])
		if uw.err != nil {
			return uw.err
		}
		n = last + 1
	}
	uw.flush()
	return uw.err
}

// gitFuncLine is line as the function line of a hunk, if it is one by
// git's default rule (xdiff's def_ff).
func gitFuncLine(line string) (string, bool) {
	if line == "" {
		return "", false
	}
	if c := line[0]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '$') {
		return "", false
	}
	line = line[:min(len(line), 80)]
	return strings.TrimRight(line, " \t\n\r\v\f"), true
}

// unifiedWriter buffers unified diff output for w and keeps w's first error.
type unifiedWriter struct {
	w   io.Writer
	buf []byte
	err error
}

func (uw *unifiedWriter) str(s string) { uw.buf = append(uw.buf, s...) }

// UnifiedStart is the 1-based start a unified diff's hunk header gives
// lines i0:i1 (0-based): an empty range names the line before it.
func UnifiedStart(i0, i1 int) int {
	if i0 == i1 {
		return i0
	}
	return i0 + 1
}

// lineRange appends the "l,n" of a hunk header for lines i0:i1 (0-based):
// an empty range names the line before it, and ",1" is left out.
func (uw *unifiedWriter) lineRange(i0, i1 int) {
	uw.buf = strconv.AppendInt(uw.buf, int64(UnifiedStart(i0, i1)), 10)
	if i1-i0 != 1 {
		uw.buf = append(uw.buf, ',')
		uw.buf = strconv.AppendInt(uw.buf, int64(i1-i0), 10)
	}
}

// lines appends lines, each prefixed with mark.
func (uw *unifiedWriter) lines(mark byte, lines []string) {
	for _, l := range lines {
		uw.buf = append(uw.buf, mark)
		uw.buf = append(uw.buf, l...)
		if !strings.HasSuffix(l, "\n") {
			uw.buf = append(uw.buf, "\n\\ No newline at end of file\n"...)
		}
		if len(uw.buf) >= 60<<10 {
			uw.flush()
		}
	}
}

func (uw *unifiedWriter) flush() {
	if uw.err == nil && len(uw.buf) > 0 {
		_, uw.err = uw.w.Write(uw.buf)
	}
	uw.buf = uw.buf[:0]
}
