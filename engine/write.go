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
// covering every original line.
func (e Write) apply(text string) (string, []Match, error) {
	content := strings.TrimPrefix(toLF(e.Content), bom)
	content = stripWrappingFence(content, e.Path)
	return content, []Match{{Block: 1, Strategy: StrategyWholeFile, StartLine: 1, EndLine: len(splitLines(text))}}, nil
}

// stripWrappingFence removes a Markdown code fence that wraps the whole of
// content, as models writing a file often add (Cline strips it too). The
// rule, stricter than Cline's so that real content survives:
//
//   - the first line opens a fence: three or more backticks, then an
//     optional info string without backticks;
//   - the first line after it that closes the fence (only backticks, at least
//     as many, with optional surrounding blanks) is the last non-blank line,
//     so content made of several fenced blocks is left alone;
//   - for a Markdown path (.md, .markdown, .mdx, …) the info string must name
//     Markdown ("markdown", "md" or "mdx"): a Markdown file may well consist
//     of one code block, but one wrapped in a markdown fence is wrapping.
//
// The lines between the fences are kept byte for byte, including their
// indentation and the final newline, where Cline trims all surrounding
// whitespace. An unclosed opening fence is kept.
func stripWrappingFence(content, filePath string) string {
	lines := splitLines(content)
	if len(lines) < 2 {
		return content
	}
	open := strings.TrimSuffix(lines[0], "\n")
	n := len(open) - len(strings.TrimLeft(open, "`"))
	info := strings.TrimSpace(open[n:])
	if n < 3 || strings.Contains(info, "`") {
		return content
	}
	if isMarkdownPath(filePath) {
		switch strings.ToLower(info) {
		case "markdown", "md", "mdx":
		default:
			return content
		}
	}
	for i := 1; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if len(l) < n || strings.Trim(l, "`") != "" {
			continue
		}
		for _, rest := range lines[i+1:] {
			if strings.TrimSpace(rest) != "" {
				return content
			}
		}
		return strings.Join(lines[1:i], "")
	}
	return content
}

// isMarkdownPath reports whether p names a Markdown file by its extension.
func isMarkdownPath(p string) bool {
	switch strings.ToLower(path.Ext(strings.ReplaceAll(p, `\`, "/"))) {
	case ".md", ".markdown", ".mdx", ".mdown", ".mkd", ".mkdn", ".mdwn":
		return true
	}
	return false
}
