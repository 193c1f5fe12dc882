package diffview

import "image/color"

// LineProblem is what a project checker found on a line of the right
// side, for its marker.
type LineProblem struct {
	Message string // e.g. "gofmt: missing condition in if statement"
	Warning bool   // amber; otherwise an error, red
}

// SetProblems marks the lines of the right side (0-based) that carry a
// checker's problem, red for an error and amber for a warning, in the
// gutter beside their text. SetTexts clears the marks.
func (v *DiffView) SetProblems(lines map[int]LineProblem) {
	if len(lines) == 0 && len(v.problems) == 0 {
		return
	}
	v.problems = lines
	v.refreshRows()
}

// Problem returns the problem marked on line b (0-based) of the right
// side.
func (v *DiffView) Problem(b int) (LineProblem, bool) {
	p, ok := v.problems[b]
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
	p, ok := r.v.problems[b]
	if b < 0 || !ok {
		return
	}
	c := problemError
	if p.Warning {
		c = problemWarning
	}
	r.rect(c, xText-padText/2, 1, padText, h-2)
}
