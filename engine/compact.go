package engine

// A diff of lines is not unique where changed lines can slide along equal
// ones: inserting "b\n}\n" after "a\n}\n" can also read as inserting
// "}\nb\n" after "a\n". compact picks among such places the way git's
// xdl_change_compact does, with its indent heuristic (git's default since
// 2.14), so hunks start and end where a reader expects and match what
// `git diff` shows.

// A group is a run of changed lines of one side, lines start:end, with an
// unchanged line (or an end of the file) on either side of it. Between any
// two unchanged lines there is a group, often empty; the groups of the two
// sides correspond one to one, in order.
type group struct{ start, end int }

// groupAt returns the first group of c.
func groupAt(c []bool) group {
	g := group{}
	for g.end < len(c) && c[g.end] {
		g.end++
	}
	return g
}

// next moves g to the next group; it reports false at the last one.
func (g *group) next(c []bool) bool {
	if g.end == len(c) {
		return false
	}
	g.start = g.end + 1
	g.end = g.start
	for g.end < len(c) && c[g.end] {
		g.end++
	}
	return true
}

// prev moves g to the group before; it reports false at the first one.
func (g *group) prev(c []bool) bool {
	if g.start == 0 {
		return false
	}
	g.end = g.start - 1
	g.start = g.end
	for g.start > 0 && c[g.start-1] {
		g.start--
	}
	return true
}

// down slides a non-empty group one line down, joining the group after it
// if they meet; it reports false if the line after it differs from its
// first line.
func (g *group) down(ids []int32, c []bool) bool {
	if g.end == len(c) || ids[g.start] != ids[g.end] {
		return false
	}
	c[g.start], c[g.end] = false, true
	g.start++
	for g.end < len(c) && c[g.end] {
		g.end++
	}
	return true
}

// up slides a non-empty group one line up, joining the group before it if
// they meet; it reports false if the line before it differs from its last
// line.
func (g *group) up(ids []int32, c []bool) bool {
	if g.start == 0 || ids[g.start-1] != ids[g.end-1] {
		return false
	}
	g.start--
	g.end--
	c[g.start], c[g.end] = true, false
	for g.start > 0 && c[g.start-1] {
		g.start--
	}
	return true
}

// side is one side of a diff being compacted: its line ids, which lines
// are changed, and the lines themselves (for the indent heuristic).
type side struct {
	ids     []int32
	changed []bool
	lines   []string
}

// compact slides the groups of changed lines of x where they can go,
// keeping the groups of the other side o in step. Each group goes as far up
// as it can, then down as far as it can, joining the groups it meets, until
// it stops growing; then back up to the last place where o's group facing
// it is not empty, so that a deletion and an insertion read as one change;
// failing that, to the place the indent heuristic scores best. Where
// joining groups made a change of two non-empty groups, that change is
// diffed again with Myers' algorithm, which may keep some of its lines.
func (h *histogram) compact(x, o side) {
	cx, co := x.changed, o.changed
	g, og := groupAt(cx), groupAt(co)
	for {
		if g.end > g.start {
			orig := g
			var earliestEnd, facingEnd int
			for {
				size := g.end - g.start
				facingEnd = -1 // the last end where og is not empty
				for g.up(x.ids, cx) {
					og.prev(co)
				}
				earliestEnd = g.end
				if og.end > og.start {
					facingEnd = g.end
				}
				for g.down(x.ids, cx) {
					og.next(co)
					if og.end > og.start {
						facingEnd = g.end
					}
				}
				if g.end-g.start == size {
					break
				}
			}
			switch {
			case g.end == earliestEnd:
				// It cannot slide.
			case facingEnd >= 0:
				for og.end == og.start && g.up(x.ids, cx) {
					og.prev(co)
				}
			default:
				best := bestSplit(x.lines, earliestEnd, g.end, g.end-g.start)
				for g.end > best && g.up(x.ids, cx) {
					og.prev(co)
				}
			}
			if og.end > og.start && g != orig {
				clear(cx[g.start:g.end])
				clear(co[og.start:og.end])
				h.m.run(x.ids[g.start:g.end], o.ids[og.start:og.end], cx[g.start:g.end], co[og.start:og.end])
			}
		}
		if !g.next(cx) {
			return
		}
		og.next(co)
	}
}

// The indent heuristic's weights, git's (found by Michael Haggerty on a
// corpus of human-rated diffs): a split, the boundary between a group and
// the unchanged lines beside it, costs less the lower the
// indentation of the lines around it and the more blank lines it touches.
const (
	maxIndent = 200 // indentation counted at most, in columns
	maxBlanks = 20  // blank lines counted at most on either side

	startOfFilePenalty    = 1   // no non-blank line above the split
	endOfFilePenalty      = 21  // no line below the split
	totalBlankWeight      = -30 // per blank line around the split
	postBlankWeight       = 6   // per blank line below the split
	indentPenalty         = -4  // the line below is indented more than the one above
	indentBlankPenalty    = 10  // the same, with blank lines around
	outdentPenalty        = 24  // indented less than above, and the next line more: a block starts
	outdentBlankPenalty   = 17  // the same, with blank lines around
	dedentPenalty         = 23  // indented less than above, not more after: a block ends
	dedentBlankPenalty    = 17  // the same, with blank lines around
	indentWeight          = 60  // weight of comparing the summed indentation of two positions
	maxIndentHeuristicRun = 100 // the most places a group is tried at
)

// bestSplit returns where a group of size lines of lines should end, given
// that it may end anywhere from earliest to latest: the place whose two
// splits score best, the latest of equals, among the last
// maxIndentHeuristicRun places.
func bestSplit(lines []string, earliest, latest, size int) int {
	best, bestScore := -1, splitScore{}
	for end := max(earliest, latest-size-1, latest-maxIndentHeuristicRun); end <= latest; end++ {
		var s splitScore
		s.add(lines, end)
		s.add(lines, end-size)
		if best < 0 || s.cmp(bestScore) <= 0 {
			best, bestScore = end, s
		}
	}
	return best
}

// splitScore is the badness of one or more splits: lower is better.
type splitScore struct {
	indent  int // summed effective indentation
	penalty int
}

// cmp compares two scores: negative if s is better than t.
func (s splitScore) cmp(t splitScore) int {
	c := 0
	switch {
	case s.indent < t.indent:
		c = -1
	case s.indent > t.indent:
		c = 1
	}
	return indentWeight*c + s.penalty - t.penalty
}

// add adds the score of a split just above line at of lines (at may be
// len(lines): the end of the file).
func (s *splitScore) add(lines []string, at int) {
	indent := -1 // of the line below the split, -1 if blank or none
	if at < len(lines) {
		indent = lineIndent(lines[at])
	}
	preBlank, preIndent := 0, -1 // blank lines above, and the indent of the first non-blank
	for i := at - 1; i >= 0; i-- {
		if preIndent = lineIndent(lines[i]); preIndent >= 0 {
			break
		}
		if preBlank++; preBlank == maxBlanks {
			preIndent = 0
			break
		}
	}
	postBlank, postIndent := 0, -1 // blank lines below the line below, and the next indent
	for i := at + 1; i < len(lines); i++ {
		if postIndent = lineIndent(lines[i]); postIndent >= 0 {
			break
		}
		if postBlank++; postBlank == maxBlanks {
			postIndent = 0
			break
		}
	}

	if preIndent == -1 && preBlank == 0 {
		s.penalty += startOfFilePenalty
	}
	if at >= len(lines) {
		s.penalty += endOfFilePenalty
	}
	blankBelow := 0 // blank lines below the split, the line below included
	if indent == -1 {
		blankBelow = 1 + postBlank
	}
	blanks := preBlank + blankBelow
	s.penalty += totalBlankWeight*blanks + postBlankWeight*blankBelow
	if indent == -1 {
		indent = postIndent
	}
	s.indent += indent
	switch {
	case indent == -1 || preIndent == -1 || indent == preIndent:
	case indent > preIndent:
		s.penalty += pick(blanks > 0, indentBlankPenalty, indentPenalty)
	case postIndent != -1 && postIndent > indent:
		s.penalty += pick(blanks > 0, outdentBlankPenalty, outdentPenalty)
	default:
		s.penalty += pick(blanks > 0, dedentBlankPenalty, dedentPenalty)
	}
}

// pick returns x if c, else y.
func pick(c bool, x, y int) int {
	if c {
		return x
	}
	return y
}

// lineIndent returns the indentation of a line in columns, a tab reaching
// the next multiple of 8, at most maxIndent; -1 if the line is blank.
func lineIndent(l string) int {
	n := 0
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case ' ':
			n++
		case '\t':
			n += 8 - n%8
		case '\n', '\r', '\v', '\f':
		default:
			return n
		}
		if n >= maxIndent {
			return maxIndent
		}
	}
	return -1
}
