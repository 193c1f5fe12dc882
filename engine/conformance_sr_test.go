package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Runners for cline-sr, cline-sr-stream and roo-sr (see
// ../shared/fixtures/upstream/README.md).

func init() {
	registerRunner("cline-sr", runClineSR)
	registerRunner("roo-sr", runRooSR)
	registerRunner("cline-sr-stream", runClineSRStream)
	registerDivergences(clineSRDivergences)
	registerDivergences(rooSRDivergences)
	registerDivergences(clineSRStreamDivergences)
}

var clineSRStreamDivergences = map[string]string{
	"cline-derived/diff.test.ts/constructNewFileContent > should handle line-trimmed match replacement case correctly[v1]":             "the replacement streams re-indented (see the cline-sr vector)",
	"cline-derived/diff.test.ts/constructNewFileContent > should handle line-trimmed match replacement case correctly[v2]":             "the replacement streams re-indented (see the cline-sr vector)",
	"cline-derived/diff.test.ts/Diff Format Out of Order Cases > should handle out-of-order replacements with different positions[v1]": "an out-of-order block streams in place (Done rebuilt once); v1 shows it only at the end",
	"cline-derived/diff.test.ts/Diff Format Out of Order Cases > should handle out-of-order replacements with different positions[v2]": "an out-of-order block streams in place; v2 fails it",
	"cline-derived/diff.test.ts/Diff Format Out of Order Cases > should handle multiple out-of-order replacements[v1]":                 "an out-of-order block streams in place (Done rebuilt once); v1 shows it only at the end",
	"cline-derived/diff.test.ts/Diff Format Out of Order Cases > should handle multiple out-of-order replacements[v2]":                 "an out-of-order block streams in place; v2 fails it",
	"cline-derived/diff.test.ts/Diff Format Out of Order Cases > should handle out-of-order replacements with indentation[v1]":         "an out-of-order block streams in place (Done rebuilt once); v1 shows it only at the end",
	"cline-derived/diff.test.ts/Diff Format Out of Order Cases > should handle out-of-order replacements with indentation[v2]":         "an out-of-order block streams in place; v2 fails it",
	"cline-derived/diff.test.ts/Diff Format Out of Order Cases > should handle out-of-order replacements with empty lines[v1]":         "an out-of-order block streams in place (Done rebuilt once); v1 shows it only at the end",
	"cline-derived/diff.test.ts/Diff Format Out of Order Cases > should handle out-of-order replacements with empty lines[v2]":         "an out-of-order block streams in place; v2 fails it",
}

var clineSRDivergences = map[string]string{
	"cline/diff.test.ts/constructNewFileContent > should handle line-trimmed match replacement case correctly[v1]": "the file line is indented one space more than SEARCH; we re-indent the replacement (Roo does, Cline inserts it verbatim)",
	"cline/diff.test.ts/constructNewFileContent > should handle line-trimmed match replacement case correctly[v2]": "same as [v1]: replacement re-indented",
	"cline-probe/legacy-markers-no-final-newline[v2]":                                                              "v2 drops a final non-canonical end marker and fails; v1 (and we) accept it",
	"cline-probe/trailing-gt-on-markers[v2]":                                                                       "v2 drops a final non-canonical end marker and fails; v1 (and we) accept it",
	"cline-probe/three-char-markers[v2]":                                                                           "v2 drops a final non-canonical end marker and fails; v1 (and we) accept it",
	"cline-probe/crlf-diff-text[v1]":                                                                               "we normalise the payload's CRLF to LF; Cline finds no marker",
	"cline-probe/crlf-diff-text[v2]":                                                                               "we normalise the payload's CRLF to LF; Cline finds no marker",
	"cline-probe/crlf-file[v1]":                                                                                    "Cline writes LF lines into a CRLF file (mixed endings); we keep CRLF",
	"cline-probe/crlf-file[v2]":                                                                                    "Cline writes LF lines into a CRLF file (mixed endings); we keep CRLF",
	"cline-probe/empty-search-on-nonempty-file[v2]":                                                                "v2 replaces the whole file, v1 refuses; we refuse (FailEmptySearch, use write)",
	"cline-probe/no-trailing-newline-in-file[v1]":                                                                  "Cline's match overshoots the file end and adds a final newline; we keep the file without one",
	"cline-probe/no-trailing-newline-in-file[v2]":                                                                  "Cline's match overshoots the file end and adds a final newline; we keep the file without one",
	"cline-probe/out-of-order-blocks[v2]":                                                                          "v2 fails out-of-order blocks; v1 (and we) apply them",
	"cline-probe/unterminated-block-then-new-search[v1]":                                                           "v1 silently drops the unterminated block's replacement; we refuse the payload (FormatError)",
	"cline-probe/equals-line-inside-search[v1]":                                                                    "v1 ends SEARCH at the first \"===\" and ignores the second separator; we refuse two separators",
	"cline-probe/final-line-starting-with-dash-dropped[v1]":                                                        "v1 drops a final REPLACE line starting with \"-\" and deletes the matched line; we keep the line",
	"cline-probe/final-line-starting-with-dash-dropped[v2]":                                                        "v2 drops the final line and fails; we keep the line and apply the block",
	"cline-probe/prose-before-first-block[v2]":                                                                     "v2 refuses prose before the first block; v1 (and we) ignore it",
}

var rooSRDivergences = map[string]string{
	"roo/multi-search-replace.spec.ts/MultiSearchReplaceDiffStrategy > validateMarkerSequencing > detects incomplete sequence":                                                    "a last block without its end marker is accepted (Cline v1); Roo refuses it",
	"roo/multi-search-replace.spec.ts/MultiSearchReplaceDiffStrategy > validateMarkerSequencing > exact matching > should return false if search content does not match":          "Cline's block anchor takes a 3-line block whose first and last lines are equal, whatever the middle; Roo's exact threshold refuses it; we apply it as a loose match (92% similar)",
	"roo/multi-search-replace-trailing-newline.spec.ts/MultiSearchReplaceDiffStrategy - trailing newline preservation > should handle content with line numbers at the last line": "Roo's separator regex (=======\\s*\\n) swallows the whitespace-only first REPLACE line; we keep it",
}

// decodeSRCase unmarshals a vector's input and expectation.
func decodeSRCase(c fixtureCase, in, want any) error {
	if err := json.Unmarshal(c.Input, in); err != nil {
		return err
	}
	return json.Unmarshal(c.Expect, want)
}

type clineSRInput struct {
	Original string `json:"original"`
	Diff     string `json:"diff"`
	IsFinal  bool   `json:"isFinal"`
	Version  string `json:"version"`
}

func runClineSR(c fixtureCase) error {
	var in clineSRInput
	var want expectContent
	if err := decodeSRCase(c, &in, &want); err != nil {
		return err
	}
	if !in.IsFinal {
		s, err := NewStream(in.Original, FormatSearchReplace)
		if err != nil {
			return err
		}
		pv, err := s.Feed(in.Diff)
		return checkContent(want, clineStreamView(pv, in.Diff, in.Version), err)
	}
	res, err := Apply(in.Original, SearchReplace{Text: in.Diff})
	return checkContent(want, res.Content, err)
}

// clineStreamView renders a Preview as Cline's non-final output: the text up
// to the end of the growing region, where a growing REPLACE section counts
// its unfinished last line with a "\n" (even an empty one), unless Cline
// drops that line as a possible marker.
func clineStreamView(pv Preview, prefix, version string) string {
	var b strings.Builder
	for _, l := range pv.Done {
		b.WriteString(l)
	}
	if pv.Growing.Start > 0 && !clineDropsLast(prefix, version) {
		b.WriteString(pv.Partial)
		b.WriteByte('\n')
	}
	return b.String()
}

// clineDropsLast reports whether Cline drops the last (unterminated) line of
// a streamed prefix: it starts with a marker character and is not a
// complete marker.
func clineDropsLast(prefix, version string) bool {
	last := prefix[strings.LastIndexByte(prefix, '\n')+1:]
	if last == "" || !strings.ContainsRune("-<=+>", rune(last[0])) {
		return false
	}
	return !clineMarker(last, version)
}

func clineMarker(l, version string) bool {
	if version == "v2" {
		return l == "------- SEARCH" || l == "=======" || l == "+++++++ REPLACE"
	}
	ok, _ := srStart(l)
	return ok || srSeparator(l, false) || srEnd(l)
}

type rooInput struct {
	Op             string  `json:"op"`
	Original       string  `json:"original"`
	Diff           string  `json:"diff"`
	FuzzyThreshold float64 `json:"fuzzyThreshold"`
	StartLine      int     `json:"startLine"`
}

type rooExpect struct {
	expectContent
	Valid *bool `json:"valid"`
}

func runRooSR(c fixtureCase) error {
	var in rooInput
	var want rooExpect
	if err := decodeSRCase(c, &in, &want); err != nil {
		return err
	}
	switch in.Op {
	case "validateMarkerSequencing":
		_, err := parseSearchReplace(in.Diff)
		var fe *FormatError
		if err != nil && !errors.As(err, &fe) {
			return fmt.Errorf("parse: %v is not a *FormatError", err)
		}
		if (err == nil) != *want.Valid {
			return fmt.Errorf("parseSearchReplace(%q) error = %v; want valid=%v", in.Diff, err, *want.Valid)
		}
		return nil
	case "applyDiff":
		diff := in.Diff
		if in.StartLine > 0 {
			diff = withStartLine(diff, in.StartLine)
		}
		res, err := Apply(in.Original, SearchReplace{Text: diff})
		return checkContent(want.expectContent, res.Content, err)
	}
	return fmt.Errorf("unknown op %q", in.Op)
}

// withStartLine gives every block without a :start_line: line Roo's
// applyDiff startLine parameter as one.
func withStartLine(diff string, n int) string {
	lines := strings.Split(diff, "\n")
	var out []string
	for i, l := range lines {
		out = append(out, l)
		if ok, _ := srStart(l); ok && (i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], ":start_line:")) {
			out = append(out, fmt.Sprintf(":start_line:%d", n))
		}
	}
	return strings.Join(out, "\n")
}

type clineStreamInput struct {
	Original string `json:"original"`
	Diff     string `json:"diff"`
	Version  string `json:"version"`
	Cuts     []int  `json:"cuts"`
}

type clineStreamExpect struct {
	Steps []struct {
		Cut     int     `json:"cut"`
		Content *string `json:"content"`
		Error   bool    `json:"error"`
	} `json:"steps"`
}

// runClineSRStream feeds the diff cut by cut and compares each Preview with
// Cline's output for that prefix (see clineStreamView). Steps cut inside a
// marker line are not compared: there Cline commits to a marker before its
// line is complete, and v1 and v2 disagree on which partial lines count
// (v1 takes "===" as a separator, v2 only "======="); we act on a marker
// when its line ends.
func runClineSRStream(c fixtureCase) error {
	var in clineStreamInput
	var want clineStreamExpect
	if err := decodeSRCase(c, &in, &want); err != nil {
		return err
	}
	s, err := NewStream(in.Original, FormatSearchReplace)
	if err != nil {
		return err
	}
	prev := 0
	for _, st := range want.Steps {
		pv, err := s.Feed(in.Diff[prev:st.Cut])
		prev = st.Cut
		if insideMarkerLine(in.Diff, st.Cut) {
			continue
		}
		switch {
		case st.Error && err == nil:
			return fmt.Errorf("cut %d: got %q; want an error", st.Cut, clineStreamView(pv, in.Diff[:st.Cut], in.Version))
		case !st.Error && err != nil:
			return fmt.Errorf("cut %d: got error %v; want %q", st.Cut, err, deref(st.Content))
		case !st.Error:
			if got := clineStreamView(pv, in.Diff[:st.Cut], in.Version); got != *st.Content {
				return fmt.Errorf("cut %d (%q): got %q; want %q", st.Cut, in.Diff[:st.Cut], got, *st.Content)
			}
		}
	}
	return nil
}

// insideMarkerLine reports whether diff[:cut] ends inside (or at the end of,
// before its newline) a line that is a marker.
func insideMarkerLine(diff string, cut int) bool {
	start := strings.LastIndexByte(diff[:cut], '\n') + 1
	if start == cut {
		return false
	}
	end := strings.IndexByte(diff[start:], '\n')
	if end < 0 {
		end = len(diff) - start
	}
	l := diff[start : start+end]
	ok, _ := srStart(l)
	return ok || srSeparator(l, true) || srEnd(l)
}
