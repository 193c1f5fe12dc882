package checker

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// eslintResult is one file of ESLint's --format json output.
type eslintResult struct {
	FilePath string `json:"filePath"`
	Messages []struct {
		RuleID   string `json:"ruleId"`
		Severity int    `json:"severity"` // 1 warning, 2 error
		Fatal    bool   `json:"fatal"`    // a parse error
		Message  string `json:"message"`
		Line     int    `json:"line"`
		Column   int    `json:"column"`
	} `json:"messages"`
}

// parseESLint reads FormatESLintJSON output: ESLint's --format json (an
// array of files) or --format json-with-metadata ({"results": […]}).
func parseESLint(out []byte) ([]finding, error) {
	out = bytes.TrimSpace(out)
	if len(out) == 0 {
		return nil, errors.New("printed no ESLint JSON on stdout")
	}
	var results []eslintResult
	if out[0] == '{' {
		var withMeta struct {
			Results []eslintResult `json:"results"`
		}
		err := json.Unmarshal(out, &withMeta)
		results = withMeta.Results
		if err != nil {
			return nil, fmt.Errorf("printed no ESLint JSON on stdout: %w", err)
		}
	} else if err := json.Unmarshal(out, &results); err != nil {
		return nil, fmt.Errorf("printed no ESLint JSON on stdout: %w", err)
	}
	var found []finding
	for _, r := range results {
		for _, m := range r.Messages {
			sev := SeverityWarning
			if m.Fatal || m.Severity >= 2 {
				sev = SeverityError
			}
			found = append(found, finding{path: r.FilePath, line: max(m.Line, 0), col: max(m.Column, 0),
				severity: sev, message: cmp.Or(strings.TrimSpace(m.Message), m.RuleID, "(no message)"), code: m.RuleID})
		}
	}
	return found, nil
}
