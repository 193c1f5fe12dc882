package engine

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Aider edit blocks: a whole chat response that edits several files, each
// edit a filename line followed by a SEARCH/REPLACE block, usually fenced:
//
//	path/to/file.py
//	```python
//	<<<<<<< SEARCH
//	old lines
//	=======
//	new lines
//	>>>>>>> REPLACE
//	```
//
// ParseEditBlocks reproduces aider's find_original_update_blocks (Aider-AI/aider
// aider/coders/editblock_coder.py @ 5dc9490b, see ../shared/fixtures/upstream/SEMANTICS.md §3.1), and
// ApplyEditBlocks its do_replace with our safer whole-response rules.

// FileBlock is one block of an aider response: a SEARCH/REPLACE edit of one
// file, or a shell-command block (Shell set) that aider would offer to run.
// Texts are as the response carries them: whole lines with their line
// endings.
type FileBlock struct {
	Path     string `json:"path,omitempty"`     // the file to edit, resolved against the valid names; "" for a shell block
	Search   string `json:"search,omitempty"`   // the SEARCH section; empty means "create the file"
	Replace  string `json:"replace,omitempty"`  // the REPLACE section
	Shell    bool   `json:"shell,omitempty"`    // a fenced shell block (```bash, ```sh, …) rather than an edit
	Commands string `json:"commands,omitempty"` // for a shell block, the lines between its fences
	Line     int    `json:"line"`               // 1-based line of the response with the SEARCH marker or the shell fence
}

// EditBlockFence is the pair of fence strings aider told the model to use
// around code. Aider uses three backticks unless a file in the chat contains
// them, then e.g. "<source>" and "</source>".
type EditBlockFence struct {
	Open, Close string
}

// DefaultEditBlockFence returns aider's default fence, three backticks.
func DefaultEditBlockFence() EditBlockFence { return EditBlockFence{"```", "```"} }

// ParseEditBlocks parses an aider response written with the default fence;
// see ParseEditBlocksWithFence.
func ParseEditBlocks(response string, validNames []string) ([]FileBlock, error) {
	return ParseEditBlocksWithFence(response, validNames, DefaultEditBlockFence())
}

// ParseEditBlocksWithFence returns the blocks of an aider response in order,
// exactly as aider's find_original_update_blocks finds them:
//
//   - markers are whole lines after trimming: 5 to 9 '<' then " SEARCH"
//     (optionally followed by '>'), 5 to 9 '=', 5 to 9 '>' then " REPLACE";
//     the REPLACE section ends at the first REPLACE or divider line;
//   - the filename comes from the up to 3 lines before the SEARCH marker,
//     nearest first, looking past a line only while it starts with a fence,
//     and is resolved against validNames (exact name, then basename, then a
//     close match with difflib similarity ≥ 0.8, then the first candidate
//     containing a dot, then the first candidate; a marker line is no
//     candidate, where aider would name the file ">>>>>>> REPLACE" when a
//     block directly follows another); validNames is not used
//     for a block with an empty SEARCH section, which creates a file; with
//     no candidate the previous block's filename is used;
//   - a line starting with a shell fence (```bash, ```sh, …) gives a Shell
//     block unless one of the next two lines is a SEARCH marker.
//
// Lines are split as Python's str.splitlines does (also at "\r", "\v",
// "\f", U+2028, …). A malformed block gives a *FormatError whose Msg is
// aider's reason ("Expected `=======`", "Expected `>>>>>>> REPLACE` or
// `=======`", or the missing-filename message), Block its 1-based index
// among the blocks and Line the 1-based response line aider stopped at.
func ParseEditBlocksWithFence(response string, validNames []string, fence EditBlockFence) ([]FileBlock, error) {
	lines := pySplitLines(response)
	trimmed := make([]string, len(lines))
	offs := make([]int, len(lines)+1) // byte offset of each line in response, and the end
	for k, l := range lines {
		trimmed[k] = pyStrip(l)
		offs[k+1] = offs[k] + len(l)
	}
	var blocks []FileBlock
	current := ""
	fail := func(i int, msg string) ([]FileBlock, error) {
		if i >= len(lines) {
			i = len(lines) - 1
		}
		return nil, &FormatError{Format: FormatSearchReplace, Block: len(blocks) + 1, Line: i + 1, Msg: msg}
	}
	for i := 0; i < len(lines); {
		line := trimmed[i]
		nextIsBlock := i+1 < len(lines) && isAiderHead(trimmed[i+1]) ||
			i+2 < len(lines) && isAiderHead(trimmed[i+2])
		if isShellFence(line) && !nextIsBlock {
			start := i
			for i++; i < len(lines) && !strings.HasPrefix(trimmed[i], "```"); i++ {
			}
			cmds := response[offs[start+1]:offs[i]]
			if i < len(lines) {
				i++ // the closing fence
			}
			blocks = append(blocks, FileBlock{Shell: true, Commands: cmds, Line: start + 1})
			continue
		}
		if !isAiderHead(line) {
			i++
			continue
		}
		head := i
		names := validNames
		if i+1 < len(lines) && isAiderDivider(trimmed[i+1]) {
			names = nil // an empty SEARCH creates a file: take the name as written
		}
		name := findEditBlockFilename(lines[max(0, i-3):i], fence, names)
		if name == "" {
			if current == "" {
				return fail(i, "Bad/missing filename. The filename must be alone on the line before the opening fence "+fence.Open)
			}
			name = current
		}
		current = name
		for i++; i < len(lines) && !isAiderDivider(trimmed[i]); i++ {
		}
		if i >= len(lines) {
			return fail(i, "Expected `=======`")
		}
		divider := i
		for i++; i < len(lines) && !isAiderUpdated(trimmed[i]) && !isAiderDivider(trimmed[i]); i++ {
		}
		if i >= len(lines) {
			return fail(i, "Expected `>>>>>>> REPLACE` or `=======`")
		}
		blocks = append(blocks, FileBlock{
			Path: name, Line: head + 1,
			Search:  response[offs[head+1]:offs[divider]],
			Replace: response[offs[divider+1]:offs[i]],
		})
		i++
	}
	return blocks, nil
}

// isAiderHead matches a trimmed line against aider's ^<{5,9} SEARCH>?\s*$.
func isAiderHead(s string) bool {
	rest, ok := aiderMarkerRun(s, '<')
	return ok && (rest == " SEARCH" || rest == " SEARCH>")
}

// isAiderDivider matches a trimmed line against ^={5,9}\s*$.
func isAiderDivider(s string) bool {
	rest, ok := aiderMarkerRun(s, '=')
	return ok && rest == ""
}

// isAiderUpdated matches a trimmed line against ^>{5,9} REPLACE\s*$.
func isAiderUpdated(s string) bool {
	rest, ok := aiderMarkerRun(s, '>')
	return ok && rest == " REPLACE"
}

// aiderMarkerRun strips a run of 5 to 9 c from the start of s.
func aiderMarkerRun(s string, c byte) (rest string, ok bool) {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return s[n:], n >= 5 && n <= 9
}

// isShellFence reports whether a trimmed line opens a shell code block.
// Like aider it tests prefixes, so "```csharp" counts as "```csh".
func isShellFence(s string) bool {
	lang, ok := strings.CutPrefix(s, "```")
	if !ok {
		return false
	}
	for _, l := range [...]string{"bash", "sh", "shell", "cmd", "batch", "powershell", "ps1", "zsh", "fish", "ksh", "csh", "tcsh"} {
		if strings.HasPrefix(lang, l) {
			return true
		}
	}
	return false
}

// findEditBlockFilename is aider's find_filename: lines are the (up to 3)
// lines before a SEARCH marker, in response order.
func findEditBlockFilename(lines []string, fence EditBlockFence, validNames []string) string {
	var names []string
	for k := len(lines) - 1; k >= 0 && k >= len(lines)-3; k-- {
		if name := stripEditBlockFilename(lines[k], fence); name != "" {
			names = append(names, name)
		}
		if !strings.HasPrefix(lines[k], fence.Open) && !strings.HasPrefix(lines[k], "```") {
			break
		}
	}
	if len(names) == 0 {
		return ""
	}
	for _, n := range names {
		for _, v := range validNames {
			if n == v {
				return n
			}
		}
	}
	for _, n := range names {
		for _, v := range validNames {
			if n == pyPathName(v) {
				return v
			}
		}
	}
	for _, n := range names {
		if m, ok := closestName(n, validNames, 0.8); ok {
			return m
		}
	}
	for _, n := range names {
		if strings.Contains(n, ".") {
			return n
		}
	}
	return names[0]
}

// stripEditBlockFilename is aider's strip_filename: the filename a line
// before a SEARCH marker names, or "".
func stripEditBlockFilename(line string, fence EditBlockFence) string {
	s := pyStrip(line)
	if s == "..." || isAiderHead(s) || isAiderDivider(s) || isAiderUpdated(s) {
		return "" // aider takes a marker line for a filename
	}
	for _, f := range [...]string{fence.Open, "```"} {
		if f != "" && strings.HasPrefix(s, f) {
			if c := s[len(f):]; strings.ContainsAny(c, "./") {
				return c
			}
			return ""
		}
	}
	s = strings.TrimRight(s, ":")
	s = strings.TrimLeft(s, "#")
	s = pyStrip(s)
	s = strings.Trim(s, "`")
	return strings.Trim(s, "*")
}

// pyPathName is Python's PurePosixPath(p).name: the last component, ignoring
// empty and "." components; "" if there is none.
func pyPathName(p string) string {
	parts := strings.Split(p, "/")
	for k := len(parts) - 1; k >= 0; k-- {
		if parts[k] != "" && parts[k] != "." {
			return parts[k]
		}
	}
	return ""
}

// closestName is difflib.get_close_matches(word, names, n=1, cutoff): the
// name most similar to word with a ratio of at least cutoff, ties going to
// the greater name.
func closestName(word string, names []string, cutoff float64) (string, bool) {
	w := []rune(word)
	best, bestRatio, found := "", 0.0, false
	for _, n := range names {
		r := seqRatio([]rune(n), w)
		if r < cutoff {
			continue
		}
		if !found || r > bestRatio || r == bestRatio && n > best {
			best, bestRatio, found = n, r, true
		}
	}
	return best, found
}

// pyIsSpace is Python's str.isspace for one rune: Go's unicode.IsSpace plus
// the information separators U+001C..U+001F.
func pyIsSpace(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f }

// pyStrip is Python's str.strip() with no argument.
func pyStrip(s string) string { return strings.TrimFunc(s, pyIsSpace) }

// pyLStrip is Python's str.lstrip() with no argument.
func pyLStrip(s string) string { return strings.TrimLeftFunc(s, pyIsSpace) }

// pySplitLines is Python's str.splitlines(keepends=True): lines end at
// "\n", "\r\n", "\r", "\v", "\f", U+001C..U+001E, U+0085, U+2028 and U+2029.
func pySplitLines(s string) []string {
	lines := make([]string, 0, strings.Count(s, "\n")+1)
	start := 0
	for i := 0; i < len(s); i++ {
		end := 0 // length of the line break at i
		switch c := s[i]; {
		case c == '\r' && i+1 < len(s) && s[i+1] == '\n':
			end = 2
		case c == '\n' || c == '\r' || c == '\v' || c == '\f' || c >= 0x1c && c <= 0x1e:
			end = 1
		case c == 0xc2 && strings.HasPrefix(s[i:], "\u0085"),
			c == 0xe2 && (strings.HasPrefix(s[i:], "\u2028") || strings.HasPrefix(s[i:], "\u2029")):
			_, end = utf8.DecodeRuneInString(s[i:])
		default:
			continue
		}
		lines = append(lines, s[start:i+end])
		i += end - 1
		start = i + 1
	}
	if start < len(s) {
		lines = append(lines, s[start:])
	}
	return lines
}
