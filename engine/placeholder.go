package engine

import "strings"

// Omission placeholders: models abbreviate a replacement with a line such as
// "// rest of code ..." instead of writing the code out. Applying such a
// new_string would delete the code the placeholder stands for, so SmartEdit
// refuses a new_string that introduces one (FailPlaceholder), as Gemini CLI
// does.

// placeholderPhrase reports whether p (lower case, single spaces) followed
// by "..." makes a line a placeholder.
func placeholderPhrase(p string) bool {
	switch p {
	case "rest of", "rest of method", "rest of methods", "rest of code",
		"unchanged code", "unchanged method", "unchanged methods":
		return true
	}
	return false
}

// omissionPlaceholders returns the placeholder lines of text, normalised to
// "<phrase> ..." (lower case, whitespace collapsed), in order. A placeholder
// is a whole line that, after trimming and removing one comment marker
// ("//", "#", "--" or a surrounding "/* */") and one pair of surrounding
// parentheses, is a placeholderPhrase followed by "..." and
// nothing but dots. Placeholders inside code or after code on a line do not
// count.
func omissionPlaceholders(text string) []string {
	var found []string
	for _, line := range strings.Split(toLF(text), "\n") {
		if p, ok := placeholderLine(line); ok {
			found = append(found, p)
		}
	}
	return found
}

func placeholderLine(line string) (string, bool) {
	t := strings.TrimSpace(line)
	for _, marker := range []string{"//", "#", "--"} {
		if strings.HasPrefix(t, marker) {
			t = strings.TrimSpace(t[len(marker):])
			break
		}
	}
	if len(t) >= 4 && strings.HasPrefix(t, "/*") && strings.HasSuffix(t, "*/") {
		t = strings.TrimSpace(t[2 : len(t)-2])
	}
	if len(t) >= 2 && t[0] == '(' && t[len(t)-1] == ')' {
		t = strings.TrimSpace(t[1 : len(t)-1])
	}
	i := strings.Index(t, "...")
	if i < 0 {
		return "", false
	}
	phrase := strings.Join(strings.Fields(strings.ToLower(t[:i])), " ")
	if !placeholderPhrase(phrase) || strings.Trim(strings.TrimSpace(t[i+3:]), ".") != "" {
		return "", false
	}
	return phrase + " ...", true
}

// introducedPlaceholder returns the first placeholder of new that old does
// not contain, or "" if there is none.
func introducedPlaceholder(old, new string) string {
	have := map[string]bool{}
	for _, p := range omissionPlaceholders(old) {
		have[p] = true
	}
	for _, p := range omissionPlaceholders(new) {
		if !have[p] {
			return p
		}
	}
	return ""
}
