package review

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"strings"

	"github.com/diffdesk/diffdesk/engine"
)

// Place applies proposal id again with block (1-based) of its edit placed
// at lines a person chose in its file, keeping the blocks placed before
// (engine.ApplyAt). path names the file, absolute or relative to its root;
// "" means the proposal's one file. A failed proposal becomes pending with
// the new text, and a pending or stale one gets it (its checks run again);
// either then waits for a person's decision, which no rule makes for it,
// and its outcome tells the agent which lines the person chose. When
// another block of a failed proposal still does not match, the proposal
// stays failed with that block's Mismatch, to be placed in turn.
//
// Only single-file edits with blocks (search-replace, edit, multi-edit,
// smart-edit) that failed to match, or are pending, can be placed.
//
// A failed proposal's outcome was delivered when it failed; the decision
// after a placement gives it a new one, which Wait and Outcome return.
func (d *Desk) Place(ctx context.Context, id, path string, block int, lines engine.Region) (Proposal, error) {
	e, p, err := d.claimPlace(id, path)
	if err != nil {
		return Proposal{}, err
	}
	placed := maps.Clone(p.Placed)
	if placed == nil {
		placed = map[int]engine.Region{}
	}
	placed[block] = lines
	f := p.Files[0]
	res, err := placeEdit(p, f, placed)
	var me *engine.MatchError
	switch {
	case errors.As(err, &me) && p.State == StateFailed:
		p.Placed, p.Failure, p.Mismatch = placed, FailureText(f.Rel, err), me
	case err != nil:
		d.unclaim(e)
		return Proposal{}, fmt.Errorf("review: placing block %d of proposal %s at %s: %w", block, id, lines, err)
	default:
		if err := d.proposed(&f, res); err != nil {
			d.unclaim(e)
			return Proposal{}, fmt.Errorf("review: placing block %d of proposal %s at %s: %w", block, id, lines, err)
		}
		p.Files[0], p.Placed, p.Failure, p.Mismatch = f, placed, "", nil
		p.State = StatePending
	}
	// Journaled before anyone can decide it, as a new proposal is.
	if err := d.journal.RecordProposal(ctx, proposalRecord(p)); err != nil {
		d.unclaim(e)
		return Proposal{}, err
	}
	reopened := d.replacePlaced(e, p)
	if p.State == StateFailed {
		d.emit(Event{Kind: EventUpdated, ID: id})
		return d.snapshot(e), nil
	}
	if reopened {
		d.watch.add(f.Path)
	}
	d.recheckEntry(e)
	d.startChecks(e)
	d.emit(Event{Kind: EventPending, ID: id})
	return d.snapshot(e), nil
}

// claimPlace checks that proposal id can be placed in path and claims it
// (as a decision does) until Place is done; it returns a copy.
func (d *Desk) claimPlace(id, path string) (*entry, Proposal, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	e, ok := d.entries[id]
	if !ok {
		return nil, Proposal{}, ErrUnknownProposal
	}
	p := copyProposal(e.p)
	switch {
	case p.Format == engine.FormatPatch || p.Format == engine.FormatWrite || len(p.Files) != 1:
		return nil, p, fmt.Errorf("review: proposal %s is a %s; only search-replace, edit, multi-edit and smart-edit blocks can be placed at chosen lines", id, p.Format)
	case p.State == StateFailed && p.Mismatch == nil:
		return nil, p, fmt.Errorf("review: proposal %s failed for a reason other than a block that did not match (%s); there is no block to place", id, firstLine(p.Failure))
	case p.State == StateStreaming:
		return nil, p, fmt.Errorf("review: proposal %s is still streaming; place its blocks once it is complete", id)
	case p.State != StateFailed && p.State != StatePending && p.State != StateStale:
		return nil, p, fmt.Errorf("review: proposal %s is %s; only a failed or waiting proposal can be placed", id, p.State)
	case e.deciding:
		return nil, p, fmt.Errorf("review: proposal %s is being decided; it can no longer be placed", id)
	case !p.Files[0].Base.Exists:
		return nil, p, fmt.Errorf("review: proposal %s creates %s, which has no lines to choose yet", id, p.Files[0].Rel)
	}
	if f := p.Files[0]; path != "" && path != f.Path && filepath.Clean(filepath.FromSlash(path)) != filepath.FromSlash(f.Rel) {
		return nil, p, fmt.Errorf("review: proposal %s edits %s, not %s", id, f.Rel, path)
	}
	e.deciding = true
	return e, p, nil
}

// unclaim ends a claimPlace that changed nothing.
func (d *Desk) unclaim(e *entry) {
	d.mu.Lock()
	e.deciding = false
	d.mu.Unlock()
}

// placeEdit applies p's edit to f's base with the blocks placed.
func placeEdit(p Proposal, f File, placed map[int]engine.Region) (engine.Result, error) {
	edit, err := engine.Parse(p.Format, p.Payload)
	if err != nil {
		return engine.Result{}, err
	}
	return engine.ApplyAt(f.BaseText(), edit, placed)
}

// replacePlaced puts the placed proposal p in e and ends the claim. A
// failed proposal that is now pending is reopened: its outcome is cleared
// and a decision will set a new one. It reports whether it reopened e.
func (d *Desk) replacePlaced(e *entry, p Proposal) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	reopen := e.p.State == StateFailed && p.State == StatePending
	if reopen {
		e.done, e.outcome = make(chan struct{}), Outcome{}
		if e.delivered {
			e.delivered = false
			d.kept.drop(e.p.ID)
		}
	}
	d.stopChecksLocked(e)
	e.p.Files, e.p.State, e.p.Failure, e.p.Mismatch, e.p.Placed = p.Files, p.State, p.Failure, p.Mismatch, p.Placed
	e.deciding = false
	return reopen
}

// mismatch returns the *engine.MatchError err holds, or nil.
func mismatch(err error) *engine.MatchError {
	var me *engine.MatchError
	if errors.As(err, &me) {
		return me
	}
	return nil
}

// firstLine is the first line of s, trimmed.
func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}
