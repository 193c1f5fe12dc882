package review

import (
	"strconv"
	"strings"

	"github.com/diffdesk/diffdesk/engine"
)

// ApprovedText is the text the decision approved for the file, before a
// formatter (or an editor's format-on-save) changed it: FinalContent with
// AutoFormatEdits undone. The window shows the formatter's change from it
// without planning the decision again; a far desk's outcome carries both.
// false when nothing changed the approved text, or the patch does not fit
// FinalContent.
func (f FileOutcome) ApprovedText() (string, bool) {
	if f.AutoFormatEdits == "" {
		return "", false
	}
	return unapply(f.FinalContent, f.AutoFormatEdits)
}

// unapply undoes on text the unified patch (engine.Unified's, a → text):
// the lines each hunk added are checked and replaced by those it removed.
func unapply(text, patch string) (string, bool) {
	final, lines := engine.SplitLines(text), engine.SplitLines(patch)
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
		return "", false
	}
	var sb strings.Builder
	sb.Grow(len(text))
	at := 0 // lines of final written
	for i := 2; i < len(lines); {
		start, ok := hunkNewStart(lines[i])
		if !ok || start < at || start > len(final) {
			return "", false
		}
		for _, l := range final[at:start] {
			sb.WriteString(l)
		}
		at = start
		var old []string
		oldLast := false // the line before was of the old side ("\ No newline at end of file" is of it)
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "@@ "); i++ {
			l := lines[i]
			if strings.HasPrefix(l, `\`) {
				if oldLast {
					old[len(old)-1] = strings.TrimSuffix(old[len(old)-1], "\n")
				}
				continue
			}
			body := l[1:]
			switch l[0] {
			case ' ', '+':
				if at >= len(final) || strings.TrimSuffix(final[at], "\n") != strings.TrimSuffix(body, "\n") {
					return "", false
				}
				at++
				if oldLast = l[0] == ' '; oldLast {
					old = append(old, body)
				}
			case '-':
				old, oldLast = append(old, body), true
			default:
				return "", false
			}
		}
		for _, l := range old {
			sb.WriteString(l)
		}
	}
	for _, l := range final[at:] {
		sb.WriteString(l)
	}
	return sb.String(), true
}

// hunkNewStart is the 0-based first line of the new side of a hunk headed
// "@@ -l,n +l,n @@".
func hunkNewStart(header string) (int, bool) {
	rest, ok := strings.CutPrefix(header, "@@ -")
	if !ok {
		return 0, false
	}
	_, rest, ok = strings.Cut(rest, " +")
	if !ok {
		return 0, false
	}
	r, _, ok := strings.Cut(rest, " @@")
	if !ok {
		return 0, false
	}
	l, n, hasN := strings.Cut(r, ",")
	start, err := strconv.Atoi(l)
	if err != nil || start < 0 {
		return 0, false
	}
	if hasN && n == "0" { // an empty range names the line before it
		return start, true
	}
	return start - 1, start > 0
}
