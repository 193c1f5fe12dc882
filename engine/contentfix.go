package engine

import "strings"

// Model content fixes: Cline's repairs for quirks of non-Claude models
// (applyModelContentFixes in Cline's ModelContentProcessor). Apply and the
// Write format never run them on their own, because HTML-unescaping corrupts
// code that contains a literal "&lt;"; a front door that knows which model
// wrote an edit may call FixModelContent on the payload first.

// FixModelContent reproduces Cline's applyModelContentFixes. It returns text
// unchanged when modelID contains "claude" (case-sensitive, as upstream).
// Otherwise it undoes HTML escaping with FixModelHTMLEscaping unless path
// ends in ".xml" (any case), where entities are the file's own syntax, and
// then always removes U+FFFD with RemoveInvalidChars. path may be "".
func FixModelContent(text, modelID, path string) string {
	if strings.Contains(modelID, "claude") {
		return text
	}
	if !strings.HasSuffix(strings.ToLower(path), ".xml") {
		text = FixModelHTMLEscaping(text)
	}
	return RemoveInvalidChars(text)
}

// FixModelHTMLEscaping replaces the entities &gt; &lt; &quot; &amp; and
// &apos; with > < " & and ', one entity at a time in that order, as Cline's
// fixModelHtmlEscaping does. Because &amp; is decoded after &lt;, "&amp;lt;"
// becomes "&lt;", not "<".
func FixModelHTMLEscaping(text string) string {
	for _, r := range [...][2]string{{"&gt;", ">"}, {"&lt;", "<"}, {"&quot;", `"`}, {"&amp;", "&"}, {"&apos;", "'"}} {
		text = strings.ReplaceAll(text, r[0], r[1])
	}
	return text
}

// RemoveInvalidChars removes every U+FFFD REPLACEMENT CHARACTER from text,
// as Cline's removeInvalidChars does.
func RemoveInvalidChars(text string) string {
	return strings.ReplaceAll(text, "\uFFFD", "")
}
