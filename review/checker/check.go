package checker

import (
	"context"
	"errors"
	"sort"
	"sync"

	"github.com/diffdesk/diffdesk/engine"
)

// File is one file of a proposal as a checker sees it.
type File struct {
	Path     string // absolute, symlinks resolved
	Base     string // the content before the proposal
	Proposed string // the proposed content
	Created  bool   // the file did not exist before the proposal: Base is ignored
	Deleted  bool   // the proposal deletes the file: Proposed is ignored
}

// Check runs c on f as it was and as proposed, concurrently, and returns
// the problems the proposal adds (see Added), in line order. The other
// files of the same proposal go in with: a command with {overlay} sees
// them as they were in the first run and as proposed in the second, so a
// change that spans files is checked whole. A deleted file has nothing to
// check. Check fails with the *Error of the first run that failed; when
// ctx ends (the proposal changed) both runs stop, their processes are
// killed and their temporary files removed before it returns.
func (c Checker) Check(ctx context.Context, f File, with ...File) ([]Problem, error) {
	if f.Deleted {
		return nil, nil
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		base    []Problem
		baseErr error
		wg      sync.WaitGroup
	)
	wg.Add(1)
	// Ends when the base run returns; a failed proposal run cancels it.
	go func() {
		defer wg.Done()
		base, baseErr = c.run(ctx, version{path: f.Path, text: f.Base, absent: f.Created, base: true, others: with, othersBase: true})
		if baseErr != nil {
			cancel()
		}
	}()
	proposed, err := c.run(ctx, version{path: f.Path, text: f.Proposed, others: with})
	if err != nil {
		cancel()
	}
	wg.Wait()
	// The base run's failure, unless the proposal run failed first: when
	// the base run failed, the proposal run was stopped for it.
	if baseErr != nil && (err == nil || errors.Is(err, context.Canceled) && parent.Err() == nil) {
		return nil, baseErr
	}
	if err != nil {
		return nil, err
	}
	baseText := f.Base
	if f.Created {
		baseText = ""
	}
	return Added(baseText, f.Proposed, base, proposed), nil
}

// Added returns the problems in proposed, found in the text proposal, that
// the problems in base, found in the text base, do not account for, in
// their order. A base problem accounts for one proposal problem with the
// same message and code: on an unchanged line, when the line diff from
// base to proposal maps its line to the proposal problem's; on a changed
// line, when the proposal problem is in the same change; in the file as a
// whole (line 0) or another file (Path), when both name the same place.
func Added(base, proposal string, baseProblems, proposed []Problem) []Problem {
	if len(proposed) == 0 {
		return nil
	}
	ops := engine.Diff(base, proposal)
	left := map[problemKey]int{}
	for _, p := range baseProblems {
		left[keyOf(p, ops, false)]++
	}
	var added []Problem
	for _, p := range proposed {
		k := keyOf(p, ops, true)
		if left[k] > 0 {
			left[k]--
			continue
		}
		added = append(added, p)
	}
	return added
}

// problemKey is what two problems must share to be the same problem in
// the base and the proposal.
type problemKey struct {
	path          string
	where         int // a proposal line (1-based), or a change's op index when change is set
	change        bool
	col           int // only for problems in other files
	message, code string
}

// keyOf returns p's key, its line taken through ops to the proposal's
// numbering (inProposal says it is numbered so already).
func keyOf(p Problem, ops []engine.Op, inProposal bool) problemKey {
	k := problemKey{path: p.Path, where: p.Line, message: p.Message, code: p.Code}
	if p.Path != "" {
		k.col = p.Col
		return k
	}
	if p.Line == 0 {
		return k
	}
	i := p.Line - 1 // 0-based
	n := sort.Search(len(ops), func(n int) bool {
		if inProposal {
			return ops[n].B1 > i
		}
		return ops[n].A1 > i
	})
	switch {
	case n == len(ops): // past the last line: a problem at the end of the text
		k.where, k.change = len(ops), true
	case ops[n].Kind == engine.OpEqual:
		if !inProposal {
			k.where = ops[n].B0 + i - ops[n].A0 + 1
		}
	default:
		k.where, k.change = n, true
	}
	return k
}

// Report is what one checker found in a proposal's file.
type Report struct {
	Checker  string    // the checker's Name
	Problems []Problem // the problems the proposal adds
	Err      error     // why the checker could not tell (an *Error); Problems is then nil
}

// CheckAll runs every checker's Check on f concurrently and returns their
// reports in the checkers' order. A checker that fails does not stop the
// others.
func CheckAll(ctx context.Context, checkers []Checker, f File, with ...File) []Report {
	reports := make([]Report, len(checkers))
	var wg sync.WaitGroup
	for i, c := range checkers {
		wg.Add(1)
		// Ends when this checker's Check returns.
		go func() {
			defer wg.Done()
			problems, err := c.Check(ctx, f, with...)
			reports[i] = Report{Checker: c.Name, Problems: problems, Err: err}
		}()
	}
	wg.Wait()
	return reports
}
