package review

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/diffdesk/diffdesk/review/checker"
)

// Checks is what the project's checkers (config [[checker]]) found in a
// file's proposed text, for the person reading the proposal.
type Checks struct {
	Running bool // a check of the proposed text is under way
	// Reports are the finished check's, one per checker in the config's
	// order: each the problems the proposal adds, or why the checker could
	// not tell (Report.Err). Nil before a check finished, and when no
	// checker matches the file.
	Reports []checker.Report
}

// Problems returns the problems every checker found, in the checkers'
// order.
func (c Checks) Problems() []checker.Problem {
	var out []checker.Problem
	for _, r := range c.Reports {
		out = append(out, r.Problems...)
	}
	return out
}

// Failed returns the errors of the checkers that could not tell.
func (c Checks) Failed() []error {
	var out []error
	for _, r := range c.Reports {
		if r.Err != nil {
			out = append(out, r.Err)
		}
	}
	return out
}

// checkRun is one background check of a proposal's files.
type checkRun struct {
	cancel context.CancelFunc
	done   chan struct{} // closed once every file's check returned and its reports are stored
}

// checkFile is f as a checker sees it.
func checkFile(f File) checker.File {
	return checker.File{Path: f.Path, Base: f.BaseText(), Proposed: f.Proposed, Created: !f.Base.Exists, Deleted: f.Delete}
}

// startChecks starts checking the proposed text of e's files in the
// background, replacing a check already under way; each file's Checks
// are stored as its check finishes, with an EventUpdated. It never waits
// for a checker. The check ends early when the proposal is decided or
// withdrawn (stopChecks), or the desk closes.
func (d *Desk) startChecks(e *entry) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.stopChecksLocked(e)
	if d.closed || e.p.State != StatePending && e.p.State != StateStale || e.deciding {
		return
	}
	d.startFormatCheckLocked(e)
	files := make([]checker.File, len(e.p.Files))
	checkers := make([][]checker.Checker, len(e.p.Files))
	some := false
	for i, f := range e.p.Files {
		files[i] = checkFile(f)
		if !f.Delete {
			checkers[i] = d.cfg.CheckersFor(f.Path, f.Root)
		}
		if len(checkers[i]) > 0 {
			e.p.Files[i].Checks = Checks{Running: true}
			some = true
		}
	}
	if !some {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	run := &checkRun{cancel: cancel, done: make(chan struct{})}
	e.check = run
	d.checking.Add(1)
	// Ends when every file's checkers have returned: at once when ctx is
	// cancelled, since each kills its processes then.
	go func() {
		defer d.checking.Done()
		defer close(run.done)
		defer cancel()
		var wg sync.WaitGroup
		for i := range files {
			if len(checkers[i]) == 0 {
				continue
			}
			wg.Add(1)
			// Ends when this file's checkers have returned.
			go func() {
				defer wg.Done()
				reports := checker.CheckAll(ctx, checkers[i], files[i], others(files, i)...)
				d.storeChecks(e, run, ctx, i, reports)
			}()
		}
		wg.Wait()
	}()
}

// others returns files without the i-th.
func others(files []checker.File, i int) []checker.File {
	out := make([]checker.File, 0, len(files)-1)
	out = append(out, files[:i]...)
	return append(out, files[i+1:]...)
}

// storeChecks keeps the reports of file i of e's check run, unless the
// run was superseded or stopped meanwhile (a cancelled check says nothing
// about the text).
func (d *Desk) storeChecks(e *entry, run *checkRun, ctx context.Context, i int, reports []checker.Report) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if e.check != run || ctx.Err() != nil || i >= len(e.p.Files) {
		return
	}
	for _, r := range reports {
		if errors.Is(r.Err, context.Canceled) {
			return
		}
	}
	e.p.Files[i].Checks = Checks{Reports: reports}
	d.subs.Emit(Event{Kind: EventUpdated, ID: e.p.ID})
}

// stopChecksLocked cancels e's check under way, if any; the files it was
// checking are no longer shown as checking. d.mu must be held.
func (d *Desk) stopChecksLocked(e *entry) {
	d.stopFormatCheckLocked(e)
	if e.check == nil {
		return
	}
	e.check.cancel()
	e.check = nil
	for i := range e.p.Files {
		e.p.Files[i].Checks.Running = false
	}
}

// stopAllChecks cancels every check and waits for them to end; no check
// starts after it.
func (d *Desk) stopAllChecks() {
	d.mu.Lock()
	d.closed = true
	for _, e := range d.entries {
		d.stopChecksLocked(e)
	}
	for tc := range d.texts {
		tc.cancel(errDeskClosed)
	}
	d.mu.Unlock()
	d.checking.Wait()
}

// textCheck is one CheckText call under way.
type textCheck struct {
	cancel context.CancelCauseFunc
}

// errDeskClosed ends the CheckText calls under way when the desk closes.
var errDeskClosed = fmt.Errorf("review: the desk closed: %w", context.Canceled)

// CheckText runs the project's checkers for file path (absolute, or as
// the proposal names it relative to its root) of waiting proposal id on
// text, the person's edit of its proposed text, and returns one report
// per checker with the problems text adds to the file it would be written
// over: the base, or for a stale file the disk's content now. The
// proposal's other files go in as proposed. No checker for the file is
// no report. It blocks until the checkers return, so call it off the UI
// goroutine; it returns early, with an error wrapping context.Canceled,
// when ctx ends, the proposal is decided or withdrawn, or the desk
// closes, and its checkers' processes are killed before it returns.
func (d *Desk) CheckText(ctx context.Context, id, path, text string) ([]checker.Report, error) {
	d.mu.Lock()
	e, ok := d.entries[id]
	if !ok {
		d.mu.Unlock()
		return nil, fmt.Errorf("review: checking an edit of proposal %s: %w", id, ErrUnknownProposal)
	}
	if e.p.State != StatePending && e.p.State != StateStale || e.hasOutcome() {
		d.mu.Unlock()
		return nil, fmt.Errorf("review: checking an edit of proposal %s: it is %s, not waiting for a decision", id, e.p.State)
	}
	i := fileIndex(e.p.Files, path)
	if i < 0 {
		d.mu.Unlock()
		return nil, fmt.Errorf("review: checking an edit of proposal %s: it has no file %s", id, path)
	}
	if d.closed {
		d.mu.Unlock()
		return nil, errDeskClosed
	}
	files := make([]checker.File, len(e.p.Files))
	for k, f := range e.p.Files {
		files[k] = checkFile(f)
	}
	f := e.p.Files[i]
	files[i].Proposed, files[i].Deleted = text, false
	if f.Stale() {
		files[i].Base, files[i].Created = string(f.Disk.Content), !f.Disk.Exists
	}
	checkers := d.cfg.CheckersFor(f.Path, f.Root)
	if len(checkers) == 0 {
		d.mu.Unlock()
		return nil, nil
	}
	ctx, cancel := context.WithCancelCause(ctx)
	tc := &textCheck{cancel: cancel}
	if d.texts == nil {
		d.texts = map[*textCheck]bool{}
	}
	d.texts[tc] = true
	d.checking.Add(1)
	done := e.done
	d.mu.Unlock()
	defer func() {
		cancel(nil)
		d.mu.Lock()
		delete(d.texts, tc)
		d.mu.Unlock()
		d.checking.Done()
	}()
	// Ends when the proposal is decided or withdrawn, or CheckText returns.
	go func() {
		select {
		case <-done:
			cancel(fmt.Errorf("review: proposal %s was decided while an edit of it was checked: %w", id, context.Canceled))
		case <-ctx.Done():
		}
	}()
	reports := checker.CheckAll(ctx, checkers, files[i], others(files, i)...)
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	return reports, nil
}

// fileIndex returns the index of the file of files whose Path, else
// Rel, is path, or -1.
func fileIndex(files []File, path string) int {
	for i, f := range files {
		if f.Path == path {
			return i
		}
	}
	for i, f := range files {
		if f.Rel == path {
			return i
		}
	}
	return -1
}

// restartChecks checks every waiting proposal again, with the checkers
// the config now in force gives (SetConfig).
func (d *Desk) restartChecks() {
	d.mu.Lock()
	var open []*entry
	for _, e := range d.entries {
		if e.p.State == StatePending || e.p.State == StateStale {
			open = append(open, e)
		}
	}
	d.mu.Unlock()
	for _, e := range open {
		d.startChecks(e)
	}
}

// addProblems sets, for each file of an approval's plan, the problems its
// final text adds to the file as it was (FileOutcome.NewProblems), and
// the errors of checkers that could not tell. When every file is written
// as proposed, the check made while the person read is used (waited for,
// if it is still running); otherwise the final texts are checked now.
func (d *Desk) addProblems(ctx context.Context, e *entry, plan []fileWrite, files []FileOutcome) {
	finals := make([]checker.File, len(plan))
	asProposed := true
	for i, w := range plan {
		finals[i] = checkFile(w.File)
		finals[i].Proposed = w.Final
		if w.overDisk {
			finals[i].Base, finals[i].Created = string(w.now.Content), !w.now.Exists
		}
		asProposed = asProposed && !w.overDisk && (w.Delete || w.Final == w.Proposed)
	}
	if ctx.Err() != nil {
		return
	}
	var checked []Checks
	d.mu.Lock()
	run := e.check
	d.mu.Unlock()
	if asProposed && run != nil {
		select {
		case <-run.done:
		case <-ctx.Done():
		}
		d.mu.Lock()
		if e.check == run {
			for _, f := range e.p.Files {
				checked = append(checked, f.Checks)
			}
		}
		d.mu.Unlock()
	}
	for i, w := range plan {
		if w.Delete {
			continue
		}
		var reports []checker.Report
		if i < len(checked) && !checked[i].Running && checked[i].Reports != nil {
			reports = checked[i].Reports
		} else if cs := d.cfg.CheckersFor(w.Path, w.Root); len(cs) > 0 {
			reports = checker.CheckAll(ctx, cs, finals[i], others(finals, i)...)
		}
		c := Checks{Reports: reports}
		files[i].NewProblems = c.Problems()
		for _, err := range c.Failed() {
			files[i].CheckErrors = append(files[i].CheckErrors, err.Error())
		}
	}
}

// Diagnose runs every checker for the workspace file at path (absolute,
// or relative to the first root) on its content now, and returns one
// report per checker with all the problems it finds, not only new ones:
// what an IDE's diagnostics hold. A file that does not exist has none. A
// path the desk refuses to review (outside the workspace, ignored,
// binary, too large) is an error.
func (d *Desk) Diagnose(ctx context.Context, path string) ([]checker.Report, error) {
	f, err := d.Read(path)
	if err != nil || !f.Base.Exists {
		return nil, err
	}
	cs := d.cfg.CheckersFor(f.Path, f.Root)
	reports := make([]checker.Report, len(cs))
	var wg sync.WaitGroup
	for i, c := range cs {
		wg.Add(1)
		// Ends when this checker's run returns.
		go func() {
			defer wg.Done()
			problems, err := c.Run(ctx, f.Path, f.BaseText())
			reports[i] = checker.Report{Checker: c.Name, Problems: problems, Err: err}
		}()
	}
	wg.Wait()
	return reports, nil
}
