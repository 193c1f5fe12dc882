package present

import (
	"fmt"
	"strings"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/checker"
)

// Checks is the header's word on a file's checks, where saying what was
// checked (" in your edit"), and its colour: red for errors, amber for
// warnings or a checker that failed, green once nothing new was found.
func Checks(c review.Checks, where string) (string, Tone) {
	if c.Running {
		return "checking…", checksTone(c)
	}
	if c.Reports == nil {
		return "", checksTone(c)
	}
	var parts []string
	if n := len(c.Problems()); n == 0 {
		parts = append(parts, "no new problems"+where)
	} else {
		parts = append(parts, fmt.Sprintf("%d new %s", n, Plural(n, "problem", "problems"))+where)
	}
	for _, r := range c.Reports {
		if r.Err != nil {
			parts = append(parts, r.Checker+" failed")
		}
	}
	return strings.Join(parts, " · "), checksTone(c)
}

func checksTone(c review.Checks) Tone {
	tone := Normal
	if c.Reports != nil && !c.Running {
		tone = Success
	}
	if len(c.Failed()) > 0 {
		tone = Warning
	}
	for _, p := range c.Problems() {
		if p.Severity == checker.SeverityError {
			return Danger
		}
		tone = Warning
	}
	return tone
}
