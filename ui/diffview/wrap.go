package diffview

import "unicode/utf8"

// wrapWindows returns the cell ranges of line s shown on each visual line
// when it wraps at n cells (cols are its cells, from columns). A line
// breaks after the last space or tab that lets the visual line fit; a
// word longer than n cells breaks where the cells run out (never inside a
// rune). Each range is [first cell, end cell); the last ends at the
// line's width. out is reused.
func wrapWindows(s string, cols []int32, n int, out [][2]int) [][2]int {
	out = out[:0]
	n = max(n, 1)
	width := int(cols[len(s)])
	for i := 0; ; {
		st := int(cols[i])
		if width-st <= n {
			return append(out, [2]int{st, width})
		}
		hard, soft := i, -1
		for j := i + 1; j < len(s) && int(cols[j])-st <= n; j++ {
			if !utf8.RuneStart(s[j]) || zeroWidth(s[j:], cols[j:]) {
				continue // inside a rune, or before a combining mark
			}
			hard = j
			if b := s[j-1]; b == ' ' || b == '\t' {
				soft = j
			}
		}
		next := hard
		if soft > i {
			next = soft
		}
		if next == i { // one rune wider than n cells: it takes a line
			_, w := utf8.DecodeRuneInString(s[i:])
			next = i + w
		}
		out = append(out, [2]int{st, int(cols[next])})
		i = next
	}
}

// windowOf returns the visual line among wins that shows cell c: the
// line a range starts, except that the end of the text stays on the last.
func windowOf(wins [][2]int, c int) int {
	for k, w := range wins {
		if c < w[1] {
			return k
		}
	}
	return len(wins) - 1
}

// zeroWidth reports whether the rune s starts with takes no cell (cols are
// its cells onwards).
func zeroWidth(s string, cols []int32) bool {
	_, n := utf8.DecodeRuneInString(s)
	return cols[n] == cols[0]
}
