package review

import (
	"fmt"
)

// The desk's memory budget for the proposals it holds for someone — open
// ones (pending, held, streaming, stale) and decided ones whose outcome
// its agent has not yet been given — over every door. Past it, a new
// proposal (or a stream's next chunk) is refused with a *BudgetError
// until some are decided, withdrawn or delivered. A proposal is checked
// before it is applied, so the desk holds at most the budget and one
// proposal more (each bounded by [limits] max_file_bytes; a stream by
// twice that). Delivered proposals are bounded apart (release.go).
const (
	DefaultMaxHeldBytes = 1 << 30 // 1 GiB of text: payloads, files' texts, outcomes
	DefaultMaxHeldCount = 10000
)

// streamCheckBytes is how often a stream's growth is checked against the
// budget: each time its payload passes another MiB.
const streamCheckBytes = 1 << 20

// BudgetError is a proposal refused because the proposals held for agents
// (over the whole desk, or for one connection: Scope says) are at their
// budget.
type BudgetError struct {
	Scope      string // "the desk" or "this connection"
	Count      int    // proposals held
	Bytes      int64  // their text, in bytes
	MaxCount   int
	MaxBytes   int64
	Proposing  bool // refused a new proposal (false: a stream's chunk)
	StreamPath string
}

func (e *BudgetError) Error() string {
	what := "a new proposal is refused"
	if !e.Proposing {
		what = "the stream to " + e.StreamPath + " is stopped"
	}
	return fmt.Sprintf("%s holds %d proposals (%s of text) awaiting a decision or their agent, at its budget of %d proposals or %s; %s: wait for the outcomes (or cancel proposals) before proposing more",
		e.Scope, e.Count, mib(e.Bytes), e.MaxCount, mib(e.MaxBytes), what)
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// Held returns how many proposals the desk holds for their agents (open,
// or decided and not yet delivered) and their text in bytes; among ids
// only, when ids is not nil.
func (d *Desk) Held(ids []string) (count int, bytes int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if ids == nil {
		return d.heldLocked()
	}
	for _, id := range ids {
		if e, ok := d.entries[id]; ok && !e.delivered {
			count, bytes = count+1, bytes+e.size()
		}
	}
	return count, bytes
}

func (d *Desk) heldLocked() (count int, bytes int64) {
	for _, e := range d.entries {
		if !e.delivered {
			count, bytes = count+1, bytes+e.size()
		}
	}
	return count, bytes
}

// overBudgetLocked is the BudgetError for the desk's holdings, or nil
// while they are under its budget; d.mu must be held.
func (d *Desk) overBudgetLocked(proposing bool) *BudgetError {
	n, b := d.heldLocked()
	if n < d.maxHeldCount && b < d.maxHeldBytes {
		return nil
	}
	return &BudgetError{Scope: "the desk", Count: n, Bytes: b, MaxCount: d.maxHeldCount, MaxBytes: d.maxHeldBytes, Proposing: proposing}
}
