package engine

import (
	"errors"
	"fmt"
	"strings"
)

// MultiEdit follows Claude Code's MultiEdit: each edit is a Replace applied
// to the result of the edits before it, so an edit may match text an earlier
// edit inserted; if any edit fails, none applies.
//
// An edit that fails only because earlier edits changed its text (its
// old_string matches the original file as it should) says so, as Claude
// Code does ("previous edits may have changed it"), naming those edits in
// MatchError.ChangedBy and the hint.
//
// Line numbers: every Match and every candidate of a failed edit's
// *MatchError is given in lines of the ORIGINAL file. Lines an earlier edit
// inserted have no original line; a range that starts or ends in them is
// widened to the original lines that the inserted text replaced (a pure
// insertion, EndLine = StartLine−1, when it replaced none). Candidate.Lines
// hold the working copy's text at that step.

// Format reports FormatMultiEdit.
func (e MultiEdit) Format() Format { return FormatMultiEdit }

func (e MultiEdit) payload() []string {
	p := make([]string, 0, 2*len(e.Edits))
	for _, r := range e.Edits {
		p = append(p, r.Old, r.New)
	}
	return p
}

func (e MultiEdit) apply(text string) (Result, error) { return e.applyFrom(text, 0, nil) }

// applyFrom applies the edits from index from on to text; applied holds the
// matches of the edits before (create's first edit).
func (e MultiEdit) applyFrom(text string, from int, applied []Match) (Result, error) {
	return e.applyEdits(text, from, applied, nil)
}

// applyChosen applies the edits to text with edit n placed at the region
// at[n] of text (ApplyAt).
func (e MultiEdit) applyChosen(text string, at map[int]Region) (Result, error) {
	return e.applyEdits(text, 0, nil, at)
}

// applyEdits is applyFrom with the edits in at placed at those regions of
// the original text.
func (e MultiEdit) applyEdits(text string, from int, applied []Match, at map[int]Region) (Result, error) {
	m := newLineMap(text)
	original := text
	for i := from; i < len(e.Edits); i++ {
		r := e.Edits[i]
		if reg, ok := at[i+1]; ok {
			mt, next, err := m.place(original, text, i+1, reg, r)
			if err != nil {
				return Result{}, err
			}
			applied, text = append(applied, mt), next
			continue
		}
		out, err := r.replaceIn(text, FormatMultiEdit, i+1)
		var me *MatchError
		if errors.As(err, &me) {
			for k := range me.Closest {
				me.Closest[k].StartLine, me.Closest[k].EndLine = m.original(me.Closest[k].StartLine, me.Closest[k].EndLine)
			}
			for k := range me.Places {
				me.Places[k].StartLine, me.Places[k].EndLine = m.original(me.Places[k].StartLine, me.Places[k].EndLine)
			}
			me.Applied = applied
			e.blame(me, original, from, i)
			return Result{}, me
		}
		if err != nil {
			return Result{}, err
		}
		for _, mt := range out.matches {
			mt.StartLine, mt.EndLine = m.original(mt.StartLine, mt.EndLine)
			applied = append(applied, mt)
		}
		old, new := toLF(r.Old), toLF(r.New)
		if old == "" { // filled an empty file
			m.reset(strings.Count(out.text, "\n") + 1)
		}
		delta := strings.Count(new, "\n") - strings.Count(old, "\n")
		// Update the map bottom-up so earlier line numbers stay valid.
		for k := len(out.matches) - 1; k >= 0 && old != ""; k-- {
			mt := out.matches[k]
			m.replace(mt.StartLine, mt.EndLine, mt.EndLine-mt.StartLine+1+delta, strings.HasSuffix(old, "\n"))
		}
		text = out.text
	}
	return Result{Content: text, Matches: applied}, nil
}

// blame explains edit k (0-based) failing with me when its old_string fits
// the original file (the text edits from index from on started with) as it
// should: the earlier edits whose matches overlap its places there, or
// whose new_string holds a copy of it, changed it.
func (e MultiEdit) blame(me *MatchError, original string, from, k int) {
	r := e.Edits[k]
	old, want := toLF(r.Old), max(r.ExpectedReplacements, 1)
	at := literalOffsets(original, old)
	if me.Kind != FailNoMatch && me.Kind != FailCount || len(at) == 0 || !r.ReplaceAll && len(at) != want {
		return
	}
	spans := make([]span, len(at))
	for i, o := range at {
		spans[i] = span{start: o, end: o + len(old)}
	}
	places := spanLines(original, spans)
	for j := from; j < k; j++ {
		if strings.Contains(toLF(e.Edits[j].New), old) || touches(me.Applied, j+1, places) {
			me.ChangedBy = append(me.ChangedBy, j+1)
		}
	}
	was, by := "the original file", editNames(me.ChangedBy)
	if from > 0 {
		was = fmt.Sprintf("the file as edit %d created it", from)
	}
	times := func(n int) string {
		if n == 1 {
			return "once"
		}
		return fmt.Sprintf("%d times", n)
	}
	if me.Kind == FailNoMatch {
		first := places[0]
		me.Hint = fmt.Sprintf("edit %d's old_string matches %s at lines %d-%d, but %s changed that text first: previous edits may have changed it; write old_string as the file reads after %s, or merge the edits into one",
			k+1, was, first[0], max(first[1], first[0]), by, by)
		return
	}
	me.Hint = fmt.Sprintf("edit %d's old_string occurs %s in %s, but %s after %s: previous edits may have changed it; add context so it matches %s after them, or set replace_all",
		k+1, times(len(at)), was, times(me.Found), by, times(want))
}

// touches reports whether a match of edit block overlaps one of places
// (1-based first and last lines of the original).
func touches(applied []Match, block int, places [][2]int) bool {
	for _, m := range applied {
		for _, p := range places {
			if m.Block == block && m.StartLine <= p[1] && p[0] <= max(m.EndLine, m.StartLine) {
				return true
			}
		}
	}
	return false
}

// editNames names earlier edits of a call: "edit 1", "edits 1 and 2",
// "edits 1, 2 and 3".
func editNames(nums []int) string {
	s := make([]string, len(nums))
	for i, n := range nums {
		s[i] = fmt.Sprint(n)
	}
	switch len(s) {
	case 0:
		return "earlier edits of this call"
	case 1:
		return "edit " + s[0]
	}
	return "edits " + strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// lineMap maps the lines of a working copy to the original's. Line i of the
// working copy (1-based; a text has Count("\n")+1 lines, the last possibly
// empty) came from original line orig[i], or from an earlier edit when
// orig[i] is 0.
type lineMap struct {
	orig  []int // index 0 unused
	total int   // lines of the original
}

func newLineMap(text string) *lineMap {
	n := strings.Count(text, "\n") + 1
	m := &lineMap{orig: make([]int, n+1), total: n}
	for i := range m.orig {
		m.orig[i] = i
	}
	return m
}

// reset records that the whole working copy, now n lines, is new text.
func (m *lineMap) reset(n int) {
	m.orig = make([]int, n+1)
}

// replace records that working lines s..e became g lines. The first keeps
// line s's original (it holds the text before the replacement), the last
// keeps line e's unless the replaced text ended with a line break (then
// nothing of line e is left in it), and the lines between are new.
func (m *lineMap) replace(s, e, g int, endsInBreak bool) {
	mid := make([]int, g)
	if g > 0 {
		mid[0] = m.orig[s]
	}
	if g > 1 && !endsInBreak {
		mid[g-1] = m.orig[e]
	}
	rest := append(mid, m.orig[e+1:]...)
	m.orig = append(m.orig[:s], rest...)
}

// original maps working lines start..end (end = start−1 for a pure
// insertion) to original lines.
func (m *lineMap) original(start, end int) (int, int) {
	s := m.orig[start]
	if s == 0 { // inserted: starts after the original line before it
		for i := start - 1; i > 0; i-- {
			if m.orig[i] > 0 {
				s = m.orig[i] + 1
				break
			}
		}
		if s == 0 {
			s = 1
		}
	}
	if end < start {
		return s, s - 1
	}
	e := m.orig[end]
	if e == 0 { // inserted: ends before the original line after it
		e = m.total
		for i := end + 1; i < len(m.orig); i++ {
			if m.orig[i] > 0 {
				e = m.orig[i] - 1
				break
			}
		}
	}
	return s, max(e, s-1)
}
