package ui

import (
	"context"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/checker"
	"github.com/diffdesk/diffdesk/ui/diffview"
	"github.com/diffdesk/diffdesk/ui/present"
)

// checksView is what the project's checkers found in the shown file,
// drawn: the header's word, the view's line markers, the problems under
// the diff; and the check of the person's edit in edit mode (recheck).
type checksView struct {
	paneKit
	head     *header
	after    func(time.Duration, func()) func() bool // a timer (WindowOptions.AfterFunc)
	check    func(ctx context.Context, id, path, text string) ([]checker.Report, error)
	problems *widget.Label // under the view: the current hunk's problems
	recheck  *editCheck    // the check of the person's edit of the shown file
}

func newChecksView(kit paneKit, head *header, after func(time.Duration, func()) func() bool, check func(ctx context.Context, id, path, text string) ([]checker.Report, error)) *checksView {
	c := &checksView{paneKit: kit, head: head, after: after, check: check, problems: widget.NewLabel("")}
	c.problems.Wrapping = fyne.TextWrapWord
	c.problems.Importance = widget.DangerImportance
	return c
}

// shown is the shown proposal and file while it waits for a decision (ok
// false otherwise: nothing to check).
func (c *checksView) shown() (id string, f review.File, ok bool) {
	s := c.sh
	if s.id == "" || s.outcome != nil || len(s.p.Files) == 0 || !s.p.State.Open() || s.p.State == review.StateStreaming {
		return "", review.File{}, false
	}
	return s.id, c.cur(), true
}

// edited reports whether the person edited the shown file.
func (c *checksView) edited() bool {
	_, ok := c.c.edited[c.cur().Path]
	return ok
}

// update shows what the project's checkers found in the shown file
// while it waits: "checking…" or the count of new problems in the header,
// a marker on each line that carries one, and under the diff the
// problems of the hunk j and k went to and any checker that failed. In
// edit mode they are the person's edit's, once checked (recheck).
func (c *checksView) update() {
	id, f, ok := c.shown()
	if !ok {
		c.stop()
		c.head.checks.Hide()
		c.problems.Hide()
		c.view.Marks().SetProblems(nil)
		return
	}
	where, marked, failure := "", !c.edited() && !f.Stale(), "" // the right side is the proposal checked
	if ec := c.of(id, f); ec != nil {
		f.Checks, where, marked = ec.checks, " in your edit", true
		if ec.err != nil {
			failure = "could not check your edit: " + ec.err.Error()
		}
	}
	word, tone := present.Checks(f.Checks, where)
	c.head.setChecks(word, tone)
	if marked {
		c.view.Marks().SetProblems(problemMarks(f.Checks))
	} else {
		c.view.Marks().SetProblems(nil)
	}
	var hunk *engine.Hunk
	if k, hs := c.view.Nav().CurrentHunk(), c.view.Hunks(); marked && k >= 0 && k < len(hs) {
		hunk = &hs[k]
	}
	text := present.ProblemLines(f, hunk)
	if failure != "" {
		text = strings.TrimPrefix(text+"\n"+failure, "\n")
	}
	if text != c.problems.Text {
		c.problems.SetText(text)
	}
	vis(c.problems, text != "")
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

// of returns the check of the person's edit of f, the shown
// file, starting one when the editor shows other text than the proposal
// the desk checked (an edit kept from before, a stale file's merge); nil
// outside edit mode, for a file no checker checks, and while the editor
// still shows the proposal as it was checked.
func (c *checksView) of(id string, f review.File) *editCheck {
	ec := c.recheck
	editing, edited := c.c.editing, c.edited()
	if ec != nil && (!editing || ec.id != id || ec.path != f.Path) {
		c.stop()
		ec = nil
	}
	if ec == nil && editing && (edited || f.Stale()) && hasCheckers(f) {
		ec = c.wait(id, f.Path)
	}
	return ec
}

// hasCheckers reports whether the project's checkers check f: the desk
// checks its proposal, or did.
func hasCheckers(f review.File) bool { return f.Checks.Running || f.Checks.Reports != nil }

// changed runs when the person changed the shown file in the editor:
// a check of the text before, under way or finished, no longer holds;
// the new text is checked once typing pauses for editCheckDelay.
func (c *checksView) changed() {
	c.stop()
	if id, f, ok := c.shown(); ok && hasCheckers(f) {
		c.wait(id, f.Path)
	}
	c.update()
}

// wait starts the wait for a pause in typing, after which the edit of
// file path of proposal id is checked; it says "checking…" meanwhile.
func (c *checksView) wait(id, path string) *editCheck {
	ec := &editCheck{id: id, path: path, checks: review.Checks{Running: true}}
	ec.stop = c.after(editCheckDelay, func() { c.post(func() { c.start(ec) }) })
	c.recheck = ec
	return ec
}

// start checks the editor's text off the UI goroutine, unless ec was
// stopped meanwhile.
func (c *checksView) start(ec *editCheck) {
	if c.recheck != ec || ec.stop == nil {
		return
	}
	ec.stop = nil
	ec.text = c.view.EditedText()
	ctx, cancel := context.WithCancel(context.Background())
	ec.cancel = cancel
	// Ends when the check returns: at once when stop cancels it.
	go func() {
		reports, err := c.check(ctx, ec.id, ec.path, ec.text)
		c.post(func() { c.checked(ec, reports, err) })
	}()
}

// checked shows the finished check ec, unless a newer edit replaced it;
// when the text changed since it started, without the view telling yet,
// the check starts over.
func (c *checksView) checked(ec *editCheck, reports []checker.Report, err error) {
	if c.recheck != ec {
		return
	}
	ec.cancel()
	if c.view.EditedText() != ec.text {
		c.changed()
		return
	}
	ec.checks, ec.err = review.Checks{Reports: reports}, err
	c.update()
}

// stop stops the check of the person's edit, waiting or under way, and
// forgets its result.
func (c *checksView) stop() {
	ec := c.recheck
	if ec == nil {
		return
	}
	if ec.stop != nil {
		ec.stop()
	}
	if ec.cancel != nil {
		ec.cancel()
	}
	c.recheck = nil
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
