package review

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"

	"github.com/diffdesk/diffdesk/review/decision"
)

// A changeset is what one agent session proposed — in one turn, where the
// agent's door says which turn a proposal belongs to (Request.Turn) — as
// the person reviews it: a file tree over all its proposals, read as one
// and decided per hunk, per file, per proposal, or whole (approve all,
// reject all with one reason). Agents that send one file per call (the IDE
// doors, hooks) make one proposal per file; those proposals form one
// changeset just the same, and each call still gets its own outcome.
//
// Proposals that name no session have no session to share: each is a
// changeset of its own.

// Changeset is the proposals of one agent session (and turn) the desk
// holds, open and recently decided alike.
type Changeset struct {
	// Key names the changeset: the same for every proposal of one agent,
	// session and turn (ChangesetKey).
	Key     string
	Agent   string
	Session string
	Turn    string
	// Proposals are the changeset's proposals, oldest first.
	Proposals []Proposal
	// Files are every file of every proposal, in the proposals' order.
	Files []ChangesetFile
	// Open is how many proposals still wait for a decision (a held
	// failure too: its agent waits for the person to place it).
	Open           int
	Added, Removed int
}

// ChangesetFile is one file of a changeset: where it is (its proposal, and
// its index in the proposal's Files) and its proposal's state.
type ChangesetFile struct {
	Proposal string // the proposal's ID
	Index    int    // in the proposal's Files
	Path     string // absolute
	Rel      string // relative to its root, slash-separated
	State    State  // the proposal's
	Delete   bool
	New      bool // the file does not exist yet
	Added    int
	Removed  int
}

// ChangesetKey returns the key of the changeset p belongs to: a hash of its
// agent, session and turn ("cs-" and 12 hex digits, safe to type); for a
// proposal without a session, of its own id; in a window over several
// desks, with the desk's label (Where) first.
func ChangesetKey(p Proposal) string {
	s := p.Agent + "\x00" + p.Session + "\x00" + p.Turn
	if p.Session == "" {
		s = "\x00proposal\x00" + p.ID
	}
	if p.Where != "" {
		s = "\x00where\x00" + p.Where + "\x00" + s
	}
	sum := sha256.Sum256([]byte(s))
	return "cs-" + hex.EncodeToString(sum[:6])
}

// Changesets groups proposals into changesets: each changeset's proposals
// oldest first, and the changesets in the order of their oldest proposal.
func Changesets(ps []Proposal) []Changeset {
	sorted := append([]Proposal(nil), ps...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Before(sorted[j]) })
	var out []Changeset
	index := map[string]int{}
	for _, p := range sorted {
		key := ChangesetKey(p)
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, Changeset{Key: key, Agent: p.Agent, Session: p.Session, Turn: p.Turn})
		}
		cs := &out[i]
		cs.Proposals = append(cs.Proposals, p)
		if p.State.Waiting() {
			cs.Open++
		}
		for j, f := range p.Files {
			cs.Files = append(cs.Files, ChangesetFile{Proposal: p.ID, Index: j, Path: f.Path, Rel: f.Rel, State: p.State,
				Delete: f.Delete, New: !f.Base.Exists, Added: f.Added, Removed: f.Removed})
			cs.Added += f.Added
			cs.Removed += f.Removed
		}
	}
	return out
}

// all returns copies of every proposal the desk holds: open ones, and
// decided ones it still keeps in memory (release.go).
func (d *Desk) all() []Proposal {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]Proposal, 0, len(d.entries))
	for _, e := range d.entries {
		out = append(out, copyProposal(e.p))
	}
	return out
}

// Changeset returns the changeset with that key, as the desk holds it now:
// its open proposals and the decided ones still in memory.
func (d *Desk) Changeset(key string) (Changeset, bool) {
	for _, cs := range Changesets(d.all()) {
		if cs.Key == key {
			return cs, true
		}
	}
	return Changeset{}, false
}

// ChangesetOf returns the changeset proposal id belongs to.
func (d *Desk) ChangesetOf(id string) (Changeset, bool) {
	p, ok := d.Get(id)
	if !ok {
		return Changeset{}, false
	}
	return d.Changeset(ChangesetKey(p))
}

// ChangesetDecision is a decision on a whole changeset: approve every open
// proposal as proposed, or reject every one with one reason.
type ChangesetDecision struct {
	Verdict  decision.Verdict // decision.Approved or decision.Rejected
	Feedback string           // the reason (or note) every agent call is told
	// Seen maps a proposal's id to its Decision.Seen: the hunks the person
	// had on screen, which the journal keeps; a proposal missing from it
	// is not tracked.
	Seen map[string]map[string][]string
	// SeenLines maps a proposal's id to its Decision.SeenLines: how many
	// lines of its hunks shown in part were on screen.
	SeenLines map[string]map[string]map[string]int
	// Comments maps a proposal's id to its Decision.Comments: the person's
	// comments on its lines, each sent with that proposal's outcome only.
	Comments map[string][]decision.Comment
	// Shown maps a proposal's id to the version of it the person had on
	// screen (Decision.Shown). When Shown is given, an approval leaves out
	// any proposal missing from it (it joined the changeset after it was
	// shown) or changed since; nil: not checked.
	Shown map[string]string
	By    string // who decides (Decision.By)
}

// ChangesetResult is what a whole-changeset decision did: the outcome of
// each proposal it decided, and the open proposals it left, with why.
type ChangesetResult struct {
	Key     string          `json:"key"`
	Decided []Outcome       `json:"decided"`
	Skipped []ChangesetSkip `json:"skipped"`
}

// ChangesetSkip is an open proposal a whole-changeset decision left open.
type ChangesetSkip struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
}

// ErrUnknownChangeset is returned for a changeset key the desk does not hold.
var ErrUnknownChangeset = errors.New("review: unknown changeset key")

// DecideChangeset decides every open proposal of the changeset key on its
// own (Decide), oldest first, so that each agent call waiting on one gets
// its own outcome. An approval leaves open, and reports in Skipped, what
// cannot be approved as proposed: a proposal still streaming, a stale one
// (it needs the person to review the merge), one that turns out stale or
// fails to write. A rejection rejects every open proposal. Proposals
// already decided are left as they are.
func (d *Desk) DecideChangeset(ctx context.Context, key string, dec ChangesetDecision) (ChangesetResult, error) {
	if dec.Verdict != decision.Approved && dec.Verdict != decision.Rejected {
		return ChangesetResult{}, fmt.Errorf("review: a changeset is approved or rejected whole, not %q; decide its proposals one by one for anything else", dec.Verdict)
	}
	cs, ok := d.Changeset(key)
	if !ok {
		return ChangesetResult{}, fmt.Errorf("%w %q", ErrUnknownChangeset, key)
	}
	res := ChangesetResult{Key: key, Decided: []Outcome{}, Skipped: []ChangesetSkip{}}
	for _, p := range cs.Proposals {
		if !p.State.Open() {
			continue
		}
		if dec.Verdict == decision.Approved {
			if _, shown := dec.Shown[p.ID]; dec.Shown != nil && !shown {
				res.Skipped = append(res.Skipped, ChangesetSkip{p.ID, "it joined the changeset after the changeset was shown; review it and decide it"})
				continue
			}
			switch {
			case p.State == StateStreaming:
				res.Skipped = append(res.Skipped, ChangesetSkip{p.ID, "still streaming; approve it once it is complete"})
				continue
			case p.State == StateStale || anyFileStale(p):
				res.Skipped = append(res.Skipped, ChangesetSkip{p.ID, "stale: a file changed on disk; review base / disk / proposal and decide it on its own"})
				continue
			}
		}
		o, err := d.Decide(ctx, p.ID, Decision{Verdict: dec.Verdict, Feedback: dec.Feedback, Seen: dec.Seen[p.ID], SeenLines: dec.SeenLines[p.ID], Comments: dec.Comments[p.ID], Shown: dec.Shown[p.ID], By: dec.By})
		if err != nil {
			res.Skipped = append(res.Skipped, ChangesetSkip{p.ID, err.Error()})
			continue
		}
		res.Decided = append(res.Decided, o)
	}
	return res, nil
}

func anyFileStale(p Proposal) bool {
	for _, f := range p.Files {
		if f.Stale() {
			return true
		}
	}
	return false
}
