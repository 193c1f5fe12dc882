package ui

import (
	"fmt"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/checker"
	"github.com/diffdesk/diffdesk/ui/diffview"
)

// maxProblemLines caps the problems listed under the diff at once.
const maxProblemLines = 4

// updateChecks shows what the project's checkers found in the shown file
// while it waits: "checking…" or the count of new problems in the header,
// a marker on each line that carries one, and under the diff the
// problems of the hunk j and k went to and any checker that failed.
func (d *detail) updateChecks() {
	if d.id == "" || d.outcome != nil || len(d.p.Files) == 0 || !d.p.State.Open() || d.p.State == review.StateStreaming {
		d.checks.Hide()
		d.problems.Hide()
		d.view.SetProblems(nil)
		return
	}
	f := d.cur()
	d.checks.SetText(checksSummary(f.Checks))
	d.checks.Importance = checksImportance(f.Checks)
	d.checks.Refresh()
	if d.checks.Text == "" {
		d.checks.Hide()
	} else {
		d.checks.Show()
	}
	if d.showsProposal(f) {
		d.view.SetProblems(problemMarks(f.Checks))
	} else {
		d.view.SetProblems(nil)
	}
	var hunk *engine.Hunk
	if k, hs := d.view.CurrentHunk(), d.view.Hunks(); d.showsProposal(f) && k >= 0 && k < len(hs) {
		hunk = &hs[k]
	}
	text := problemLines(f, hunk)
	d.problems.SetText(text)
	if text == "" {
		d.problems.Hide()
	} else {
		d.problems.Show()
	}
}

// showsProposal reports whether the view's right side is f's proposed
// text, whose lines the problems name: not the person's edit, not a
// stale file's merge.
func (d *detail) showsProposal(f review.File) bool {
	_, edited := d.edited[f.Path]
	return !d.editing && !edited && !f.Stale()
}

// checksSummary is the header's word on a file's checks.
func checksSummary(c review.Checks) string {
	if c.Running {
		return "checking…"
	}
	if c.Reports == nil {
		return ""
	}
	var parts []string
	switch n := len(c.Problems()); n {
	case 0:
		parts = append(parts, "no new problems")
	case 1:
		parts = append(parts, "1 new problem")
	default:
		parts = append(parts, fmt.Sprintf("%d new problems", n))
	}
	for _, r := range c.Reports {
		if r.Err != nil {
			parts = append(parts, r.Checker+" failed")
		}
	}
	return strings.Join(parts, " · ")
}

// checksImportance colours the header's word: red for errors, amber for
// warnings or a checker that failed.
func checksImportance(c review.Checks) widget.Importance {
	imp := widget.MediumImportance
	if c.Reports != nil && !c.Running {
		imp = widget.SuccessImportance
	}
	if len(c.Failed()) > 0 {
		imp = widget.WarningImportance
	}
	for _, p := range c.Problems() {
		if p.Severity == checker.SeverityError {
			return widget.DangerImportance
		}
		imp = widget.WarningImportance
	}
	return imp
}

// problemMarks are the view's markers: the file's own problems by
// 0-based line, an error winning over a warning on the same line.
func problemMarks(c review.Checks) map[int]diffview.LineProblem {
	marks := map[int]diffview.LineProblem{}
	for _, p := range c.Problems() {
		if p.Path != "" || p.Line < 1 {
			continue
		}
		m, had := marks[p.Line-1]
		warning := p.Severity != checker.SeverityError
		if had {
			m.Message += "; "
		}
		marks[p.Line-1] = diffview.LineProblem{Message: m.Message + p.Source + ": " + p.Message, Warning: warning && (!had || m.Warning)}
	}
	return marks
}

// problemLines lists, one a line, the problems of f in hunk (nil: the
// first few of the file), those in other files, and the checkers that
// failed with their errors.
func problemLines(f review.File, hunk *engine.Hunk) string {
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
