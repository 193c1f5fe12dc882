package diffview

// Word emphasis: the spans within a changed line that differ from its
// counterpart, computed lazily per row and narrowed inside long tokens.

import (
	"unicode/utf8"

	"github.com/diffdesk/diffdesk/engine/words"
)

// wordPair is the word spans of one changed row, in bytes of each line.
type wordPair struct {
	del, ins []words.Span
}

// Words returns the word spans of a paired changed row, computing them
// once per pair of lines (lines still being written are not cached).
func (m *rowModel) Words(r row) wordPair {
	if !r.paired {
		return wordPair{}
	}
	key := [2]int32{int32(r.wa), int32(r.wb)}
	if w, ok := m.words[key]; ok {
		return w
	}
	var w wordPair
	la, lb := m.a.Line(r.wa), m.b.Line(r.wb)
	w.del, w.ins = words.Spans(la, lb)
	w = narrowLong(la, lb, w)
	if r.wb < m.stable {
		if m.words == nil {
			m.words = map[[2]int32]wordPair{}
		}
		m.words[key] = w
	}
	return w
}

// narrowLong narrows each changed token longer than longSpan to where its
// two versions differ: Spans compares whole tokens, and a 7-character
// change inside a 2,000-character string lit the whole line (and j
// scrolled to the line's start, not to the change). The k-th span of a
// line faces the k-th of its pair when both have as many.
func narrowLong(a, b string, w wordPair) wordPair {
	if len(w.del) != len(w.ins) {
		return w
	}
	var del, ins []words.Span
	for k, d := range w.del {
		i := w.ins[k]
		if d.End-d.Start >= longSpan || i.End-i.Start >= longSpan {
			sa, sb := a[d.Start:d.End], b[i.Start:i.End]
			p := commonPrefix(sa, sb)
			q := commonSuffix(sa[p:], sb[p:])
			d = words.Span{Start: d.Start + p, End: d.End - q}
			i = words.Span{Start: i.Start + p, End: i.End - q}
		}
		if d.End > d.Start {
			del = append(del, d)
		}
		if i.End > i.Start {
			ins = append(ins, i)
		}
	}
	return wordPair{del: del, ins: ins}
}

// commonPrefix returns how many leading bytes a and b share, cut before
// a rune.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	for n > 0 && (n < len(a) && !utf8.RuneStart(a[n]) || n < len(b) && !utf8.RuneStart(b[n])) {
		n--
	}
	return n
}

// commonSuffix returns how many trailing bytes a and b share, cut after
// a whole rune.
func commonSuffix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	for n > 0 && (!utf8.RuneStart(a[len(a)-n]) || !utf8.RuneStart(b[len(b)-n])) {
		n--
	}
	return n
}
