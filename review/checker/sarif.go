package checker

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// sarifLog is the part of a SARIF 2.1 log that names problems.
type sarifLog struct {
	Runs []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool struct {
		Driver struct {
			Rules []sarifRule `json:"rules"`
		} `json:"driver"`
	} `json:"tool"`
	Artifacts []struct {
		Location sarifArtifactLocation `json:"location"`
	} `json:"artifacts"`
	OriginalURIBaseIDs map[string]struct {
		URI string `json:"uri"`
	} `json:"originalUriBaseIds"`
	Results []sarifResult `json:"results"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	ShortDescription     sarifMessage `json:"shortDescription"`
	DefaultConfiguration struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
}

type sarifResult struct {
	RuleID    string       `json:"ruleId"`
	RuleIndex *int         `json:"ruleIndex"`
	Kind      string       `json:"kind"`
	Level     string       `json:"level"`
	Message   sarifMessage `json:"message"`
	Locations []struct {
		PhysicalLocation struct {
			ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
			Region           struct {
				StartLine   int `json:"startLine"`
				StartColumn int `json:"startColumn"`
			} `json:"region"`
		} `json:"physicalLocation"`
	} `json:"locations"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
	Index     *int   `json:"index"`
}

// parseSARIF reads FormatSARIF output: every result of every run that is
// a problem (not kind "pass", "open", "notApplicable" or "review"), at its
// first location.
func parseSARIF(out []byte) ([]finding, error) {
	if len(bytes.TrimSpace(out)) == 0 {
		return nil, errors.New("printed no SARIF log on stdout")
	}
	var log sarifLog
	if err := json.Unmarshal(out, &log); err != nil {
		return nil, fmt.Errorf("printed no SARIF log on stdout: %w", err)
	}
	var found []finding
	for _, run := range log.Runs {
		for _, r := range run.Results {
			if r.Kind != "" && r.Kind != "fail" {
				continue
			}
			found = append(found, run.finding(r))
		}
	}
	return found, nil
}

// finding returns result r of run as a finding.
func (run sarifRun) finding(r sarifResult) finding {
	rule := run.rule(r)
	f := finding{message: r.Message.Text, code: r.RuleID}
	if f.message == "" {
		f.message = rule.ShortDescription.Text
	}
	if f.code == "" {
		f.code = rule.ID
	}
	level := r.Level
	if level == "" {
		level = rule.DefaultConfiguration.Level
	}
	switch level {
	case "error":
		f.severity = SeverityError
	case "note", "none":
		f.severity = SeverityInfo
	default: // SARIF's default level
		f.severity = SeverityWarning
	}
	if len(r.Locations) > 0 {
		loc := r.Locations[0].PhysicalLocation
		f.path = run.uri(loc.ArtifactLocation)
		f.line, f.col = max(loc.Region.StartLine, 0), max(loc.Region.StartColumn, 0)
	}
	f.message = strings.TrimSpace(f.message)
	if f.message == "" {
		f.message = cmp.Or(f.code, "(no message)")
	}
	return f
}

// rule returns the rule r names, or the zero rule.
func (run sarifRun) rule(r sarifResult) sarifRule {
	rules := run.Tool.Driver.Rules
	if r.RuleIndex != nil && *r.RuleIndex >= 0 && *r.RuleIndex < len(rules) {
		return rules[*r.RuleIndex]
	}
	for _, rule := range rules {
		if rule.ID == r.RuleID && r.RuleID != "" {
			return rule
		}
	}
	return sarifRule{}
}

// uri returns the file a location names: a file: URI, or a path relative
// to its base (originalUriBaseIds) or to where the tool ran.
func (run sarifRun) uri(a sarifArtifactLocation) string {
	if a.URI == "" && a.Index != nil && *a.Index >= 0 && *a.Index < len(run.Artifacts) {
		a = run.Artifacts[*a.Index].Location
	}
	if strings.HasPrefix(a.URI, "file:") {
		return a.URI
	}
	p, err := url.PathUnescape(a.URI)
	if err != nil {
		p = a.URI
	}
	if base, ok := run.OriginalURIBaseIDs[a.URIBaseID]; ok && strings.HasPrefix(base.URI, "file:") {
		if u, err := url.Parse(base.URI); err == nil {
			return strings.TrimSuffix(u.Path, "/") + "/" + p
		}
	}
	return p
}
