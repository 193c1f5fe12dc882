package engine

import (
	"hash/fnv"
	"strconv"
	"strings"
)

// Hunk is one change of a line diff with its context, the unit a person
// approves or rejects. Ranges are 0-based and half-open, in lines.
type Hunk struct {
	// ID names the change by its content: 12 hex digits hashing the
	// removed and added lines, followed by "-2", "-3", … for the second,
	// third, … identical change in the file. Re-diffing the same texts, or
	// texts that differ elsewhere, gives the change the same ID.
	ID     string
	A0, A1 int // lines of a shown: the removed lines plus the context
	B0, B1 int // lines of b shown: the added lines plus the context
	// Change is the change itself, an OpDelete, OpInsert or OpReplace op;
	// the lines before and after it in A0:A1 and B0:B1 are unchanged
	// context (Change.A0-A0 == Change.B0-B0 lines before it, A1-Change.A1
	// == B1-Change.B1 after it).
	Change Op
}

// Hunks returns one hunk per change in ops, a diff of lines a to b, in
// order, each with up to context unchanged lines either side. The context
// of neighbouring hunks may overlap; Unified merges such hunks as git does.
func Hunks(a, b []string, ops []Op, context int) []Hunk {
	context = max(context, 0)
	var hunks []Hunk
	seen := map[string]int{}
	for n, op := range ops {
		if op.Kind == OpEqual {
			continue
		}
		before, after := 0, 0
		if n > 0 {
			before = min(context, ops[n-1].A1-ops[n-1].A0)
		}
		if n+1 < len(ops) {
			after = min(context, ops[n+1].A1-ops[n+1].A0)
		}
		id := changeHash(a[op.A0:op.A1], b[op.B0:op.B1])
		seen[id]++
		if k := seen[id]; k > 1 {
			id += "-" + strconv.Itoa(k)
		}
		hunks = append(hunks, Hunk{
			ID: id,
			A0: op.A0 - before, A1: op.A1 + after,
			B0: op.B0 - before, B1: op.B1 + after,
			Change: op,
		})
	}
	return hunks
}

// changeHash returns 12 hex digits of an FNV-1a hash of the removed and
// added lines.
func changeHash(del, ins []string) string {
	h := fnv.New64a()
	for _, l := range del {
		h.Write([]byte(l))
	}
	h.Write([]byte{0}) // NUL: not in text, so the split point is unambiguous
	for _, l := range ins {
		h.Write([]byte(l))
	}
	s := strconv.FormatUint(h.Sum64()>>16, 16)
	return strings.Repeat("0", 12-len(s)) + s
}

// ApplyHunks returns a with only the changes of the line diff from a to b
// whose hunk IDs accept approves: accepting every hunk gives b, accepting
// none gives a. IDs are those of Hunks (they do not depend on context).
func ApplyHunks(a, b string, accept func(id string) bool) string {
	la, lb := splitLines(a), splitLines(b)
	return ApplyChanges(la, lb, Hunks(la, lb, DiffLines(la, lb), 0), accept)
}

// ApplyChanges is ApplyHunks with the diff made already: hunks are those
// of Hunks on lines a and b (any context).
func ApplyChanges(a, b []string, hunks []Hunk, accept func(id string) bool) string {
	var sb strings.Builder
	n := 0
	for _, l := range a {
		n += len(l)
	}
	sb.Grow(n)
	at := 0
	write := func(lines []string) {
		for _, l := range lines {
			sb.WriteString(l)
		}
	}
	for _, h := range hunks {
		c := h.Change
		write(a[at:c.A0])
		if accept(h.ID) {
			write(b[c.B0:c.B1])
		} else {
			write(a[c.A0:c.A1])
		}
		at = c.A1
	}
	write(a[at:])
	return sb.String()
}
