package remote

import (
	"cmp"
	"context"
	"fmt"
	"reflect"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/journal"
)

// The desk's history, read through the protocol's history methods and
// written only by the desk (restore): the window's History tab over
// diffdesk --connect. What the desk answers is checked against what was
// asked (a page no longer than its limit, texts within the protocol's
// bound), so a far desk cannot make the window hold more than it asked.

// History is review.Desk.History on the desk's machine.
func (d *Desk) History(ctx context.Context, f journal.Filter) (journal.Page, error) {
	f.Limit = cmp.Or(f.Limit, 100)
	page, err := d.cl.History(ctx, f)
	if err != nil {
		return journal.Page{}, err
	}
	if len(page.Entries) > f.Limit {
		return journal.Page{}, fmt.Errorf("the desk at %s sent %d history entries for a page of %d: not shown", d.where, len(page.Entries), f.Limit)
	}
	return journal.Page{Entries: page.Entries, Next: page.Next}, nil
}

// HistoryAgents is review.Desk.HistoryAgents on the desk's machine.
func (d *Desk) HistoryAgents(ctx context.Context) ([]journal.Agent, error) {
	return d.cl.HistoryAgents(ctx)
}

// HistoryDetail is review.Desk.HistoryDetail on the desk's machine, as
// far as the protocol carries it: the entry, who decided it and what was
// on screen (the payload and each file's stages stay there).
func (d *Desk) HistoryDetail(ctx context.Context, ref journal.Ref) (journal.Detail, error) {
	e, err := d.cl.HistoryShow(ctx, ref)
	if err != nil {
		return journal.Detail{}, err
	}
	return journal.Detail{Entry: e.Entry, DecidedBy: e.DecidedBy, DecidedByRule: e.DecidedByRule, Seen: e.Seen}, nil
}

// HistoryDiff is review.Desk.HistoryDiff on the desk's machine: the texts
// of one answer within deskrpc.HistoryTextBytes (the desk leaves out those
// past it, marked Omitted).
func (d *Desk) HistoryDiff(ctx context.Context, c review.HistoryCompare) ([]review.HistoryFile, error) {
	files, err := d.cl.HistoryDiff(ctx, c)
	if err != nil {
		return nil, err
	}
	n := 0
	for _, f := range files {
		n += len(f.Old) + len(f.New)
	}
	if n > deskrpc.HistoryTextBytes {
		return nil, fmt.Errorf("the desk at %s sent %d bytes of history texts in one answer, over the protocol's %d: not shown", d.where, n, deskrpc.HistoryTextBytes)
	}
	return files, nil
}

// Restore is review.Desk.Restore on the desk's machine: the desk writes
// (the dry run with apply false). A plan that refuses a file is a
// *journal.RestoreRefusedError, as the desk here returns it.
func (d *Desk) Restore(ctx context.Context, req journal.RestoreRequest, apply bool) (journal.RestorePlan, journal.RestoreResult, error) {
	a, err := d.cl.Restore(ctx, req, apply)
	if err != nil {
		return journal.RestorePlan{}, journal.RestoreResult{}, err
	}
	if a.Refused != "" {
		return a.Plan, journal.RestoreResult{}, &journal.RestoreRefusedError{Checkpoint: a.Plan.Request.Checkpoint, Files: a.Plan.Refused()}
	}
	return a.Plan, a.Result, nil
}

// historyDesk is a desk whose history a Fleet reads: its one member.
type historyDesk interface {
	History(ctx context.Context, f journal.Filter) (journal.Page, error)
	HistoryAgents(ctx context.Context) ([]journal.Agent, error)
	HistoryDetail(ctx context.Context, ref journal.Ref) (journal.Detail, error)
	HistoryDiff(ctx context.Context, c review.HistoryCompare) ([]review.HistoryFile, error)
	Restore(ctx context.Context, req journal.RestoreRequest, apply bool) (journal.RestorePlan, journal.RestoreResult, error)
}

var _ historyDesk = (*Desk)(nil)

// historyOf is the desk whose history the window shows: the fleet's one
// desk, or the one chosen with SetHistoryDesk (each desk's history is that
// desk's own: its entries, and a restore, go to it alone).
func (f *Fleet) historyOf() (historyDesk, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.historyAtLocked(f.histDesk)
}

// historyAtLocked is desk i's history. f.mu is held.
func (f *Fleet) historyAtLocked(i int) (historyDesk, error) {
	s := f.desks[i]
	if s.m == nil || s.down != nil {
		return nil, &UnreachableError{Label: s.label, Err: s.down}
	}
	h, ok := s.m.(historyDesk)
	if !ok {
		return nil, fmt.Errorf("the desk %s does not serve its history here", s.label)
	}
	return h, nil
}

// HistoryDesks names the desks whose history the window can show, and
// which it shows now (SetHistoryDesk).
func (f *Fleet) HistoryDesks() (labels []string, shown int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.desks {
		labels = append(labels, s.label)
	}
	return labels, f.histDesk
}

// SetHistoryDesk makes desk i (in HistoryDesks' order) the one whose
// history the History methods read and whose files Restore writes.
func (f *Fleet) SetHistoryDesk(i int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if i < 0 || i >= len(f.desks) {
		return fmt.Errorf("no desk %d in this window (it reviews %d)", i, len(f.desks))
	}
	f.histDesk = i
	return nil
}

// History is the shown desk's (historyOf).
func (f *Fleet) History(ctx context.Context, fl journal.Filter) (journal.Page, error) {
	h, err := f.historyOf()
	if err != nil {
		return journal.Page{}, err
	}
	return h.History(ctx, fl)
}

// HistoryAgents is the shown desk's (historyOf).
func (f *Fleet) HistoryAgents(ctx context.Context) ([]journal.Agent, error) {
	h, err := f.historyOf()
	if err != nil {
		return nil, err
	}
	return h.HistoryAgents(ctx)
}

// HistoryDetail is the shown desk's (historyOf).
func (f *Fleet) HistoryDetail(ctx context.Context, ref journal.Ref) (journal.Detail, error) {
	h, err := f.historyOf()
	if err != nil {
		return journal.Detail{}, err
	}
	return h.HistoryDetail(ctx, ref)
}

// HistoryDiff is the shown desk's (historyOf).
func (f *Fleet) HistoryDiff(ctx context.Context, c review.HistoryCompare) ([]review.HistoryFile, error) {
	h, err := f.historyOf()
	if err != nil {
		return nil, err
	}
	return h.HistoryDiff(ctx, c)
}

// Restore is the shown desk's (historyOf): that desk writes. A restore
// carried out (apply) as last planned goes to the desk that planned it,
// whichever desk is shown by then: the person confirmed that desk's files
// (a plan that arrives after another desk was chosen is still the first
// desk's, and its checkpoint's number means another on the second).
func (f *Fleet) Restore(ctx context.Context, req journal.RestoreRequest, apply bool) (journal.RestorePlan, journal.RestoreResult, error) {
	f.mu.Lock()
	i := f.histDesk
	if apply && f.planned != nil && reflect.DeepEqual(*f.planned, req) {
		i = f.planDesk
	}
	h, err := f.historyAtLocked(i)
	f.mu.Unlock()
	if err != nil {
		return journal.RestorePlan{}, journal.RestoreResult{}, err
	}
	plan, res, err := h.Restore(ctx, req, apply)
	if !apply && err == nil {
		f.mu.Lock()
		f.planned, f.planDesk = &plan.Request, i
		f.mu.Unlock()
	}
	return plan, res, err
}
