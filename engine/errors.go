package engine

import (
	"fmt"
	"strings"
)

// Failure says why a block did not apply.
type Failure string

// The kinds of MatchError.
const (
	FailNoMatch     Failure = "no-match"       // no strategy found the text
	FailAmbiguous   Failure = "ambiguous"      // two or more equally good places
	FailCount       Failure = "count-mismatch" // found a different number of times than expected
	FailNoChange    Failure = "no-change"      // old and new text are identical
	FailEmptySearch Failure = "empty-search"   // empty search text on a non-empty file
	FailFileExists  Failure = "file-exists"    // an edit that creates the file found it already exists
	FailFileMissing Failure = "file-missing"   // an edit of existing text on a file that does not exist
	FailLineNumbers Failure = "line-numbers"   // search text carries "N\t" prefixes copied from a read tool
	FailOverlap     Failure = "overlap"        // two blocks replace overlapping text
	FailPlaceholder Failure = "placeholder"    // new text introduces an omission placeholder ("// rest of code ...")
)

// Candidate is a place in the original file that a block came close to, or
// one of several places it matched.
type Candidate struct {
	StartLine  int      `json:"startLine"`  // 1-based first line
	EndLine    int      `json:"endLine"`    // 1-based last line
	Similarity float64  `json:"similarity"` // 0..1; 1 for an exact match
	Lines      []string `json:"lines"`      // the file's lines there, without line endings
}

// MatchError reports a block of an edit that did not apply. Nothing of the
// edit is applied when Apply returns it; Applied lists the earlier blocks that
// did match, so the agent knows not to resend them.
type MatchError struct {
	Format  Format      `json:"format"`
	Path    string      `json:"path,omitempty"` // for multi-file formats (patch): the file the block edits
	Block   int         `json:"block"`          // 1-based block (or edit, or chunk) that failed
	Kind    Failure     `json:"kind"`
	Search  string      `json:"search"`  // the block's search text as received
	Tried   []Strategy  `json:"tried"`   // strategies tried, in order
	Closest []Candidate `json:"closest"` // nearest real lines, best first (FailNoMatch)
	Places  []Candidate `json:"places"`  // every place found (FailAmbiguous, FailCount)
	Want    int         `json:"want"`    // expected occurrences (FailCount)
	Found   int         `json:"found"`   // occurrences found (FailCount)
	Applied []Match     `json:"applied"` // blocks before this one that did match
	// ChangedBy lists, for a multi-edit whose edit matches the original
	// file but not the text the earlier edits of the same call left, those
	// earlier edits (1-based) that changed its text; empty otherwise.
	ChangedBy []int  `json:"changedBy,omitempty"`
	Hint      string `json:"hint"` // one concrete instruction for the agent
}

func (e *MatchError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: ", e.Format)
	if e.Path != "" {
		fmt.Fprintf(&b, "%s: ", e.Path)
	}
	fmt.Fprintf(&b, "block %d: ", e.Block)
	switch e.Kind {
	case FailNoMatch:
		b.WriteString("search text not found")
		if len(e.Tried) > 0 {
			fmt.Fprintf(&b, " (tried %s)", joinStrategies(e.Tried))
		}
		if len(e.Closest) > 0 {
			c := e.Closest[0]
			fmt.Fprintf(&b, "; closest is lines %d-%d at %.0f%% similarity", c.StartLine, c.EndLine, 100*c.Similarity)
		}
	case FailAmbiguous:
		b.WriteString("search text matches several places equally well:")
		for _, p := range e.Places {
			fmt.Fprintf(&b, " lines %d-%d", p.StartLine, p.EndLine)
		}
	case FailCount:
		fmt.Fprintf(&b, "expected %d occurrence(s) but found %d", e.Want, e.Found)
	default:
		b.WriteString(string(e.Kind))
	}
	if e.Hint != "" {
		b.WriteString("; ")
		b.WriteString(e.Hint)
	}
	return b.String()
}

func joinStrategies(s []Strategy) string {
	names := make([]string, len(s))
	for i, x := range s {
		names[i] = string(x)
	}
	return strings.Join(names, ", ")
}
