package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// How much a hub can make a desk hold: decision messages buffered from the
// hub (each at most MaxMessage), and decisions carried out at once. Every
// other decision waits on the hub, not in the desk.
const (
	decisionBuffer   = 4 << 20
	decidingAtOnce   = 4
	publishTimeout   = 10 * time.Second
	publishersAtOnce = 4
)

// Link puts a desk's queue on a hub and carries out the decisions taken
// there. The desk stays the only writer of its files and the only judge of
// staleness: a decision from the hub is carried out by Desk.Decide like
// any other, and the hub only learns the outcome. Start one with Connect.
type Link struct {
	desk *review.Desk
	name string
	nc   *nats.Conn
	js   jetstream.JetStream
	logf func(format string, args ...any)

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	unsub  func()
	sem    chan struct{}

	mu       sync.Mutex
	byID     map[string]*tracked // the desk's proposal id → its life on the hub
	byHub    map[string]*tracked // H → the same
	dirty    map[string]bool     // ids whose state the hub does not have yet
	inflight map[string]bool     // ids a publisher is syncing now
	wake     chan struct{}
	stale    []string // H of proposals a previous run left open: their outcome is "withdrawn"
	caught   chan struct{}
}

// tracked is one of the desk's proposals as the link has put it on the hub.
type tracked struct {
	id, h   string
	round   int
	version string
	shown   string // review.ShownVersion of the texts version names
	note    string
	sent    string // round/version/note of the proposal message last published
	texts   string // the version whose texts are on the hub
	// taken is the last round a decision was taken for (carried out or
	// not): later decisions of that round are ignored.
	taken int
	// by and nonce are the hub decision being carried out: the outcome
	// names it when the desk says it decided by it.
	by, nonce string
	round0    int
}

// LinkOptions configure a link.
type LinkOptions struct {
	// Name is the desk's name on the hub: the name its credentials were
	// issued for.
	Name string
	// Logf, if set, is told what the link could not do (a publish that
	// will be retried, a decision it ignored and why).
	Logf func(format string, args ...any)
}

// Connect links desk to the hub nc is connected to, as o.Name: proposals
// a previous run of this desk left open on the hub are closed as
// withdrawn, every open proposal of the desk is published, and decisions
// are taken from the hub until Close. The desk itself is not changed.
func Connect(ctx context.Context, desk *review.Desk, nc *nats.Conn, o LinkOptions) (*Link, error) {
	if err := CheckName(o.Name); err != nil {
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	l := &Link{desk: desk, name: o.Name, nc: nc, js: js, logf: o.Logf,
		sem:  make(chan struct{}, decidingAtOnce),
		byID: map[string]*tracked{}, byHub: map[string]*tracked{}, dirty: map[string]bool{}, inflight: map[string]bool{},
		wake: make(chan struct{}, 1), caught: make(chan struct{})}
	if l.logf == nil {
		l.logf = func(string, ...any) {}
	}
	l.ctx, l.cancel = context.WithCancel(context.Background())
	// Decisions are followed from now on, before anything is published,
	// so none made on what this run publishes is missed; a consumer made
	// again (a dropped connection, a node gone) goes on where the last
	// stopped. From the bucket's next sequence, not "new": one made again
	// before its first message would take "new" afresh and skip what came
	// meanwhile.
	var kvs jetstream.Stream
	err = retry(ctx, func(ctx context.Context) (err error) { kvs, err = js.Stream(ctx, "KV_"+Bucket); return err })
	if err != nil {
		l.cancel()
		return nil, fmt.Errorf("hub: the decisions bucket: %w (is the hub provisioned, and are these desk %s's credentials?)", err, o.Name)
	}
	decisions := newFollower(js, "KV_"+Bucket, "the decisions", []string{"$KV." + Bucket + "." + l.name + ".>"}, l.logf)
	decisions.next = kvs.CachedInfo().State.LastSeq + 1
	if err := decisions.open(ctx); err != nil {
		l.cancel()
		return nil, fmt.Errorf("%w (desk %s)", err, l.name)
	}
	left, err := l.leftOpen(ctx)
	if err != nil {
		decisions.close()
		l.cancel()
		return nil, err
	}
	l.stale = left
	l.unsub = desk.Subscribe(func(ev review.Event) { l.markDirty(ev.ID) })
	for _, p := range desk.List() {
		l.markDirty(p.ID)
	}
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		l.takeDecisions(decisions)
	}()
	for range publishersAtOnce {
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			l.publish()
		}()
	}
	l.kick()
	return l, nil
}

// leftOpen reads this desk's proposals and outcomes on the hub: the
// proposals without an outcome were left open by a previous run (their
// agents' calls ended with it).
func (l *Link) leftOpen(ctx context.Context) ([]string, error) {
	f := newFollower(l.js, Stream, "what desk "+l.name+" left on the hub", []string{"dd." + l.name + ".*.*"}, nil)
	f.lastPer = true
	defer f.close()
	open := map[string]bool{}
	err := f.catchUp(ctx, func(m jetstream.Msg) {
		desk, kind, h, ok := parseSubject(m.Subject())
		if !ok || desk != l.name {
			return
		}
		if kind == "p" {
			if _, done := open[h]; !done {
				open[h] = true
			}
		} else {
			open[h] = false
		}
	})
	if err != nil {
		return nil, fmt.Errorf("hub: reading what desk %s left on the hub: %w", l.name, err)
	}
	var left []string
	for h, o := range open {
		if o {
			left = append(left, h)
		}
	}
	return left, nil
}

// retry calls f until it succeeds or ctx ends, each call with a deadline
// of its own: a cluster that has just formed, or a server just restarted,
// answers JetStream requests only once its leaders are elected.
func retry(ctx context.Context, f func(context.Context) error) error {
	for {
		actx, cancel := context.WithTimeout(ctx, makeTry)
		err := f(actx)
		cancel()
		if err == nil || ctx.Err() != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// Close stops following decisions and publishing; what the hub has not
// been told yet is told by the next run (it closes what this one left
// open). It waits up to grace for the outcomes already due to be sent.
func (l *Link) Close(grace time.Duration) {
	l.unsub()
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) {
		l.mu.Lock()
		busy := len(l.dirty) + len(l.inflight)
		l.mu.Unlock()
		if busy == 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	l.cancel()
	l.wg.Wait()
}

func (l *Link) markDirty(id string) {
	l.mu.Lock()
	l.dirty[id] = true
	l.mu.Unlock()
	l.kick()
}

func (l *Link) kick() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// publish is one of the publishers: it takes a proposal whose state the
// hub lacks and publishes it, until the link closes. A publish that fails
// (the hub unreachable, a node down) is retried with backoff.
func (l *Link) publish() {
	backoff := 50 * time.Millisecond
	for {
		if left := l.takeStale(); left != "" {
			if err := l.withdrawLeft(left); err != nil {
				l.logf("hub: closing proposal %s left open by an earlier run: %v (retrying)", left, err)
				l.mu.Lock()
				l.stale = append(l.stale, left)
				l.mu.Unlock()
				if !l.sleep(&backoff) {
					return
				}
			}
			continue
		}
		id, ok := l.take()
		if !ok {
			select {
			case <-l.ctx.Done():
				return
			case <-l.wake:
			}
			continue
		}
		err := l.sync(id)
		l.mu.Lock()
		delete(l.inflight, id)
		if err != nil {
			l.dirty[id] = true
		}
		more := len(l.dirty) > 0
		l.mu.Unlock()
		if more {
			l.kick()
		}
		if err != nil {
			l.logf("hub: publishing proposal %s: %v (retrying)", id, err)
			if !l.sleep(&backoff) {
				return
			}
			continue
		}
		backoff = 50 * time.Millisecond
	}
}

func (l *Link) sleep(backoff *time.Duration) bool {
	select {
	case <-l.ctx.Done():
		return false
	case <-time.After(*backoff):
	}
	*backoff = min(*backoff*2, 2*time.Second)
	return true
}

func (l *Link) takeStale() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.stale) == 0 {
		return ""
	}
	h := l.stale[0]
	l.stale = l.stale[1:]
	return h
}

func (l *Link) take() (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for id := range l.dirty {
		if l.inflight[id] {
			continue
		}
		delete(l.dirty, id)
		l.inflight[id] = true
		return id, true
	}
	return "", false
}

func (l *Link) withdrawLeft(h string) error {
	o := Outcome{Desk: l.name, Hub: h, Status: string(decision.Withdrawn), At: time.Now().UTC(),
		Feedback: "the desk restarted: its agent's call ended with it, and the agent will propose again if the edit is still wanted"}
	return l.put(outcomeSubject(l.name, h), o, "")
}

// sync publishes what the hub lacks of proposal id: its texts and the
// proposal while it waits for a decision, its outcome once it has one.
func (l *Link) sync(id string) error {
	p, ok := l.desk.Get(id)
	l.mu.Lock()
	t := l.byID[id]
	l.mu.Unlock()
	if !ok {
		if t != nil { // released before the link told the hub
			return l.close(t, Outcome{Status: "unknown", Error: "the desk no longer holds this proposal's outcome; see its history"})
		}
		return nil
	}
	waiting := p.State == review.StatePending || p.State == review.StateStale
	if !waiting {
		if t == nil || p.State.Waiting() {
			return nil // never on the hub, or still streaming
		}
		o, ok := l.desk.Outcome(id)
		if !ok {
			return nil // being decided: the decided event follows
		}
		return l.close(t, l.outcomeOf(t, o))
	}
	if t == nil {
		t = &tracked{id: id, h: newHubID(), round: 1}
		l.mu.Lock()
		l.byID[id], l.byHub[t.h] = t, t
		l.mu.Unlock()
	}
	wire := l.wireProposal(p, t)
	if t.texts != wire.Version {
		if err := l.putTexts(p, t.h, wire.Version); err != nil {
			return err
		}
		t.texts = wire.Version
	}
	l.mu.Lock()
	sent := t.sent
	l.mu.Unlock()
	key := fmt.Sprintf("%d/%s/%s", wire.Round, wire.Version, wire.Note)
	if sent == key {
		return nil
	}
	if err := l.put(proposalSubject(l.name, t.h), wire, ""); err != nil {
		return err
	}
	l.mu.Lock()
	t.sent = key
	l.mu.Unlock()
	return nil
}

// wireProposal is p as the hub carries it, at t's round; a proposal whose
// texts changed (a file changed on disk) starts a new round.
func (l *Link) wireProposal(p review.Proposal, t *tracked) Proposal {
	w := Proposal{Desk: l.name, Hub: t.h, ID: p.ID, Agent: p.Agent, Session: p.Session, Format: string(p.Format),
		State: string(p.State), Created: p.Created, Instruction: p.Instruction}
	for _, f := range p.Files {
		wf := File{Path: f.Path, Rel: f.Rel, Root: f.Root, Exists: f.Base.Exists, Delete: f.Delete,
			Base: refOf(f.BaseText()), Proposed: refOf(f.Proposed)}
		wf.Added, wf.Removed = f.Added, f.Removed
		if !f.Protected.IsZero() {
			wf.Protected = f.Protected.String()
		}
		if f.Stale() {
			r := refOf(string(f.Disk.Content))
			wf.Disk, wf.DiskGone = &r, !f.Disk.Exists
		}
		for _, h := range f.Hunks() {
			wf.Hunks = append(wf.Hunks, h.ID)
		}
		w.Files = append(w.Files, wf)
	}
	w.Version = versionOf(w.Files)
	l.mu.Lock()
	if t.version != "" && t.version != w.Version {
		t.round++
		t.note = "the proposal changed (a file changed on disk): decide it again"
	}
	t.version, t.shown = w.Version, review.ShownVersion(p)
	w.Round, w.Note = t.round, t.note
	l.mu.Unlock()
	return w
}

func versionOf(files []File) string {
	var b strings.Builder
	for _, f := range files {
		b.WriteString(f.Path + "\x00" + f.Base.SHA256 + "\x00" + f.Proposed.SHA256 + "\x00")
		if f.Disk != nil {
			b.WriteString(f.Disk.SHA256 + strconv.FormatBool(f.DiskGone))
		}
		b.WriteString("\n")
	}
	return refOf(b.String()).SHA256[:16]
}

// putTexts publishes every text of p's files, in chunks.
func (l *Link) putTexts(p review.Proposal, h, version string) error {
	for i, f := range p.Files {
		texts := map[string]string{TextBase: f.BaseText(), TextProposed: f.Proposed}
		if f.Stale() {
			texts[TextDisk] = string(f.Disk.Content)
		}
		for kind, text := range texts {
			for c := 0; c*ChunkSize < len(text); c++ {
				part := text[c*ChunkSize : min(len(text), (c+1)*ChunkSize)]
				subj := textSubject(l.name, h, version, i, kind, c)
				if err := l.putRaw(subj, []byte(part), subj); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (l *Link) put(subj string, v any, msgID string) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return l.putRaw(subj, data, msgID)
}

func (l *Link) putRaw(subj string, data []byte, msgID string) error {
	ctx, cancel := context.WithTimeout(l.ctx, publishTimeout)
	defer cancel()
	var opts []jetstream.PublishOpt
	if msgID != "" {
		opts = append(opts, jetstream.WithMsgID(msgID))
	}
	_, err := l.js.Publish(ctx, subj, data, opts...)
	return err
}

// close publishes t's outcome and forgets t: a decision arriving later
// names a proposal the link no longer has, and is ignored.
func (l *Link) close(t *tracked, o Outcome) error {
	o.Desk, o.Hub, o.ID = l.name, t.h, t.id
	if o.At.IsZero() {
		o.At = time.Now().UTC()
	}
	if err := l.put(outcomeSubject(l.name, t.h), o, outcomeSubject(l.name, t.h)); err != nil {
		return err
	}
	l.mu.Lock()
	delete(l.byID, t.id)
	delete(l.byHub, t.h)
	l.mu.Unlock()
	return nil
}

// outcomeOf is the desk's outcome as the hub carries it: no texts, the
// hub decision it carried out if it was one.
func (l *Link) outcomeOf(t *tracked, o review.Outcome) Outcome {
	o = agenttext.ForWire(o) // a failure's text, the desk's reason
	w := Outcome{Status: string(o.Status), By: o.By, Rule: o.Rule, Feedback: o.Feedback, Error: o.Error}
	l.mu.Lock()
	if t.nonce != "" && o.By == t.by {
		w.Nonce, w.Round = t.nonce, t.round0
	}
	l.mu.Unlock()
	for _, f := range o.Files {
		w.Files = append(w.Files, FileOutcome{Path: f.Path, Written: f.Written, Deleted: f.Deleted, FinalSHA256: f.FinalSHA256})
	}
	return w
}

// takeDecisions reads the decisions created on this desk's proposals and
// carries out the first valid one of each round, until the link closes.
// Whatever befalls the consumer (its node killed, the hub restarted), a
// new one goes on from the first decision not read: none is missed (one
// read twice is ignored: its round is taken), and a desk never stops
// taking them while it is linked.
func (l *Link) takeDecisions(f *follower) {
	defer f.close()
	for {
		m, err := f.read(l.ctx, 0)
		if err != nil {
			return // the link closed
		}
		t, dec, shown, ok := l.claim(m)
		if !ok {
			continue
		}
		select {
		case l.sem <- struct{}{}:
		case <-l.ctx.Done():
			return
		}
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			defer func() { <-l.sem }()
			l.carryOut(t, dec, shown)
		}()
	}
}

// claim checks a decision message: on a proposal this link has on the hub,
// for its current round, the first of that round, well formed, made on
// the round's texts (its version); shown is what those texts are at the
// desk (review.ShownVersion), which the desk checks again as it decides. A decision
// that names a round it does not match starts a new round (so the round is
// not left taken by it); the rest are ignored.
func (l *Link) claim(m jetstream.Msg) (t *tracked, d Decision, shown string, ok bool) {
	if op := m.Headers().Get("KV-Operation"); op != "" {
		return nil, Decision{}, "", false // a delete or purge marker: not a decision
	}
	desk, h, round, ok := parseKey(m.Subject())
	if !ok || desk != l.name {
		return nil, Decision{}, "", false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	t = l.byHub[h]
	if t == nil || round != t.round || t.taken >= round {
		return nil, Decision{}, "", false // unknown (decided, withdrawn, an earlier run's), or a round already taken
	}
	t.taken = round
	var dec Decision
	err := decode(m.Data(), &dec, "a decision")
	if err == nil {
		err = dec.check(h, round, t.version)
	}
	if err != nil {
		l.logf("hub: decision on %s/%s round %d refused: %v", l.name, h, round, err)
		t.round++
		t.note = "a decision was refused (" + err.Error() + "): decide it again"
		l.dirty[t.id] = true
		l.kick()
		return nil, Decision{}, "", false
	}
	t.by, t.nonce, t.round0 = hubBy(dec), dec.Nonce, round
	return t, dec, t.shown, true
}

func (d Decision) check(h string, round int, version string) error {
	switch {
	case d.Hub != h || d.Round != round:
		return fmt.Errorf("it names proposal %s round %d, not %s round %d", d.Hub, d.Round, h, round)
	case d.Version != version:
		return fmt.Errorf("it was made on texts %s, and the proposal's are %s", d.Version, version)
	case !hubIDRE.MatchString(d.Nonce):
		return errors.New("it has no nonce")
	case len(d.Seen) > MaxFiles || len(d.SeenLines) > MaxFiles:
		return fmt.Errorf("its record of what was on screen names %d and %d files, over the %d a proposal may have", len(d.Seen), len(d.SeenLines), MaxFiles)
	}
	if _, err := decision.ParseVerdict(d.Verdict); err != nil {
		return err
	}
	return nil
}

// hubBy is who decided, as the desk records a hub decision: the
// reviewer's own name for itself, and the decision's nonce.
func hubBy(d Decision) string {
	by := review.Printable(d.By)
	if len(by) > 128 {
		by = by[:128]
	}
	return fmt.Sprintf("%s (hub decision %s)", by, d.Nonce[:12])
}

// carryOut has the desk decide. A decision the desk does not carry out
// (stale, a hunk it does not have) starts a new round saying why.
func (l *Link) carryOut(t *tracked, d Decision, shown string) {
	v, _ := decision.ParseVerdict(d.Verdict)
	dec := review.Decision{Verdict: v, Feedback: d.Feedback, Edited: d.Edited, Hunks: d.Hunks, Overwrite: d.Overwrite, By: hubBy(d),
		Seen: d.Seen, SeenLines: d.SeenLines, Shown: shown}
	// Not cancelled by Close: a decision the desk has begun is carried
	// out whole (its files written and journaled, its agent told), and
	// Close waits for it. Cut short, the desk had written the file but
	// not its outcome, and the proposal, still open, was withdrawn at the
	// restart: its agent told "withdrawn" of a file on disk (TestFleet:
	// "written 2 times", the journal's write left "intended").
	_, err := l.desk.Decide(context.WithoutCancel(l.ctx), t.id, dec)
	if err == nil {
		return // the decided event publishes the outcome
	}
	if errors.Is(err, review.ErrUnknownProposal) {
		return
	}
	// Never call into the desk with l.mu held: the desk calls markDirty
	// with its own lock held.
	p, ok := l.desk.Get(t.id)
	open := ok && p.State.Waiting()
	l.mu.Lock()
	if l.byHub[t.h] == t && t.round == t.round0 && open {
		t.round++
		t.note = fmt.Sprintf("the decision by %s was not carried out: %v", review.Printable(d.By), err)
	}
	t.by, t.nonce = "", ""
	l.dirty[t.id] = true
	l.mu.Unlock()
	l.kick()
}
