package engine

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxSize is the largest file, in bytes, the engine accepts.
const MaxSize = 256 << 20

const bom = "\uFEFF"

// Doc is a text file taken apart for editing: its content with every line
// ending turned into "\n", plus what is needed to write an edited version back
// with the same BOM and line endings.
type Doc struct {
	Text string // content without BOM; every "\r\n" and lone "\r" replaced by "\n"
	BOM  bool   // the file started with a UTF-8 byte order mark
	EOL  string // the dominant line ending: "\n", "\r\n" or "\r"; "" if the file has none
	// eols holds the ending of each line of Text (index 0 = line 1) when the
	// file mixes endings; nil when it does not.
	eols []string
	orig []string // lines of Text, kept only for mixed files
}

// ContentError reports a file or payload that is not editable text.
type ContentError struct {
	What   string // "file" or "edit"
	Reason string // e.g. "binary content (NUL byte)"
	Line   int    // 1-based line of the offending byte; 0 if not applicable
	Offset int    // 0-based byte offset of the offending byte
}

func (e *ContentError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s is not editable text: %s at line %d (byte %d)", e.What, e.Reason, e.Line, e.Offset)
	}
	return fmt.Sprintf("%s is not editable text: %s", e.What, e.Reason)
}

// checkText refuses binary content (NUL bytes), invalid UTF-8 and oversized input.
func checkText(what, s string) error {
	if len(s) > MaxSize {
		return &ContentError{What: what, Reason: fmt.Sprintf("%d bytes is over the %d-byte limit", len(s), MaxSize)}
	}
	if i := strings.IndexByte(s, 0); i >= 0 {
		return &ContentError{What: what, Reason: "binary content (NUL byte)", Line: lineAt(s, i), Offset: i}
	}
	if !utf8.ValidString(s) {
		i := invalidUTF8At(s)
		return &ContentError{What: what, Reason: "invalid UTF-8", Line: lineAt(s, i), Offset: i}
	}
	return nil
}

func invalidUTF8At(s string) int {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(s)
}

// lineAt returns the 1-based line number of byte offset i in s.
func lineAt(s string, i int) int { return strings.Count(s[:i], "\n") + 1 }

// Decode takes a file's bytes apart for editing. It refuses binary content,
// invalid UTF-8 and files over MaxSize with a *ContentError.
func Decode(s string) (Doc, error) {
	if err := checkText("file", s); err != nil {
		return Doc{}, err
	}
	var d Doc
	if strings.HasPrefix(s, bom) {
		d.BOM, s = true, s[len(bom):]
	}
	if !lineSplitExact && strings.IndexByte(s, '\r') < 0 {
		// "\n" or no line ending at all: the text as it is, read once.
		if strings.IndexByte(s, '\n') >= 0 {
			d.EOL = "\n"
		}
		d.Text = s
		return d, nil
	}
	crlf := strings.Count(s, "\r\n")
	cr := strings.Count(s, "\r") - crlf
	lf := strings.Count(s, "\n") - crlf
	d.EOL = dominantEOL(lf, crlf, cr)
	kinds := 0
	for _, n := range []int{lf, crlf, cr} {
		if n > 0 {
			kinds++
		}
	}
	if kinds <= 1 {
		d.Text = toLF(s)
		return d, nil
	}
	// Mixed endings: remember each line's own ending.
	var b strings.Builder
	b.Grow(len(s))
	for len(s) > 0 {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		b.WriteByte('\n')
		end := "\n"
		if s[i] == '\r' {
			end = "\r"
			if i+1 < len(s) && s[i+1] == '\n' {
				end = "\r\n"
			}
		}
		d.eols = append(d.eols, end)
		s = s[i+len(end):]
	}
	d.Text = b.String()
	d.orig = splitLines(d.Text)
	return d, nil
}

func dominantEOL(lf, crlf, cr int) string {
	switch {
	case lf == 0 && crlf == 0 && cr == 0:
		return ""
	case crlf >= lf && crlf >= cr:
		return "\r\n"
	case lf >= cr:
		return "\n"
	default:
		return "\r"
	}
}

// Encode turns edited text (with "\n" line endings) back into file bytes with
// the document's BOM and line endings. In a file that mixed endings, lines
// the edit kept keep their own ending and new lines take the dominant one, so
// an edit never mixes endings further.
func (d Doc) Encode(text string) string {
	eol := d.EOL
	if eol == "" {
		eol = "\n"
	}
	var out string
	switch {
	case d.eols != nil:
		out = d.encodeMixed(text, eol)
	case eol == "\n":
		out = text
	default:
		out = strings.ReplaceAll(text, "\n", eol)
	}
	if d.BOM {
		out = bom + out
	}
	return out
}

// encodeMixed gives each line of text the ending it had in the original when
// the line is unchanged (matched by a line diff), and eol otherwise.
func (d Doc) encodeMixed(text, eol string) string {
	lines := splitLines(text)
	ends := make([]string, len(lines))
	for i := range ends {
		ends[i] = eol
	}
	for _, p := range equalLinePairs(d.orig, lines) {
		if p[0] < len(d.eols) {
			ends[p[1]] = d.eols[p[0]]
		}
	}
	// A lone "\r" followed by an empty line ending in "\n" would be read
	// back as one "\r\n": that empty line ends in "\r" too.
	for i := 1; i < len(lines); i++ {
		if ends[i-1] == "\r" && lines[i] == "\n" && ends[i] == "\n" {
			ends[i] = "\r"
		}
	}
	var b strings.Builder
	b.Grow(len(text) + len(lines))
	for i, l := range lines {
		if strings.HasSuffix(l, "\n") {
			b.WriteString(l[:len(l)-1])
			b.WriteString(ends[i])
		} else {
			b.WriteString(l)
		}
	}
	return b.String()
}

// toLF turns "\r\n" and lone "\r" into "\n".
func toLF(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

// SplitLines splits s after each "\n": every line but possibly the last
// ends in "\n", and an empty s gives no lines. It is how the engine sees
// lines, for callers building Hunks or a LiveDiff.
func SplitLines(s string) []string { return splitLines(s) }

// splitLines splits s after each "\n"; every element but possibly the last
// ends in "\n". An empty s gives no lines.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := make([]string, 0, strings.Count(s, "\n")+1)
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

// equalLinePairs returns index pairs (i in a, j in b) of lines that a line
// diff of a and b keeps unchanged.
func equalLinePairs(a, b []string) [][2]int {
	var pairs [][2]int
	for _, op := range DiffLines(a, b) {
		if op.Kind == OpEqual {
			for k := range op.A1 - op.A0 {
				pairs = append(pairs, [2]int{op.A0 + k, op.B0 + k})
			}
		}
	}
	return pairs
}

// FirstEOL is the line ending of text's first line break: "\n", "\r\n"
// or "\r"; "" if it has none.
func FirstEOL(text string) string {
	i := strings.IndexAny(text, "\r\n")
	switch {
	case i < 0:
		return ""
	case strings.HasPrefix(text[i:], "\r\n"):
		return "\r\n"
	}
	return text[i : i+1]
}
