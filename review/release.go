package review

// A desk may run for weeks (deskctl serve): it keeps each proposal in full
// until its outcome is delivered — Wait or Outcome returned it, or its
// agent withdrew — and then only the most recent few, for a window that
// shows decided proposals beside the open ones (it keeps its own copy of
// those it shows). Older ones leave memory; the journal keeps their record.

// How many delivered proposals the desk keeps in memory: at most
// keepDecidedCount, holding at most keepDecidedBytes of text between them
// (payload, file contents, outcome), the newest first to stay.
const (
	keepDecidedBytes = 64 << 20
	keepDecidedCount = 256
)

// keptList is the delivered proposals the desk still holds, oldest first.
type keptList struct {
	ids      []string
	sizes    []int64
	bytes    int64 // the sum of sizes
	maxBytes int64
	maxCount int
}

// hasOutcome reports whether e's outcome is set; d.mu must be held.
func (e *entry) hasOutcome() bool {
	select {
	case <-e.done:
		return true
	default:
		return false
	}
}

// deliveredLocked notes that e's outcome was delivered, and drops the
// oldest delivered proposals beyond the desk's bounds; d.mu must be held.
func (d *Desk) deliveredLocked(e *entry) {
	if e.delivered {
		return
	}
	e.delivered = true
	k := &d.kept
	size := e.size()
	k.ids, k.sizes, k.bytes = append(k.ids, e.p.ID), append(k.sizes, size), k.bytes+size
	for len(k.ids) > 1 && (k.bytes > k.maxBytes || len(k.ids) > k.maxCount) { // the newest stays
		if old, ok := d.entries[k.ids[0]]; ok && old.delivered {
			delete(d.entries, k.ids[0])
		}
		k.bytes -= k.sizes[0]
		k.ids, k.sizes = k.ids[1:], k.sizes[1:]
	}
}

// size is the bytes of text e holds: payload (streamed chunks too), file
// contents and outcome.
func (e *entry) size() int64 {
	n := len(e.p.Payload) + e.p.Failure.Size()
	if e.outcome.Failure != e.p.Failure {
		n += e.outcome.Failure.Size()
	}
	for _, f := range e.p.Files {
		n += f.TextBytes() + len(f.Disk.Content)
	}
	for _, f := range e.outcome.Files {
		n += len(f.FinalContent) + len(f.UserEdits) + len(f.AutoFormatEdits) + len(f.DiskEdits)
	}
	return int64(n+len(e.outcome.Feedback)) + e.streamed // a stream's chunks
}
