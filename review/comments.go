package review

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/decision"
)

// Limits on the line comments one decision carries (Decision.Comments).
const (
	MaxComments     = 100     // comments per decision
	MaxCommentBytes = 8 << 10 // bytes of one comment's text
	MaxCommentLines = 500     // lines one comment spans
)

// CommentError reports a comment a decision cannot carry, and why.
type CommentError struct {
	N      int    // the comment's position in Decision.Comments, 1-based; 0 for the comments as a whole
	Path   string // the path it names, as given
	Detail string
}

func (e *CommentError) Error() string {
	if e.N == 0 {
		return "review: " + e.Detail
	}
	return fmt.Sprintf("review: comment %d (on %s): %s", e.N, e.Path, e.Detail)
}

// Quote returns lines line to end (1-based, inclusive) of one side of f:
// decision.SideOld is the file when the proposal arrived, decision.SideNew
// the proposal as the agent sent it. The lines keep their own endings. An
// error says why the side has no such lines.
func (f File) Quote(side decision.Side, line, end int) (string, error) {
	var text string
	switch side {
	case decision.SideOld:
		text = f.BaseText()
	case decision.SideNew:
		text = f.Proposed
	default:
		return "", fmt.Errorf(`side %q is neither "old" (the file before the proposal) nor "new" (the proposal)`, side)
	}
	lines := engine.SplitLines(text)
	switch {
	case len(lines) == 0 && side == decision.SideOld:
		return "", fmt.Errorf("the old side is empty: %s did not exist, or was empty, before the proposal; comment on the new side", f.Rel)
	case len(lines) == 0 && f.Delete:
		return "", fmt.Errorf("the new side is empty: the proposal deletes %s; comment on the old side", f.Rel)
	case len(lines) == 0:
		return "", fmt.Errorf("the new side is empty: the proposal leaves %s empty; comment on the old side", f.Rel)
	case line < 1:
		return "", fmt.Errorf("line %d: lines count from 1", line)
	case end < line:
		return "", fmt.Errorf("endLine %d is before line %d", end, line)
	case end > len(lines):
		n := fmt.Sprintf("%d lines", len(lines))
		if len(lines) == 1 {
			n = "1 line"
		}
		return "", fmt.Errorf("line %d is past the end of the %s side, which has %s", end, side, n)
	case end-line+1 > MaxCommentLines:
		return "", fmt.Errorf("lines %d–%d are %d lines; a comment spans at most %d", line, end, end-line+1, MaxCommentLines)
	}
	return strings.Join(lines[line-1:end], ""), nil
}

// quoteComments checks the comments of a decision on p and returns them
// as the outcome and the journal carry them: the path made the file's
// absolute path (a comment may name a file by its path relative to its
// root), EndLine filled in, the text trimmed, the quoted lines added;
// sorted by the proposal's file order, then line.
func quoteComments(p Proposal, cs []decision.Comment) ([]decision.Comment, error) {
	if len(cs) == 0 {
		return nil, nil
	}
	if len(cs) > MaxComments {
		return nil, &CommentError{Detail: fmt.Sprintf("%d comments on proposal %s; a decision carries at most %d", len(cs), p.ID, MaxComments)}
	}
	out := make([]decision.Comment, len(cs))
	order := map[string]int{} // a file's place in the proposal
	for k, f := range p.Files {
		order[f.Path] = k
	}
	for i, c := range cs {
		bad := func(format string, a ...any) error {
			return &CommentError{N: i + 1, Path: Printable(c.Path), Detail: fmt.Sprintf(format, a...)}
		}
		f, err := commentFile(p, c.Path)
		if err != nil {
			return nil, bad("%v", err)
		}
		if c.EndLine == 0 {
			c.EndLine = c.Line
		}
		if c.Quote, err = f.Quote(c.Side, c.Line, c.EndLine); err != nil {
			return nil, bad("%v", err)
		}
		switch c.Text = strings.TrimSpace(c.Text); {
		case c.Text == "":
			return nil, bad("the text is empty; say what the agent should know about these lines")
		case len(c.Text) > MaxCommentBytes:
			return nil, bad("the text is %d bytes; a comment holds at most %d", len(c.Text), MaxCommentBytes)
		}
		c.Path = f.Path
		out[i] = c
	}
	slices.SortStableFunc(out, func(a, b decision.Comment) int {
		return cmp.Or(cmp.Compare(order[a.Path], order[b.Path]), cmp.Compare(a.Line, b.Line), cmp.Compare(a.EndLine, b.EndLine))
	})
	return out, nil
}

// commentFile is the file of p a comment names: by its absolute path, or
// by its path relative to its root when that names exactly one file.
func commentFile(p Proposal, path string) (File, error) {
	var found []File
	for _, f := range p.Files {
		if f.Path == path {
			return f, nil
		}
		if f.Rel == path {
			found = append(found, f)
		}
	}
	if len(found) == 1 {
		return found[0], nil
	}
	names := make([]string, len(p.Files))
	for i, f := range p.Files {
		names[i] = Printable(f.Path)
	}
	if len(found) > 1 {
		return File{}, fmt.Errorf("%d files of proposal %s are at that path in different roots; give the absolute path (%s)", len(found), p.ID, strings.Join(names, ", "))
	}
	return File{}, fmt.Errorf("not a file of proposal %s; its files: %s", p.ID, strings.Join(names, ", "))
}
