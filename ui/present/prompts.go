package present

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
)

// EmptyHint is the empty queue's hint: how agents reach the desk on socket
// ("" when not known; dflt is the one deskctl takes unless told) and
// through its doors.
func EmptyHint(socket, dflt string, doors []review.DoorStatus) string {
	hint := "No proposals waiting.\n\nAgents send edits to this desk's socket"
	try := "deskctl demo"
	if socket != "" {
		hint += " (" + socket + ")"
		if socket != dflt {
			try += " --socket " + socket
		}
	}
	text := hint + ".\nTry it: " + try +
		"\n\nHooks (Claude Code, Gemini CLI, in any mode): deskctl setup claude, deskctl setup gemini" +
		"\nMCP server (Codex, Cursor, Windsurf, any MCP client): deskctl mcp; deskctl setup codex (or cursor, windsurf) adds it" +
		"\ndeskctl setup lists the agents and what each door carries."
	for _, door := range doors {
		if door.Error != "" {
			text += "\n\n" + door.Name + " door: not open: " + door.Error
			continue
		}
		text += "\n\n" + door.Name + " door on " + door.Addr + "\n" + door.Connect
	}
	return text
}

// UnseenQuestion is the text of the question before approving files never
// opened (files) and hunks never on screen (u), or "" when there is
// nothing to ask about.
func UnseenQuestion(files []string, u review.Unseen) string {
	unopened := map[string]bool{}
	for _, f := range files {
		unopened[f] = true
	}
	var parts []string
	if u.Unseen > 0 {
		var in []string
		for _, f := range u.Files {
			if unopened[f] {
				f += ", never opened"
				delete(unopened, f[:len(f)-len(", never opened")])
			}
			in = append(in, f)
		}
		parts = append(parts, fmt.Sprintf("%d of %d %s %s never on screen (%s).", u.Unseen, u.Total,
			Plural(u.Total, "hunk", "hunks"), Plural(u.Unseen, "was", "were"), strings.Join(in, "; ")))
	}
	var rest []string
	for _, f := range files {
		if unopened[f] {
			rest = append(rest, f)
		}
	}
	if len(rest) > 0 {
		parts = append(parts, fmt.Sprintf("You have not opened %s.", strings.Join(rest, ", ")))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "\n") + "\nApprove anyway?"
}

// LineHint says, as it is typed, what is wrong with s as a line of a
// text of n lines; "" when nothing is.
func LineHint(s string, n int) string {
	line, err := strconv.Atoi(s)
	switch {
	case s == "":
		return ""
	case strings.Trim(s, "0123456789") != "" || err != nil:
		return fmt.Sprintf("Only digits: a line number from 1 to %d.", n)
	case line < 1 || line > n:
		return fmt.Sprintf("No line %d: the file has lines 1 to %d.", line, n)
	}
	return ""
}

// MarkedRegion reads the Mark lines… boxes: whole lines 1..n, first ≤ last.
func MarkedRegion(from, to string, n int) (engine.Region, error) {
	a, err1 := strconv.Atoi(strings.TrimSpace(from))
	b, err2 := strconv.Atoi(strings.TrimSpace(to))
	switch {
	case err1 != nil || err2 != nil:
		return engine.Region{}, fmt.Errorf("type a first and a last line number, 1 to %d", n)
	case a < 1 || b > n || a > b:
		return engine.Region{}, fmt.Errorf("lines %d–%d are not in the file: the first must be at least 1, the last at most %d, and not before the first", a, b, n)
	}
	return engine.Region{StartLine: a, EndLine: b}, nil
}

// ParseLines reads "12" or "12-14" (an en dash too) as 1-based lines.
func ParseLines(s string) (line, end int, err error) {
	s = strings.ReplaceAll(strings.TrimSpace(s), "–", "-")
	a, b, isRange := strings.Cut(s, "-")
	line, err = strconv.Atoi(strings.TrimSpace(a))
	if err != nil {
		return 0, 0, fmt.Errorf("lines %q: type a line number, or two with a dash (12-14)", s)
	}
	end = line
	if isRange {
		if end, err = strconv.Atoi(strings.TrimSpace(b)); err != nil {
			return 0, 0, fmt.Errorf("lines %q: type a line number, or two with a dash (12-14)", s)
		}
	}
	return line, end, nil
}

// ShortLine is lines as the question quotes them: line breaks shown as ⏎,
// cut at 100 characters.
func ShortLine(s string) string {
	s = strings.TrimSuffix(s, "\n")
	s = strings.ReplaceAll(s, "\n", "⏎")
	if s == "" {
		return "(nothing)"
	}
	if r := []rune(s); len(r) > 100 {
		return string(r[:100]) + "…"
	}
	return s
}

// ProtectedFiles lists p's protected files, each "PATH — why".
func ProtectedFiles(p review.Proposal) []string {
	var out []string
	for _, f := range p.Files {
		if !f.Protected.IsZero() {
			out = append(out, f.Rel+" — "+f.Protected.String())
		}
	}
	return out
}

// OwnChange is one change the person made to the text editing started
// from: the lines it was and is.
type OwnChange struct {
	Rel      string
	Line     int // 1-based, in the person's text
	Was, Now string
}

// OwnChanges is the question before an edit of a few characters (chars in
// all) is written: its first line, and each change, was over now, as in
// the file.
func OwnChanges(changes []OwnChange, chars int) (intro, lines string) {
	var parts []string
	for _, c := range changes {
		parts = append(parts, fmt.Sprintf("%s, line %d\nwas: %s\nnow: %s", c.Rel, c.Line, ShortLine(c.Was), ShortLine(c.Now)))
	}
	return fmt.Sprintf("You changed %d %s of the agent's text:", chars, Plural(chars, "character", "characters")), strings.Join(parts, "\n\n")
}

// ReasonNotSent is said when a reject box is sent after its proposal (of
// files) stopped waiting: withdrawn, or decided elsewhere, as it was open.
func ReasonNotSent(files string) string {
	return "Your reason was not sent: " + files + " no longer waits for a decision, and nothing was decided."
}

// NoLongerWaiting is said when a question about a proposal (of files) is
// closed because the proposal stopped waiting while it was open.
func NoLongerWaiting(files string) string {
	return files + " is no longer waiting here (withdrawn, or decided elsewhere) while you answered a question about it.\n" +
		"Nothing was decided by that question; a reason or comment you typed is kept as its draft.\n\nEsc closes this."
}
