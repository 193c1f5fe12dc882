package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// Runners for the old/new replacement fixtures: edit.json (Gemini's legacy
// replace tool restated), gemini-edit-tool.json (whole tool invocations),
// gemini-smart-edit.json (calculateReplacement), gemini-unescape.json,
// gemini-literal-replace.json and gemini-omission-placeholder.json.
//
// Mapping to the engine:
//   - a tool call on an existing file is Apply(fileContent, edit); on a
//     missing file it is Create(edit). Tool "edit" is SmartEdit (current
//     variant), "smart-edit(legacy)" is SmartEdit with ExpectedReplacements
//     (default 1, which selects the legacy variant), "replace(legacy)" and
//     edit.json are Replace.
//   - upstream errorType → Failure: edit_no_occurrence_found → FailNoMatch
//     (or FailLineNumbers), edit_expected_occurrence_mismatch → FailCount (or
//     FailAmbiguous), edit_no_change → FailNoChange, file_not_found →
//     FailFileMissing, attempt_to_create_existing_file → FailFileExists.
//   - calculateReplacement is smartReplace without our unescape step;
//     strategy names: exact → StrategyExact, flexible →
//     StrategyFlexibleIndent, regex → StrategyRegexTokens, fuzzy →
//     StrategyFuzzy. A vector is also run through Apply, which must succeed
//     exactly when upstream's tool would (a count of 1, or ≥1 with
//     allow_multiple, or expected_replacements for legacy) and then give
//     the same content.
//   - unescapeStringForGeminiBug is unescapeGemini; countOccurrences is
//     countLiteral; ensureCorrectFileContent with LLM correction disabled is
//     unescapeGemini when aggressiveUnescape, else the content unchanged;
//     ensureCorrectEdit's no-LLM path is smartReplace with the unescape step
//     (its corrected strings are smartResult.old/new).
//   - safeLiteralReplace is replaceLiteral; applyReplacement is Create for
//     a new file or a missing one, else replaceLiteral.
//   - detectOmissionPlaceholders is omissionPlaceholders.

func init() {
	registerRunner("edit", runEditFixture)
	registerRunner("gemini-edit-tool", runGeminiEditTool)
	registerRunner("gemini-smart-edit", runGeminiSmartEdit)
	registerRunner("gemini-unescape", runGeminiUnescape)
	registerRunner("gemini-literal-replace", runGeminiLiteralReplace)
	registerRunner("gemini-omission-placeholder", runGeminiPlaceholder)
	registerDivergences(map[string]string{
		"gemini/edit.test.ts/EditTool > applyReplacement > should return empty string if currentContent is null and oldString is not empty (defensive)": "a missing file with a non-empty old_string is FailFileMissing, as Gemini's tool itself reports, not an empty file",
	})
}

// toolExpect is the gemini-edit-tool / edit expectation.
type toolExpect struct {
	expectContent
	FileUnchanged bool `json:"fileUnchanged"`
}

var geminiErrorKinds = map[string][]Failure{
	"edit_no_occurrence_found":          {FailNoMatch, FailLineNumbers},
	"edit_expected_occurrence_mismatch": {FailCount, FailAmbiguous},
	"edit_no_change":                    {FailNoChange},
	"file_not_found":                    {FailFileMissing},
	"attempt_to_create_existing_file":   {FailFileExists},
}

// checkTool compares the result of a tool-level call with its expectation.
func checkTool(raw json.RawMessage, res Result, err error) error {
	var want toolExpect
	if e := json.Unmarshal(raw, &want); e != nil {
		return e
	}
	if e := checkContent(want.expectContent, res.Content, err); e != nil {
		return e
	}
	if !want.Error {
		return nil
	}
	var me *MatchError
	if !errors.As(err, &me) {
		return fmt.Errorf("got %T %v; want a *MatchError for %s", err, err, want.ErrorType)
	}
	if kinds, ok := geminiErrorKinds[want.ErrorType]; ok && !slices.Contains(kinds, me.Kind) {
		return fmt.Errorf("got failure %s (%v); want one of %v for %s", me.Kind, err, kinds, want.ErrorType)
	}
	return nil
}

func applyOrCreate(exists bool, content string, e Edit) (Result, error) {
	if exists {
		return Apply(content, e)
	}
	return Create(e)
}

func runEditFixture(c fixtureCase) error {
	var in struct {
		FileExists           bool   `json:"fileExists"`
		Original             string `json:"original"`
		Old                  string `json:"old_string"`
		New                  string `json:"new_string"`
		ExpectedReplacements int    `json:"expected_replacements"`
	}
	if err := json.Unmarshal(c.Input, &in); err != nil {
		return err
	}
	res, err := applyOrCreate(in.FileExists, in.Original, Replace{Old: in.Old, New: in.New, ExpectedReplacements: in.ExpectedReplacements})
	return checkTool(c.Expect, res, err)
}

func runGeminiEditTool(c fixtureCase) error {
	var in struct {
		Tool        string `json:"tool"`
		FileExists  bool   `json:"fileExists"`
		FileContent string `json:"fileContent"`
		Params      struct {
			Old                  string `json:"old_string"`
			New                  string `json:"new_string"`
			AllowMultiple        bool   `json:"allow_multiple"`
			ExpectedReplacements int    `json:"expected_replacements"`
		} `json:"params"`
	}
	if err := json.Unmarshal(c.Input, &in); err != nil {
		return err
	}
	p := in.Params
	var e Edit
	switch in.Tool {
	case "edit":
		e = SmartEdit{Old: p.Old, New: p.New, AllowMultiple: p.AllowMultiple}
	case "smart-edit(legacy)":
		e = SmartEdit{Old: p.Old, New: p.New, ExpectedReplacements: max(p.ExpectedReplacements, 1)}
	case "replace(legacy)":
		e = Replace{Old: p.Old, New: p.New, ExpectedReplacements: p.ExpectedReplacements}
	default:
		return fmt.Errorf("unknown tool %q", in.Tool)
	}
	res, err := applyOrCreate(in.FileExists, in.FileContent, e)
	return checkTool(c.Expect, res, err)
}

var geminiStrategies = map[string]Strategy{
	"exact":    StrategyExact,
	"flexible": StrategyFlexibleIndent,
	"regex":    StrategyRegexTokens,
	"fuzzy":    StrategyFuzzy,
}

func runGeminiSmartEdit(c fixtureCase) error {
	var in struct {
		Variant              string `json:"variant"`
		Content              string `json:"content"`
		Old                  string `json:"old_string"`
		New                  string `json:"new_string"`
		AllowMultiple        bool   `json:"allow_multiple"`
		ExpectedReplacements int    `json:"expected_replacements"`
	}
	var want struct {
		Content     string `json:"content"`
		Occurrences int    `json:"occurrences"`
		Strategy    string `json:"strategy"`
	}
	if err := json.Unmarshal(c.Input, &in); err != nil {
		return err
	}
	if err := json.Unmarshal(c.Expect, &want); err != nil {
		return err
	}
	o := smartOptions{variant: smartCurrent, allowMultiple: in.AllowMultiple}
	e := SmartEdit{Old: in.Old, New: in.New, AllowMultiple: in.AllowMultiple}
	wantCount := 1
	switch in.Variant {
	case "edit(allow_multiple)":
	case "smart-edit(expected_replacements)":
		o.variant = smartLegacy
		wantCount = max(in.ExpectedReplacements, 1)
		e.ExpectedReplacements = wantCount
	default:
		return fmt.Errorf("unknown variant %q", in.Variant)
	}
	r := smartReplace(in.Content, toLF(in.Old), toLF(in.New), o)
	if r.text != want.Content || r.occurrences != want.Occurrences {
		return fmt.Errorf("smartReplace = %q, %d occurrences; want %q, %d", r.text, r.occurrences, want.Content, want.Occurrences)
	}
	if want.Strategy != "" && r.strategy != geminiStrategies[want.Strategy] {
		return fmt.Errorf("strategy %q; want %q", r.strategy, want.Strategy)
	}
	// The whole operation: the tool succeeds exactly when the count is
	// right and old differs from new.
	ok := want.Occurrences == wantCount || in.AllowMultiple && want.Occurrences > 0
	ok = ok && toLF(in.Old) != toLF(in.New) && in.Old != ""
	res, err := Apply(in.Content, e)
	switch {
	case ok && err != nil:
		return fmt.Errorf("Apply failed: %v; upstream's tool succeeds", err)
	case ok && res.Content != want.Content:
		return fmt.Errorf("Apply = %q; want %q", res.Content, want.Content)
	case !ok && err == nil:
		return fmt.Errorf("Apply = %q; upstream's tool fails", res.Content)
	}
	return nil
}

func runGeminiUnescape(c fixtureCase) error {
	var in struct {
		Op                 string `json:"op"`
		String             string `json:"string"`
		Content            string `json:"content"`
		AggressiveUnescape bool   `json:"aggressiveUnescape"`
		CurrentContent     string `json:"currentContent"`
		Old                string `json:"old_string"`
		New                string `json:"new_string"`
		Str                string `json:"str"`
		Substr             string `json:"substr"`
	}
	if err := json.Unmarshal(c.Input, &in); err != nil {
		return err
	}
	var want struct {
		Content     string `json:"content"`
		Old         string `json:"old_string"`
		New         string `json:"new_string"`
		Occurrences int    `json:"occurrences"`
		Count       int    `json:"count"`
	}
	if err := json.Unmarshal(c.Expect, &want); err != nil {
		return err
	}
	switch in.Op {
	case "unescapeStringForGeminiBug":
		if got := unescapeGemini(in.String); got != want.Content {
			return fmt.Errorf("unescapeGemini(%q) = %q; want %q", in.String, got, want.Content)
		}
	case "ensureCorrectFileContent":
		got := in.Content
		if in.AggressiveUnescape {
			got = unescapeGemini(in.Content)
		}
		if got != want.Content {
			return fmt.Errorf("content %q; want %q", got, want.Content)
		}
	case "ensureCorrectEdit":
		r := smartReplace(in.CurrentContent, in.Old, in.New, smartOptions{allowMultiple: true, unescape: true})
		if r.old != want.Old || r.new != want.New || r.occurrences != want.Occurrences {
			return fmt.Errorf("smartReplace used %q, %q and found %d; want %q, %q, %d", r.old, r.new, r.occurrences, want.Old, want.New, want.Occurrences)
		}
	case "countOccurrences":
		if got := countLiteral(in.Str, in.Substr); got != want.Count {
			return fmt.Errorf("countLiteral(%q, %q) = %d; want %d", in.Str, in.Substr, got, want.Count)
		}
	default:
		return fmt.Errorf("unknown op %q", in.Op)
	}
	return nil
}

func runGeminiLiteralReplace(c fixtureCase) error {
	var in struct {
		Op             string  `json:"op"`
		Str            string  `json:"str"`
		OldString      string  `json:"oldString"`
		NewString      string  `json:"newString"`
		CurrentContent *string `json:"currentContent"`
		IsNewFile      bool    `json:"isNewFile"`
	}
	if err := json.Unmarshal(c.Input, &in); err != nil {
		return err
	}
	var want expectContent
	if err := json.Unmarshal(c.Expect, &want); err != nil {
		return err
	}
	switch in.Op {
	case "safeLiteralReplace":
		return checkContent(want, replaceLiteral(in.Str, in.OldString, in.NewString), nil)
	case "applyReplacement":
		switch {
		case in.IsNewFile:
			// upstream ignores old_string for a new file
			res, err := Create(Replace{New: in.NewString})
			return checkContent(want, res.Content, err)
		case in.CurrentContent == nil:
			res, err := Create(Replace{Old: in.OldString, New: in.NewString})
			return checkContent(want, res.Content, err)
		}
		return checkContent(want, replaceLiteral(*in.CurrentContent, in.OldString, in.NewString), nil)
	}
	return fmt.Errorf("unknown op %q", in.Op)
}

func runGeminiPlaceholder(c fixtureCase) error {
	var in struct {
		Text string `json:"text"`
	}
	var want struct {
		Placeholders []string `json:"placeholders"`
	}
	if err := json.Unmarshal(c.Input, &in); err != nil {
		return err
	}
	if err := json.Unmarshal(c.Expect, &want); err != nil {
		return err
	}
	if got := omissionPlaceholders(in.Text); !slices.Equal(got, want.Placeholders) {
		return fmt.Errorf("omissionPlaceholders(%q) = %q; want %q", in.Text, got, want.Placeholders)
	}
	return nil
}
