package present

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/trivial"
)

// CandidateText says where a candidate is and how like the block it is.
func CandidateText(c engine.Candidate) string {
	s := LineSpan(c.StartLine, c.EndLine)
	if c.Similarity > 0 && c.Similarity < 1 {
		s += fmt.Sprintf(" · %.0f%% similar", 100*c.Similarity)
	}
	return s
}

// cardLines is the most lines of each text the loose-match card shows.
const cardLines = 8

// CardText is the first cardLines lines of s, tabs shown as spaces
// and trailing spaces as "·" (a difference the strategy may have forgiven),
// saying how many more there are.
func CardText(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		t := strings.TrimRight(l, " \t")
		lines[i] = t + strings.Repeat("·", len(l)-len(t))
	}
	more := len(lines) - cardLines
	if more > 0 {
		lines = append(lines[:cardLines], fmt.Sprintf("… %d more lines", more))
	}
	return strings.ReplaceAll(strings.Join(lines, "\n"), "\t", "    ")
}

func LineSpan(start, end int) string {
	switch {
	case end < start:
		return fmt.Sprintf("an insertion before line %d", start)
	case end == start:
		return fmt.Sprintf("line %d", start)
	}
	return fmt.Sprintf("lines %d–%d", start, end)
}

// Touched says how many of the previous decision's comments the new
// version touched, or what the previous proposal's fate was.
func Touched(in review.Interdiff) string {
	if len(in.Comments) == 0 {
		return string(in.Status)
	}
	n := 0
	for _, c := range in.Comments {
		if c.Touched {
			n++
		}
	}
	return fmt.Sprintf("%d of %d comments touched", n, len(in.Comments))
}

// InterdiffComments lists the previous decision's comments on the file, each
// with whether the new version touched it.
func InterdiffComments(in review.Interdiff) string {
	s := ""
	for _, c := range in.Comments {
		mark := "not touched"
		if c.Touched {
			mark = "TOUCHED"
		}
		side := "proposed"
		if c.Side == "old" {
			side = "original"
		}
		s += fmt.Sprintf("[%s] %s text, %s: %s\n", mark, side, LineSpan(c.Line, max(c.EndLine, c.Line)), c.Text)
	}
	return s
}

// TrivialKinds is "2 whitespace only, 1 comment only".
func TrivialKinds(kinds map[trivial.Kind]int) string {
	var parts []string
	for _, k := range []trivial.Kind{trivial.Whitespace, trivial.Comment, trivial.Formatting, trivial.EOFNewline} {
		if kinds[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", kinds[k], k))
		}
	}
	return strings.Join(parts, ", ")
}

// maxProblemLines caps the problems listed under the diff at once.
const maxProblemLines = 4

// ProblemLines lists, one a line, the problems of f in hunk (nil: the
// first few of the file), those in other files, and the checkers that
// failed with their errors.
func ProblemLines(f review.File, hunk *engine.Hunk) string {
	var lines []string
	more := 0
	add := func(s string) {
		if len(lines) < maxProblemLines {
			lines = append(lines, s)
		} else {
			more++
		}
	}
	for _, p := range f.Checks.Problems() {
		switch {
		case p.Path != "":
			add(fmt.Sprintf("%s line %d · %s: %s", filepath.Base(p.Path), p.Line, p.Source, p.Message))
		case hunk == nil || p.Line > hunk.B0 && p.Line <= hunk.B1:
			add(fmt.Sprintf("line %d · %s: %s", p.Line, p.Source, p.Message))
		}
	}
	if more > 0 {
		lines = append(lines, fmt.Sprintf("… and %d more", more))
	}
	for _, err := range f.Checks.Failed() {
		lines = append(lines, "could not check: "+err.Error())
	}
	return strings.Join(lines, "\n")
}

// CompareNote is what a comparison (diffdesk OLD NEW) says above the
// diff: a new, deleted or identical file, and note (bytes that are not
// UTF-8, say).
func CompareNote(oldMissing, newMissing, identical bool, note string) string {
	var notes []string
	switch {
	case oldMissing:
		notes = append(notes, "A new file: there is no old one.")
	case newMissing:
		notes = append(notes, "The file is deleted: there is no new one.")
	case identical:
		notes = append(notes, "The files are identical.")
	}
	if note != "" {
		notes = append(notes, note)
	}
	return strings.Join(notes, " ")
}

// CompareCounter is a comparison's counter: change cur of n (0: between
// changes), or that there are none.
func CompareCounter(cur, n int) string {
	switch {
	case n == 0:
		return "No changes."
	case cur <= 0:
		return fmt.Sprintf("%d %s", n, Plural(n, "change", "changes"))
	}
	return fmt.Sprintf("change %d of %d", cur, n)
}
