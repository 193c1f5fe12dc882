package engine

import (
	"errors"
	"sort"
	"strings"
)

// SEARCH/REPLACE blocks in sequence. Cline matches every block against the
// file as it was; aider applies each block to the result of the ones before
// it, so a block may match text an earlier block wrote. The two agree
// whenever every block is in the file as it was. When one is not (no match,
// or a match overlapping an earlier block's), inSequence gives aider's
// answer: the blocks before it are applied, and the rest of the payload is
// matched against that text, again and again if a later block needs the
// text this one makes. Every block matched after a switch carries After
// (how many blocks were applied before it was looked for), which makes it
// Loose: the desk shows it and the agent is told. Line numbers stay those
// of the file as it was (as MultiEdit's).

// inSequence applies payload to text in stages, starting over after the
// block firstErr names; it returns firstErr when that block is no better
// off in sequence. When a later block fails in stages (an earlier block of
// the same stage went where aider would not take it: Cline's cascade looks
// after the previous block's match first), every block is applied alone
// to the text the blocks before it made, as aider applies them.
func inSequence(text, payload string, firstErr error) (Result, error) {
	var me *MatchError
	if !errors.As(firstErr, &me) || !sequential(me) {
		return Result{}, firstErr
	}
	res, err := inStages(text, payload, me, false)
	if err == nil {
		return res, nil
	}
	var se *MatchError
	if errors.As(err, &se) && anyLoose(se.Applied) {
		if one, oneErr := inStages(text, payload, me, true); oneErr == nil {
			return one, nil
		}
	}
	return res, err
}

// anyLoose reports whether a block before the failing one was placed
// loosely: only then may one block at a time place it elsewhere.
func anyLoose(ms []Match) bool {
	for _, m := range ms {
		if m.Strategy != StrategyExact && m.Strategy != StrategyWholeFile || m.Candidates > 1 {
			return true
		}
	}
	return false
}

// inStages is inSequence's stages: each as many blocks as match the text
// the stage starts with, or, with oneByOne, one block each.
func inStages(text, payload string, me *MatchError, oneByOne bool) (Result, error) {
	firstErr := error(me)
	lm := newLineMap(text)
	var applied []Match
	var inc *Incomplete
	skip := 0
	for {
		r := newSRRun(text)
		r.skip = skip
		if oneByOne {
			r.upto = skip + 1
		}
		res, err := r.run(payload)
		if err == nil && oneByOne && r.p.lastBlock() > r.upto {
			applied = append(applied, stageMatches(res.Matches, lm, skip)...)
			r.mapLines(lm)
			text, skip = res.Content, skip+1
			continue
		}
		if err == nil {
			applied = append(applied, stageMatches(res.Matches, lm, skip)...)
			inc = res.Incomplete
			return Result{Content: res.Content, Matches: applied, Incomplete: inc}, nil
		}
		var se *MatchError
		if !errors.As(err, &se) {
			return Result{}, err
		}
		if !sequential(se) || se.Block <= skip+1 {
			if se.Block <= me.Block {
				// No further than the file as it was: its error says more.
				return Result{}, firstErr
			}
			se.Applied = append(applied, stageMatches(se.Applied, lm, skip)...)
			for k := range se.Closest {
				se.Closest[k].StartLine, se.Closest[k].EndLine = lm.original(se.Closest[k].StartLine, se.Closest[k].EndLine)
			}
			for k := range se.Places {
				se.Places[k].StartLine, se.Places[k].EndLine = lm.original(se.Places[k].StartLine, se.Places[k].EndLine)
			}
			return Result{}, se
		}
		// Blocks skip+1 .. se.Block-1 applied to text: go on from theirs.
		applied = append(applied, stageMatches(r.matches(), lm, skip)...)
		r.mapLines(lm)
		text, skip = r.output(), se.Block-1
	}
}

// sequential reports whether a block failing with me might apply to the
// text the blocks before it made.
func sequential(me *MatchError) bool {
	return me.Block > 1 && (me.Kind == FailNoMatch || me.Kind == FailOverlap)
}

// stageMatches maps the lines of matches found after blocks 1..skip were
// applied (srRun.matches set their After) to lines of the file as it was.
func stageMatches(ms []Match, lm *lineMap, skip int) []Match {
	out := make([]Match, len(ms))
	for i, m := range ms {
		if skip > 0 {
			m.StartLine, m.EndLine = lm.original(m.StartLine, m.EndLine)
		}
		out[i] = m
	}
	return out
}

// mapLines records in lm what the run's placements did to its text's lines.
func (r *srRun) mapLines(lm *lineMap) {
	ps := append([]srPlacement(nil), r.placed...)
	sort.Slice(ps, func(a, b int) bool { return ps[a].loc.start > ps[b].loc.start })
	for _, p := range ps {
		old := r.m.text[p.loc.start:p.loc.end]
		if old == "" { // filled an empty file
			lm.reset(strings.Count(p.repl, "\n") + 1)
			continue
		}
		s, e := p.loc.first+1, p.loc.last+1
		g := e - s + 1 + strings.Count(p.repl, "\n") - strings.Count(old, "\n")
		lm.replace(s, e, g, strings.HasSuffix(old, "\n"))
	}
}
