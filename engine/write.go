package engine

import (
	"path"
	"strings"
)

// Format reports FormatWrite.
func (e Write) Format() Format { return FormatWrite }

func (e Write) payload() []string { return []string{e.Content} }

// apply replaces the whole text with the content, after removing a leading
// BOM (Encode restores the original's) and a code fence the model wrapped
// around the whole content (see stripWrappingFence). It reports one Match
// covering every original line: StrategyFenceRemoved when a fence was
// removed (the file does not hold what the agent sent), else whole-file.
func (e Write) apply(text string) (Result, error) {
	content := strings.TrimPrefix(toLF(e.Content), bom)
	strategy := StrategyWholeFile
	if unfenced := stripWrappingFence(content, e.Path); unfenced != content {
		content, strategy = unfenced, StrategyFenceRemoved
	}
	return Result{Content: content, Matches: []Match{newMatch(1, strategy, 1, len(splitLines(text)))}}, nil
}

// stripWrappingFence removes a Markdown code fence that wraps the whole of
// content, as models writing a file often add (Cline strips it too). The
// rule, stricter than Cline's so that real content survives:
//
//   - the first line opens a fence: three or more backticks, then an
//     optional info string without backticks;
//   - the last non-blank line closes it: only backticks, at least as many,
//     with optional surrounding blanks;
//   - the fence lines in between pair up as nested blocks (a fence with an
//     info string opens one, a bare fence closes the innermost open one or
//     else opens one), so content made of several fenced blocks, such as
//     "```go … ``` text ```go … ```", is left alone;
//   - for a Markdown path (.md, .markdown, .mdx, …) the info string must name
//     Markdown ("markdown", "md" or "mdx"): a Markdown file may well consist
//     of one code block, but one wrapped in a markdown fence is wrapping.
//
// The lines between the fences are kept byte for byte, including their
// indentation and the final newline, where Cline trims all surrounding
// whitespace. An unclosed opening fence is kept.
func stripWrappingFence(content, filePath string) string {
	lines := splitLines(content)
	last := len(lines) - 1
	for last > 0 && strings.TrimSpace(lines[last]) == "" {
		last--
	}
	if last < 1 {
		return content
	}
	n, info := fenceLine(lines[0])
	if n < 3 || strings.HasPrefix(lines[0], " ") {
		return content
	}
	if closing, rest := fenceLine(lines[last]); closing < n || rest != "" {
		return content
	}
	if isMarkdownPath(filePath) {
		switch strings.ToLower(info) {
		case "markdown", "md", "mdx":
		default:
			return content
		}
	}
	open := 0 // nested blocks open between the wrapping fences
	for _, l := range lines[1:last] {
		switch k, info := fenceLine(l); {
		case k < 3:
		case info == "" && open > 0:
			open--
		default:
			open++
		}
	}
	if open != 0 {
		return content
	}
	return strings.Join(lines[1:last], "")
}

// fenceLine returns the number of backticks that start line (after up to
// three spaces of indentation, as CommonMark allows) and the trimmed info
// string after them; n is 0 if line is no backtick fence.
func fenceLine(line string) (n int, info string) {
	s := strings.TrimRight(line, " \t\r\n")
	t := strings.TrimLeft(s, " ")
	if len(s)-len(t) > 3 {
		return 0, ""
	}
	n = len(t) - len(strings.TrimLeft(t, "`"))
	info = strings.TrimSpace(t[n:])
	if n < 3 || strings.Contains(info, "`") {
		return 0, ""
	}
	return n, info
}

// isMarkdownPath reports whether p names a Markdown file by its extension.
func isMarkdownPath(p string) bool {
	switch strings.ToLower(path.Ext(strings.ReplaceAll(p, `\`, "/"))) {
	case ".md", ".markdown", ".mdx", ".mdown", ".mkd", ".mkdn", ".mdwn":
		return true
	}
	return false
}
