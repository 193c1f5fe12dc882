package deskrpc

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/checker"
)

// What a reviewer that is not the desk's own window needs to follow the
// queue and review a proposal (docs/protocol.md, "subscribe" and "get"):
// the queue as it is and an event for each change, and a proposal in full.

// Summary is a proposal as status, subscribe and events list it.
type Summary struct {
	ID      string `json:"id"`
	Agent   string `json:"agent"`
	Session string `json:"session,omitempty"`
	Turn    string `json:"turn,omitempty"`
	// Changeset is the key of the proposal's changeset (decideChangeset).
	Changeset string       `json:"changeset"`
	State     review.State `json:"state"`
	Files     []string     `json:"files"` // absolute paths
	Added     int          `json:"added"`
	Removed   int          `json:"removed"`
	Created   string       `json:"created"` // RFC 3339, UTC
	// A held failure's text and the block that did not match, with its
	// candidates: what a reviewer places (place) or dismisses.
	Failure  string             `json:"failure,omitempty"`
	Mismatch *engine.MatchError `json:"mismatch,omitempty"`
	// Own (status only) says the proposal was made on the asking
	// connection: the only proposals it may chunk, finish, wait on or
	// cancel.
	Own bool `json:"own,omitempty"`
}

type (
	// subscribeResult answers subscribe: the proposals as they are, in the
	// desk's order; events follow as "event" notifications.
	subscribeResult struct {
		Proposals []Summary `json:"proposals"`
		start     func()    // begins sending events, once this result is written
	}
	// Event is the params of an "event" notification: what happened
	// to proposal ID and, unless the desk no longer holds it, the proposal
	// as it is now.
	Event struct {
		Kind     review.EventKind `json:"kind"`
		ID       string           `json:"id"`
		Proposal *Summary         `json:"proposal,omitempty"`
	}
	checkTextParams struct {
		ID   string `json:"id"`
		Path string `json:"path"`
		Text string `json:"text"` // the reviewer's edit of the file's proposed text
	}
	checkTextResult struct {
		Reports []Report `json:"reports"`
	}
	getParams struct {
		ID   string `json:"id"`
		Path string `json:"path,omitempty"` // only this file's texts (absolute, or relative to its root)
		// FinalContent: which files' final text the outcome carries (final.go).
		FinalContent finalParam `json:"finalContent,omitempty"`
	}
	// Detail is a proposal in full, as a reviewer shows it.
	Detail struct {
		Summary
		Format      engine.Format `json:"format"`
		Failure     string        `json:"failure,omitempty"`
		AutoRule    string        `json:"autoRule,omitempty"`
		Instruction string        `json:"instruction,omitempty"`
		AgentWrites bool          `json:"agentWrites,omitempty"`
		VerdictOnly bool          `json:"verdictOnly,omitempty"` // the agent hears only the verdict and final text
		Files       []DetailFile  `json:"files"`
		// Outcome is the decision's, once the proposal is decided.
		Outcome *review.Outcome `json:"outcome,omitempty"`
	}
	// DetailFile is one file of a proposal: its texts (unless another file
	// was asked for), how the edit was placed, its hunks and its checks.
	DetailFile struct {
		Path       string             `json:"path"`
		Rel        string             `json:"rel"`
		Root       string             `json:"root"`
		Exists     bool               `json:"exists"`         // the file existed when the proposal arrived
		BaseSHA256 string             `json:"baseSha256"`     // "" when it did not
		Base       *string            `json:"base,omitempty"` // the file when the proposal arrived
		Proposed   *string            `json:"proposed,omitempty"`
		Delete     bool               `json:"delete,omitempty"`
		Protected  *Protection        `json:"protected,omitempty"` // why a person must decide; absent if not protected
		Added      int                `json:"added"`
		Removed    int                `json:"removed"`
		Matches    []Match            `json:"matches,omitempty"`
		Incomplete *engine.Incomplete `json:"incomplete,omitempty"`
		// Disk is the file as it is now when the proposal is stale.
		Disk    *Disk   `json:"disk,omitempty"`
		Growing []int   `json:"growing,omitempty"` // [first, last] lines still being written while streaming
		Hunks   []Hunk  `json:"hunks"`
		Checks  *Checks `json:"checks,omitempty"`
	}
	// Protection is a protected path's rule: the pattern as written, where
	// it comes from, and why (config.Protection).
	Protection struct {
		Pattern string `json:"pattern"`
		Origin  string `json:"origin"`
		Reason  string `json:"reason,omitempty"`
	}
	// Match is how one block of the edit was placed (engine.Match), with
	// Loose and How as the window shows them.
	Match struct {
		engine.Match
		Loose bool   `json:"loose,omitempty"`
		How   string `json:"how"`
	}
	// Disk is the file on disk now, when it changed after the proposal came.
	Disk struct {
		Exists  bool    `json:"exists"`
		SHA256  string  `json:"sha256"`
		Content *string `json:"content,omitempty"`
	}
	// Hunk is a hunk as a partial decision names it (decide's hunks),
	// with its lines: 1-based starts, as in a unified diff header.
	Hunk struct {
		ID       string `json:"id"`
		OldStart int    `json:"oldStart"`
		OldLines int    `json:"oldLines"`
		NewStart int    `json:"newStart"`
		NewLines int    `json:"newLines"`
	}
	// Checks are what the project's checkers found in the proposal.
	Checks struct {
		Running bool     `json:"running,omitempty"`
		Reports []Report `json:"reports"`
	}
	// Report is one checker's: the problems the proposal adds, or why it
	// could not tell.
	Report struct {
		Checker  string            `json:"checker"`
		Problems []checker.Problem `json:"problems"`
		Error    string            `json:"error,omitempty"` // why the checker could not tell
	}
)

// entryOf is a proposal as status lists it.
func entryOf(p review.Proposal) Summary {
	e := Summary{ID: p.ID, Agent: p.Agent, Session: p.Session, Turn: p.Turn, Changeset: review.ChangesetKey(p), State: p.State, Created: p.Created.UTC().Format("2006-01-02T15:04:05Z"), Files: []string{}}
	e.Added, e.Removed = p.Counts()
	if p.State == review.StateHeld {
		e.Failure, e.Mismatch = agenttext.Failure(p.Failure), p.Mismatch
	}
	for _, f := range p.Files {
		e.Files = append(e.Files, f.Path)
	}
	return e
}

// subscribe starts following the desk's queue for cc: the desk's events
// are kept, one per proposal (the latest kind wins, and the proposal is
// read when the event is sent), and sent in the order they first came,
// once the answer with the queue as it is has been written.
func (cc *conn) subscribe(ctx context.Context, _ noParams) (any, error) {
	cc.mu.Lock()
	already := cc.events != nil
	if !already {
		// A reviewer that stops reading is dropped, as a slow consumer,
		// once its unsent events name maxQueuedEvents proposals: it holds
		// no more of the desk's memory, and on reconnecting it is sent
		// the queue as it is.
		cc.events = newEventQueue(func() { go cc.c.Close() })
	}
	q := cc.events
	cc.mu.Unlock()
	if already {
		return nil, &rpcError{Code: codeState, Message: "subscribe: this connection is subscribed already"}
	}
	d := cc.s.desk
	cancel := d.Subscribe(q.add) // before the list, so no change is missed
	res := &subscribeResult{Proposals: []Summary{}}
	for _, p := range d.List() {
		res.Proposals = append(res.Proposals, entryOf(p))
	}
	res.start = func() {
		go func() {
			defer cancel()
			for {
				ev, ok := q.next(ctx)
				if !ok {
					return
				}
				params := Event{Kind: ev.Kind, ID: ev.ID}
				if p, ok := d.Get(ev.ID); ok {
					e := entryOf(p)
					params.Proposal = &e
				}
				cc.notify("event", params)
			}
		}()
	}
	return res, nil
}

// notify writes a JSON-RPC notification to the connection.
func (cc *conn) notify(method string, params any) {
	b, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}{"2.0", method, params})
	if err != nil {
		return
	}
	cc.wmu.Lock()
	defer cc.wmu.Unlock()
	cc.c.Write(append(b, '\n'))
}

// maxQueuedEvents bounds the proposals a subscriber's unsent events name.
var maxQueuedEvents = 10000

// eventQueue keeps a subscriber's events until they are sent: one per
// proposal, so a burst of streaming updates costs one notification, and
// add never blocks the desk (it runs with the desk's lock held). Past
// maxQueuedEvents proposals it calls full once and keeps nothing more.
type eventQueue struct {
	mu     sync.Mutex
	order  []string                    // ids, in the order their first unsent event came
	kinds  map[string]review.EventKind // the latest unsent event of each
	signal chan struct{}               // one token while something waits
	full   func()                      // nil once called
}

func newEventQueue(full func()) *eventQueue {
	return &eventQueue{kinds: map[string]review.EventKind{}, signal: make(chan struct{}, 1), full: full}
}

func (q *eventQueue) add(ev review.Event) {
	q.mu.Lock()
	if _, ok := q.kinds[ev.ID]; !ok {
		if len(q.order) >= maxQueuedEvents {
			if q.full != nil {
				q.full()
				q.full = nil
			}
			q.mu.Unlock()
			return
		}
		q.order = append(q.order, ev.ID)
	}
	q.kinds[ev.ID] = ev.Kind
	q.mu.Unlock()
	select {
	case q.signal <- struct{}{}:
	default:
	}
}

// next waits for the oldest unsent event; false once ctx ends.
func (q *eventQueue) next(ctx context.Context) (review.Event, bool) {
	for {
		q.mu.Lock()
		if len(q.order) > 0 {
			id := q.order[0]
			q.order = q.order[1:]
			kind := q.kinds[id]
			delete(q.kinds, id)
			q.mu.Unlock()
			return review.Event{Kind: kind, ID: id}, true
		}
		q.mu.Unlock()
		select {
		case <-q.signal:
		case <-ctx.Done():
			return review.Event{}, false
		}
	}
}

// get answers get: proposal p.ID in full, with only the texts of file
// p.Path when that is given.
func (cc *conn) get(_ context.Context, p getParams) (any, error) {
	if err := p.FinalContent.check("get"); err != nil {
		return nil, err
	}
	prop, ok := cc.s.desk.Get(p.ID)
	if !ok {
		return nil, fmt.Errorf("get %s: %w", p.ID, review.ErrUnknownProposal)
	}
	if pv, ok := cc.s.desk.Preview(p.ID); ok && prop.State == review.StateStreaming {
		// Mid-stream: the text as far as it has come, as the window shows.
		prop.Files[0].Proposed = pv.Text()
	}
	res := &Detail{Summary: entryOf(prop), Format: prop.Format, Failure: agenttext.Failure(prop.Failure), AutoRule: prop.AutoRule,
		Instruction: prop.Instruction, AgentWrites: prop.AgentWrites, VerdictOnly: prop.VerdictOnly, Files: []DetailFile{}}
	if prop.State == review.StateReported {
		if o, ok := cc.s.desk.Outcome(prop.ID); ok {
			res.Outcome = cc.outcome(o, p.FinalContent)
		}
	}
	found := p.Path == ""
	for _, f := range prop.Files {
		texts := p.Path == "" || p.Path == f.Path || p.Path == f.Rel
		found = found || texts
		res.Files = append(res.Files, wireFile(f, texts))
	}
	if !found {
		return nil, &rpcError{Code: codeInvalidParams, Message: fmt.Sprintf("get: proposal %s has no file %q; name one of its files by its absolute path or its path relative to its root", p.ID, p.Path)}
	}
	return res, nil
}

// wireFile is f as get sends it, with its texts when texts is set.
func wireFile(f review.File, texts bool) DetailFile {
	w := DetailFile{Path: f.Path, Rel: f.Rel, Root: f.Root, Exists: f.Base.Exists, BaseSHA256: f.Base.SHA256,
		Delete: f.Delete, Added: f.Added, Removed: f.Removed, Incomplete: f.Incomplete, Hunks: []Hunk{}}
	if pr := f.Protected; !pr.IsZero() {
		w.Protected = &Protection{Pattern: pr.Pattern, Origin: pr.Origin, Reason: pr.Reason}
	}
	if texts {
		base, proposed := f.BaseText(), f.Proposed
		w.Base, w.Proposed = &base, &proposed
	}
	for _, m := range f.Matches {
		w.Matches = append(w.Matches, Match{Match: m, Loose: m.Loose(), How: m.How()})
	}
	if f.Stale() {
		w.Disk = &Disk{Exists: f.Disk.Exists, SHA256: f.Disk.SHA256}
		if texts {
			c := string(f.Disk.Content)
			w.Disk.Content = &c
		}
	}
	if f.Growing != (engine.LineRange{}) {
		w.Growing = []int{f.Growing.Start, f.Growing.End}
	}
	for _, h := range f.Hunks() {
		w.Hunks = append(w.Hunks, Hunk{ID: h.ID, OldStart: engine.UnifiedStart(h.A0, h.A1), OldLines: h.A1 - h.A0, NewStart: engine.UnifiedStart(h.B0, h.B1), NewLines: h.B1 - h.B0})
	}
	if f.Checks.Running || f.Checks.Reports != nil {
		w.Checks = &Checks{Running: f.Checks.Running, Reports: wireReports(f.Checks.Reports)}
	}
	return w
}

// checkText answers checkText: the project's checkers on a reviewer's edit
// of a file of a waiting proposal (review.Desk.CheckText).
func (cc *conn) checkText(ctx context.Context, p checkTextParams) (any, error) {
	reports, err := cc.s.desk.CheckText(ctx, p.ID, p.Path, p.Text)
	if err != nil {
		return nil, err
	}
	return &checkTextResult{Reports: wireReports(reports)}, nil
}

// wireReports are checker reports as the protocol sends them.
func wireReports(reports []checker.Report) []Report {
	out := []Report{}
	for _, r := range reports {
		wr := Report{Checker: r.Checker, Problems: r.Problems}
		if r.Err != nil {
			wr.Error = r.Err.Error()
		}
		out = append(out, wr)
	}
	return out
}
