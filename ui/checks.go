package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/checker"
	"github.com/diffdesk/diffdesk/ui/diffview"
	"github.com/diffdesk/diffdesk/ui/present"
)

// maxProblemLines caps the problems listed under the diff at once.
const maxProblemLines = 4

// updateChecks shows what the project's checkers found in the shown file
// while it waits: "checking…" or the count of new problems in the header,
// a marker on each line that carries one, and under the diff the
// problems of the hunk j and k went to and any checker that failed. In
// edit mode they are the person's edit's, once checked (recheck).
func (d *detail) updateChecks() {
	if d.id == "" || d.outcome != nil || len(d.p.Files) == 0 || !d.p.State.Open() || d.p.State == review.StateStreaming {
		d.stopEditCheck()
		d.head.checks.Hide()
		d.problems.Hide()
		d.view.SetProblems(nil)
		return
	}
	f := d.cur()
	_, edited := d.edited[f.Path]
	where, marked, failure := "", !edited && !f.Stale(), "" // the right side is the proposal checked
	if c := d.editCheckOf(f); c != nil {
		f.Checks, where, marked = c.checks, " in your edit", true
		if c.err != nil {
			failure = "could not check your edit: " + c.err.Error()
		}
	}
	word, tone := present.Checks(f.Checks, where)
	d.head.setChecks(word, tone)
	if marked {
		d.view.SetProblems(problemMarks(f.Checks))
	} else {
		d.view.SetProblems(nil)
	}
	var hunk *engine.Hunk
	if k, hs := d.view.CurrentHunk(), d.view.Hunks(); marked && k >= 0 && k < len(hs) {
		hunk = &hs[k]
	}
	text := problemLines(f, hunk)
	if failure != "" {
		text = strings.TrimPrefix(text+"\n"+failure, "\n")
	}
	d.problems.SetText(text)
	vis(d.problems, text != "")
}

// editCheckDelay is the pause in the person's typing after which their
// edit is checked.
const editCheckDelay = 600 * time.Millisecond

// editCheck is a check of the person's edit of one file in edit mode:
// waiting for a pause in typing, under way, or finished.
type editCheck struct {
	id, path string
	stop     func() bool        // stops the wait for the pause; nil once it ended
	cancel   context.CancelFunc // stops the check; nil until it starts
	text     string             // the text checked, once the check started
	checks   review.Checks      // Running until the check finished
	err      error              // why the desk could not check the text
}

// editCheckOf returns the check of the person's edit of f, the shown
// file, starting one when the editor shows other text than the proposal
// the desk checked (an edit kept from before, a stale file's merge); nil
// outside edit mode, for a file no checker checks, and while the editor
// still shows the proposal as it was checked.
func (d *detail) editCheckOf(f review.File) *editCheck {
	c := d.recheck
	if c != nil && (!d.editing || c.id != d.id || c.path != f.Path) {
		d.stopEditCheck()
		c = nil
	}
	_, edited := d.edited[f.Path]
	if c == nil && d.editing && (edited || f.Stale()) && hasCheckers(f) {
		c = d.waitEditCheck()
	}
	return c
}

// hasCheckers reports whether the project's checkers check f: the desk
// checks its proposal, or did.
func hasCheckers(f review.File) bool { return f.Checks.Running || f.Checks.Reports != nil }

// editChanged runs when the person changed the shown file in the editor:
// a check of the text before, under way or finished, no longer holds;
// the new text is checked once typing pauses for editCheckDelay.
func (d *detail) editChanged() {
	d.stopEditCheck()
	if hasCheckers(d.cur()) {
		d.waitEditCheck()
	}
	d.updateChecks()
}

// waitEditCheck starts the wait for a pause in typing, after which the
// shown file's edit is checked; it says "checking…" meanwhile.
func (d *detail) waitEditCheck() *editCheck {
	c := &editCheck{id: d.id, path: d.curPath(), checks: review.Checks{Running: true}}
	c.stop = d.w.opts.AfterFunc(editCheckDelay, func() { d.w.do(func() { d.runEditCheck(c) }) })
	d.recheck = c
	return c
}

// runEditCheck checks the editor's text off the UI goroutine, unless c
// was stopped meanwhile.
func (d *detail) runEditCheck(c *editCheck) {
	if d.recheck != c || c.stop == nil {
		return
	}
	c.stop = nil
	c.text = d.view.EditedText()
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	// Ends when CheckText returns: at once when stopEditCheck cancels it.
	go func() {
		reports, err := d.w.desk.CheckText(ctx, c.id, c.path, c.text)
		d.w.do(func() { d.editChecked(c, reports, err) })
	}()
}

// editChecked shows the finished check c, unless a newer edit replaced
// it; when the text changed since it started, without the view telling
// yet, the check starts over.
func (d *detail) editChecked(c *editCheck, reports []checker.Report, err error) {
	if d.recheck != c {
		return
	}
	c.cancel()
	if d.view.EditedText() != c.text {
		d.editChanged()
		return
	}
	c.checks, c.err = review.Checks{Reports: reports}, err
	d.updateChecks()
}

// stopEditCheck stops the check of the person's edit, waiting or under
// way, and forgets its result.
func (d *detail) stopEditCheck() {
	c := d.recheck
	if c == nil {
		return
	}
	if c.stop != nil {
		c.stop()
	}
	if c.cancel != nil {
		c.cancel()
	}
	d.recheck = nil
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
