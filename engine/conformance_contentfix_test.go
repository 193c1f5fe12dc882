package engine

import (
	"encoding/json"
	"fmt"
)

func init() { registerRunner("cline-content-fix", runClineContentFix) }

func runClineContentFix(c fixtureCase) error {
	var in struct {
		Op       string  `json:"op"`
		Text     string  `json:"text"`
		ModelID  *string `json:"modelId"`
		FilePath *string `json:"filePath"`
	}
	if err := json.Unmarshal(c.Input, &in); err != nil {
		return err
	}
	var want expectContent
	if err := json.Unmarshal(c.Expect, &want); err != nil {
		return err
	}
	switch in.Op {
	case "applyModelContentFixes":
		return checkContent(want, FixModelContent(in.Text, deref0(in.ModelID), deref0(in.FilePath)), nil)
	case "fixModelHtmlEscaping":
		return checkContent(want, FixModelHTMLEscaping(in.Text), nil)
	case "removeInvalidChars":
		return checkContent(want, RemoveInvalidChars(in.Text), nil)
	}
	return fmt.Errorf("unknown op %q", in.Op)
}

// deref0 returns *s, or "" for nil (a missing optional argument).
func deref0(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
