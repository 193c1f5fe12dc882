package engine

import (
	"cmp"
	"slices"
	"strings"
)

// MergeLabels names the sides in conflict markers. An empty field takes
// the name the desk uses: "disk" for Ours, "base" for Base, "proposal" for
// Theirs.
type MergeLabels struct {
	Ours, Base, Theirs string
}

// Conflict is a region that both sides changed differently. Ranges are
// 0-based and half-open, in lines.
type Conflict struct {
	Line0, Line1     int // lines of MergeResult.Text, markers included
	Base0, Base1     int // lines of base
	Ours0, Ours1     int // lines of ours
	Theirs0, Theirs1 int // lines of theirs
}

// MergeResult is the outcome of Merge3.
type MergeResult struct {
	Text      string     // the merged text, with conflict markers where Conflicts says
	Conflicts []Conflict // in order; none means the merge is clean
}

// Merge3 merges the changes from base to ours and from base to theirs, line
// by line (in the desk, ours is the file on disk and theirs the proposal).
// Changes to different lines are both applied; the same change made on
// both sides is applied once. Changes that overlap or touch (no unchanged
// base line between them) and differ are conflicts, written as git writes
// them with merge.conflictStyle=diff3:
//
//	<<<<<<< disk
//	ours' lines
//	||||||| base
//	base's lines
//	=======
//	theirs' lines
//	>>>>>>> proposal
//
// A side whose last line has no newline gets one inside the markers.
func Merge3(base, ours, theirs string, labels MergeLabels) MergeResult {
	lb, lo, lt := splitLines(base), splitLines(ours), splitLines(theirs)
	co, ct := mergeChanges(DiffLines(lb, lo)), mergeChanges(DiffLines(lb, lt))
	var (
		res   MergeResult
		sb    strings.Builder
		lines int // lines written to sb
	)
	sb.Grow(max(len(ours), len(theirs)))
	write := func(ls []string) {
		for _, l := range ls {
			sb.WriteString(l)
		}
		lines += len(ls)
	}
	pos := 0       // base lines before pos are written
	dO, dT := 0, 0 // line offset of ours and theirs against base so far
	for len(co) > 0 || len(ct) > 0 {
		// The next chunk: the first change, and every change of either side
		// that overlaps or touches the chunk so far.
		a0 := mergeNextStart(co, ct)
		a1 := a0
		no, nt := 0, 0 // changes of ours and theirs in the chunk
		for grown := true; grown; {
			grown = false
			if no < len(co) && co[no].A0 <= a1 {
				a1 = max(a1, co[no].A1)
				no, grown = no+1, true
			}
			if nt < len(ct) && ct[nt].A0 <= a1 {
				a1 = max(a1, ct[nt].A1)
				nt, grown = nt+1, true
			}
		}
		write(lb[pos:a0])
		o0, t0 := a0+dO, a0+dT
		for _, c := range co[:no] {
			dO += (c.B1 - c.B0) - (c.A1 - c.A0)
		}
		for _, c := range ct[:nt] {
			dT += (c.B1 - c.B0) - (c.A1 - c.A0)
		}
		o1, t1 := a1+dO, a1+dT
		switch {
		case no == 0:
			write(lt[t0:t1])
		case nt == 0 || slices.Equal(lo[o0:o1], lt[t0:t1]):
			write(lo[o0:o1])
		default:
			c := Conflict{Line0: lines, Base0: a0, Base1: a1, Ours0: o0, Ours1: o1, Theirs0: t0, Theirs1: t1}
			writeSide := func(marker, label string, ls []string) {
				sb.WriteString(marker + label + "\n")
				write(ls)
				if len(ls) > 0 && !strings.HasSuffix(ls[len(ls)-1], "\n") {
					sb.WriteByte('\n')
				}
				lines++
			}
			writeSide("<<<<<<< ", cmp.Or(labels.Ours, "disk"), lo[o0:o1])
			writeSide("||||||| ", cmp.Or(labels.Base, "base"), lb[a0:a1])
			writeSide("=======", "", lt[t0:t1])
			sb.WriteString(">>>>>>> " + cmp.Or(labels.Theirs, "proposal") + "\n")
			lines++
			c.Line1 = lines
			res.Conflicts = append(res.Conflicts, c)
		}
		co, ct, pos = co[no:], ct[nt:], a1
	}
	write(lb[pos:])
	res.Text = sb.String()
	return res
}

// mergeChanges returns the changes of ops.
func mergeChanges(ops []Op) []Op {
	var cs []Op
	for _, op := range ops {
		if op.Kind != OpEqual {
			cs = append(cs, op)
		}
	}
	return cs
}

// mergeNextStart returns the base line where the first of the two change
// lists' next changes starts.
func mergeNextStart(co, ct []Op) int {
	switch {
	case len(co) == 0:
		return ct[0].A0
	case len(ct) == 0:
		return co[0].A0
	}
	return min(co[0].A0, ct[0].A0)
}
