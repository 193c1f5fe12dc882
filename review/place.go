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
// "" means the proposal's one file. A held failure (StateHeld, hold.go)
// becomes pending with the new text, and a pending or stale proposal gets
// it (its checks run again); either then waits for a person's decision,
// which no rule makes for it, and its outcome tells the agent which lines
// the person chose. When another block of a held failure still does not
// match, it stays held with that block's Mismatch, to be placed in turn.
//
// Only single-file edits with blocks (search-replace, edit, multi-edit,
// smart-edit) that are pending or whose failure is held can be placed. A
// failure already sent to the agent cannot: the agent believes the file
// untouched, and a write now would go behind its back.
func (d *Desk) Place(ctx context.Context, id, path string, block int, lines engine.Region) (Proposal, error) {
	e, p, err := d.claimPlace(id, path)
	if err != nil {
		return Proposal{}, err
	}
	defer d.sendIfNobody(e) // the last reviewer left while the block was placed
	placed := maps.Clone(p.Placed)
	if placed == nil {
		placed = map[int]engine.Region{}
	}
	placed[block] = lines
	f := p.Files[0]
	res, err := placeEdit(p, f, placed)
	var me *engine.MatchError
	switch {
	case errors.As(err, &me) && p.State == StateHeld:
		p.Placed, p.Failure, p.Mismatch = placed, EditFailure(f.Rel, err), me
	case err != nil:
		d.unclaim(e)
		return Proposal{}, fmt.Errorf("review: placing block %d of proposal %s at %s: %w", block, id, lines, err)
	default:
		if err := d.proposed(&f, res); err != nil {
			d.unclaim(e)
			return Proposal{}, fmt.Errorf("review: placing block %d of proposal %s at %s: %w", block, id, lines, err)
		}
		p.Files[0], p.Placed, p.Failure, p.Mismatch = f, placed, nil, nil
		p.State = StatePending
	}
	// Journaled before anyone can decide it, as a new proposal is.
	if err := d.journal.RecordProposal(ctx, d.proposalRecord(p)); err != nil {
		d.unclaim(e)
		return Proposal{}, err
	}
	if watch := d.replacePlaced(e, p); watch {
		d.watch.add(f.Path)
	}
	if p.State == StateHeld {
		d.emit(Event{Kind: EventUpdated, ID: id})
		return d.snapshot(e), nil
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
	case !placeableFormat(p.Format) || len(p.Files) != 1:
		return nil, p, fmt.Errorf("review: proposal %s is a %s; only search-replace, edit, multi-edit and smart-edit blocks can be placed at chosen lines", id, p.Format)
	case p.State == StateFailed:
		return nil, p, fmt.Errorf("review: proposal %s failed and the agent was told so, and believes the file untouched; only a failure held for the person at the desk can be placed (the window holds them while it is open; [review] hold_failed)", id)
	case p.State == StateHeld && p.Mismatch == nil:
		return nil, p, fmt.Errorf("review: proposal %s failed for a reason other than a block that did not match (%s); there is no block to place", id, firstLine(d.failText(p.Failure)))
	case p.State == StateStreaming:
		return nil, p, fmt.Errorf("review: proposal %s is still streaming; place its blocks once it is complete", id)
	case p.State != StateHeld && p.State != StatePending && p.State != StateStale:
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

// sendIfNobody sends e's failure if it is still held but nobody attends
// any more (Attend's leave skipped it while it was claimed).
func (d *Desk) sendIfNobody(e *entry) {
	d.mu.Lock()
	send := e.p.State == StateHeld && !e.deciding && d.attending == 0
	if send {
		e.p.State, e.deciding = StateFailed, true
	}
	d.mu.Unlock()
	if send {
		d.sendFailure(context.Background(), e)
	}
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

// replacePlaced puts the placed proposal p in e and ends the claim. A held
// failure that is now pending is held no longer: it waits for a decision,
// and its agent's call with it. It reports whether e's file is now to be
// watched for changes on disk, as an open proposal's is.
func (d *Desk) replacePlaced(e *entry, p Proposal) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.stopChecksLocked(e)
	e.p.Files, e.p.State, e.p.Failure, e.p.Mismatch, e.p.Placed = p.Files, p.State, p.Failure, p.Mismatch, p.Placed
	e.deciding = false
	watch := p.State.Open() && !e.watched
	e.watched = e.watched || watch
	return watch
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
