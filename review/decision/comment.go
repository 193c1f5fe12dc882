package decision

import "strconv"

// Comment is a person's comment on lines of one file of a proposal, as a
// decision carries it, the outcome reports it and the journal keeps it.
// Like Verdict it is one vocabulary from the request to the record: a
// decision gives Path, Side, Line, EndLine and Text; the desk checks them
// and fills in Quote.
type Comment struct {
	Path    string `json:"path"`    // the file's absolute path
	Side    Side   `json:"side"`    // which text the lines are of
	Line    int    `json:"line"`    // first line commented on, 1-based
	EndLine int    `json:"endLine"` // last line commented on, 1-based, ≥ Line; 0 in a request means Line
	Quote   string `json:"quote"`   // the lines Line–EndLine of that side's text, exactly as they are there
	Text    string `json:"text"`    // what the person wrote
}

// Side is which text of a file a comment's lines are of.
type Side string

// The sides.
const (
	SideOld Side = "old" // the file when the proposal arrived: what the agent read
	SideNew Side = "new" // the proposal as the agent sent it
)

// Lines returns the comment's range, "12" or "12–14".
func (c Comment) Lines() string {
	if c.EndLine <= c.Line {
		return strconv.Itoa(c.Line)
	}
	return strconv.Itoa(c.Line) + "–" + strconv.Itoa(c.EndLine)
}
