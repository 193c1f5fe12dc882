package review

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
}

// scan reads lines (with their endings) as one text in syntax s.
func (s *syntax) scan(lines []string) lineSigs {
	out := lineSigs{code: make([]string, len(lines)), all: make([]string, len(lines))}
	const (
		inCode = iota
		inLine
		inBlock
		inString
	)
	state := inCode
	var blockEnd string
	var q quote
	var code, all strings.Builder
	for i, l := range lines {
		code.Reset()
		all.Reset()
		body := strings.TrimRight(l, "\r\n")
		if state == inLine {
			state = inCode
		}
		if state == inString && !q.multiline {
			state = inCode
		}
		for j := 0; j < len(body); {
			rest := body[j:]
			r, size := utf8.DecodeRuneInString(rest)
			switch state {
			case inCode:
				if unicode.IsSpace(r) {
					code.WriteByte(sigSpace)
					all.WriteByte(sigSpace)
					j += size
					continue
				}
				if end, n := s.blockAt(rest); n > 0 {
					state, blockEnd = inBlock, end
					all.WriteString(rest[:n])
					j += n
					continue
				}
				if n := s.lineAt(body, j); n > 0 {
					state = inLine
					all.WriteString(rest[:n])
					j += n
					continue
				}
				if qq, ok := s.quoteAt(rest); ok {
					state, q = inString, qq
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
				if strings.HasPrefix(rest, blockEnd) {
					all.WriteString(blockEnd)
					state = inCode
					j += len(blockEnd)
					continue
				}
				if !unicode.IsSpace(r) {
					all.WriteString(rest[:size])
				}
				j += size
			case inString:
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
					state = inCode
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
		if state == inString && q.multiline && len(body) < len(l) {
			code.WriteString(string(sigStrSpace) + "\n") // the line break is the string's
			all.WriteString(string(sigStrSpace) + "\n")
		}
		out.code[i], out.all[i] = code.String(), all.String()
	}
	return out
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
