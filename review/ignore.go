package review

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"
)

// IgnoreFileNames are the ignore files a workspace honours, at its root and
// in any directory below it. Each is read with gitignore syntax; a path any
// of them ignores is refused.
var IgnoreFileNames = []string{".diffdeskignore", ".clineignore", ".geminiignore", ".aiderignore"}

// globPattern is one compiled gitignore-syntax pattern. The same syntax
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
type globPattern struct {
	text     string   // the pattern as written, for messages
	line     int      // 1-based line in its file; 0 for config globs
	negate   bool     // "!pattern": re-include
	dirOnly  bool     // "pattern/": directories only
	anchored bool     // matches paths relative to the base, not names
	segs     []string // slash-separated segments; "**" matches any number of them
}

// errGlobClass reports a "[" with no closing "]".
var errGlobClass = errors.New(`a "[" has no closing "]"; escape it as "\["`)

// compileGlob compiles one pattern line. skip is true for a blank line or a
// comment. A malformed class is reported as an error; ignore files, like
// git, keep such a pattern but it never matches.
func compileGlob(line string) (p globPattern, skip bool, err error) {
	line = strings.TrimSuffix(line, "\r")
	line = trimUnescapedSpaces(line)
	if line == "" || line[0] == '#' {
		return globPattern{}, true, nil
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
		return globPattern{}, true, nil
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

// match reports whether rel, a slash-separated path relative to the
// pattern's base, matches. It ignores negation: the caller decides what a
// match means.
func (p globPattern) match(rel string, isDir bool) bool {
	if len(p.segs) == 0 || (p.dirOnly && !isDir) {
		return false
	}
	if !p.anchored {
		return matchGlobSegment(p.segs[0], path.Base(rel))
	}
	return matchGlobSegs(p.segs, strings.Split(rel, "/"))
}

// matchWithParents reports whether rel or any directory above it matches,
// which is how a pattern like ".git/" or "build" covers everything inside.
func (p globPattern) matchWithParents(rel string, isDir bool) bool {
	for i := 0; i < len(rel); i++ {
		if rel[i] == '/' && p.match(rel[:i], true) {
			return true
		}
	}
	return p.match(rel, isDir)
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

// ignoreFile is one parsed ignore file.
type ignoreFile struct {
	path     string        // absolute
	dir      string        // slash-separated directory relative to the root; "" at the root
	patterns []globPattern // in file order
	modTime  time.Time     // when read, to notice edits
	size     int64
}

// parseIgnoreFile parses gitignore-syntax data.
func parseIgnoreFile(data []byte) []globPattern {
	var out []globPattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for n := 1; sc.Scan(); n++ {
		p, skip, _ := compileGlob(sc.Text())
		if skip {
			continue
		}
		p.line = n
		out = append(out, p)
	}
	return out
}

// ignoreCache reads ignore files on demand and rereads one when its size or
// modification time changes, so edits to ignore files apply to the next
// Resolve without a watcher. It is safe for concurrent use.
type ignoreCache struct {
	mu    sync.Mutex
	files map[string]*ignoreFile // by absolute path; nil entry: no such file
}

// maxIgnoreFileBytes bounds how much of an ignore file is read (1 MiB).
const maxIgnoreFileBytes = 1 << 20

// load returns the parsed ignore file at abs, or nil if there is none.
func (c *ignoreCache) load(abs, dir string) (*ignoreFile, error) {
	fi, err := os.Stat(abs)
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || (err == nil && !fi.Mode().IsRegular()) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("review: reading ignore file: %w", err)
	}
	c.mu.Lock()
	cached := c.files[abs]
	c.mu.Unlock()
	if cached != nil && cached.modTime.Equal(fi.ModTime()) && cached.size == fi.Size() {
		return cached, nil
	}
	f, err := os.Open(abs)
	if err != nil {
		return nil, fmt.Errorf("review: reading ignore file: %w", err)
	}
	defer f.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(io.LimitReader(f, maxIgnoreFileBytes)); err != nil {
		return nil, fmt.Errorf("review: reading ignore file %s: %w", abs, err)
	}
	loaded := &ignoreFile{path: abs, dir: dir, patterns: parseIgnoreFile(buf.Bytes()), modTime: fi.ModTime(), size: fi.Size()}
	c.mu.Lock()
	if c.files == nil {
		c.files = map[string]*ignoreFile{}
	}
	c.files[abs] = loaded
	c.mu.Unlock()
	return loaded, nil
}

// ignoreVerdict says which ignore file line ignores a path.
type ignoreVerdict struct {
	file    string // absolute path of the ignore file
	line    int    // 1-based
	pattern string // as written
}

// ignored reports whether rel (slash-separated, relative to root, not
// empty) is ignored by any of the ignore files. Each ignore file name is a
// separate gitignore stack (root file first, deeper files override), so a
// negation in one tool's file cannot re-include what another tool's file
// ignores. As in git, nothing inside an ignored directory can be
// re-included.
func (c *ignoreCache) ignored(root, rel string, isDir bool) (ignoreVerdict, bool, error) {
	parts := strings.Split(rel, "/")
	for _, name := range IgnoreFileNames {
		var stack []*ignoreFile
		for depth := range parts {
			dir := strings.Join(parts[:depth], "/")
			f, err := c.load(filepath.Join(root, filepath.FromSlash(path.Join(dir, name))), dir)
			if err != nil {
				return ignoreVerdict{}, false, err
			}
			if f != nil {
				stack = append(stack, f)
			}
			entry := strings.Join(parts[:depth+1], "/")
			entryIsDir := isDir || depth < len(parts)-1
			if v, ok := stackVerdict(stack, entry, entryIsDir); ok {
				return v, true, nil
			}
		}
	}
	return ignoreVerdict{}, false, nil
}

// stackVerdict applies the last pattern in stack that matches entry.
func stackVerdict(stack []*ignoreFile, entry string, isDir bool) (ignoreVerdict, bool) {
	for i := len(stack) - 1; i >= 0; i-- {
		f := stack[i]
		rel := entry
		if f.dir != "" {
			rel = strings.TrimPrefix(entry, f.dir+"/")
		}
		for j := len(f.patterns) - 1; j >= 0; j-- {
			p := f.patterns[j]
			if p.match(rel, isDir) {
				if p.negate {
					return ignoreVerdict{}, false
				}
				return ignoreVerdict{file: f.path, line: p.line, pattern: p.text}, true
			}
		}
	}
	return ignoreVerdict{}, false
}
