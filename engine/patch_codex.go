package engine

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// The Codex apply_patch envelope:
//
//	*** Begin Patch
//	*** Add File: path        followed by "+" lines
//	*** Delete File: path
//	*** Update File: path     optionally "*** Move to: path", then chunks:
//	@@ [context line]         then " " context, "-" removed, "+" added lines,
//	*** End of File           optionally, anchoring the chunk at the end
//	*** End Patch
//
// Marker lines are compared trimmed. Leniencies beyond Codex: blank lines
// between sections are skipped, a blank line between "+" lines of an Add
// File is an empty line of the file, a unified-style "@@ -l,n +l,n @@
// heading" chunk header counts as "@@ heading", a chunk may start with
// several "@@ context" lines, each found after the one before, and a
// Markdown code fence around the envelope is dropped.

const (
	codexBegin   = "*** Begin Patch"
	codexEnd     = "*** End Patch"
	codexAdd     = "*** Add File:"
	codexDelete  = "*** Delete File:"
	codexUpdate  = "*** Update File:"
	codexMove    = "*** Move to:"
	codexEOF     = "*** End of File"
	codexEnvID   = "*** Environment ID:"
	codexBadHunk = "is not a valid hunk header; expected *** Add File:, *** Delete File: or *** Update File: followed by a path"
)

// codexHeredoc matches the opening of a heredoc wrapper such as <<EOF,
// <<'EOF' or apply_patch <<"EOF".
var codexHeredoc = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:apply_patch\s+)?<<\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)(['"]?)$`)
})

// codexHeredocOpen returns the terminator word if line opens a heredoc.
func codexHeredocOpen(line string) string {
	m := codexHeredoc().FindStringSubmatch(line)
	if m == nil || m[1] != m[3] {
		return ""
	}
	return m[2]
}

// codexUnifiedRange matches the line ranges of a unified hunk header, which an
// agent sometimes writes in a Codex chunk header.
var codexUnifiedRange = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^-\d+(?:,\d+)? \+\d+(?:,\d+)? @@ ?(.*)$`)
})

// codexParser walks the lines of a Codex patch; i is 0-based, error lines
// are 1-based.
type codexParser struct {
	lines []string
	i     int
	end   int // index of the "*** End Patch" line
}

func codexError(i int, format string, args ...any) error {
	return &FormatError{Format: FormatPatch, Line: i + 1, Msg: fmt.Sprintf(format, args...)}
}

// parseCodexPatch parses a Codex envelope split into lines.
func parseCodexPatch(lines []string) ([]patchSection, error) {
	first, last := 0, len(lines)-1
	for first <= last && strings.TrimSpace(lines[first]) == "" {
		first++
	}
	for last >= first && strings.TrimSpace(lines[last]) == "" {
		last--
	}
	if first > last {
		return nil, codexError(0, "the patch is empty")
	}
	if strings.HasPrefix(strings.TrimSpace(lines[first]), "```") && strings.TrimSpace(lines[last]) == "```" && last > first {
		// A Markdown code fence around the envelope.
		first, last = first+1, last-1
		for first <= last && strings.TrimSpace(lines[first]) == "" {
			first++
		}
		for last >= first && strings.TrimSpace(lines[last]) == "" {
			last--
		}
		if first > last {
			return nil, codexError(0, "the patch is empty")
		}
	}
	if word := codexHeredocOpen(strings.TrimSpace(lines[first])); word != "" {
		if strings.TrimSpace(lines[last]) != word || last == first {
			return nil, codexError(last, "the heredoc opened on line %d with <<%s is not closed; end the patch with a line %s", first+1, word, word)
		}
		first, last = first+1, last-1
		for first <= last && strings.TrimSpace(lines[first]) == "" {
			first++
		}
		for last >= first && strings.TrimSpace(lines[last]) == "" {
			last--
		}
	}
	if first > last || strings.TrimSpace(lines[first]) != codexBegin {
		got := ""
		if first <= last {
			got = strings.TrimSpace(lines[first])
		}
		return nil, codexError(first, "the first line of the patch must be '%s', not %q", codexBegin, got)
	}
	if last == first || strings.TrimSpace(lines[last]) != codexEnd {
		return nil, codexError(last, "the last line of the patch must be '%s', not %q; end the patch with it", codexEnd, strings.TrimSpace(lines[last]))
	}
	p := codexParser{lines: lines, i: first + 1, end: last}
	if p.i < p.end && strings.HasPrefix(strings.TrimSpace(lines[p.i]), codexEnvID) {
		p.i++
	}
	var sections []patchSection
	for {
		p.skipBlank()
		if p.i >= p.end {
			break
		}
		s, err := p.section()
		if err != nil {
			return nil, err
		}
		sections = append(sections, s)
	}
	if len(sections) == 0 {
		return nil, codexError(first, "the patch has no file sections; add *** Add File:, *** Delete File: or *** Update File: sections between '%s' and '%s'", codexBegin, codexEnd)
	}
	return sections, nil
}

func (p *codexParser) skipBlank() {
	for p.i < p.end && strings.TrimSpace(p.lines[p.i]) == "" {
		p.i++
	}
}

// codexHeader returns the path after prefix if the trimmed line starts with it.
func codexHeader(line, prefix string) (string, bool) {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, prefix) {
		return "", false
	}
	return strings.TrimSpace(t[len(prefix):]), true
}

func (p *codexParser) section() (patchSection, error) {
	line := p.lines[p.i]
	s := patchSection{line: p.i + 1}
	var raw, what string
	if path, ok := codexHeader(line, codexAdd); ok {
		s.op, raw, what = PatchAdd, path, codexAdd
	} else if path, ok := codexHeader(line, codexDelete); ok {
		s.op, raw, what = PatchDelete, path, codexDelete
	} else if path, ok := codexHeader(line, codexUpdate); ok {
		s.op, raw, what = PatchUpdate, path, codexUpdate
	} else {
		return s, codexError(p.i, "'%s' %s", strings.TrimSpace(line), codexBadHunk)
	}
	var err error
	if s.path, err = cleanPatchPath(raw, p.i+1, what); err != nil {
		return s, err
	}
	p.i++
	switch s.op {
	case PatchAdd:
		s.add = p.addLines()
	case PatchUpdate:
		if to, ok := codexHeader(p.lines[p.i], codexMove); p.i < p.end && ok {
			if s.moveTo, err = cleanPatchPath(to, p.i+1, codexMove); err != nil {
				return s, err
			}
			p.i++
		}
		if s.chunks, err = p.chunks(); err != nil {
			return s, err
		}
		if len(s.chunks) == 0 {
			return s, codexError(s.line-1, "'%s' has no chunks; follow it with '@@' and the lines to change (' ' context, '-' removed, '+' added), or drop the section", strings.TrimSpace(line))
		}
	}
	return s, nil
}

// addLines reads the "+" lines of an Add File section.
func (p *codexParser) addLines() []string {
	var out []string
	for p.i < p.end {
		l := p.lines[p.i]
		if strings.HasPrefix(l, "+") {
			out = append(out, l[1:])
			p.i++
			continue
		}
		// Blank lines followed by more "+" lines are empty lines of
		// the file whose "+" went missing.
		j := p.i
		for j < p.end && p.lines[j] == "" {
			j++
		}
		if j == p.i || j >= p.end || !strings.HasPrefix(p.lines[j], "+") {
			break
		}
		for ; p.i < j; p.i++ {
			out = append(out, "")
		}
	}
	return out
}

// chunks reads the chunks of an Update File section.
func (p *codexParser) chunks() ([]patchChunk, error) {
	var out []patchChunk
	for p.i < p.end {
		l := p.lines[p.i]
		if strings.TrimSpace(l) == "" {
			p.i++
			continue
		}
		if strings.HasPrefix(l, "***") {
			break // the next section, as in Codex: a padded "***" line is a context line
		}
		ch, err := p.chunk(len(out) == 0)
		if err != nil {
			return nil, err
		}
		out = append(out, ch)
	}
	return out, nil
}

// chunk reads one update chunk; the first chunk of a section may omit its
// "@@" line.
func (p *codexParser) chunk(first bool) (patchChunk, error) {
	ch := patchChunk{line: p.i + 1, oldStart: -1}
	head := p.lines[p.i]
	if !strings.HasPrefix(head, "@@") && !first {
		return ch, codexError(p.i, "'%s' is not a chunk line; start a new chunk with '@@', context lines with ' ', removed lines with '-' and added lines with '+'", head)
	}
	// "@@" or "@@ context" lines; several narrow the place step by step
	// ("@@ class A" then "@@ def f():"), as Codex's instructions allow.
	for p.i < p.end {
		l := p.lines[p.i]
		if strings.TrimSpace(l) == "@@" {
			p.i++
			continue
		}
		if !strings.HasPrefix(l, "@@ ") {
			break
		}
		ctx := l[3:]
		if m := codexUnifiedRange().FindStringSubmatch(ctx); m != nil {
			ctx = m[1]
		}
		if strings.TrimSpace(ctx) != "" {
			ch.contexts = append(ch.contexts, ctx)
		}
		p.i++
	}
	for p.i < p.end {
		l := p.lines[p.i]
		if strings.TrimSpace(l) == codexEOF {
			if len(ch.lines) == 0 {
				break
			}
			ch.eof = true
			p.i++
			break
		}
		if l == "" {
			ch.lines = append(ch.lines, patchLine{' ', ""})
			p.i++
			continue
		}
		if c := l[0]; c == ' ' || c == '+' || c == '-' {
			ch.lines = append(ch.lines, patchLine{c, l[1:]})
			p.i++
			continue
		}
		if len(ch.lines) == 0 && !strings.HasPrefix(l, "@@") && !strings.HasPrefix(l, "***") {
			return ch, codexError(p.i, "'%s' is not a chunk line; every line of a chunk starts with ' ' (context), '-' (removed) or '+' (added)", l)
		}
		break
	}
	if len(ch.lines) == 0 {
		return ch, codexError(ch.line-1, "the chunk has no lines; follow '@@' with the lines to change (' ' context, '-' removed, '+' added)")
	}
	return ch, nil
}
