// Package remote is a desk on another machine as the window sees it: the
// native protocol (review/deskrpc) spoken as a reviewer over a stream —
// `ssh host deskctl bridge`'s stdio, or any socket — with the proposals
// kept here, read in full as the desk announces each change, so the window
// reads them without waiting on the network.
package remote

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/checker"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/deskrpc"
)

// Desk is a desk reached through the protocol. Its methods are the ones of
// review.Desk the window uses, with the same meaning.
type Desk struct {
	cl    *deskrpc.Client
	where string // what the window calls the desk: "user@host"
	roots []string

	mu       sync.Mutex
	props    map[string]review.Proposal // every proposal the desk announced and still holds
	outcomes map[string]review.Outcome
	mine     map[string]bool // proposals this window decides: their outcome comes with the decision
	subs     review.Subscribers
	lost     error // why the desk can no longer be reached; nil while it can
	onLost   func(error)

	stop context.CancelFunc
	done chan struct{}

	limits Limits
}

// Limits bound what a window keeps of a desk on another machine, which
// may be compromised: the proposals it holds in full (texts of base,
// proposal and disk, outcomes' final content). Past them the decided
// proposals go first, oldest first; if the open ones alone are over, the
// window stops following that desk and says why (OnLost), rather than
// grow without bound. The zero value of a field means its default.
type Limits struct {
	KeptBytes int64 // default 512 MiB
	KeptCount int   // default 5,000
	// MessageBytes is the largest message read from the desk (ssh.go's
	// Dial; default 256 MiB): a proposal's texts together, as get sends
	// them.
	MessageBytes int
}

// DefaultLimits are the limits Open and Dial use.
var DefaultLimits = Limits{KeptBytes: 512 << 20, KeptCount: 5000, MessageBytes: 256 << 20}

func (l Limits) orDefault() Limits {
	return Limits{KeptBytes: cmp.Or(l.KeptBytes, DefaultLimits.KeptBytes), KeptCount: cmp.Or(l.KeptCount, DefaultLimits.KeptCount),
		MessageBytes: cmp.Or(l.MessageBytes, DefaultLimits.MessageBytes)}
}

// Open starts reviewing the desk at the other end of cl: hello as a
// reviewer named who (e.g. "me@laptop", which the desk's journal records),
// the queue, and every waiting proposal in full. where names the desk for
// the person ("dev@box"). The Desk closes cl when closed.
func Open(ctx context.Context, cl *deskrpc.Client, where, who string) (*Desk, error) {
	return OpenLimited(ctx, cl, where, who, DefaultLimits)
}

// OpenLimited is Open keeping at most what l says.
func OpenLimited(ctx context.Context, cl *deskrpc.Client, where, who string, l Limits) (*Desk, error) {
	var hello struct {
		Roots []string `json:"roots"`
	}
	// attend: a person is at the desk while this window is open, so a
	// failure a person could place waits for them (review.Desk.Attend).
	if err := cl.Call(ctx, "hello", map[string]any{"protocol": deskrpc.ProtocolVersion, "agent": "diffdesk", "session": who, "role": "reviewer", "attend": true, "who": who}, &hello); err != nil {
		return nil, fmt.Errorf("greeting the desk at %s: %w", where, err)
	}
	sub, err := cl.Subscribe(ctx)
	if err != nil {
		return nil, fmt.Errorf("following the queue of the desk at %s: %w", where, err)
	}
	d := &Desk{cl: cl, where: where, roots: hello.Roots, props: map[string]review.Proposal{}, outcomes: map[string]review.Outcome{}, mine: map[string]bool{}, done: make(chan struct{}), limits: l.orDefault()}
	for _, s := range sub.Proposals {
		if err := d.fetch(ctx, s.ID); err != nil && !errors.Is(err, errGone) {
			return nil, err
		}
	}
	loop, stop := context.WithCancel(context.Background())
	d.stop = stop
	go d.follow(loop, sub)
	return d, nil
}

// errGone: the desk no longer holds the proposal.
var errGone = errors.New("the desk no longer holds the proposal")

// follow reads the proposal each event names and tells the subscribers,
// until the connection ends or the desk is closed.
func (d *Desk) follow(ctx context.Context, sub *deskrpc.Subscription) {
	defer close(d.done)
	for {
		ev, err := sub.Next(ctx)
		if err != nil {
			if ctx.Err() == nil {
				d.setLost(err)
			}
			return
		}
		if d.decidedHere(ev) {
			d.subs.Emit(review.Event{Kind: ev.Kind, ID: ev.ID})
			continue
		}
		if err := d.fetch(ctx, ev.ID); errors.Is(err, errGone) {
			d.mu.Lock()
			if p, ok := d.props[ev.ID]; ok && p.State.Open() {
				p.State = review.StateWithdrawn // gone before it was decided: the desk dropped it
				d.props[ev.ID] = p
			}
			d.mu.Unlock()
		} else if err != nil {
			if ctx.Err() == nil {
				d.setLost(err)
			}
			return
		}
		d.subs.Emit(review.Event{Kind: ev.Kind, ID: ev.ID})
	}
}

// decidedHere takes the news that a proposal this window decided is
// decided from the event alone: the decision's answer brings the outcome,
// so reading the proposal again would cost a round trip for nothing.
func (d *Desk) decidedHere(ev deskrpc.Event) bool {
	if ev.Kind != review.EventDecided || ev.Proposal == nil {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	p, ok := d.props[ev.ID]
	if !ok || !d.mine[ev.ID] {
		return false
	}
	p.State = ev.Proposal.State
	d.props[ev.ID] = p
	return true
}

// fetch reads proposal id in full and keeps it.
func (d *Desk) fetch(ctx context.Context, id string) error {
	det, err := d.cl.Get(ctx, id, "")
	var re *deskrpc.RemoteError
	if errors.As(err, &re) && re.Code == -32002 {
		return errGone
	}
	if err != nil {
		return fmt.Errorf("reading proposal %s from the desk at %s: %w", id, d.where, err)
	}
	p, err := proposal(det)
	if err != nil {
		return fmt.Errorf("proposal %s from the desk at %s: %w", id, d.where, err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if was, ok := d.props[id]; ok && len(was.Files) == len(p.Files) {
		for i := range p.Files {
			p.Files[i].KeepHunksFrom(was.Files[i]) // read again, its texts the same: not diffed again
		}
	}
	d.props[id] = p
	if det.Outcome != nil {
		d.outcomes[id] = *det.Outcome
	}
	return d.boundLocked()
}

// keptSize is the bytes of text the window keeps of p and its outcome.
func keptSize(p review.Proposal, o review.Outcome) int64 {
	n := 0
	for _, f := range p.Files {
		n += len(f.Base.Content) + len(f.Proposed) + len(f.Disk.Content)
	}
	for _, f := range o.Files {
		n += len(f.FinalContent) + len(f.UserEdits) + len(f.AutoFormatEdits) + len(f.DiskEdits)
	}
	return int64(n + p.Failure.Size())
}

// boundLocked keeps what the window holds within its limits: decided
// proposals go, oldest first; an error if the open ones alone are over.
// d.mu must be held.
func (d *Desk) boundLocked() error {
	var total int64
	var closed []review.Proposal
	for id, p := range d.props {
		total += keptSize(p, d.outcomes[id])
		if !p.State.Open() {
			closed = append(closed, p)
		}
	}
	slices.SortFunc(closed, func(a, b review.Proposal) int { return a.Created.Compare(b.Created) })
	for _, p := range closed {
		if total <= d.limits.KeptBytes && len(d.props) <= d.limits.KeptCount {
			break
		}
		total -= keptSize(p, d.outcomes[p.ID])
		delete(d.props, p.ID)
		delete(d.outcomes, p.ID)
		delete(d.mine, p.ID)
	}
	if total > d.limits.KeptBytes || len(d.props) > d.limits.KeptCount {
		return fmt.Errorf("the desk at %s holds %d open proposals (%.1f MiB of text), more than this window keeps (%d proposals, %d MiB); "+
			"the window stopped following it to keep its memory: decide some there (deskctl status, deskctl decide), then connect again",
			d.where, len(d.props), float64(total)/(1<<20), d.limits.KeptCount, d.limits.KeptBytes>>20)
	}
	return nil
}

func (d *Desk) setLost(err error) {
	d.mu.Lock()
	d.lost = fmt.Errorf("lost the desk at %s: %w", d.where, err)
	f, lost := d.onLost, d.lost
	d.mu.Unlock()
	if f != nil {
		f(lost)
	}
}

// OnLost sets f, called once (on another goroutine) if the desk can no
// longer be reached.
func (d *Desk) OnLost(f func(error)) {
	d.mu.Lock()
	d.onLost = f
	lost := d.lost
	d.mu.Unlock()
	if lost != nil {
		f(lost)
	}
}

// Where names the desk, as Open was told.
func (d *Desk) Where() string { return d.where }

// Close stops following the desk and closes the connection.
func (d *Desk) Close() error {
	d.stop()
	err := d.cl.Close()
	<-d.done
	return err
}

// Subscribe is review.Desk.Subscribe: fn is called for every event, once
// the proposal it names has been read.
func (d *Desk) Subscribe(fn func(review.Event)) (cancel func()) { return d.subs.Subscribe(fn) }

// List returns the proposals waiting for a decision, oldest first.
func (d *Desk) List() []review.Proposal {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []review.Proposal
	for _, p := range d.props {
		if p.State.Open() {
			out = append(out, p)
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
func (d *Desk) Get(id string) (review.Proposal, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	p, ok := d.props[id]
	return p, ok
}

// Outcome returns the outcome of a decided proposal.
func (d *Desk) Outcome(id string) (review.Outcome, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	o, ok := d.outcomes[id]
	return o, ok
}

// Forget drops a decided or failed proposal the window no longer shows.
func (d *Desk) Forget(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if p, ok := d.props[id]; ok && !p.State.Open() {
		delete(d.props, id)
		delete(d.outcomes, id)
		delete(d.mine, id)
	}
}

// Roots returns the desk's workspace roots, on its machine.
func (d *Desk) Roots() []string { return d.roots }

// Preview returns a streaming proposal's text so far.
func (d *Desk) Preview(id string) (engine.Preview, bool) {
	p, ok := d.Get(id)
	if !ok || p.State != review.StateStreaming || len(p.Files) == 0 {
		return engine.Preview{}, false
	}
	f := p.Files[0]
	lines := engine.SplitLines(f.Proposed)
	pv := engine.Preview{Done: lines, Growing: f.Growing}
	if n := len(lines); n > 0 && !endsLine(lines[n-1]) {
		pv.Done, pv.Partial = lines[:n-1], lines[n-1]
	}
	return pv, true
}

func endsLine(l string) bool { return len(l) > 0 && l[len(l)-1] == '\n' }

// Decide carries out dec on the desk: one call, answered with the outcome.
func (d *Desk) Decide(ctx context.Context, id string, dec review.Decision) (review.Outcome, error) {
	if dec.Rule != "" {
		return review.Outcome{}, errors.New("remote: a rule decides only on the desk's own machine")
	}
	var res struct {
		Outcome *review.Outcome `json:"outcome"`
	}
	d.mu.Lock()
	d.mine[id] = true
	d.mu.Unlock()
	err := d.cl.Call(ctx, "decide", map[string]any{"id": id, "decision": string(dec.Verdict), "feedback": dec.Feedback,
		"edited": dec.Edited, "hunks": dec.Hunks, "overwrite": dec.Overwrite, "comments": dec.Comments, "seen": dec.Seen, "seenLines": dec.SeenLines, "shown": dec.Shown,
		"finalContent": "all"}, &res) // the window shows the final text
	if err != nil {
		// Not decided here. Another window's decision, when it comes, is
		// read in full; if its event came while this call was out (and
		// was taken for this window's), read it now.
		d.notMine(ctx, id)
		return review.Outcome{}, deskError(id, err)
	}
	if res.Outcome == nil {
		return review.Outcome{}, fmt.Errorf("remote: the desk at %s answered the decision on %s without an outcome", d.where, id)
	}
	d.mu.Lock()
	d.outcomes[id] = *res.Outcome
	d.mu.Unlock()
	return *res.Outcome, nil
}

// ChangesetOf returns the changeset proposal id belongs to, from the
// proposals held here (decided ones until the window forgets them).
func (d *Desk) ChangesetOf(id string) (review.Changeset, bool) {
	d.mu.Lock()
	all := make([]review.Proposal, 0, len(d.props))
	for _, p := range d.props {
		all = append(all, p)
	}
	p, ok := d.props[id]
	d.mu.Unlock()
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

// DecideChangeset approves or rejects every open proposal of changeset
// key on the desk: one call, answered with each outcome.
func (d *Desk) DecideChangeset(ctx context.Context, key string, dec review.ChangesetDecision) (review.ChangesetResult, error) {
	d.mu.Lock()
	var ids []string
	for id, p := range d.props {
		if p.State.Open() && review.ChangesetKey(p) == key {
			ids = append(ids, id)
			d.mine[id] = true
		}
	}
	d.mu.Unlock()
	var res review.ChangesetResult
	err := d.cl.Call(ctx, "decideChangeset", map[string]any{"changeset": key, "decision": string(dec.Verdict), "feedback": dec.Feedback, "seen": dec.Seen, "seenLines": dec.SeenLines, "comments": dec.Comments, "shown": dec.Shown}, &res)
	d.mu.Lock()
	decided := map[string]bool{}
	for _, o := range res.Decided {
		d.outcomes[o.ID] = o
		decided[o.ID] = true
	}
	d.mu.Unlock()
	for _, id := range ids {
		if !decided[id] {
			d.notMine(ctx, id) // left open, or decided elsewhere
		}
	}
	if err != nil {
		return review.ChangesetResult{}, deskError("", err)
	}
	return res, nil
}

// notMine notes that proposal id, which this window set out to decide,
// was not decided by it: another window's decision, when its event comes,
// is read in full, and if that event came while the call was out (taken
// for this window's), the proposal is read now.
func (d *Desk) notMine(ctx context.Context, id string) {
	d.mu.Lock()
	delete(d.mine, id)
	p, ok := d.props[id]
	_, have := d.outcomes[id]
	d.mu.Unlock()
	if ok && !p.State.Open() && !have && d.fetch(ctx, id) == nil {
		d.subs.Emit(review.Event{Kind: review.EventDecided, ID: id})
	}
}

// Attend is review.Desk.Attend: this window attends the desk from its
// hello until its connection ends, so there is nothing more to do.
func (d *Desk) Attend() (leave func()) { return func() {} }

// Dismiss sends a held failure to its agent, as the person chose not to
// place its block.
func (d *Desk) Dismiss(ctx context.Context, id string) error {
	d.mu.Lock()
	d.mine[id] = true
	d.mu.Unlock()
	if err := d.cl.Call(ctx, "dismiss", map[string]any{"id": id}, nil); err != nil {
		d.notMine(ctx, id)
		return deskError(id, err)
	}
	return d.fetch(ctx, id)
}

// Place re-applies a failed or loosely placed block of proposal id at
// lines the person chose, and returns the proposal as it is then.
func (d *Desk) Place(ctx context.Context, id, path string, block int, lines engine.Region) (review.Proposal, error) {
	err := d.cl.Call(ctx, "place", map[string]any{"id": id, "path": path, "block": block, "startLine": lines.StartLine, "endLine": lines.EndLine}, nil)
	if err != nil {
		return review.Proposal{}, deskError(id, err)
	}
	if err := d.fetch(ctx, id); err != nil {
		return review.Proposal{}, err
	}
	p, _ := d.Get(id)
	return p, nil
}

// Interdiff is review.Desk.Interdiff among the proposals held here.
func (d *Desk) Interdiff(id, path string) (review.Interdiff, bool) {
	d.mu.Lock()
	p, ok := d.props[id]
	var ended []review.Ended
	for oid, o := range d.outcomes {
		if q, ok := d.props[oid]; ok {
			ended = append(ended, review.Ended{Proposal: q, Outcome: o})
		}
	}
	d.mu.Unlock()
	if !ok {
		return review.Interdiff{}, false
	}
	return review.InterdiffOf(p, path, ended)
}

// deskError gives an error of the desk's the type review.Desk would have
// returned, where the window tells them apart.
func deskError(id string, err error) error {
	var re *deskrpc.RemoteError
	if !errors.As(err, &re) {
		return err
	}
	switch re.Code {
	case -32002:
		return fmt.Errorf("%s: %w", re.Message, review.ErrUnknownProposal)
	case -32003:
		if se, ok := re.Data.(map[string]any); ok {
			if paths, ok := se["Paths"].([]any); ok {
				st := &review.StaleError{ID: id}
				for _, p := range paths {
					if s, ok := p.(string); ok {
						st.Paths = append(st.Paths, s)
					}
				}
				return st
			}
		}
	}
	return err
}

// CheckText runs the project's checkers on the desk's machine over text,
// the person's edit of file path of proposal id.
func (d *Desk) CheckText(ctx context.Context, id, path, text string) ([]checker.Report, error) {
	reports, err := d.cl.CheckText(ctx, id, path, text)
	if err != nil {
		return nil, err
	}
	return checkerReports(reports), nil
}

func checkerReports(rs []deskrpc.Report) []checker.Report {
	var out []checker.Report
	for _, r := range rs {
		cr := checker.Report{Checker: r.Checker, Problems: r.Problems}
		if r.Error != "" {
			cr.Err = errors.New(r.Error)
		}
		out = append(out, cr)
	}
	return out
}

// proposal turns the protocol's account of a proposal back into the
// desk's.
func proposal(det deskrpc.Detail) (review.Proposal, error) {
	created, err := time.Parse(time.RFC3339, det.Created)
	if err != nil {
		return review.Proposal{}, fmt.Errorf("bad created time %q: %w", det.Created, err)
	}
	p := review.Proposal{ID: det.ID, Agent: det.Agent, Session: det.Session, Turn: det.Turn, Created: created, Format: det.Format, State: det.State,
		AgentWrites: det.AgentWrites, VerdictOnly: det.VerdictOnly, Failure: review.TextFailure(det.Failure), AutoRule: det.AutoRule, Instruction: det.Instruction, Mismatch: det.Mismatch}
	for _, wf := range det.Files {
		if wf.Base == nil || wf.Proposed == nil {
			return review.Proposal{}, fmt.Errorf("file %s came without its texts", wf.Path)
		}
		f := review.File{Path: wf.Path, Rel: wf.Rel, Root: wf.Root, Proposed: *wf.Proposed, Delete: wf.Delete,
			Incomplete: wf.Incomplete, Added: wf.Added, Removed: wf.Removed,
			Base: snapshot(wf.Path, wf.Exists, wf.BaseSHA256, *wf.Base)}
		if pr := wf.Protected; pr != nil {
			f.Protected = config.Protection{Pattern: pr.Pattern, Origin: pr.Origin, Reason: pr.Reason}
		}
		for _, m := range wf.Matches {
			f.Matches = append(f.Matches, m.Match)
		}
		if dk := wf.Disk; dk != nil {
			content := ""
			if dk.Content != nil {
				content = *dk.Content
			}
			f.Disk = snapshot(wf.Path, dk.Exists, dk.SHA256, content)
		}
		if len(wf.Growing) == 2 {
			f.Growing = engine.LineRange{Start: wf.Growing[0], End: wf.Growing[1]}
		}
		if c := wf.Checks; c != nil {
			f.Checks = review.Checks{Running: c.Running, Reports: checkerReports(c.Reports)}
			if f.Checks.Reports == nil {
				f.Checks.Reports = []checker.Report{}
			}
		}
		f.KeepHunks() // diffed here once, from the texts shown, when first asked
		p.Files = append(p.Files, f)
	}
	return p, nil
}

// snapshot is a file's content as the desk read it on its machine.
func snapshot(path string, exists bool, sha, content string) atomicfile.Snapshot {
	if !exists {
		return atomicfile.Snapshot{Path: path}
	}
	return atomicfile.Snapshot{Path: path, Exists: true, Content: []byte(content), SHA256: sha, Size: int64(len(content))}
}

// Untrusted lists the far desk's repository configs whose rules wait for
// the person's trust, with the rules each would turn on.
func (d *Desk) Untrusted(ctx context.Context) ([]deskrpc.TrustFile, error) {
	files, err := d.cl.Untrusted(ctx)
	if err != nil {
		return nil, fmt.Errorf("the desk at %s: %w", d.where, err)
	}
	return files, nil
}

// Trust trusts f on the far desk: exactly the content shown (its hash);
// if the file changed since, nothing is trusted.
func (d *Desk) Trust(ctx context.Context, f deskrpc.TrustFile) error {
	if err := d.cl.Trust(ctx, f.Root, f.SHA256); err != nil {
		return fmt.Errorf("the desk at %s: %w", d.where, err)
	}
	return nil
}
