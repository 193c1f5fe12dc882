package trivial

import (
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Where comments and strings are, per language: a table, not a lexer.
//
// Comment-only hunks need to know which text is a comment. chroma's lexers
// know more languages, but loading them costs every process that imports
// review (deskctl runs once per hook call) about 10 ms and 2.7 MB at start;
// a comment's syntax is a few delimiters. The scanner below reads a whole
// file once, so block comments and multi-line strings are known wherever a
// hunk starts. Where the table is unsure it errs towards code: a string
// delimiter is taken wherever one appears (text in a string is code), a
// hash comment starts only at a word's start (shell's "$#", YAML's "a#b"),
// a line comment marker after a backslash is none (a JavaScript regular
// expression), and in languages whose strings may span lines, they do.
// Mistaking a comment for code only costs a label; mistaking code for a
// comment would hide a change, which is what the leanings avoid.

// syntax is how one language writes comments and strings.
type syntax struct {
	line   []string    // line comment markers
	atWord bool        // a line marker starts a comment only at the line's start or after whitespace
	block  [][2]string // block comment delimiters
	quotes []quote     // string delimiters, longest first
	indent bool        // leading whitespace is syntax (Python, YAML, Makefiles)

	openers [utf8.RuneSelf]bool // the first bytes of the delimiters above (opens; init)
}

// quote is one kind of string literal.
type quote struct {
	open, close string
	raw         bool // no backslash escapes
	multiline   bool // may span lines (else it ends at the line's end)
}

var (
	dq  = quote{open: `"`, close: `"`}
	sq  = quote{open: `'`, close: `'`}
	dqM = quote{open: `"`, close: `"`, multiline: true}
	sqM = quote{open: `'`, close: `'`, multiline: true}
	tdq = quote{open: `"""`, close: `"""`, multiline: true}
	tsq = quote{open: `'''`, close: `'''`, multiline: true}
	bt  = quote{open: "`", close: "`", multiline: true}

	cBlock  = [][2]string{{"/*", "*/"}}
	cLike   = &syntax{line: []string{"//"}, block: cBlock, quotes: []quote{dq, sq}}
	cLikeTQ = &syntax{line: []string{"//"}, block: cBlock, quotes: []quote{tdq, dq, sq}} // Java text blocks, Kotlin, Scala, Swift, Groovy, Dart
	goSyn   = &syntax{line: []string{"//"}, block: cBlock, quotes: []quote{dq, sq, {open: "`", close: "`", raw: true, multiline: true}}}
	jsSyn   = &syntax{line: []string{"//"}, block: cBlock, quotes: []quote{dq, sq, bt}}
	rustSyn = &syntax{line: []string{"//"}, block: cBlock, quotes: []quote{dqM}} // ' is also a lifetime: not a quote
	cssSyn  = &syntax{block: cBlock, quotes: []quote{dq, sq}}
	scssSyn = &syntax{line: []string{"//"}, block: cBlock, quotes: []quote{dq, sq}}
	phpSyn  = &syntax{line: []string{"//", "#"}, block: cBlock, quotes: []quote{dqM, sqM}}
	pySyn   = &syntax{line: []string{"#"}, quotes: []quote{tdq, tsq, dq, sq}, indent: true}
	hashSyn = &syntax{line: []string{"#"}, atWord: true, quotes: []quote{dqM, sqM}} // shell, Ruby, Perl, R
	yamlSyn = &syntax{line: []string{"#"}, atWord: true, quotes: []quote{dqM, sqM}, indent: true}
	tomlSyn = &syntax{line: []string{"#"}, quotes: []quote{tdq, tsq, dq, sq}}
	makeSyn = &syntax{line: []string{"#"}, atWord: true, indent: true}
	sqlSyn  = &syntax{line: []string{"--"}, block: cBlock, quotes: []quote{sqM, dqM}}
	luaSyn  = &syntax{line: []string{"--"}, block: [][2]string{{"--[[", "]]"}}, quotes: []quote{dq, sq}}
	hsSyn   = &syntax{line: []string{"--"}, block: [][2]string{{"{-", "-}"}}, quotes: []quote{dq}}
	lispSyn = &syntax{line: []string{";"}, quotes: []quote{dqM}}
	markup  = &syntax{block: [][2]string{{"<!--", "-->"}}}

	syntaxByExt = map[string]*syntax{
		".go": goSyn,
		".c":  cLike, ".h": cLike, ".cc": cLike, ".cpp": cLike, ".cxx": cLike, ".hpp": cLike, ".hh": cLike,
		".m": cLike, ".mm": cLike, ".cs": cLike, ".proto": cLike,
		".java": cLikeTQ, ".kt": cLikeTQ, ".kts": cLikeTQ, ".scala": cLikeTQ, ".swift": cLikeTQ,
		".groovy": cLikeTQ, ".gradle": cLikeTQ, ".dart": cLikeTQ,
		".js": jsSyn, ".mjs": jsSyn, ".cjs": jsSyn, ".jsx": jsSyn, ".ts": jsSyn, ".tsx": jsSyn, ".mts": jsSyn, ".cts": jsSyn,
		".rs": rustSyn, ".css": cssSyn, ".scss": scssSyn, ".less": scssSyn, ".php": phpSyn,
		".py": pySyn, ".pyi": pySyn,
		".sh": hashSyn, ".bash": hashSyn, ".zsh": hashSyn, ".ksh": hashSyn, ".fish": hashSyn,
		".rb": hashSyn, ".pl": hashSyn, ".pm": hashSyn, ".r": hashSyn,
		".yaml": yamlSyn, ".yml": yamlSyn, ".toml": tomlSyn, ".mk": makeSyn,
		".sql": sqlSyn, ".lua": luaSyn, ".hs": hsSyn,
		".el": lispSyn, ".lisp": lispSyn, ".clj": lispSyn, ".scm": lispSyn,
		".html": markup, ".htm": markup, ".xml": markup, ".svg": markup,
	}
	syntaxByName = map[string]*syntax{"Makefile": makeSyn, "GNUmakefile": makeSyn, "makefile": makeSyn, "Dockerfile": hashSyn}
)

// syntaxFor returns the comment syntax of the file at path; nil when the
// table does not know its language.
func syntaxFor(path string) *syntax {
	base := filepath.Base(path)
	if s, ok := syntaxByName[base]; ok {
		return s
	}
	return syntaxByExt[strings.ToLower(filepath.Ext(base))]
}

// Marks in a line's signature: whitespace outside strings (kept as one
// space, dropped where it cannot separate tokens: norm), and whitespace
// inside strings (part of the code).
const (
	sigSpace    = ' '
	sigStrSpace = '\x01'
)

// lineSigs are a text's lines as the classification compares them.
type lineSigs struct {
	code []string // the line without comments: code, whitespace marked
	all  []string // the line with comments, whitespace marked (comments' own whitespace taken out)
	// at, when scan was asked for some lines only, is per line of the
	// text its index in code and all, which hold those lines alone (two
	// strings a line for a million-line file were 64 MB); nil: every line.
	at []int32
}

// codes are the code signatures of lines a0 to a1, all asked for.
func (s lineSigs) codes(a0, a1 int) []string { return s.span(s.code, a0, a1) }

// alls are the signatures with comments of lines a0 to a1.
func (s lineSigs) alls(a0, a1 int) []string { return s.span(s.all, a0, a1) }

func (s lineSigs) span(sigs []string, a0, a1 int) []string {
	switch {
	case a0 == a1:
		return nil
	case s.at == nil:
		return sigs[a0:a1]
	}
	k := int(s.at[a0])
	return sigs[k : k+a1-a0]
}

// scan reads lines (with their endings) as one text in syntax s and
// returns the signatures of the lines want marks (every line when want is
// nil); the others' are "". It reads every line, to know where comments
// and strings begin and end, but builds signatures only for the lines
// asked for: a file's hunks change few of its lines, and building every
// line's signature made classifying a big file cost seconds.
func (s *syntax) scan(lines []string, want []bool) lineSigs {
	var out lineSigs
	if want == nil {
		out.code, out.all = make([]string, len(lines)), make([]string, len(lines))
	} else {
		out.at = make([]int32, len(lines))
	}
	var sc scanner
	var code, all strings.Builder
	for i, l := range lines {
		body := strings.TrimRight(l, "\r\n")
		sc.lineStart()
		if want != nil && !want[i] {
			sc.skip(s, body)
			continue
		}
		code.Reset()
		all.Reset()
		sc.sign(s, body, &code, &all)
		if sc.state == inString && sc.q.multiline && len(body) < len(l) {
			code.WriteString(string(sigStrSpace) + "\n") // the line break is the string's
			all.WriteString(string(sigStrSpace) + "\n")
		}
		if out.at != nil {
			out.at[i] = int32(len(out.code))
			out.code, out.all = append(out.code, code.String()), append(out.all, all.String())
		} else {
			out.code[i], out.all[i] = code.String(), all.String()
		}
	}
	return out
}

// What the scanner is in at a point of the text.
const (
	inCode = iota
	inLine
	inBlock
	inString
)

// scanner is where scan is in a text: in code, a comment or a string.
type scanner struct {
	state    int
	blockEnd string // the block comment's end delimiter (inBlock)
	q        quote  // the string's delimiters (inString)
}

// lineStart ends, at a line break, what does not span lines.
func (sc *scanner) lineStart() {
	if sc.state == inLine || sc.state == inString && !sc.q.multiline {
		sc.state = inCode
	}
}

// sign reads one line's body (its ending taken off) and writes its
// signatures: code without comments, and all of it.
func (sc *scanner) sign(s *syntax, body string, code, all *strings.Builder) {
	for j := 0; j < len(body); {
		rest := body[j:]
		if c := body[j]; sc.state == inCode && c < utf8.RuneSelf && !s.opens(c) {
			if asciiSpace(c) {
				c = sigSpace
			}
			code.WriteByte(c) // plain code, the common case
			all.WriteByte(c)
			j++
			continue
		}
		r, size := utf8.DecodeRuneInString(rest)
		switch sc.state {
		case inCode:
			if unicode.IsSpace(r) {
				code.WriteByte(sigSpace)
				all.WriteByte(sigSpace)
				j += size
				continue
			}
			if end, n := s.blockAt(rest); n > 0 {
				sc.state, sc.blockEnd = inBlock, end
				all.WriteString(rest[:n])
				j += n
				continue
			}
			if n := s.lineAt(body, j); n > 0 {
				sc.state = inLine
				all.WriteString(rest[:n])
				j += n
				continue
			}
			if qq, ok := s.quoteAt(rest); ok {
				sc.state, sc.q = inString, qq
				code.WriteString(qq.open)
				all.WriteString(qq.open)
				j += len(qq.open)
				continue
			}
			code.WriteString(rest[:size])
			all.WriteString(rest[:size])
			j += size
		case inLine:
			if !unicode.IsSpace(r) {
				all.WriteString(rest[:size])
			}
			j += size
		case inBlock:
			if strings.HasPrefix(rest, sc.blockEnd) {
				all.WriteString(sc.blockEnd)
				sc.state = inCode
				j += len(sc.blockEnd)
				continue
			}
			if !unicode.IsSpace(r) {
				all.WriteString(rest[:size])
			}
			j += size
		case inString:
			q := sc.q
			if !q.raw && r == '\\' && j+1 < len(body) {
				_, n := utf8.DecodeRuneInString(body[j+1:])
				code.WriteString(body[j : j+1+n])
				all.WriteString(body[j : j+1+n])
				j += 1 + n
				continue
			}
			if strings.HasPrefix(rest, q.close) {
				code.WriteString(q.close)
				all.WriteString(q.close)
				sc.state = inCode
				j += len(q.close)
				continue
			}
			c := rest[:size]
			if unicode.IsSpace(r) {
				c = string(sigStrSpace) + c // the exact whitespace, marked as a string's
			}
			code.WriteString(c)
			all.WriteString(c)
			j += size
		}
	}
}

// skip reads one line's body as sign does, only to know the state at its
// end: byte by byte, as every delimiter is ASCII (a byte of a multi-byte
// character never starts one), jumping over what cannot end the state.
func (sc *scanner) skip(s *syntax, body string) {
	for j := 0; j < len(body); {
		switch sc.state {
		case inCode:
			c := body[j]
			if c >= utf8.RuneSelf || !s.opens(c) {
				j++
				continue
			}
			rest := body[j:]
			if end, n := s.blockAt(rest); n > 0 {
				sc.state, sc.blockEnd = inBlock, end
				j += n
			} else if n := s.lineAt(body, j); n > 0 {
				sc.state = inLine
				return
			} else if qq, ok := s.quoteAt(rest); ok {
				sc.state, sc.q = inString, qq
				j += len(qq.open)
			} else {
				j++
			}
		case inLine:
			return
		case inBlock:
			k := strings.Index(body[j:], sc.blockEnd)
			if k < 0 {
				return
			}
			sc.state = inCode
			j += k + len(sc.blockEnd)
		case inString:
			q := sc.q
			for c := q.close[0]; j < len(body) && body[j] != c && body[j] != '\\'; {
				j++ // nothing that ends or escapes
			}
			if j == len(body) {
				return
			}
			switch c := body[j]; {
			case !q.raw && c == '\\' && j+1 < len(body):
				_, n := utf8.DecodeRuneInString(body[j+1:])
				j += 1 + n
			case strings.HasPrefix(body[j:], q.close):
				sc.state = inCode
				j += len(q.close)
			default:
				j++
			}
		}
	}
}

// opens reports whether byte c may start a comment or a string in s.
func (s *syntax) opens(c byte) bool { return s.openers[c] }

func init() {
	for _, m := range []map[string]*syntax{syntaxByExt, syntaxByName} {
		for _, s := range m {
			for _, b := range s.block {
				s.openers[b[0][0]] = true
			}
			for _, l := range s.line {
				s.openers[l[0]] = true
			}
			for _, q := range s.quotes {
				s.openers[q.open[0]] = true
			}
		}
	}
}

// asciiSpace reports whether c is an ASCII byte unicode.IsSpace takes
// for space.
func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// blockAt returns the end delimiter and the length of the block comment
// opener rest starts with, if any.
func (s *syntax) blockAt(rest string) (string, int) {
	for _, b := range s.block {
		if strings.HasPrefix(rest, b[0]) {
			return b[1], len(b[0])
		}
	}
	return "", 0
}

// lineAt returns the length of the line comment marker at body[j:], if
// one starts a comment there.
func (s *syntax) lineAt(body string, j int) int {
	for _, m := range s.line {
		if !strings.HasPrefix(body[j:], m) {
			continue
		}
		if j > 0 && body[j-1] == '\\' {
			continue // escaped: a regular expression's "\/\/", a shell's "\#"
		}
		if s.atWord && j > 0 && !unicode.IsSpace(rune(body[j-1])) {
			continue
		}
		return len(m)
	}
	return 0
}

// quoteAt returns the string literal rest starts with, if any.
func (s *syntax) quoteAt(rest string) (quote, bool) {
	for _, q := range s.quotes {
		if strings.HasPrefix(rest, q.open) {
			return q, true
		}
	}
	return quote{}, false
}

// norm joins the signatures of lines into one, keeping a space only where
// it separates two word characters or two operator characters (so "x:=1"
// and "x := 1" are the same, "a b" and "ab" or "- -" and "--" are not).
func norm(sigs []string) string {
	joined := strings.Join(sigs, string(sigSpace))
	var b strings.Builder
	var prev rune = -1
	pendingSpace := false
	for _, r := range joined {
		if r == sigSpace {
			pendingSpace = true
			continue
		}
		if pendingSpace && prev >= 0 && separates(prev, r) {
			b.WriteRune(sigSpace)
		}
		pendingSpace = false
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}

// separates reports whether whitespace between a and b keeps two tokens
// apart.
func separates(a, b rune) bool {
	word := func(r rune) bool { return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r) }
	op := func(r rune) bool { return strings.ContainsRune("+-*/%&|^<>=!:.?~#@", r) }
	return word(a) && word(b) || op(a) && op(b)
}
