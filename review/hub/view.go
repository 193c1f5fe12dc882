package hub

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/checker"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/nats-io/nats.go/jetstream"
)

// View is every desk's queue on a hub as the window's desk (diffdesk
// --hub): the proposals with their texts (each checked against the
// SHA-256 its desk published), decided through the Reviewer — the first
// decision of a round wins, and the desk's outcome is what the window
// shows. A proposal's id is DESK.H: its desk's name, which the hub lets
// only that desk publish under, and its hub id; its Where is its desk.
//
// Over the hub a window decides and reads; it does not place held
// failures (the hub carries only pending and stale proposals), run the
// desk's checkers, or show the history. Comments reach the agent inside
// the feedback; what was on screen (Decision.Seen, SeenLines) goes with
// the decision, and the desk checks and journals it.
type View struct {
	r      *Reviewer
	limits ViewLimits
	loop   context.Context // until Close
	stop   context.CancelFunc
	done   chan struct{}
	wg     sync.WaitGroup // the rereader

	mu        sync.Mutex
	items     map[string]*viewItem
	unread    map[string]*unread // proposals whose texts could not be read yet
	rereading bool
	subs      review.Subscribers
	skipped   int // proposals not held: over the limits
	onNotice  func(string)
	onReach   func(error)
}

// unread is a proposal the view has read from the hub but not its texts
// yet: in a cluster a text is read from any node that holds the stream,
// and one may not have stored it yet when another has delivered the
// proposal (or a node is down, the stream electing a leader). The view's
// reader has gone past the proposal's message, which its desk publishes
// once: the texts are read again, in the background, until they can be,
// a newer message of the proposal comes, or rereadFor has passed.
type unread struct {
	p     *Proposal
	since time.Time
}

// rereadFor is how long a proposal's texts are read again.
const rereadFor = 2 * time.Minute

type viewItem struct {
	hp  Proposal
	p   review.Proposal
	o   *review.Outcome
	at  time.Time // when it was last read
	big int64     // bytes of text kept
}

// ViewLimits bound what a window keeps of a hub's queue, which any desk
// on it fills: past them decided proposals go first, and then new ones
// are not held (counted and said, OnNotice), never grown without bound.
type ViewLimits struct {
	KeptBytes int64 // default 512 MiB
	KeptCount int   // default 5,000
	// DeskAnswer bounds how long a decision taken on the hub waits for
	// its desk to carry it out (default 1 minute); past it the person is
	// told the desk has not answered, not left reading "Writing…".
	DeskAnswer time.Duration
}

// OpenView reads every open proposal on the hub (with its texts) and
// follows the hub from there until Close.
func OpenView(ctx context.Context, r *Reviewer, l ViewLimits) (*View, error) {
	l.KeptBytes = cmp.Or(l.KeptBytes, 512<<20)
	l.KeptCount = cmp.Or(l.KeptCount, 5000)
	l.DeskAnswer = cmp.Or(l.DeskAnswer, time.Minute)
	v := &View{r: r, limits: l, items: map[string]*viewItem{}, unread: map[string]*unread{}, done: make(chan struct{})}
	v.loop, v.stop = context.WithCancel(context.Background())
	q, err := r.queue(ctx, v.logf, v.bad)
	if err != nil {
		v.stop()
		return nil, err
	}
	for _, it := range q {
		if it.Open() {
			v.take(ctx, it.Proposal, nil)
		}
	}
	go func() {
		defer close(v.done)
		r.follow(v.loop, false, v.logf, v.reached, func(p *Proposal, o *Outcome, _, _ string) { v.take(v.loop, p, o) }, v.bad)
	}()
	return v, nil
}

// OnNotice sets f, told (on another goroutine) what the window should
// know: a message skipped as malformed, proposals not held.
func (v *View) OnNotice(f func(string)) {
	v.mu.Lock()
	v.onNotice = f
	v.mu.Unlock()
}

// OnReach sets f, told (on another goroutine) when the view cannot
// follow the hub though connected to it — its reader could not make a
// consumer for 15 s: the hub's JetStream is unavailable (no quorum, a
// cluster re-forming) — and when it follows it again (nil). Meanwhile
// the queue is as last read: the window says the hub is unreachable.
func (v *View) OnReach(f func(err error)) {
	v.mu.Lock()
	v.onReach = f
	v.mu.Unlock()
}

func (v *View) reached(err error) {
	v.mu.Lock()
	f := v.onReach
	v.mu.Unlock()
	if f != nil {
		f(err)
	}
}

func (v *View) notice(s string) {
	v.mu.Lock()
	f := v.onNotice
	v.mu.Unlock()
	if f != nil {
		f(s)
	}
}

// logf is told what the view's readers of the hub did again (a consumer
// made again, a try that failed): the reviewer's Logf and the notices.
func (v *View) logf(format string, args ...any) {
	v.r.logf(format, args...)
	v.notice(fmt.Sprintf(format, args...))
}

func (v *View) bad(subject string, err error) {
	v.notice(fmt.Sprintf("skipped %s on the hub: %v", subject, err))
}

// Close stops following the hub.
func (v *View) Close() error {
	if v.stop != nil {
		v.stop()
		<-v.done
		v.wg.Wait()
	}
	return nil
}

// id is the window's id of a proposal on the hub.
func id(desk, h string) string { return desk + "." + h }

// take keeps p (read with its texts) or o, and tells the subscribers.
// Either is the latest message of its proposal: one waiting to be read
// again is superseded.
func (v *View) take(ctx context.Context, p *Proposal, o *Outcome) {
	if o != nil {
		k := id(o.Desk, o.Hub)
		v.mu.Lock()
		delete(v.unread, k)
		it, ok := v.items[k]
		if ok {
			out := outcomeOf(k, *o)
			it.o = &out
			it.p.State = review.StateReported
			if o.Status == string(decision.Withdrawn) {
				it.p.State = review.StateWithdrawn
			}
		}
		v.mu.Unlock()
		if ok {
			v.subs.Emit(review.Event{Kind: review.EventDecided, ID: k})
		}
		return
	}
	v.mu.Lock()
	delete(v.unread, id(p.Desk, p.Hub))
	v.mu.Unlock()
	v.keep(ctx, p, nil)
}

// keep reads p's texts and holds p. u is p's entry in v.unread when its
// texts are read again: p is held only if it is still there (no later
// message of its proposal came meanwhile).
func (v *View) keep(ctx context.Context, p *Proposal, u *unread) {
	k := id(p.Desk, p.Hub)
	v.mu.Lock()
	old, had := v.items[k]
	same := had && old.hp.Version == p.Version && old.hp.Round == p.Round
	decided := had && old.o != nil
	v.mu.Unlock()
	if same || decided {
		v.forget(k, u)
		return
	}
	rp, size, err := v.read(ctx, *p)
	if err != nil && ctx.Err() == nil && (errors.Is(err, jetstream.ErrMsgNotFound) || unanswered(err)) {
		v.later(k, p, u, err)
		return
	}
	if err != nil {
		v.forget(k, u)
		v.notice(fmt.Sprintf("proposal %s on the hub: %v", k, err))
		return
	}
	v.mu.Lock()
	if u != nil {
		if v.unread[k] != u {
			v.mu.Unlock()
			return // superseded while its texts were read
		}
		delete(v.unread, k)
		old, had = v.items[k]
		if had && (old.o != nil || old.hp.Round > p.Round) {
			v.mu.Unlock()
			return
		}
	}
	if !v.roomLocked(size, had) {
		v.skipped++
		n := v.skipped
		v.mu.Unlock()
		v.notice(fmt.Sprintf("%d proposals on the hub are not shown: the window keeps at most %d (%d MiB of text); decide some", n, v.limits.KeptCount, v.limits.KeptBytes>>20))
		return
	}
	v.items[k] = &viewItem{hp: *p, p: rp, at: time.Now(), big: size}
	v.mu.Unlock()
	kind := review.EventPending
	switch {
	case rp.State == review.StateStale:
		kind = review.EventStale
	case had:
		kind = review.EventUpdated
	}
	v.subs.Emit(review.Event{Kind: kind, ID: k})
}

// forget drops u, p's entry in v.unread, unless superseded.
func (v *View) forget(k string, u *unread) {
	if u == nil {
		return
	}
	v.mu.Lock()
	if v.unread[k] == u {
		delete(v.unread, k)
	}
	v.mu.Unlock()
}

// later has p's texts read again (its first try failed with err, which
// may pass: a text not yet on the node asked, no answer), by the rereader.
func (v *View) later(k string, p *Proposal, u *unread, err error) {
	v.mu.Lock()
	first := u == nil
	switch {
	case first && len(v.unread) >= v.limits.KeptCount:
		v.mu.Unlock()
		v.notice(fmt.Sprintf("proposal %s on the hub: %v (not read again: %d others are waiting to be)", k, err, v.limits.KeptCount))
		return
	case first:
		u = &unread{p: p, since: time.Now()}
		v.unread[k] = u
	case v.unread[k] != u:
		v.mu.Unlock()
		return // superseded
	case time.Since(u.since) > rereadFor:
		delete(v.unread, k)
		v.mu.Unlock()
		v.notice(fmt.Sprintf("proposal %s on the hub: %v (read again for %s: not shown)", k, err, rereadFor))
		return
	}
	start := !v.rereading
	if start {
		v.rereading = true
		v.wg.Add(1)
	}
	v.mu.Unlock()
	if first {
		v.notice(fmt.Sprintf("proposal %s on the hub: %v (reading it again)", k, err))
	}
	if start {
		go v.reread()
	}
}

// reread reads again the texts of the proposals in v.unread, with
// backoff, until none is left or the view closes.
func (v *View) reread() {
	defer v.wg.Done()
	backoff := 50 * time.Millisecond
	for {
		select {
		case <-v.loop.Done():
			v.mu.Lock()
			v.rereading = false
			v.mu.Unlock()
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 2*time.Second)
		v.mu.Lock()
		var list []*unread
		for _, u := range v.unread {
			list = append(list, u)
		}
		if len(list) == 0 {
			v.rereading = false
			v.mu.Unlock()
			return
		}
		v.mu.Unlock()
		for _, u := range list {
			v.keep(v.loop, u.p, u)
		}
	}
}

// roomLocked makes room for size more bytes (one more proposal unless
// replacing): decided proposals go, oldest first. v.mu is held.
func (v *View) roomLocked(size int64, replacing bool) bool {
	var total int64
	var closed []string
	for k, it := range v.items {
		total += it.big
		if it.o != nil {
			closed = append(closed, k)
		}
	}
	sort.Slice(closed, func(i, j int) bool { return v.items[closed[i]].at.Before(v.items[closed[j]].at) })
	count := len(v.items)
	if !replacing {
		count++
	}
	for _, k := range closed {
		if total+size <= v.limits.KeptBytes && count <= v.limits.KeptCount {
			break
		}
		total -= v.items[k].big
		delete(v.items, k)
		count--
	}
	return total+size <= v.limits.KeptBytes && count <= v.limits.KeptCount
}

// read turns a proposal on the hub into the desk's, its texts read.
func (v *View) read(ctx context.Context, p Proposal) (review.Proposal, int64, error) {
	rp := review.Proposal{ID: id(p.Desk, p.Hub), Agent: p.Agent, Session: p.Session, Created: p.Created, Format: engine.Format(p.Format),
		State: review.StatePending, Instruction: p.Instruction, Where: p.Desk}
	if p.State == string(review.StateStale) {
		rp.State = review.StateStale
	}
	var size int64
	for i, f := range p.Files {
		base, err := v.text(ctx, p, i, TextBase, f.Exists)
		if err != nil {
			return rp, 0, err
		}
		proposed, err := v.r.Text(ctx, p, i, TextProposed)
		if err != nil {
			return rp, 0, err
		}
		rf := review.File{Path: f.Path, Rel: f.Rel, Root: f.Root, Proposed: proposed, Delete: f.Delete, Added: f.Added, Removed: f.Removed,
			Base: snapshot(f.Path, f.Exists, f.Base.SHA256, base)}
		if f.Protected != "" {
			// The desk's account of the rule, as it published it: the
			// window shows it and asks before an approval, as at the desk.
			rf.Protected = config.Protection{Pattern: "as desk " + p.Desk + " said", Origin: "on the hub", Reason: f.Protected}
		}
		if f.Disk != nil {
			disk, err := v.r.Text(ctx, p, i, TextDisk)
			if err != nil {
				return rp, 0, err
			}
			rf.Disk = snapshot(f.Path, !f.DiskGone, f.Disk.SHA256, disk)
		}
		rf.KeepHunks() // diffed here once, from the texts shown, when first asked
		size += int64(len(base) + len(proposed) + len(rf.Disk.Content))
		rp.Files = append(rp.Files, rf)
	}
	return rp, size, nil
}

func (v *View) text(ctx context.Context, p Proposal, file int, kind string, exists bool) (string, error) {
	if !exists {
		return "", nil
	}
	return v.r.Text(ctx, p, file, kind)
}

func snapshot(path string, exists bool, sha, content string) atomicfile.Snapshot {
	if !exists {
		return atomicfile.Snapshot{Path: path}
	}
	return atomicfile.Snapshot{Path: path, Exists: true, Content: []byte(content), SHA256: sha, Size: int64(len(content))}
}

// outcomeOf is the desk's outcome on the hub as the window reads one.
func outcomeOf(k string, o Outcome) review.Outcome {
	ro := review.Outcome{ID: k, Status: decision.Verdict(o.Status), By: o.By, Rule: o.Rule, Feedback: o.Feedback, Error: o.Error}
	switch {
	case o.Rule != "":
		ro.DecidedBy = review.DecidedByRule
	case o.By != "":
		ro.DecidedBy = review.DecidedByPerson
	}
	for _, f := range o.Files {
		ro.Files = append(ro.Files, review.FileOutcome{Path: f.Path, Written: f.Written, Deleted: f.Deleted, FinalSHA256: f.FinalSHA256})
	}
	return ro
}

// Subscribe is review.Desk.Subscribe, over every desk on the hub.
func (v *View) Subscribe(fn func(review.Event)) (cancel func()) { return v.subs.Subscribe(fn) }

// List returns the open proposals, oldest first.
func (v *View) List() []review.Proposal {
	v.mu.Lock()
	defer v.mu.Unlock()
	var out []review.Proposal
	for _, it := range v.items {
		if it.p.State.Open() {
			out = append(out, it.p)
		}
	}
	slices.SortFunc(out, func(p, q review.Proposal) int {
		if p.Before(q) {
			return -1
		}
		return 1
	})
	return out
}

// Get returns the proposal as last read.
func (v *View) Get(id string) (review.Proposal, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if it, ok := v.items[id]; ok {
		return it.p, true
	}
	return review.Proposal{}, false
}

// Outcome returns the outcome the proposal's desk published.
func (v *View) Outcome(id string) (review.Outcome, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if it, ok := v.items[id]; ok && it.o != nil {
		return *it.o, true
	}
	return review.Outcome{}, false
}

// Preview: nothing streams over the hub.
func (v *View) Preview(string) (engine.Preview, bool) { return engine.Preview{}, false }

// Decide creates dec as the decision of the round whose texts the window
// showed (dec.Shown, which a decision that writes must name: when the view
// holds newer texts it is refused as review.ChangedError and nothing is
// sent) and waits for what its desk did: the outcome, or — when another reviewer's
// decision came first, or the desk could not carry it out — an error
// saying so (a stale file as review.StaleError, the proposal shown again
// with the disk's text).
func (v *View) Decide(ctx context.Context, id string, dec review.Decision) (review.Outcome, error) {
	if dec.Rule != "" {
		return review.Outcome{}, errors.New("hub: a rule decides only on the desk's own machine")
	}
	if dec.Shown == "" && dec.Verdict.Wrote() {
		return review.Outcome{}, fmt.Errorf("hub: the decision on %s does not say which version of it was shown; nothing was sent (a window names it: review.ShownVersion)", id)
	}
	v.mu.Lock()
	it, ok := v.items[id]
	var hp Proposal
	var now string
	open := ok && it.o == nil && it.p.State.Open()
	if ok {
		// The round taken is the one whose texts the person saw: the
		// view may hold a newer version than the window has drawn.
		hp, now = it.hp, review.ShownVersion(it.p)
	}
	v.mu.Unlock()
	if !ok {
		return review.Outcome{}, fmt.Errorf("%s: %w", id, review.ErrUnknownProposal)
	}
	if !open {
		return review.Outcome{}, fmt.Errorf("%s: %w", id, ErrNotOpen)
	}
	if dec.Verdict.Wrote() && dec.Shown != now {
		return review.Outcome{}, &review.ChangedError{ID: id, Shown: dec.Shown, Want: now}
	}
	feedback := dec.Feedback
	for _, c := range dec.Comments { // the hub's decision has no comments of its own: they travel in the feedback
		feedback += fmt.Sprintf("\n%s line %d: %s", c.Path, c.Line, c.Text)
	}
	res, err := v.r.Decide(ctx, hp, Decision{Verdict: string(dec.Verdict), Feedback: strings.TrimSpace(feedback), Edited: dec.Edited, Hunks: dec.Hunks, Overwrite: dec.Overwrite,
		Seen: dec.Seen, SeenLines: dec.SeenLines})
	if err != nil {
		return review.Outcome{}, err
	}
	if !res.Won {
		return review.Outcome{}, fmt.Errorf("%s was decided first by %s (%s); yours was not taken", id, res.Winner.By, res.Winner.Verdict)
	}
	actx, cancel := context.WithTimeout(ctx, v.limits.DeskAnswer)
	defer cancel()
	o, next, err := v.r.await(actx, hp, v.logf)
	if err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		return review.Outcome{}, fmt.Errorf("your decision on %s is on the hub, but its desk %s has not carried it out in %s (it may be stopped or cut off): it does when it is back, and the queue shows the outcome then", id, hp.Desk, v.limits.DeskAnswer)
	}
	if err != nil {
		return review.Outcome{}, fmt.Errorf("decided %s; waiting for its desk %s to carry it out: %w", id, hp.Desk, err)
	}
	if next != nil {
		v.take(ctx, next, nil)
		if next.State == string(review.StateStale) {
			st := &review.StaleError{ID: id}
			for _, f := range next.Files {
				if f.Disk != nil {
					st.Paths = append(st.Paths, f.Path)
				}
			}
			return review.Outcome{}, st
		}
		return review.Outcome{}, fmt.Errorf("the desk %s did not carry out the decision on %s: %s", hp.Desk, id, next.Note)
	}
	out := outcomeOf(id, *o)
	v.take(ctx, nil, o)
	return out, nil
}

// ChangesetOf returns the changeset of id among the proposals held here.
func (v *View) ChangesetOf(id string) (review.Changeset, bool) {
	v.mu.Lock()
	all := make([]review.Proposal, 0, len(v.items))
	for _, it := range v.items {
		all = append(all, it.p)
	}
	it, ok := v.items[id]
	var p review.Proposal
	if ok {
		p = it.p
	}
	v.mu.Unlock()
	if !ok {
		return review.Changeset{}, false
	}
	key := review.ChangesetKey(p)
	for _, cs := range review.Changesets(all) {
		if cs.Key == key {
			return cs, true
		}
	}
	return review.Changeset{}, false
}

// DecideChangeset decides each open proposal of changeset key, one
// decision each; one that cannot be taken is left open, with why.
func (v *View) DecideChangeset(ctx context.Context, key string, dec review.ChangesetDecision) (review.ChangesetResult, error) {
	var ids []string
	for _, p := range v.List() {
		if review.ChangesetKey(p) == key {
			ids = append(ids, p.ID)
		}
	}
	if len(ids) == 0 {
		return review.ChangesetResult{}, fmt.Errorf("%s: %w", key, review.ErrUnknownChangeset)
	}
	res := review.ChangesetResult{Key: key}
	for _, id := range ids {
		shown, ok := dec.Shown[id]
		if !ok && dec.Verdict.Wrote() {
			res.Skipped = append(res.Skipped, review.ChangesetSkip{ID: id, Reason: "it joined the changeset after the changeset was shown; review it and decide it"})
			continue
		}
		o, err := v.Decide(ctx, id, review.Decision{Verdict: dec.Verdict, Feedback: dec.Feedback, Comments: dec.Comments[id], Shown: shown,
			Seen: dec.Seen[id], SeenLines: dec.SeenLines[id]})
		if err != nil {
			res.Skipped = append(res.Skipped, review.ChangesetSkip{ID: id, Reason: err.Error()})
			continue
		}
		res.Decided = append(res.Decided, o)
	}
	return res, nil
}

// CheckText: the checkers run on the desk's machine, which the hub does
// not reach.
func (v *View) CheckText(context.Context, string, string, string) ([]checker.Report, error) {
	return nil, errors.New("over the hub the desk's checkers do not run on an edit; they check what is written")
}

// Forget drops a decided proposal the window no longer shows.
func (v *View) Forget(id string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if it, ok := v.items[id]; ok && it.o != nil {
		delete(v.items, id)
	}
}

// Attend: held failures are never on the hub.
func (v *View) Attend() (leave func()) { return func() {} }

// Dismiss: held failures are never on the hub.
func (v *View) Dismiss(context.Context, string) error {
	return errors.New("hub: held failures stay at their desk; dismiss them there")
}

// Place: held failures are never on the hub.
func (v *View) Place(context.Context, string, string, int, engine.Region) (review.Proposal, error) {
	return review.Proposal{}, errors.New("hub: placing a block is done at its desk")
}

// Interdiff: the hub keeps no previous proposals' texts.
func (v *View) Interdiff(string, string) (review.Interdiff, bool) { return review.Interdiff{}, false }

// Roots: the desks' workspaces are named per proposal (each file's Root).
func (v *View) Roots() []string { return nil }
