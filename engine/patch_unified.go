package engine

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Unified diffs, plain ("--- old", "+++ new", "@@ -l,n +l,n @@") or
// git-style ("diff --git a/x b/y" with extended headers). "/dev/null" on
// the old side adds a file and on the new side deletes it; "rename from" /
// "rename to" move it. Text before, between and after file sections is
// ignored, as GNU patch does; mode changes are ignored; binary and copy
// diffs are refused. Paths lose git's "a/" and "b/" prefixes. When the two
// names of a plain diff differ, the new name is patched, except that the
// top directories of "diff -ru old new" are dropped, and a side dated at the
// Unix epoch (diff -N) is a missing file. A diff whose hunks only add lines
// creates its file if it does not exist, as GNU patch does.
//
// Agents miscount hunk lines, so the counts in a hunk header are a guide:
// lines are read while the counts say more are due, then for as long as
// they look like hunk lines (' ', '-', '+', '\'). A hunk header without
// numbers ("@@" or "@@ … @@") is accepted and located by search alone.

const patchDevNull = "/dev/null"

// patchHunkHeader matches a unified hunk header. Like the engine's other
// patterns it is compiled at first use, not at start, so that a program
// that only diffs (deskdiff) starts as fast as git.
var patchHunkHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^@@+ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@+`)
})

func patchUnifiedError(i int, format string, args ...any) error {
	return &FormatError{Format: FormatPatch, Line: i + 1, Msg: fmt.Sprintf(format, args...)}
}

// patchUnifiedParser walks the lines of a unified diff; i is 0-based.
type patchUnifiedParser struct {
	lines []string
	i     int
}

// parseUnifiedPatch parses a unified diff split into lines.
func parseUnifiedPatch(lines []string) ([]patchSection, error) {
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	p := patchUnifiedParser{lines: lines}
	var sections []patchSection
	for p.i < len(lines) {
		l := lines[p.i]
		switch {
		case strings.HasPrefix(l, "diff --git "), p.fileHeaderAt(p.i):
			s, keep, err := p.section()
			if err != nil {
				return nil, err
			}
			if keep {
				sections = append(sections, s)
			}
		case strings.HasPrefix(l, "@@"):
			return nil, patchUnifiedError(p.i, "the hunk '%s' has no file header; put '--- a/path' and '+++ b/path' lines before it", l)
		default:
			p.i++
		}
	}
	if len(sections) == 0 {
		return nil, patchUnifiedError(0, "the diff changes no file; give each file a '--- a/path' and '+++ b/path' header followed by '@@ -l,n +l,n @@' hunks")
	}
	return sections, nil
}

// fileHeaderAt reports whether a "--- " / "+++ " pair starts at line i.
func (p *patchUnifiedParser) fileHeaderAt(i int) bool {
	return i+1 < len(p.lines) && strings.HasPrefix(p.lines[i], "--- ") && strings.HasPrefix(p.lines[i+1], "+++ ")
}

// section reads one file's headers and hunks. keep is false for a section
// that changes no content (a mode change).
func (p *patchUnifiedParser) section() (s patchSection, keep bool, err error) {
	s = patchSection{line: p.i + 1, unified: true}
	var oldName, newName, renameFrom, renameTo string
	var added, deleted, git bool
	if l := p.lines[p.i]; strings.HasPrefix(l, "diff --git ") {
		git = true
		oldName, newName = patchGitNames(l[len("diff --git "):])
		p.i++
	headers:
		for ; p.i < len(p.lines); p.i++ {
			l := p.lines[p.i]
			switch {
			case strings.HasPrefix(l, "new file mode"):
				added = true
			case strings.HasPrefix(l, "deleted file mode"):
				deleted = true
			case strings.HasPrefix(l, "rename from "):
				renameFrom = patchDiffName(l[len("rename from "):])
			case strings.HasPrefix(l, "rename to "):
				renameTo = patchDiffName(l[len("rename to "):])
			case strings.HasPrefix(l, "copy from ") || strings.HasPrefix(l, "copy to "):
				return s, false, patchUnifiedError(p.i, "copies are not supported; send the new file as a diff from /dev/null")
			case strings.HasPrefix(l, "Binary files ") || l == "GIT binary patch":
				return s, false, patchUnifiedError(p.i, "binary diffs are not supported; DiffDesk edits text files only")
			case strings.HasPrefix(l, "old mode"), strings.HasPrefix(l, "new mode"), strings.HasPrefix(l, "index "),
				strings.HasPrefix(l, "similarity index"), strings.HasPrefix(l, "dissimilarity index"):
			default:
				break headers
			}
		}
	}
	if p.fileHeaderAt(p.i) {
		oldHeader, newHeader := p.lines[p.i][4:], p.lines[p.i+1][4:]
		oldName, newName = patchDiffName(oldHeader), patchDiffName(newHeader)
		if !git {
			// diff -N dates a missing file at the Unix epoch.
			added, deleted = patchEpoch(oldHeader), patchEpoch(newHeader)
		}
		p.i += 2
	} else if !git {
		return s, false, patchUnifiedError(p.i, "expected '--- a/path' and '+++ b/path' lines")
	}
	if git || (strings.HasPrefix(oldName, "a/") || oldName == patchDevNull) && (strings.HasPrefix(newName, "b/") || newName == patchDevNull) {
		oldName = strings.TrimPrefix(oldName, "a/")
		newName = strings.TrimPrefix(newName, "b/")
	} else if o, n, ok := strings.Cut(oldName, "/"); ok {
		// diff -ru old new: the same path under two top directories.
		if m, k, ok := strings.Cut(newName, "/"); ok && o != m && n == k {
			oldName, newName = n, k
		}
	}
	added = added || oldName == patchDevNull
	deleted = deleted || newName == patchDevNull
	for p.i < len(p.lines) && strings.HasPrefix(p.lines[p.i], "@@") {
		ch, err := p.hunk()
		if err != nil {
			return s, false, err
		}
		s.chunks = append(s.chunks, ch)
	}
	var raw, what string
	switch {
	case added && deleted:
		return s, false, patchUnifiedError(s.line-1, "the diff both creates and deletes the file; /dev/null may stand on one side only")
	case added:
		s.op, raw, what = PatchAdd, newName, "the new file"
	case deleted:
		s.op, raw, what = PatchDelete, oldName, "the deleted file"
	case renameFrom != "" || renameTo != "":
		s.op, raw, what = PatchUpdate, renameFrom, "rename from"
		if s.moveTo, err = cleanPatchPath(renameTo, s.line, "rename to"); err != nil {
			return s, false, err
		}
	default:
		s.op, raw, what = PatchUpdate, newName, "the file"
		if len(s.chunks) == 0 {
			if git {
				return s, false, nil
			}
			return s, false, patchUnifiedError(s.line-1, "the diff of %s has no hunks; follow the --- / +++ lines with '@@ -l,n +l,n @@' hunks", newName)
		}
	}
	s.path, err = cleanPatchPath(raw, s.line, what)
	return s, err == nil, err
}

// hunk reads one "@@" hunk and its lines.
func (p *patchUnifiedParser) hunk() (patchChunk, error) {
	head := p.lines[p.i]
	ch := patchChunk{line: p.i + 1, oldStart: -1}
	oldWant, newWant := -1, -1
	if m := patchHunkHeader().FindStringSubmatch(head); m != nil {
		start, _ := strconv.Atoi(m[1])
		oldWant, newWant = 1, 1
		if m[2] != "" {
			oldWant, _ = strconv.Atoi(m[2])
		}
		if m[4] != "" {
			newWant, _ = strconv.Atoi(m[4])
		}
		ch.oldStart = max(start-1, 0)
		if oldWant == 0 {
			ch.oldStart = start // an insertion after line start
		}
	} else if t := strings.TrimSpace(head); t != "@@" && !(strings.HasSuffix(t, "@@") && len(t) >= 4) {
		return ch, patchUnifiedError(p.i, "'%s' is not a valid hunk header; expected '@@ -l,n +l,n @@'", head)
	}
	p.i++
	var oldGot, newGot int
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		due := oldWant >= 0 && (oldGot < oldWant || newGot < newWant)
		if strings.HasPrefix(l, "@@") || strings.HasPrefix(l, "diff --git ") || (!due && p.fileHeaderAt(p.i)) {
			break
		}
		if !due && l == "" && (oldWant >= 0 || !p.moreHunkLines(p.i)) {
			break
		}
		var kind byte = ' '
		text := ""
		if l != "" {
			kind, text = l[0], l[1:]
		}
		switch kind {
		case ' ', '-', '+':
			ch.lines = append(ch.lines, patchLine{kind, text})
			if kind != '+' {
				oldGot++
			}
			if kind != '-' {
				newGot++
			}
		case '\\':
			if n := len(ch.lines); n > 0 {
				k := ch.lines[n-1].kind
				ch.oldNoEOL = ch.oldNoEOL || k != '+'
				ch.newNoEOL = ch.newNoEOL || k != '-'
			}
		default:
			if due {
				return ch, patchUnifiedError(p.i, "the hunk at line %d ends early: its header promises %d old and %d new lines but line %d, '%s', is not a hunk line (' ', '-', '+'); fix the counts or the line", ch.line, oldWant, newWant, p.i+1, l)
			}
			return ch, p.finishHunk(ch)
		}
		p.i++
	}
	return ch, p.finishHunk(ch)
}

// moreHunkLines reports whether hunk lines follow the blank lines at i, so
// that those are context lines whose leading space was lost.
func (p *patchUnifiedParser) moreHunkLines(i int) bool {
	for i < len(p.lines) && p.lines[i] == "" {
		i++
	}
	if i == len(p.lines) || p.fileHeaderAt(i) {
		return false
	}
	l := p.lines[i]
	return l[0] == ' ' || l[0] == '-' || l[0] == '+'
}

// finishHunk refuses a hunk with no lines.
func (p *patchUnifiedParser) finishHunk(ch patchChunk) error {
	if len(ch.lines) == 0 {
		return patchUnifiedError(ch.line-1, "the hunk has no lines; follow the @@ header with ' ' context, '-' removed and '+' added lines")
	}
	return nil
}

// patchGitNames splits the "a/x b/y" of a diff --git line.
func patchGitNames(s string) (string, string) {
	if strings.HasPrefix(s, `"`) {
		if q, err := strconv.QuotedPrefix(s); err == nil {
			return patchDiffName(q), patchDiffName(strings.TrimSpace(s[len(q):]))
		}
	}
	// Unquoted names may hold spaces: prefer the split where both sides
	// name the same file.
	for i := range len(s) {
		if s[i] == ' ' && strings.HasPrefix(s[i+1:], "b/") && strings.TrimPrefix(s[:i], "a/") == s[i+3:] {
			return s[:i], s[i+1:]
		}
	}
	if i := strings.LastIndex(s, " b/"); i >= 0 {
		return s[:i], s[i+1:]
	}
	return s, s
}

// patchEpoch reports whether a "---" or "+++" header is dated at the Unix
// epoch, which diff -N uses for a file that does not exist.
func patchEpoch(header string) bool {
	_, stamp, ok := strings.Cut(header, "\t")
	if !ok {
		return false
	}
	t, err := time.Parse("2006-01-02 15:04:05.999999999 -0700", strings.TrimSpace(stamp))
	return err == nil && t.Unix() == 0
}

// patchDiffName takes a file name from a header: without a tab-separated
// timestamp, trailing spaces or git's C-style quotes.
func patchDiffName(s string) string {
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimRight(s, " ")
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}
