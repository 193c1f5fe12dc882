package review

import (
	"sync/atomic"

	"github.com/diffdesk/diffdesk/review/internal/diffcount"
)

// HeldBytes returns the bytes of text (payloads, file contents, outcomes)
// the desk holds for all its proposals.
func (d *Desk) HeldBytes() int64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	var n int64
	for _, e := range d.entries {
		n += e.size()
	}
	return n
}

// KeepDelivered sets how many delivered proposals, and bytes of text, the
// desk keeps in memory.
func (d *Desk) KeepDelivered(bytes int64, count int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.kept.maxBytes, d.kept.maxCount = bytes, count
}

// ChecksEnded returns a channel closed once no check is under way.
func (d *Desk) ChecksEnded() <-chan struct{} {
	c := make(chan struct{})
	// Ends when the checks under way have ended.
	go func() {
		d.checking.Wait()
		close(c)
	}()
	return c
}

// AfterTrivialClassified runs f between ApproveTrivial's classifying a
// proposal and approving it, until the test ends.
func AfterTrivialClassified(t interface{ Cleanup(func()) }, f func(d *Desk, id string)) {
	afterTrivialClassified = f
	t.Cleanup(func() { afterTrivialClassified = nil })
}

// BeforeDecisionRecorded runs f as each decision is about to be journaled
// (on the deciding goroutine, no lock held), until the test ends.
func BeforeDecisionRecorded(t interface{ Cleanup(func()) }, f func(id string)) {
	beforeDecisionRecorded = f
	t.Cleanup(func() { beforeDecisionRecorded = nil })
}

// CountDiffs returns a count of the diffs of a file's base and proposed
// texts made from now until the test ends.
func CountDiffs(t interface{ Cleanup(func()) }) *atomic.Int64 {
	return diffcount.Count(t)
}

// CountPlans returns a count of the files a decision plans, from now until
// the test ends.
func CountPlans(t interface{ Cleanup(func()) }) *atomic.Int64 {
	n := new(atomic.Int64)
	planCounted = func() { n.Add(1) }
	t.Cleanup(func() { planCounted = nil })
	return n
}

// ChangeProposedText changes the proposed text of a file of proposal id,
// as a text that changed after it was classified.
func (d *Desk) ChangeProposedText(id, text string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.entries[id].p.Files[0].Proposed = text
}

// WriteErr is the error of a file's write that failed (WriteIO).
func WriteErr(path string, err error) error { return &writeError{path: path, err: err} }

// JournalErr is the journal failing to record a decision (WriteJournal),
// or that its write finished (WriteUnfinished: written).
func JournalErr(err error, written bool) error { return &journalError{err: err, written: written} }
