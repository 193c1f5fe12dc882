package remote

import (
	"context"
	"fmt"
	"slices"

	"github.com/diffdesk/diffdesk/review"
)

// ApproveTrivial is review.Desk.ApproveTrivial on the desk's machine: the
// desk classifies and approves; dec's Seen and SeenLines go with it (who decides is
// this window's hello).
func (d *Desk) ApproveTrivial(ctx context.Context, key string, dec review.ChangesetDecision, except ...string) (review.TrivialApproval, error) {
	d.mu.Lock()
	var ids []string
	for id, p := range d.props {
		if p.State.Open() && review.ChangesetKey(p) == key && !slices.Contains(except, id) {
			ids = append(ids, id)
			d.mine[id] = true
		}
	}
	d.mu.Unlock()
	res, err := d.cl.ApproveTrivial(ctx, key, dec, except...)
	d.mu.Lock()
	approved := map[string]bool{}
	for _, o := range res.Approved {
		d.outcomes[o.ID] = o
		approved[o.ID] = true
	}
	d.mu.Unlock()
	for _, id := range ids {
		if !approved[id] {
			d.notMine(ctx, id) // left open, or decided elsewhere
		}
	}
	if err != nil {
		return review.TrivialApproval{}, deskError("", err)
	}
	return res, nil
}

// ApproveTrivial approves the trivial proposals of changeset key on the
// one desk that holds it.
func (f *Fleet) ApproveTrivial(ctx context.Context, key string, dec review.ChangesetDecision, except ...string) (review.TrivialApproval, error) {
	for _, s := range f.desks {
		m, down := f.member(s)
		if m == nil {
			continue
		}
		inner := ""
		for _, p := range m.List() {
			if review.ChangesetKey(f.proposal(s, p, false)) == key {
				inner = review.ChangesetKey(p)
				break
			}
		}
		if inner == "" {
			continue
		}
		if down != nil {
			return review.TrivialApproval{}, &UnreachableError{Label: s.label, Err: down}
		}
		t, ok := m.(interface {
			ApproveTrivial(ctx context.Context, key string, dec review.ChangesetDecision, except ...string) (review.TrivialApproval, error)
		})
		if !ok {
			return review.TrivialApproval{}, fmt.Errorf("the desk %s does not approve trivial proposals here", s.label)
		}
		var in []string
		for _, id := range except {
			if es, eid, ok := f.route(id); ok && es == s {
				in = append(in, eid)
			}
		}
		res, err := t.ApproveTrivial(ctx, inner, f.innerDecision(s, dec), in...)
		res.Key = key
		for i := range res.Approved {
			res.Approved[i] = f.outcome(s, res.Approved[i])
		}
		for i := range res.Mixed {
			res.Mixed[i] = f.outer(s, res.Mixed[i])
		}
		for i := range res.Skipped {
			res.Skipped[i].ID = f.outer(s, res.Skipped[i].ID)
		}
		return res, f.fix(s, err)
	}
	return review.TrivialApproval{}, fmt.Errorf("%s: %w", key, review.ErrUnknownChangeset)
}
