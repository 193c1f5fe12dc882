package engine

import (
	"errors"
	"strings"
)

// MultiEdit follows Claude Code's MultiEdit: each edit is a Replace applied
// to the result of the edits before it, so an edit may match text an earlier
// edit inserted; if any edit fails, none applies.
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

func (e MultiEdit) apply(text string) (Result, error) {
	m := newLineMap(text)
	var applied []Match
	for i, r := range e.Edits {
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
