// Package fence writes text for an agent inside a Markdown code fence: the
// one piece of layout the failure text (review) and the outcome text
// (review/agenttext) share.
package fence

import "strings"

// Write writes s to b in a code fence long enough not to clash with any
// backtick run inside s.
func Write(b *strings.Builder, s string) {
	f := "```"
	for strings.Contains(s, f) {
		f += "`"
	}
	b.WriteString(f + "\n")
	b.WriteString(s)
	if !strings.HasSuffix(s, "\n") {
		b.WriteString("\n")
	}
	b.WriteString(f + "\n")
}
