package engine

import (
	"sort"
	"strings"
	"unicode"
)

// The flexible and token strategies of SmartEdit, and the JavaScript
// whitespace rules they follow (Gemini CLI is TypeScript).

// flexiblePlaces finds the non-overlapping windows of lines that equal old's
// lines after trimming, left to right. Each is replaced by new re-indented
// to the window's first line, plus "\n" when the window's last line had one
// and new is not empty.
//
// Rather than compare every window (lines × len(old) on a file of "}"
// lines), it looks for an anchor, the most selective line of old, with
// strings.Index and checks the windows around its occurrences.
func flexiblePlaces(content, old, new string) []smartPlace {
	search := strings.Split(old, "\n")
	for i := range search {
		search[i] = jsTrim(search[i])
	}
	newLines := strings.Split(new, "\n")
	var places []smartPlace
	add := func(start int) { // starts come in increasing order
		if len(places) > 0 && start < places[len(places)-1].end {
			return // overlaps the place before
		}
		end, ok := trimmedWindow(content, start, search)
		if !ok {
			return
		}
		first := content[start : start+lineLen(content[start:])]
		repl := strings.Join(reindent(newLines, indentOf(first)), "\n")
		if strings.HasSuffix(content[:end], "\n") && new != "" && !strings.HasSuffix(repl, "\n") {
			repl += "\n"
		}
		places = append(places, smartPlace{span: span{start: start, end: end, repl: repl}})
	}
	a := anchor(search)
	if a < 0 { // old is blank lines only: try every line
		for start := 0; start < len(content); start += lineLen(content[start:]) {
			add(start)
		}
		return places
	}
	for from := 0; from < len(content); {
		i := indexLong(content[from:], search[a])
		if i < 0 {
			break
		}
		i += from
		ls := strings.LastIndexByte(content[:i], '\n') + 1
		from = i + lineLen(content[i:])
		if jsTrim(content[ls:from]) != search[a] {
			continue
		}
		for range a { // back to the window's first line
			if ls == 0 {
				ls = -1
				break
			}
			ls = strings.LastIndexByte(content[:ls-1], '\n') + 1
		}
		if ls >= 0 {
			add(ls)
		}
	}
	return places
}

// lineLen returns the length of s's first line, "\n" included.
func lineLen(s string) int {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return i + 1
	}
	return len(s)
}

// trimmedWindow reports whether the lines of content from byte start (a
// line start) equal search line for line after trimming, and where the
// window ends. A final "\n" starts no line.
func trimmedWindow(content string, start int, search []string) (int, bool) {
	end := start
	for _, want := range search {
		if end >= len(content) {
			return 0, false
		}
		n := lineLen(content[end:])
		if jsTrim(content[end:end+n]) != want {
			return 0, false
		}
		end += n
	}
	return end, true
}

// anchor returns the index of the most selective of items: the longest
// non-empty one, ties going to the one repeated least among items; -1 if
// all are empty.
func anchor(items []string) int {
	best, bestN := -1, 0
	count := map[string]int{}
	for _, it := range items {
		count[it]++
	}
	for i, it := range items {
		switch {
		case it == "":
		case best < 0, len(it) > len(items[best]), len(it) == len(items[best]) && count[it] < bestN:
			best, bestN = i, count[it]
		}
	}
	return best
}

// tokenPlaces finds the non-overlapping places where old's tokens appear in
// order (see SmartEdit, strategy 3). Each place runs from the start of the
// first token's line to the end of the last token, and is replaced by new
// re-indented to that line's indentation. Tokens hold no whitespace, so the
// whitespace between two is skipped greedily with no backtracking, as the
// regex `tok1\s*tok2…` would; matching outwards from each occurrence of
// the most selective token (anchor) gives the same places as scanning
// forwards from every line start, at the cost of a strings.Index.
func tokenPlaces(content, old, new string) []smartPlace {
	tokens := strings.FieldsFunc(padDelimiters(old), jsSpace)
	if len(tokens) == 0 {
		return nil
	}
	a := anchor(tokens)
	newLines := strings.Split(new, "\n")
	var found []smartPlace
	for from := 0; from < len(content); {
		q := indexLong(content[from:], tokens[a])
		if q < 0 {
			break
		}
		q += from
		from = q + 1
		end, ok := tokensForward(content, q, tokens[a:])
		if !ok {
			continue
		}
		p, ok := tokensBackward(content, q, tokens[:a])
		if !ok {
			continue
		}
		ls := strings.LastIndexByte(content[:p], '\n') + 1
		if strings.TrimLeft(content[ls:p], " \t") != "" {
			continue // the first token must follow the line's indentation
		}
		repl := strings.Join(reindent(newLines, content[ls:p]), "\n")
		found = append(found, smartPlace{span: span{start: ls, end: end, repl: repl}})
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].start < found[j].start })
	var places []smartPlace
	for _, f := range found { // leftmost first, no overlaps, as a global regex scan
		if len(places) == 0 || f.start >= places[len(places)-1].end {
			places = append(places, f)
		}
	}
	return places
}

// tokensForward matches tokens from byte i, any whitespace between them,
// and returns where the last ends.
func tokensForward(content string, i int, tokens []string) (int, bool) {
	for k, t := range tokens {
		if k > 0 {
			i = len(content) - len(strings.TrimLeftFunc(content[i:], jsSpace))
		}
		if !strings.HasPrefix(content[i:], t) {
			return 0, false
		}
		i += len(t)
	}
	return i, true
}

// tokensBackward matches tokens so that the last ends before byte i, any
// whitespace between them and before i, and returns where the first
// starts.
func tokensBackward(content string, i int, tokens []string) (int, bool) {
	for k := len(tokens) - 1; k >= 0; k-- {
		i = len(strings.TrimRightFunc(content[:i], jsSpace))
		if !strings.HasSuffix(content[:i], tokens[k]) {
			return 0, false
		}
		i -= len(tokens[k])
	}
	return i, true
}

// padDelimiters surrounds each of ( ) : [ ] { } > < = with spaces.
func padDelimiters(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("():[]{}><=", r) {
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// reindent is Gemini's applyIndentation: the indentation of lines[0] (even
// if blank) is the reference; a blank line becomes empty, a line starting
// with the reference gets target instead of it, any other line gets target
// before its trimmed text.
func reindent(lines []string, target string) []string {
	ref := indentOf(lines[0])
	out := make([]string, len(lines))
	for i, l := range lines {
		switch {
		case jsTrim(l) == "":
			out[i] = ""
		case strings.HasPrefix(l, ref):
			out[i] = target + l[len(ref):]
		default:
			out[i] = target + strings.TrimLeftFunc(l, jsSpace)
		}
	}
	return out
}

// indentOf returns the leading spaces and tabs of s.
func indentOf(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

// jsSpace reports whether r is whitespace for JavaScript's \s and trim().
func jsSpace(r rune) bool { return r == '\uFEFF' || unicode.IsSpace(r) && r != '\u0085' }

func jsTrim(s string) string { return strings.TrimFunc(s, jsSpace) }

// stripSpace removes every whitespace rune from s.
func stripSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if jsSpace(r) {
			return -1
		}
		return r
	}, s)
}
