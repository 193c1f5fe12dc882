// Package glob is gitignore-syntax pattern matching: the one syntax of
// ignore files and of every glob in the config.
package glob

import (
	"errors"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Pattern is one compiled gitignore-syntax pattern. The same syntax
// serves ignore files and every glob in the config (formatter, auto_approve,
// protected), so a user learns it once:
//   - a pattern without a slash (other than a trailing one) matches a name
//     at any depth: "*.go", ".env*", "node_modules/";
//   - a pattern with a slash is anchored to its base directory (the ignore
//     file's directory or the workspace root): "docs/**", "/build";
//   - "**" as a whole segment matches any number of directories ("a/**/b",
//     "**/x"), and a trailing "/**" everything inside a directory;
//   - "*" and "?" never match "/"; "[a-z]", "[!a]", "[^a]" and
//     "[[:digit:]]" classes; a backslash makes the next character literal;
//   - a trailing "/" matches directories only; "!" re-includes (ignore
//     files only).
//
// Matching is case-sensitive and "?" matches one character (rune), not one
// byte.
type Pattern struct {
	text     string   // the pattern as written, for messages
	negate   bool     // "!pattern": re-include
	dirOnly  bool     // "pattern/": directories only
	anchored bool     // matches paths relative to the base, not names
	segs     []string // slash-separated segments; "**" matches any number of them
}

// String returns the pattern as written.
func (p Pattern) String() string { return p.text }

// Negated reports whether the pattern re-includes ("!pattern").
func (p Pattern) Negated() bool { return p.negate }

// IsZero reports whether p is the zero Pattern: not compiled, or compiled
// from an empty line.
func (p Pattern) IsZero() bool { return len(p.segs) == 0 }

// errGlobClass reports a "[" with no closing "]".
var errGlobClass = errors.New(`a "[" has no closing "]"; escape it as "\["`)

// Compile compiles one pattern line. skip is true for a blank line or a
// comment. A malformed class is reported as an error; ignore files, like
// git, keep such a pattern but it never matches.
func Compile(line string) (p Pattern, skip bool, err error) {
	line = strings.TrimSuffix(line, "\r")
	line = trimUnescapedSpaces(line)
	if line == "" || line[0] == '#' {
		return Pattern{}, true, nil
	}
	p.text = line
	if line[0] == '!' {
		p.negate, line = true, line[1:]
	}
	if strings.HasSuffix(line, "/") {
		p.dirOnly, line = true, strings.TrimRight(line, "/")
	}
	p.anchored = strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	if line == "" {
		return Pattern{}, true, nil
	}
	for _, s := range strings.Split(line, "/") {
		if s == "" {
			continue // "a//b" means "a/b"
		}
		if s == "**" && len(p.segs) > 0 && p.segs[len(p.segs)-1] == "**" {
			continue // "**/**" means "**"
		}
		if !validGlobClasses(s) {
			err = errGlobClass
		}
		p.segs = append(p.segs, s)
	}
	return p, false, err
}

// trimUnescapedSpaces drops trailing spaces unless a backslash escapes them.
func trimUnescapedSpaces(s string) string {
	for strings.HasSuffix(s, " ") {
		body := s[:len(s)-1]
		slashes := len(body) - len(strings.TrimRight(body, `\`))
		if slashes%2 == 1 {
			return s
		}
		s = body
	}
	return s
}

// Match reports whether rel, a slash-separated path relative to the
// pattern's base, matches. It ignores negation: the caller decides what a
// match means.
func (p Pattern) Match(rel string, isDir bool) bool {
	if len(p.segs) == 0 || (p.dirOnly && !isDir) {
		return false
	}
	if !p.anchored {
		return matchGlobSegment(p.segs[0], path.Base(rel))
	}
	return matchGlobSegs(p.segs, strings.Split(rel, "/"))
}

// MatchWithParents reports whether rel or any directory above it matches,
// which is how a pattern like ".git/" or "build" covers everything inside.
func (p Pattern) MatchWithParents(rel string, isDir bool) bool {
	for i := 0; i < len(rel); i++ {
		if rel[i] == '/' && p.Match(rel[:i], true) {
			return true
		}
	}
	return p.Match(rel, isDir)
}

// matchGlobSegs matches pattern segments against path segments. A "**"
// segment matches zero or more path segments, except at the end of the
// pattern, where it needs at least one ("dir/**" is what is inside dir).
// Like matchGlobSegment one level down, it backtracks only to the last
// "**", so a pattern with many of them still matches in
// O(len(segs)·len(parts)).
func matchGlobSegs(segs, parts []string) bool {
	if n := len(segs); n > 0 && segs[n-1] == "**" {
		// segs[:n-1] must match a proper prefix of parts: let the final
		// "**" take what it may of all parts but the last.
		if len(parts) == 0 {
			return false
		}
		parts = parts[:len(parts)-1]
	}
	si, pi := 0, 0
	star, mark := -1, 0
	for pi < len(parts) {
		switch {
		case si < len(segs) && segs[si] == "**":
			star, mark = si, pi
			si++
		case si < len(segs) && matchGlobSegment(segs[si], parts[pi]):
			si, pi = si+1, pi+1
		case star >= 0:
			mark++
			si, pi = star+1, mark
		default:
			return false
		}
	}
	for si < len(segs) && segs[si] == "**" {
		si++
	}
	return si == len(segs)
}

// matchGlobSegment matches one path segment (no "/") against one pattern
// segment with "*", "?", classes and backslash escapes. It backtracks only
// to the last "*", so it runs in O(len(pat)·len(name)).
func matchGlobSegment(pat, name string) bool {
	px, nx := 0, 0
	starPx, starNx := -1, 0
	for px < len(pat) || nx < len(name) {
		if px < len(pat) {
			switch c := pat[px]; c {
			case '*':
				starPx, starNx = px, nx
				px++
				continue
			case '?':
				if nx < len(name) {
					_, w := utf8.DecodeRuneInString(name[nx:])
					px, nx = px+1, nx+w
					continue
				}
			case '[':
				if nx < len(name) {
					r, w := utf8.DecodeRuneInString(name[nx:])
					ok, next, valid := matchGlobClass(pat, px, r)
					if !valid {
						return false
					}
					if ok {
						px, nx = next, nx+w
						continue
					}
				}
			case '\\':
				if px+1 < len(pat) && nx < len(name) && pat[px+1] == name[nx] {
					px, nx = px+2, nx+1
					continue
				}
			default:
				if nx < len(name) && name[nx] == c {
					px, nx = px+1, nx+1
					continue
				}
			}
		}
		if starPx < 0 || starNx >= len(name) {
			return false
		}
		_, w := utf8.DecodeRuneInString(name[starNx:])
		starNx += w
		px, nx = starPx+1, starNx
	}
	return true
}

// matchGlobClass matches r against the class starting at pat[i] == '['. It
// returns whether r is in the class, the index after the class, and false
// for valid if the class is not closed.
func matchGlobClass(pat string, i int, r rune) (ok bool, next int, valid bool) {
	i++
	negate := false
	if i < len(pat) && (pat[i] == '!' || pat[i] == '^') {
		negate, i = true, i+1
	}
	in := false
	for first := true; ; first = false {
		if i >= len(pat) {
			return false, 0, false
		}
		if pat[i] == ']' && !first {
			return in != negate, i + 1, true
		}
		if strings.HasPrefix(pat[i:], "[:") {
			if end := strings.Index(pat[i+2:], ":]"); end >= 0 {
				is, known := posixClasses[pat[i+2:i+2+end]]
				if !known {
					return false, 0, false
				}
				in = in || is(r)
				i += end + 4
				continue
			}
		}
		lo, w := classRune(pat, i)
		if w == 0 {
			return false, 0, false
		}
		i += w
		hi := lo
		if i+1 < len(pat) && pat[i] == '-' && pat[i+1] != ']' {
			hi, w = classRune(pat, i+1)
			if w == 0 {
				return false, 0, false
			}
			i += 1 + w
		}
		if lo <= r && r <= hi {
			in = true
		}
	}
}

// classRune decodes the (possibly backslash-escaped) rune at pat[i] and its
// width in bytes; 0 if the pattern ends.
func classRune(pat string, i int) (rune, int) {
	if pat[i] == '\\' {
		if i+1 >= len(pat) {
			return 0, 0
		}
		r, w := utf8.DecodeRuneInString(pat[i+1:])
		return r, w + 1
	}
	return utf8.DecodeRuneInString(pat[i:])
}

// validGlobClasses reports whether every "[" class in seg is closed.
func validGlobClasses(seg string) bool {
	for i := 0; i < len(seg); i++ {
		switch seg[i] {
		case '\\':
			i++
		case '[':
			_, next, valid := matchGlobClass(seg, i, 0)
			if !valid {
				return false
			}
			i = next - 1
		}
	}
	return true
}

// posixClasses are the "[[:name:]]" classes gitignore (wildmatch) knows.
var posixClasses = map[string]func(rune) bool{
	"alnum":  func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) },
	"alpha":  unicode.IsLetter,
	"blank":  func(r rune) bool { return r == ' ' || r == '\t' },
	"cntrl":  unicode.IsControl,
	"digit":  unicode.IsDigit,
	"graph":  func(r rune) bool { return unicode.IsGraphic(r) && !unicode.IsSpace(r) },
	"lower":  unicode.IsLower,
	"print":  unicode.IsPrint,
	"punct":  unicode.IsPunct,
	"space":  unicode.IsSpace,
	"upper":  unicode.IsUpper,
	"xdigit": func(r rune) bool { return strings.ContainsRune("0123456789abcdefABCDEF", r) },
}
