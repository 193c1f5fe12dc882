package review

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
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
	d.emitLocked(Event{Kind: EventUpdated, ID: e.p.ID})
}

// stopChecksLocked cancels e's check under way, if any; the files it was
// checking are no longer shown as checking. d.mu must be held.
func (d *Desk) stopChecksLocked(e *entry) {
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
	d.mu.Unlock()
	d.checking.Wait()
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
		finals[i] = checker.File{Path: w.Path, Base: w.BaseText(), Proposed: w.Final, Created: !w.Base.Exists, Deleted: w.Delete}
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

// writeNewProblems lists the problems the project's checkers found in a
// file's final content that it did not have before, the way Cline tells
// its model after saving a file: each file's path, then a line per
// problem with its checker, severity, line and message.
func writeNewProblems(b *strings.Builder, f FileOutcome) {
	if len(f.NewProblems) == 0 {
		return
	}
	problems := append([]checker.Problem(nil), f.NewProblems...)
	sort.SliceStable(problems, func(i, j int) bool {
		if problems[i].Path != problems[j].Path {
			return problems[i].Path < problems[j].Path // "" (the file itself) first
		}
		return problems[i].Line < problems[j].Line
	})
	b.WriteString("\nNew problems detected after saving the file:\n")
	shown := "\x00"
	for _, p := range problems {
		if p.Path != shown {
			shown = p.Path
			path := f.Path
			if p.Path != "" {
				path = p.Path
			}
			fmt.Fprintf(b, "%s\n", path)
		}
		where := ""
		if p.Line > 0 {
			where = fmt.Sprintf("Line %d: ", p.Line)
		}
		fmt.Fprintf(b, "- [%s %s] %s%s\n", p.Source, severityLabel(p.Severity), where, p.Message)
	}
}

// severityLabel names a severity as VS Code and Cline's text do.
func severityLabel(s checker.Severity) string {
	switch s {
	case checker.SeverityWarning:
		return "Warning"
	case checker.SeverityInfo:
		return "Information"
	}
	return "Error"
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
