package remote

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/checker"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/journal"
)

// Member is one desk of a Fleet: the methods the window uses (as *Desk
// and review.Desk have them), the news that it was lost, and Close.
type Member interface {
	Subscribe(fn func(review.Event)) (cancel func())
	List() []review.Proposal
	Get(id string) (review.Proposal, bool)
	Preview(id string) (engine.Preview, bool)
	Outcome(id string) (review.Outcome, bool)
	Decide(ctx context.Context, id string, dec review.Decision) (review.Outcome, error)
	ChangesetOf(id string) (review.Changeset, bool)
	DecideChangeset(ctx context.Context, key string, dec review.ChangesetDecision) (review.ChangesetResult, error)
	CheckText(ctx context.Context, id, path, text string) ([]checker.Report, error)
	Forget(id string)
	Attend() (leave func())
	Dismiss(ctx context.Context, id string) error
	Place(ctx context.Context, id, path string, block int, lines engine.Region) (review.Proposal, error)
	Interdiff(id, path string) (review.Interdiff, bool)
	Roots() []string
	// OnLost sets f, called once (on another goroutine) when the desk can
	// no longer be reached.
	OnLost(f func(error))
	Close() error
}

var _ Member = (*Desk)(nil)

// A Spec is one desk a Fleet reviews: its label and how to reach it.
type Spec struct {
	// Label names the desk to the person ("api"). Empty, the desk is
	// named by its workspace and Machine once reached ("api on
	// dev@box"). A label given twice gets " #2" added.
	Label string
	// Machine is where the desk runs ("dev@box", "local"); Where is its
	// address as given, for messages.
	Machine, Where string
	// Dial reaches the desk; the Fleet calls it again, with backoff,
	// whenever the desk is lost.
	Dial func(ctx context.Context) (Member, error)
}

// Backoff is how long a Fleet waits between attempts to reach a desk: Min
// after the first failure, doubling to Max, each wait drawn at random from
// its upper half (so desks lost together do not all call back at once).
type Backoff struct{ Min, Max time.Duration }

// DefaultBackoff is 1 s doubling to 1 min.
var DefaultBackoff = Backoff{Min: time.Second, Max: time.Minute}

// Delay is the wait before attempt n (0 for the first retry); r in [0, 1)
// places it in [d/2, d), d = Min·2ⁿ capped at Max.
func (b Backoff) Delay(n int, r float64) time.Duration {
	d := b.Min
	for range n {
		if d >= b.Max/2 {
			d = b.Max
			break
		}
		d *= 2
	}
	d = min(d, b.Max)
	return d/2 + time.Duration(r*float64(d-d/2))
}

// FleetOptions say how a Fleet reaches its desks again. Zero fields take
// the defaults; tests give a fake clock.
type FleetOptions struct {
	Backoff Backoff
	// DialTimeout bounds one attempt to reach a desk (default 2 min: ssh
	// may ask for a password).
	DialTimeout time.Duration
	// After is time.After; Now is time.Now; Rand is rand.Float64.
	After func(time.Duration) <-chan time.Time
	Now   func() time.Time
	Rand  func() float64
	// OnState, if set, hears of each desk reached (err nil) or lost and
	// not reached (err says why), for the log; on another goroutine.
	OnState func(label string, err error)
}

// Fleet is several desks reviewed as one: the window's Desk over every
// desk's proposals. A proposal's id is its desk's number in the fleet, ':'
// and its id on that desk, so every call goes to the desk that holds it
// and no desk can name another's proposal; its Where is the desk's label
// (the changeset key includes it). A desk that drops keeps its proposals,
// shown Unreachable, decided by nothing, while the Fleet reaches it again
// with backoff.
type Fleet struct {
	opts  FleetOptions
	ctx   context.Context
	close context.CancelFunc
	wg    sync.WaitGroup

	mu       sync.Mutex
	desks    []*slot
	subs     map[int]func(review.Event)
	subSeq   int
	attended int
	histDesk int // the desk whose history the window shows (history.go)
	// planned is the restore last planned (a dry run), on desk planDesk:
	// carried out, it goes to that desk (Restore).
	planned  *journal.RestoreRequest
	planDesk int
}

// slot is one desk of the fleet.
type slot struct {
	n              int
	label          string // f.mu guards it: a label of its own is set once, when first reached
	auto           bool   // the label is to be made of the workspace and machine
	machine, where string
	dial           func(context.Context) (Member, error)

	m       Member // the desk, or what was last known of it while down
	unsub   func()
	leave   func() // Attend's, while the window attends
	down    error  // why it cannot be reached; nil while it can
	since   time.Time
	attempt int
}

// NewFleet reaches every desk in specs at once, waiting until each has
// answered or failed (ctx bounds the wait); desks not reached are tried
// again in the background with backoff. It fails only if none was
// reached: the error names each desk and why.
func NewFleet(ctx context.Context, specs []Spec, o FleetOptions) (*Fleet, error) {
	if len(specs) == 0 {
		return nil, errors.New("remote: no desk to review")
	}
	o.Backoff.Min = cmp.Or(o.Backoff.Min, DefaultBackoff.Min)
	o.Backoff.Max = max(cmp.Or(o.Backoff.Max, DefaultBackoff.Max), o.Backoff.Min)
	o.DialTimeout = cmp.Or(o.DialTimeout, 2*time.Minute)
	if o.After == nil {
		o.After = time.After
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Rand == nil {
		o.Rand = rand.Float64
	}
	run, stop := context.WithCancel(context.Background())
	f := &Fleet{opts: o, ctx: run, close: stop, subs: map[int]func(review.Event){}}
	for i, s := range specs {
		label := cmp.Or(s.Label, s.Where, s.Machine, "desk "+strconv.Itoa(i+1))
		f.desks = append(f.desks, &slot{n: i, label: f.unique(label), auto: s.Label == "" && s.Machine != "", machine: s.Machine, where: s.Where, dial: s.Dial})
	}
	errs := make([]error, len(f.desks))
	var wg sync.WaitGroup
	for i, s := range f.desks {
		wg.Go(func() {
			m, err := s.dial(ctx)
			if err != nil {
				errs[i] = fmt.Errorf("%s: %w", f.labelOf(s), err)
				return
			}
			f.attach(s, m)
		})
	}
	wg.Wait()
	if countNil(errs) == 0 {
		stop()
		return nil, fmt.Errorf("could reach none of the desks:\n%w", errors.Join(errs...))
	}
	for i, s := range f.desks {
		if errs[i] != nil {
			f.mu.Lock()
			s.down, s.since = errs[i], o.Now()
			f.mu.Unlock()
			f.state(f.labelOf(s), errs[i])
			f.reconnect(s, nil)
		}
	}
	return f, nil
}

func countNil(errs []error) (n int) {
	for _, e := range errs {
		if e == nil {
			n++
		}
	}
	return n
}

// unique is label, or label and " #N" if another desk has it. f.mu is held
// or the fleet is being made.
func (f *Fleet) unique(label string) string {
	taken := func(l string) bool {
		return slices.ContainsFunc(f.desks, func(s *slot) bool { return s.label == l })
	}
	out := label
	for n := 2; taken(out); n++ {
		out = label + " #" + strconv.Itoa(n)
	}
	return out
}

// labelOf is s's label now.
func (f *Fleet) labelOf(s *slot) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return s.label
}

// ownLabel names a desk by its workspace and machine: "api on dev@box",
// "api +1 on dev@box" for two roots. The workspace's name is the far
// desk's to choose: its spaces run together and it is cut at
// ownLabelMax characters, so the machine (the window's) stays in sight —
// "api on prod@box" and a row of spaces cannot push it out of a heading.
func ownLabel(roots []string, machine string) string {
	if len(roots) == 0 {
		return machine
	}
	name := strings.Join(strings.Fields(filepath.Base(roots[0])), " ")
	if r := []rune(name); len(r) > ownLabelMax {
		name = string(r[:ownLabelMax]) + "…"
	}
	if len(roots) > 1 {
		name += " +" + strconv.Itoa(len(roots)-1)
	}
	return review.Printable(name) + " on " + machine
}

// ownLabelMax is the most of a far desk's workspace name its label shows.
const ownLabelMax = 32

func (f *Fleet) state(label string, err error) {
	if f.opts.OnState != nil {
		f.opts.OnState(label, err)
	}
}

// attach makes m the desk of s: its events are told as the fleet's, and
// its loss starts reaching it again. What was known of s before (while it
// was down) is told again, so the window drops what the desk no longer
// holds and shows the rest reachable.
func (f *Fleet) attach(s *slot, m Member) {
	// Events before m is the slot's desk are dropped: everything m holds
	// is told below, once it is. No desk's method runs under f.mu (a
	// desk's events may come with its own locks held).
	unsub := m.Subscribe(func(ev review.Event) {
		f.mu.Lock()
		current := s.m == m && s.down == nil
		f.mu.Unlock()
		if current {
			f.emit(review.Event{Kind: ev.Kind, ID: f.outer(s, ev.ID)})
		}
	})
	f.mu.Lock()
	old, attend := s.m, f.attended > 0
	f.mu.Unlock()
	var before []string
	if old != nil {
		for _, p := range old.List() {
			before = append(before, p.ID)
		}
	}
	var leave func()
	if attend {
		leave = m.Attend()
	}
	roots := m.Roots()
	f.mu.Lock()
	s.m, s.down, s.since, s.unsub, s.leave = m, nil, f.opts.Now(), unsub, leave
	if s.auto { // named once, before any of its proposals is shown
		s.auto = false
		s.label = ""
		s.label = f.unique(ownLabel(roots, s.machine))
	}
	label := s.label
	f.mu.Unlock()
	m.OnLost(func(err error) { f.lost(s, m, err) })
	f.state(label, nil)
	known := map[string]bool{}
	for _, id := range before {
		known[id] = true
		f.emit(review.Event{Kind: review.EventUpdated, ID: f.outer(s, id)})
	}
	for _, p := range m.List() {
		if known[p.ID] {
			continue
		}
		kind := review.EventAdded
		if p.State == review.StatePending {
			kind = review.EventPending
		}
		f.emit(review.Event{Kind: kind, ID: f.outer(s, p.ID)})
	}
}

// lost marks s's desk m unreachable (once, and only if m is still its
// desk) and starts reaching it again.
func (f *Fleet) lost(s *slot, m Member, err error) {
	f.mu.Lock()
	if s.m != m || s.down != nil || f.ctx.Err() != nil {
		f.mu.Unlock()
		return
	}
	s.down = err
	if f.opts.Now().Sub(s.since) >= f.opts.Backoff.Max {
		s.attempt = 0 // it stayed up a while: start again from Min
	}
	s.since = f.opts.Now()
	unsub, leave, label := s.unsub, s.leave, s.label
	s.unsub, s.leave = nil, nil
	f.mu.Unlock()
	if unsub != nil {
		unsub()
	}
	if leave != nil {
		leave()
	}
	f.state(label, err)
	for _, p := range m.List() {
		f.emit(review.Event{Kind: review.EventUpdated, ID: f.outer(s, p.ID)})
	}
	f.reconnect(s, m)
}

// reconnect closes old (if any) and tries s's desk until it answers or
// the fleet closes, waiting Backoff.Delay between attempts.
func (f *Fleet) reconnect(s *slot, old Member) {
	f.wg.Go(func() {
		if old != nil {
			old.Close() // its proposals stay readable: they are shown until the desk is back
		}
		for {
			f.mu.Lock()
			wait := f.opts.Backoff.Delay(s.attempt, f.opts.Rand())
			s.attempt++
			f.mu.Unlock()
			select {
			case <-f.ctx.Done():
				return
			case <-f.opts.After(wait):
			}
			ctx, cancel := context.WithTimeout(f.ctx, f.opts.DialTimeout)
			m, err := s.dial(ctx)
			cancel()
			if f.ctx.Err() != nil {
				if m != nil {
					m.Close()
				}
				return
			}
			if err == nil {
				f.attach(s, m)
				return
			}
			f.mu.Lock()
			s.down = err
			label := s.label
			f.mu.Unlock()
			f.state(label, err)
		}
	})
}

// Close stops reaching the desks and closes every connection.
func (f *Fleet) Close() error {
	f.close()
	f.wg.Wait()
	f.mu.Lock()
	var ms []Member
	for _, s := range f.desks {
		if s.m != nil && s.down == nil {
			ms = append(ms, s.m)
		}
	}
	f.mu.Unlock()
	var errs []error
	for _, m := range ms {
		errs = append(errs, m.Close())
	}
	return errors.Join(errs...)
}

// Labels names the desks, in the order given.
func (f *Fleet) Labels() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, s := range f.desks {
		out = append(out, s.label)
	}
	return out
}

// DeskState is one desk of the fleet now.
type DeskState struct {
	Label, Where string
	Err          error // why it cannot be reached; nil while it can
}

// Desks says where each desk is and whether it is reached, in the order
// given.
func (f *Fleet) Desks() []DeskState {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []DeskState
	for _, s := range f.desks {
		out = append(out, DeskState{Label: s.label, Where: s.where, Err: s.down})
	}
	return out
}

// Reachable reports, per label, nil for a desk reached now or why it
// cannot be.
func (f *Fleet) Reachable() map[string]error {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]error{}
	for _, s := range f.desks {
		out[s.label] = s.down
	}
	return out
}

// outer is the fleet's id of s's proposal id.
func (f *Fleet) outer(s *slot, id string) string { return strconv.Itoa(s.n) + ":" + id }

// route finds the desk of the fleet's id and the id on that desk.
func (f *Fleet) route(id string) (*slot, string, bool) {
	n, inner, ok := strings.Cut(id, ":")
	i, err := strconv.Atoi(n)
	if !ok || err != nil || i < 0 || i >= len(f.desks) || strconv.Itoa(i) != n {
		return nil, "", false
	}
	return f.desks[i], inner, true
}

// member returns s's desk, or what is known of it while down, and why it
// is down.
func (f *Fleet) member(s *slot) (Member, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return s.m, s.down
}

// live returns the desk holding id when it can be reached now: a call
// that acts (decide, place, dismiss, check) never goes anywhere else.
func (f *Fleet) live(id string) (*slot, Member, string, error) {
	s, inner, ok := f.route(id)
	if !ok {
		return nil, nil, "", fmt.Errorf("%q: %w", id, review.ErrUnknownProposal)
	}
	m, down := f.member(s)
	if m == nil || down != nil {
		return nil, nil, "", &UnreachableError{Label: f.labelOf(s), Err: down}
	}
	return s, m, inner, nil
}

// UnreachableError says a decision was not made: the desk holding the
// proposal cannot be reached now.
type UnreachableError struct {
	Label string
	Err   error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("the desk %s cannot be reached (%v); nothing was decided — it is kept for that desk alone and can be decided once the window reaches it again", e.Label, e.Err)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// proposal is p as the fleet shows it: the fleet's id, its desk's label,
// and whether that desk can be reached.
func (f *Fleet) proposal(s *slot, p review.Proposal, down bool) review.Proposal {
	p.ID = f.outer(s, p.ID)
	p.Where, p.Unreachable = f.labelOf(s), down
	return p
}

func (f *Fleet) outcome(s *slot, o review.Outcome) review.Outcome {
	if o.ID != "" {
		o.ID = f.outer(s, o.ID)
	}
	return o
}

// fix gives err's proposal ids as the fleet's.
func (f *Fleet) fix(s *slot, err error) error {
	var st *review.StaleError
	if errors.As(err, &st) && st.ID != "" && !strings.Contains(st.ID, ":") {
		st.ID = f.outer(s, st.ID)
	}
	return err
}

func (f *Fleet) emit(ev review.Event) {
	f.mu.Lock()
	fns := make([]func(review.Event), 0, len(f.subs))
	for _, fn := range f.subs {
		fns = append(fns, fn)
	}
	f.mu.Unlock()
	for _, fn := range fns {
		fn(ev)
	}
}

// Subscribe calls fn for every event of every desk, with the fleet's ids.
func (f *Fleet) Subscribe(fn func(review.Event)) (cancel func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.subSeq++
	id := f.subSeq
	f.subs[id] = fn
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		delete(f.subs, id)
	}
}

// List returns every desk's open proposals, oldest first; those of a desk
// that cannot be reached now are kept, marked Unreachable.
func (f *Fleet) List() []review.Proposal {
	var out []review.Proposal
	for _, s := range f.desks {
		m, down := f.member(s)
		if m == nil {
			continue
		}
		for _, p := range m.List() {
			out = append(out, f.proposal(s, p, down != nil))
		}
	}
	slices.SortStableFunc(out, func(p, q review.Proposal) int {
		if p.Before(q) {
			return -1
		}
		if q.Before(p) {
			return 1
		}
		return 0
	})
	return out
}

// Get returns the proposal, from the desk that holds it.
func (f *Fleet) Get(id string) (review.Proposal, bool) {
	s, inner, ok := f.route(id)
	if !ok {
		return review.Proposal{}, false
	}
	m, down := f.member(s)
	if m == nil {
		return review.Proposal{}, false
	}
	p, ok := m.Get(inner)
	if !ok {
		return review.Proposal{}, false
	}
	return f.proposal(s, p, down != nil), true
}

// Preview is the desk's Preview.
func (f *Fleet) Preview(id string) (engine.Preview, bool) {
	s, inner, ok := f.route(id)
	if !ok {
		return engine.Preview{}, false
	}
	if m, _ := f.member(s); m != nil {
		return m.Preview(inner)
	}
	return engine.Preview{}, false
}

// Outcome is the desk's Outcome.
func (f *Fleet) Outcome(id string) (review.Outcome, bool) {
	s, inner, ok := f.route(id)
	if !ok {
		return review.Outcome{}, false
	}
	m, _ := f.member(s)
	if m == nil {
		return review.Outcome{}, false
	}
	o, ok := m.Outcome(inner)
	return f.outcome(s, o), ok
}

// Decide carries out dec on the desk that holds id, and nowhere else; a
// desk that cannot be reached now decides nothing (UnreachableError).
func (f *Fleet) Decide(ctx context.Context, id string, dec review.Decision) (review.Outcome, error) {
	s, m, inner, err := f.live(id)
	if err != nil {
		return review.Outcome{}, err
	}
	o, err := m.Decide(ctx, inner, dec)
	return f.outcome(s, o), f.fix(s, err)
}

// ChangesetOf is the desk's changeset of id, with the fleet's ids and key.
func (f *Fleet) ChangesetOf(id string) (review.Changeset, bool) {
	s, inner, ok := f.route(id)
	if !ok {
		return review.Changeset{}, false
	}
	m, down := f.member(s)
	if m == nil {
		return review.Changeset{}, false
	}
	cs, ok := m.ChangesetOf(inner)
	if !ok {
		return review.Changeset{}, false
	}
	return f.changeset(s, cs, down != nil), true
}

func (f *Fleet) changeset(s *slot, cs review.Changeset, down bool) review.Changeset {
	ps := make([]review.Proposal, len(cs.Proposals))
	for i, p := range cs.Proposals {
		ps[i] = f.proposal(s, p, down)
	}
	files := make([]review.ChangesetFile, len(cs.Files))
	for i, cf := range cs.Files {
		cf.Proposal = f.outer(s, cf.Proposal)
		files[i] = cf
	}
	cs.Proposals, cs.Files = ps, files
	if len(ps) > 0 {
		cs.Key = review.ChangesetKey(ps[0])
	}
	return cs
}

// innerDecision is dec for desk s: its per-proposal maps (seen, lines
// seen, comments, versions shown), keyed by the window's ids, keyed by s's own and only
// for s's proposals.
func (f *Fleet) innerDecision(s *slot, dec review.ChangesetDecision) review.ChangesetDecision {
	in := dec
	in.Seen = innerKeys(f, s, dec.Seen)
	in.SeenLines = innerKeys(f, s, dec.SeenLines)
	in.Comments = innerKeys(f, s, dec.Comments)
	in.Shown = innerKeys(f, s, dec.Shown)
	return in
}

// innerKeys is m with the window's ids of s's proposals as s's own ids,
// the other desks' left out; nil for nil.
func innerKeys[V any](f *Fleet, s *slot, m map[string]V) map[string]V {
	if m == nil {
		return nil
	}
	out := map[string]V{}
	for id, v := range m {
		if es, eid, ok := f.route(id); ok && es == s {
			out[eid] = v
		}
	}
	return out
}

// DecideChangeset decides changeset key on the one desk that holds it.
func (f *Fleet) DecideChangeset(ctx context.Context, key string, dec review.ChangesetDecision) (review.ChangesetResult, error) {
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
			return review.ChangesetResult{}, &UnreachableError{Label: f.labelOf(s), Err: down}
		}
		res, err := m.DecideChangeset(ctx, inner, f.innerDecision(s, dec))
		res.Key = key
		for i := range res.Decided {
			res.Decided[i] = f.outcome(s, res.Decided[i])
		}
		for i := range res.Skipped {
			res.Skipped[i].ID = f.outer(s, res.Skipped[i].ID)
		}
		return res, f.fix(s, err)
	}
	return review.ChangesetResult{}, fmt.Errorf("%s: %w", key, review.ErrUnknownChangeset)
}

// CheckText runs the checkers on the machine of the desk that holds id.
func (f *Fleet) CheckText(ctx context.Context, id, path, text string) ([]checker.Report, error) {
	_, m, inner, err := f.live(id)
	if err != nil {
		return nil, err
	}
	return m.CheckText(ctx, inner, path, text)
}

// Forget is the desk's Forget.
func (f *Fleet) Forget(id string) {
	if s, inner, ok := f.route(id); ok {
		if m, _ := f.member(s); m != nil {
			m.Forget(inner)
		}
	}
}

// Attend attends every desk (and each reached again) until leave.
func (f *Fleet) Attend() (leave func()) {
	f.mu.Lock()
	f.attended++
	type attend struct {
		s *slot
		m Member
	}
	var ms []attend
	if f.attended == 1 {
		for _, s := range f.desks {
			if s.m != nil && s.down == nil && s.leave == nil {
				ms = append(ms, attend{s, s.m})
			}
		}
	}
	f.mu.Unlock()
	for _, a := range ms {
		l := a.m.Attend()
		f.mu.Lock()
		if a.s.m == a.m {
			a.s.leave = l
			l = nil
		}
		f.mu.Unlock()
		if l != nil {
			l()
		}
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			f.mu.Lock()
			var leaves []func()
			if f.attended--; f.attended == 0 {
				for _, s := range f.desks {
					if s.leave != nil {
						leaves = append(leaves, s.leave)
						s.leave = nil
					}
				}
			}
			f.mu.Unlock()
			for _, l := range leaves {
				l()
			}
		})
	}
}

// Dismiss is the desk's Dismiss, on the desk that holds id only.
func (f *Fleet) Dismiss(ctx context.Context, id string) error {
	s, m, inner, err := f.live(id)
	if err != nil {
		return err
	}
	return f.fix(s, m.Dismiss(ctx, inner))
}

// Place is the desk's Place, on the desk that holds id only.
func (f *Fleet) Place(ctx context.Context, id, path string, block int, lines engine.Region) (review.Proposal, error) {
	s, m, inner, err := f.live(id)
	if err != nil {
		return review.Proposal{}, err
	}
	p, err := m.Place(ctx, inner, path, block, lines)
	if err != nil {
		return review.Proposal{}, f.fix(s, err)
	}
	return f.proposal(s, p, false), nil
}

// Interdiff is the desk's Interdiff: the previous proposal is always one
// of the same desk.
func (f *Fleet) Interdiff(id, path string) (review.Interdiff, bool) {
	s, inner, ok := f.route(id)
	if !ok {
		return review.Interdiff{}, false
	}
	m, _ := f.member(s)
	if m == nil {
		return review.Interdiff{}, false
	}
	in, ok := m.Interdiff(inner, path)
	if ok && in.PreviousID != "" {
		in.PreviousID = f.outer(s, in.PreviousID)
	}
	return in, ok
}

// Roots returns every desk's workspace roots (each on its own machine),
// as last known.
func (f *Fleet) Roots() []string {
	var out []string
	for _, s := range f.desks {
		if m, _ := f.member(s); m != nil {
			out = append(out, m.Roots()...)
		}
	}
	return out
}

// ShareOf is the part of a window's limits each of n desks may keep, so
// that n desks together keep no more than one would (each at least 64 MiB,
// 256 proposals and 64 MiB per message, enough for a proposal of a 10 MiB
// file).
func ShareOf(l Limits, n int) Limits {
	l = l.orDefault()
	n = max(n, 1)
	return Limits{KeptBytes: max(l.KeptBytes/int64(n), 64<<20), KeptCount: max(l.KeptCount/n, 256), MessageBytes: max(l.MessageBytes/n, 64<<20)}
}

// DeskTrust is one desk's repository configs that wait for trust, and how
// to trust one there.
type DeskTrust struct {
	Label string
	Files []deskrpc.TrustFile
	Trust func(ctx context.Context, f deskrpc.TrustFile) error
}

// truster is a member whose trust store the window can reach (*Desk).
type truster interface {
	Untrusted(ctx context.Context) ([]deskrpc.TrustFile, error)
	Trust(ctx context.Context, f deskrpc.TrustFile) error
}

// Untrusted asks every desk reached now for its untrusted repository
// configs; each answer trusts on that desk only. A desk that cannot say
// is left out (errs names it).
func (f *Fleet) Untrusted(ctx context.Context) (out []DeskTrust, errs []error) {
	for _, s := range f.desks {
		m, down := f.member(s)
		t, ok := m.(truster)
		if !ok || down != nil {
			continue
		}
		files, err := t.Untrusted(ctx)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if len(files) > 0 {
			out = append(out, DeskTrust{Label: f.labelOf(s), Files: files, Trust: t.Trust})
		}
	}
	return out, errs
}
