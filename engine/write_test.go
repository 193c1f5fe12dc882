package engine

import (
	"strings"
	"testing"
)

func TestWriteApply(t *testing.T) {
	tests := []struct {
		name, original, content, path, want string
	}{
		{name: "plain", original: "a\nb\n", content: "x\ny\n", want: "x\ny\n"},
		{name: "new file", original: "", content: "x\n", want: "x\n"},
		{name: "keeps missing final newline of content", original: "a\n", content: "x", want: "x"},
		{name: "fence stripped, final newline kept", original: "a\n", content: "```go\npackage a\n\nfunc f() {}\n```\n", want: "package a\n\nfunc f() {}\n"},
		{name: "fence stripped, indentation kept", original: "", content: "```\n    indented\n\n```", want: "    indented\n\n"},
		{name: "fence stripped, blank lines after closer dropped", original: "", content: "```py\nx = 1\n```\n\n\n", want: "x = 1\n"},
		{name: "longer closing fence", original: "", content: "````\n```\nnested\n```\n````\n", want: "```\nnested\n```\n"},
		{name: "nested fenced blocks inside wrapper", original: "", path: "a.py", content: "```python\n'''\n```sh\nrun\n```\n'''\n```\n", want: "'''\n```sh\nrun\n```\n'''\n"},
		{name: "several fenced blocks kept", original: "", content: "```go\na\n```\ntext\n```go\nb\n```\n", want: "```go\na\n```\ntext\n```go\nb\n```\n"},
		{name: "unclosed fence kept", original: "", content: "```go\na\n", want: "```go\na\n"},
		{name: "text after closer kept", original: "", content: "```\na\n```\nmore\n", want: "```\na\n```\nmore\n"},
		{name: "info string with backtick is not a fence", original: "", content: "```a`b\nx\n```\n", want: "```a`b\nx\n```\n"},
		{name: "markdown path keeps code block content", original: "", path: "docs/example.md", content: "```python\nprint(1)\n```\n", want: "```python\nprint(1)\n```\n"},
		{name: "markdown path keeps bare fence", original: "", path: "README.MD", content: "```\nprint(1)\n```\n", want: "```\nprint(1)\n```\n"},
		{name: "markdown path strips markdown fence", original: "", path: "README.md", content: "```markdown\n# Title\n\n```sh\nmake\n```\n```\n", want: "# Title\n\n```sh\nmake\n```\n"},
		{name: "non-markdown path strips any fence", original: "", path: "main.py", content: "```python\nprint(1)\n```\n", want: "print(1)\n"},
		{name: "BOM in content removed", original: "a\n", content: "\uFEFFx\n", want: "x\n"},
		{name: "BOM of original kept", original: "\uFEFFa\n", content: "x\n", want: "\uFEFFx\n"},
		{name: "CRLF original keeps CRLF", original: "a\r\nb\r\n", content: "x\ny\n", want: "x\r\ny\r\n"},
		{name: "CRLF content into LF file", original: "a\n", content: "x\r\ny\r\n", want: "x\ny\n"},
		{name: "literal entities untouched", original: "", content: "if a &lt; b {}\n", want: "if a &lt; b {}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Apply(tt.original, Write{Content: tt.content, Path: tt.path})
			if err != nil {
				t.Fatalf("Apply(%q, Write{%q}) error: %v", tt.original, tt.content, err)
			}
			if res.Content != tt.want {
				t.Errorf("Apply(%q, Write{%q, %q}) = %q; want %q", tt.original, tt.content, tt.path, res.Content, tt.want)
			}
		})
	}
}

func TestWriteMatch(t *testing.T) {
	tests := []struct {
		original string
		want     Match
	}{
		{"", Match{Block: 1, Strategy: StrategyWholeFile, StartLine: 1, EndLine: 0}},
		{"one line, no newline", Match{Block: 1, Strategy: StrategyWholeFile, StartLine: 1, EndLine: 1}},
		{"a\nb\nc\n", Match{Block: 1, Strategy: StrategyWholeFile, StartLine: 1, EndLine: 3}},
		{"a\r\nb", Match{Block: 1, Strategy: StrategyWholeFile, StartLine: 1, EndLine: 2}},
	}
	for _, tt := range tests {
		res, err := Apply(tt.original, Write{Content: "x\n"})
		if err != nil {
			t.Fatalf("Apply(%q) error: %v", tt.original, err)
		}
		if len(res.Matches) != 1 || locations(res.Matches)[0] != tt.want {
			t.Errorf("Apply(%q).Matches = %+v; want [%+v]", tt.original, res.Matches, tt.want)
		}
	}
}

func TestWriteRefusesBinaryContent(t *testing.T) {
	if _, err := Apply("a\n", Write{Content: "x\x00y"}); err == nil {
		t.Errorf("Apply(Write{%q}) = nil error; want a *ContentError", "x\x00y")
	}
}

// FuzzWriteFence checks that fence stripping never panics and only ever
// removes lines from around the content.
func FuzzWriteFence(f *testing.F) {
	for _, s := range []string{"```go\nx\n```\n", "````\n```\n````", "```", "```\n```", "a\n```\n", "```md\n\n```\n\n"} {
		f.Add(s, "")
		f.Add(s, "a.md")
	}
	f.Fuzz(func(t *testing.T, content, path string) {
		got := stripWrappingFence(content, path)
		if !strings.Contains(content, got) {
			t.Errorf("stripWrappingFence(%q, %q) = %q; not part of the content", content, path, got)
		}
		if got != content && !strings.HasPrefix(content, "```") {
			t.Errorf("stripWrappingFence(%q, %q) = %q; stripped content that does not start with a fence", content, path, got)
		}
	})
}
