package engine

// seqRatio returns the similarity of a and b in 0..1 exactly as Python's
// difflib.SequenceMatcher(None, a, b).ratio() computes it: 2·M/(len(a)+len(b))
// where M counts the elements of the matching blocks that the recursive
// longest-match search finds, including its "autojunk" rule (in a b of 200
// or more elements, elements occurring more than 1% of the time do not seed
// matches). Aider resolves filenames with it, so matching its tie-breaking
// matters more than speed.
func seqRatio[T comparable](a, b []T) float64 {
	if len(a)+len(b) == 0 {
		return 1
	}
	m := newSeqMatcher(a, b)
	return 2 * float64(m.matchingTotal()) / float64(len(a)+len(b))
}

type seqMatcher[T comparable] struct {
	a, b []T
	b2j  map[T][]int // element of b → its indices in b, popular elements removed
	// j2len and newLen are the dynamic-programming rows of findLongest,
	// indexed by j+1; touched lists the entries to reset.
	j2len, newLen       []int
	touched, newTouched []int
}

func newSeqMatcher[T comparable](a, b []T) *seqMatcher[T] {
	m := &seqMatcher[T]{a: a, b: b, b2j: make(map[T][]int), j2len: make([]int, len(b)+1), newLen: make([]int, len(b)+1)}
	for j, x := range b {
		m.b2j[x] = append(m.b2j[x], j)
	}
	if n := len(b); n >= 200 {
		limit := n/100 + 1
		for x, js := range m.b2j {
			if len(js) > limit {
				delete(m.b2j, x)
			}
		}
	}
	return m
}

// matchingTotal sums the sizes of get_matching_blocks().
func (m *seqMatcher[T]) matchingTotal() int {
	total := 0
	queue := [][4]int{{0, len(m.a), 0, len(m.b)}}
	for len(queue) > 0 {
		q := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		alo, ahi, blo, bhi := q[0], q[1], q[2], q[3]
		i, j, k := m.findLongest(alo, ahi, blo, bhi)
		if k == 0 {
			continue
		}
		total += k
		if alo < i && blo < j {
			queue = append(queue, [4]int{alo, i, blo, j})
		}
		if i+k < ahi && j+k < bhi {
			queue = append(queue, [4]int{i + k, ahi, j + k, bhi})
		}
	}
	return total
}

// findLongest is find_longest_match: the longest block a[i:i+k] == b[j:j+k]
// within the bounds, earliest in a, then earliest in b.
func (m *seqMatcher[T]) findLongest(alo, ahi, blo, bhi int) (besti, bestj, bestk int) {
	besti, bestj = alo, blo
	for i := alo; i < ahi; i++ {
		for _, j := range m.b2j[m.a[i]] {
			if j < blo {
				continue
			}
			if j >= bhi {
				break
			}
			k := m.j2len[j] + 1 // j2len is indexed by j+1, so [j] is the entry for j-1
			m.newLen[j+1] = k
			m.newTouched = append(m.newTouched, j+1)
			if k > bestk {
				besti, bestj, bestk = i-k+1, j-k+1, k
			}
		}
		for _, t := range m.touched {
			m.j2len[t] = 0
		}
		m.j2len, m.newLen = m.newLen, m.j2len
		m.touched, m.newTouched = m.newTouched, m.touched[:0]
	}
	for _, t := range m.touched {
		m.j2len[t] = 0
	}
	m.touched = m.touched[:0]
	for besti > alo && bestj > blo && m.a[besti-1] == m.b[bestj-1] {
		besti, bestj, bestk = besti-1, bestj-1, bestk+1
	}
	for besti+bestk < ahi && bestj+bestk < bhi && m.a[besti+bestk] == m.b[bestj+bestk] {
		bestk++
	}
	return besti, bestj, bestk
}
