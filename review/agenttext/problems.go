package agenttext

import (
	"fmt"
	"sort"
	"strings"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/checker"
)

// writeNewProblems lists the problems the project's checkers found in a
// file's final content that it did not have before, the way Cline tells
// its model after saving a file: each file's path, then a line per
// problem with its checker, severity, line and message.
func writeNewProblems(b *strings.Builder, f review.FileOutcome) {
	if len(f.NewProblems) == 0 {
		return
	}
	problems := append([]checker.Problem(nil), f.NewProblems...)
	sort.SliceStable(problems, func(i, j int) bool {
		if problems[i].Path != problems[j].Path {
			return problems[i].Path < problems[j].Path // "" (the file itself) first
		}
		return problems[i].Line < problems[j].Line
	})
	b.WriteString("\nNew problems detected after saving the file:\n")
	shown := "\x00"
	for _, p := range problems {
		if p.Path != shown {
			shown = p.Path
			path := f.Path
			if p.Path != "" {
				path = p.Path
			}
			fmt.Fprintf(b, "%s\n", path)
		}
		where := ""
		if p.Line > 0 {
			where = fmt.Sprintf("Line %d: ", p.Line)
		}
		fmt.Fprintf(b, "- [%s %s] %s%s\n", p.Source, severityLabel(p.Severity), where, p.Message)
	}
}

// writeCheckErrors says which checks of the file could not run: silence
// from a checker that could not tell is not a clean bill.
func writeCheckErrors(b *strings.Builder, f review.FileOutcome) {
	if len(f.CheckErrors) == 0 {
		return
	}
	fmt.Fprintf(b, "\nNot every check of %s could run, so it may have problems no one reported:\n", f.Path)
	for _, e := range f.CheckErrors {
		fmt.Fprintf(b, "- %s\n", e)
	}
}

// severityLabel names a severity as VS Code and Cline's text do.
func severityLabel(s checker.Severity) string {
	switch s {
	case checker.SeverityWarning:
		return "Warning"
	case checker.SeverityInfo:
		return "Information"
	}
	return "Error"
}
