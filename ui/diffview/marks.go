package diffview

import (
	"image/color"
	"strconv"

	"github.com/diffdesk/diffdesk/engine"
)

// LineProblem is what a project checker found on a line of the right
// side, for its marker.
type LineProblem struct {
	Message string // e.g. "gofmt: missing condition in if statement"
	Warning bool   // amber; otherwise an error, red
}

// SetProblems marks the lines of the right side (0-based) that carry a
// checker's problem, red for an error and amber for a warning, in the
// gutter beside their text. SetTexts clears the marks.
func (mk *Marks) SetProblems(lines map[int]LineProblem) {
	if len(lines) == 0 && len(mk.problems) == 0 {
		return
	}
	mk.problems = lines
	mk.host.redrawRows()
}

// Problem returns the problem marked on line b (0-based) of the right
// side.
func (mk *Marks) Problem(b int) (LineProblem, bool) {
	p, ok := mk.problems[b]
	return p, ok
}

// The markers' colours, readable on both theme variants.
var (
	problemError   = color.NRGBA{R: 0xe5, G: 0x39, B: 0x35, A: 0xff}
	problemWarning = color.NRGBA{R: 0xf5, G: 0xa6, B: 0x23, A: 0xff}
)

// problemMark draws line b's problem marker, if any, just left of the
// right side's text at xText.
func (r *diffRow) problemMark(b int, xText, h float32) {
	p, ok := r.p.marks.problems[b]
	if b < 0 || !ok {
		return
	}
	c := problemError
	if p.Warning {
		c = problemWarning
	}
	r.rect(c, xText-padText/2, 1, padText, h-2)
}

// SetStale shows a stale file, the file at path: disk is the file as it is
// now, res the proposal's changes merged onto it (the desk's merge). The
// left side is the disk; the right side the merge, with conflict regions
// marked; a banner says so. The path names the file for seen coverage,
// as SetTexts's does (it kept the file shown before: a stale-from-the-
// start file opened first recorded its changes seen under no path).
func (v *DiffView) SetStale(path, disk string, res engine.MergeResult) {
	v.SetTexts(path, disk, res.Text)
	v.settle() // the conflicts are rows of the diff
	v.marks.stale = true
	for _, c := range res.Conflicts {
		v.marks.conflicts = append(v.marks.conflicts, [2]int{c.Line0, c.Line1})
	}
	msg := "Stale: left is the file on disk now, right the proposal's changes merged onto it"
	switch n := len(res.Conflicts); n {
	case 0:
		msg += " (no conflicts)."
	case 1:
		msg += "; 1 conflict (orange)."
	default:
		msg += "; " + strconv.Itoa(n) + " conflicts (orange)."
	}
	v.banner.SetText(msg)
	v.banner.Show()
	v.redraw()
}

// SetLooseLines marks lines of the left text (0-based, half-open ranges)
// that an edit replaced by a loose match — not the agent's exact text — with
// a bar at the left edge. SetTexts clears the marks.
func (mk *Marks) SetLooseLines(ranges [][2]int) {
	mk.loose = ranges
	mk.host.redrawRows()
}

// LooseLine reports whether line a (0-based) of the left text is marked
// loose.
func (mk *Marks) LooseLine(a int) bool {
	for _, r := range mk.loose {
		if a >= r[0] && a < r[1] {
			return true
		}
	}
	return false
}

// Stale reports whether the view shows a stale file (SetStale).
func (v *DiffView) Stale() bool { return v.marks.stale }

// inConflict reports whether line b of the right side is in a conflict.
func (mk *Marks) inConflict(b int) bool {
	for _, c := range mk.conflicts {
		if b >= c[0] && b < c[1] {
			return true
		}
	}
	return false
}

// Marks are what the view draws over the diff beside the changes
// (DiffView.Marks). They reach the view only through marksHost.
type Marks struct {
	host      marksHost
	stale     bool
	conflicts [][2]int            // stale view: rows of b inside conflict markers
	loose     [][2]int            // lines of the left text (0-based, half-open) loose matches replaced: SetLooseLines
	problems  map[int]LineProblem // lines of the right text (0-based) with a checker's problem: SetProblems
	notes     map[string]HunkNote // hunk ID → note at its first row: SetNotes
	moves     []engine.Move       // blocks moved (complete texts only)
}

// marksHost is what marks need of their view: the rows drawn again with
// new marks, whether the editor shows its own diff (no moves), the hunks.
type marksHost interface {
	redrawRows()
	Editor() *Editor
	Hunks() []engine.Hunk
}

// Marks are what the view draws beside the changes.
func (v *DiffView) Marks() *Marks { return &v.marks }
