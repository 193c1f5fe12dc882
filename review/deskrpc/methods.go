package deskrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/internal/version"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/decision"
)

// role is who may call a method: any connection, an agent's only or a
// reviewer's only (hello's "role").
type role int

const (
	anyone role = iota
	agentOnly
	reviewerOnly
)

// method is an entry of the protocol's method table: who may call it,
// what a connection of the other role is told, whether it may wait, and
// its handler, bound to its params type by handler.
type method struct {
	role role
	// denied is the answer (codeForbidden) to a connection whose role
	// may not call the method: what it is for and what to do instead.
	denied string
	// blocks says the method may wait on a person, a formatter or a
	// checker: it is handled on a goroutine of its own (at most
	// Limits.ConnRequests at once per connection), so a blocking wait
	// does not hold up a cancel. Every other method is answered in order.
	blocks bool
	run    func(cc *conn, ctx context.Context, c *call) (any, error)
}

// call is one request as its method's handler sees it before decoding.
type call struct {
	name    string
	m       *method
	raw     json.RawMessage
	decoded func() // the raw params are no longer needed (limits' loan given back)
}

// noParams is the params type of a method that takes none: whatever params
// are sent are not read.
type noParams struct{}

// handler binds h to its params type P: the one typed decoder every
// method goes through (params missing or not of P's shape are
// codeInvalidParams, named by the method), then the role, then h.
func handler[P any](h func(cc *conn, ctx context.Context, p P) (any, error)) func(*conn, context.Context, *call) (any, error) {
	return func(cc *conn, ctx context.Context, c *call) (any, error) {
		var p P
		if err := c.decode(&p); err != nil {
			return nil, err
		}
		if err := cc.permit(c.m); err != nil {
			return nil, err
		}
		return h(cc, ctx, p)
	}
}

// decode reads the params into v (nothing for noParams).
func (c *call) decode(v any) error {
	raw := c.raw
	c.raw = nil
	defer c.decoded()
	if _, none := v.(*noParams); none {
		return nil
	}
	if len(raw) == 0 {
		return &rpcError{Code: codeInvalidParams, Message: c.name + ": params missing"}
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return &rpcError{Code: codeInvalidParams, Message: c.name + ": " + err.Error()}
	}
	return nil
}

// permit refuses a method the connection's role may not call. An agent's
// method binds the connection to the agent's role: once it has proposed,
// hello cannot make it a reviewer's (setRole).
func (cc *conn) permit(m *method) error {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	switch {
	case m.role == agentOnly && cc.reviewer, m.role == reviewerOnly && !cc.reviewer:
		return &rpcError{Code: codeForbidden, Message: m.denied}
	case m.role == agentOnly:
		cc.proposed = true
	}
	return nil
}

// notReviewer is what an agent's connection is told of a reviewer's
// decision: how a reviewer connects.
const notReviewer = `a reviewer's connection says hello with "role":"reviewer" and proposes nothing (docs/security.md)`

// methods is the protocol's method table (docs/protocol.md).
var methods = map[string]*method{
	"hello": {run: handler((*conn).hello)},
	"propose": {role: agentOnly, blocks: true, run: handler((*conn).propose),
		denied: "propose: this connection said hello as a reviewer, and a reviewer does not propose; propose on a connection of its own"},
	"chunk":  {run: handler((*conn).chunk)},
	"finish": {blocks: true, run: handler((*conn).finish)},
	"wait":   {blocks: true, run: handler((*conn).wait)},
	"cancel": {run: handler((*conn).cancel)},
	"agentWrote": {role: agentOnly, run: handler((*conn).agentWrote),
		denied: "agentWrote: an agent reports what its own tool did with an approval it writes itself, and this connection is a reviewer's"},
	"read":   {run: handler((*conn).read)},
	"status": {run: handler((*conn).status)},
	"decide": {role: reviewerOnly, blocks: true, run: handler((*conn).decide),
		denied: "decide, place, dismiss: only a reviewer decides, places a block or dismisses a failure, and this connection is an agent's; " + notReviewer},
	"decideChangeset": {role: reviewerOnly, blocks: true, run: handler((*conn).decideChangeset),
		denied: "decideChangeset: only a reviewer decides, and this connection is an agent's; " + notReviewer},
	"approveTrivial": {role: reviewerOnly, blocks: true, run: handler((*conn).approveTrivial),
		denied: "approveTrivial: only a reviewer decides, and this connection is an agent's; " + notReviewer},
	"place": {role: reviewerOnly, blocks: true, run: handler((*conn).place),
		denied: "decide, place, dismiss: only a reviewer decides, places a block or dismisses a failure, and this connection is an agent's; " + notReviewer},
	"dismiss": {role: reviewerOnly, blocks: true, run: handler((*conn).dismiss),
		denied: "decide, place, dismiss: only a reviewer decides, places a block or dismisses a failure, and this connection is an agent's; " + notReviewer},
	"restore": {role: reviewerOnly, run: handler((*conn).restore),
		denied: `restore: only a reviewer restores files, and this connection is an agent's; a reviewer's connection says hello with "role":"reviewer" and proposes nothing`},
	"history": {role: reviewerOnly, run: handler((*conn).history),
		denied: `history: only a reviewer reads the desk's history; say hello with "role":"reviewer" on a connection that proposes nothing`},
	"historyAgents": {role: reviewerOnly, run: handler((*conn).historyAgents),
		denied: `historyAgents: only a reviewer reads the desk's history; say hello with "role":"reviewer" on a connection that proposes nothing`},
	"historyShow": {role: reviewerOnly, run: handler((*conn).historyShow),
		denied: `historyShow: only a reviewer reads the desk's history; say hello with "role":"reviewer" on a connection that proposes nothing`},
	"historyDiff": {role: reviewerOnly, run: handler((*conn).historyDiff),
		denied: `historyDiff: only a reviewer reads the desk's history; say hello with "role":"reviewer" on a connection that proposes nothing`},
	"subscribe": {role: reviewerOnly, run: handler((*conn).subscribe),
		denied: `subscribe: only a reviewer follows the queue; say hello with "role":"reviewer" on a connection that proposes nothing`},
	"get": {role: reviewerOnly, run: handler((*conn).get),
		denied: `get: only a reviewer reads a proposal in full; say hello with "role":"reviewer" on a connection that proposes nothing`},
	"checkText": {role: reviewerOnly, blocks: true, run: handler((*conn).checkText),
		denied: `checkText: only a reviewer checks an edit of a proposal; say hello with "role":"reviewer"`},
	"untrusted": {role: reviewerOnly, run: handler((*conn).untrusted),
		denied: `untrusted: only a reviewer sees the repository configs waiting for trust; say hello with "role":"reviewer"`},
	"trust": {role: reviewerOnly, run: handler((*conn).trustFile),
		denied: `trust: only a reviewer trusts a repository's config, and an agent never does; say hello with "role":"reviewer" on a connection that proposes nothing`},
}

// blocks reports whether the method named may wait (method.blocks); an
// unknown one is answered at once.
func blocks(name string) bool {
	m, ok := methods[name]
	return ok && m.blocks
}

// handle carries out req; decoded is called once the raw params are no
// longer needed.
func (cc *conn) handle(ctx context.Context, req *rpcRequest, decoded func()) (any, error) {
	m, ok := methods[req.Method]
	if !ok {
		decoded()
		return nil, &rpcError{Code: codeMethodNotFound, Message: fmt.Sprintf("unknown method %q; see docs/protocol.md", req.Method)}
	}
	c := &call{name: req.Method, m: m, raw: req.Params, decoded: decoded}
	req.Params = nil
	return m.run(cc, ctx, c)
}

func (cc *conn) hello(_ context.Context, p helloParams) (any, error) {
	if p.Protocol < 1 {
		return nil, &rpcError{Code: codeInvalidParams, Message: fmt.Sprintf("hello: protocol %d is not supported; this desk speaks %d", p.Protocol, ProtocolVersion)}
	}
	if err := cc.setRole(p.Role); err != nil {
		return nil, err
	}
	d := cc.s.desk
	cc.mu.Lock()
	cc.client, cc.sess = p.Agent, p.Session
	attend := p.Attend && cc.leave == nil
	if p.Attend && !cc.reviewer {
		cc.mu.Unlock()
		return nil, &rpcError{Code: codeInvalidParams, Message: `hello: only a reviewer attends the desk; say "role":"reviewer" with "attend":true`}
	}
	if attend {
		cc.leave = d.Attend()
	}
	if p.Who != "" && !cc.reviewer {
		cc.mu.Unlock()
		return nil, &rpcError{Code: codeInvalidParams, Message: `hello: only a reviewer names who decides; say "role":"reviewer" with "who"`}
	}
	cc.who = p.Who
	cc.mu.Unlock()
	return helloResult{Protocol: min(p.Protocol, ProtocolVersion), Desk: "diffdesk", Roots: d.Roots()}, nil
}

func (cc *conn) propose(ctx context.Context, p proposeParams) (any, error) {
	cc.mu.Lock()
	if p.Agent == "" {
		p.Agent = cc.client
	}
	if p.Session == "" {
		p.Session = cc.sess
	}
	cc.mu.Unlock()
	if !validFormat(p.Format) {
		return nil, &rpcError{Code: codeInvalidParams, Message: fmt.Sprintf("propose: unknown format %q", p.Format)}
	}
	if err := p.FinalContent.check("propose"); err != nil {
		return nil, err
	}
	switch {
	case p.Payload != nil:
		p.Request.Payload = *p.Payload
	case !p.Stream:
		return nil, &rpcError{Code: codeInvalidParams, Message: `propose: "payload" is missing or null; it must be a string (for write, the whole file: "" empties it). To send it in chunks, say "stream": true and use chunk and finish`}
	}
	if err := cc.underBudget(true, ""); err != nil {
		return nil, err
	}
	prop, err := cc.s.desk.Propose(ctx, p.Request)
	if err != nil && ctx.Err() != nil {
		// The desk closed while it recorded the proposal (the journal's
		// work was cancelled): none was made.
		return nil, &rpcError{Code: codeClosed, Message: fmt.Sprintf("the desk closed before your proposal was recorded (its window was closed, or deskctl serve stopped): nothing was written; propose again once a desk runs (%v)", err)}
	}
	if err != nil {
		return nil, err
	}
	cc.madeHere(prop.ID)
	return cc.result(ctx, prop, p.Wait, p.FinalContent)
}

func (cc *conn) chunk(ctx context.Context, p idParams) (any, error) {
	if err := cc.mayUse("chunk", p.ID); err != nil {
		return nil, err
	}
	if before := cc.chunked; before/(1<<20) != (before+int64(len(p.Data)))/(1<<20) {
		path := p.ID
		if prop, ok := cc.s.desk.Get(p.ID); ok && len(prop.Files) > 0 {
			path = prop.Files[0].Path // "the stream to PATH is stopped"
		}
		if err := cc.underBudget(false, path); err != nil {
			var be *review.BudgetError
			errors.As(err, &be)
			why := review.Withdrawal(review.WithdrawBudget, "", path)
			why.Budget = be
			cc.s.desk.WithdrawBecause(ctx, p.ID, why)
			return nil, err
		}
	}
	cc.chunked += int64(len(p.Data))
	return nil, cc.s.desk.Feed(p.ID, p.Data)
}

func (cc *conn) finish(ctx context.Context, p idParams) (any, error) {
	if err := cc.mayUse("finish", p.ID); err != nil {
		return nil, err
	}
	if err := p.FinalContent.check("finish"); err != nil {
		return nil, err
	}
	prop, err := cc.s.desk.Finish(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	return cc.result(ctx, prop, p.Wait, p.FinalContent)
}

func (cc *conn) wait(ctx context.Context, p idParams) (any, error) {
	if err := cc.mayUse("wait", p.ID); err != nil {
		return nil, err
	}
	if err := p.FinalContent.check("wait"); err != nil {
		return nil, err
	}
	o, err := cc.s.desk.Wait(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	cc.own(p.ID, false)
	return cc.answer(p.ID, o, "", p.FinalContent), nil
}

func (cc *conn) cancel(ctx context.Context, p idParams) (any, error) {
	if err := cc.mayUse("cancel", p.ID); err != nil {
		return nil, err
	}
	return nil, cc.s.desk.Withdraw(ctx, p.ID, p.Reason)
}

// agentWrote: after an approval the agent writes itself, its tool ran, or
// was kept from running; the desk checks the files (review.AgentWrote).
// Any agent connection may ask: the hook that reports is often another
// process than the one that proposed, and the desk believes only the disk.
func (cc *conn) agentWrote(ctx context.Context, p idParams) (any, error) {
	o, err := cc.s.desk.AgentWrote(ctx, p.ID, p.Reason)
	if errors.Is(err, review.ErrNotAgentWrite) {
		return nil, &rpcError{Code: codeInvalidParams, Message: "agentWrote: " + err.Error()}
	}
	if err != nil {
		return nil, err
	}
	return agentWroteResult{ID: p.ID, Status: o.Status, Error: agenttext.ForWire(o).Error}, nil
}

// agentWroteResult answers agentWrote: the proposal's verdict now —
// the approval's, or failed with why.
type agentWroteResult struct {
	ID     string           `json:"id"`
	Status decision.Verdict `json:"status"`
	Error  string           `json:"error,omitempty"`
}

func (cc *conn) decide(ctx context.Context, p decideParams) (any, error) {
	if err := cc.notOwnProposal(p.ID); err != nil {
		return nil, err
	}
	v, err := decision.ParseVerdict(p.Decision)
	if err != nil {
		return nil, &rpcError{Code: codeInvalidParams, Message: "decide: " + err.Error()}
	}
	for i := range p.Comments {
		p.Comments[i].Quote = "" // the desk quotes the lines itself
	}
	if err := p.FinalContent.check("decide"); err != nil {
		return nil, err
	}
	o, err := cc.s.desk.Decide(ctx, p.ID, review.Decision{Verdict: v, Feedback: p.Feedback, Edited: p.Edited, Hunks: p.Hunks, Overwrite: p.Overwrite, Comments: p.Comments, Seen: p.Seen, SeenLines: p.SeenLines, Shown: p.Shown, By: cc.whoDecides()})
	if err != nil {
		return nil, err
	}
	return cc.answer(p.ID, o, "", p.FinalContent), nil
}

func (cc *conn) decideChangeset(ctx context.Context, p decideChangesetParams) (any, error) {
	if err := cc.notOwnChangeset(p.Changeset); err != nil {
		return nil, err
	}
	v, err := decision.ParseVerdict(p.Decision)
	if err != nil || v != decision.Approved && v != decision.Rejected {
		return nil, &rpcError{Code: codeInvalidParams, Message: fmt.Sprintf("decideChangeset: decision %q: a changeset is approved or rejected whole; say approve or reject", p.Decision)}
	}
	for _, cs := range p.Comments {
		for i := range cs {
			cs[i].Quote = "" // the desk quotes the lines itself
		}
	}
	if err := p.FinalContent.check("decideChangeset"); err != nil {
		return nil, err
	}
	res, err := cc.s.desk.DecideChangeset(ctx, p.Changeset, review.ChangesetDecision{Verdict: v, Feedback: p.Feedback, Seen: p.Seen, SeenLines: p.SeenLines, Comments: p.Comments, Shown: p.Shown, By: cc.whoDecides()})
	if errors.Is(err, review.ErrUnknownChangeset) {
		return nil, &rpcError{Code: codeInvalidParams, Message: "decideChangeset: " + err.Error() + "; status lists each proposal's changeset"}
	}
	if err != nil {
		return nil, err
	}
	for i, o := range res.Decided {
		res.Decided[i] = *cc.outcome(o, p.FinalContent)
	}
	return res, nil
}

func (cc *conn) place(ctx context.Context, p placeParams) (any, error) {
	if err := cc.notOwnProposal(p.ID); err != nil {
		return nil, err
	}
	q, err := cc.s.desk.Place(ctx, p.ID, p.Path, p.Block, engine.Region{StartLine: p.StartLine, EndLine: p.EndLine})
	if err != nil {
		return nil, err
	}
	return placeResult(q), nil
}

func (cc *conn) dismiss(ctx context.Context, p idParams) (any, error) {
	if err := cc.notOwnProposal(p.ID); err != nil {
		return nil, err
	}
	if err := p.FinalContent.check("dismiss"); err != nil {
		return nil, err
	}
	if err := cc.s.desk.Dismiss(ctx, p.ID); err != nil {
		return nil, err
	}
	o, _ := cc.s.desk.Outcome(p.ID)
	return cc.answer(p.ID, o, "", p.FinalContent), nil
}

func (cc *conn) read(_ context.Context, p readParams) (any, error) {
	f, err := cc.s.desk.Read(p.Path)
	if err != nil {
		return nil, err
	}
	return readResult{Path: f.Path, Exists: f.Base.Exists, Content: f.BaseText(), SHA256: f.Base.SHA256}, nil
}

func (cc *conn) status(context.Context, noParams) (any, error) {
	d := cc.s.desk
	st := statusResult{Protocol: ProtocolVersion, Roots: d.Roots(), Proposals: []Summary{}, Version: version.Read()}
	for _, p := range d.List() {
		e := entryOf(p)
		e.Own = cc.isMine(p.ID)
		st.Proposals = append(st.Proposals, e)
	}
	st.Waiting = len(st.Proposals)
	st.Doors = []review.DoorStatus{}
	if cc.s.doors != nil {
		st.Doors = cc.s.doors()
	}
	return st, nil
}

// notOwnProposal refuses a reviewer's decision about a proposal of the
// reviewer's own agent session.
func (cc *conn) notOwnProposal(id string) error {
	cc.mu.Lock()
	agent, sess := cc.client, cc.sess
	cc.mu.Unlock()
	if p, ok := cc.s.desk.Get(id); ok && sess != "" && p.Agent == agent && p.Session == sess {
		return &rpcError{Code: codeForbidden, Message: fmt.Sprintf("decide, place, dismiss: proposal %s comes from your own agent session (%s, %s); an agent does not decide its own edits", id, agent, sess)}
	}
	return nil
}

// notOwnChangeset is notOwnProposal for a whole changeset (key).
func (cc *conn) notOwnChangeset(key string) error {
	cc.mu.Lock()
	agent, sess := cc.client, cc.sess
	cc.mu.Unlock()
	if cs, ok := cc.s.desk.Changeset(key); ok && sess != "" && cs.Agent == agent && cs.Session == sess {
		return &rpcError{Code: codeForbidden, Message: fmt.Sprintf("decideChangeset: changeset %s comes from your own agent session (%s, %s); an agent does not decide its own edits", key, agent, sess)}
	}
	return nil
}

// Params and results of the protocol's methods (docs/protocol.md).
type (
	helloParams struct {
		Protocol int    `json:"protocol"`
		Agent    string `json:"agent"`
		Session  string `json:"session"`
		Role     string `json:"role"` // "agent" (or "") proposes; "reviewer" decides
		// Attend (a reviewer only) says a person reviews through this
		// connection while it lasts: failures they could place are held
		// for them (review.Desk.Attend).
		Attend bool `json:"attend,omitempty"`
		// Who (a reviewer only) names the person deciding, "user@host",
		// as the journal records who decided; "" is the desk's own user.
		Who string `json:"who,omitempty"`
	}
	helloResult struct {
		Protocol int      `json:"protocol"`
		Desk     string   `json:"desk"`
		Roots    []string `json:"roots"`
	}
	proposeParams struct {
		review.Request
		// Payload shadows Request.Payload so that a payload missing or
		// null is told apart from an empty one: for write, "" empties the
		// file, and a client that forgot the field must not do that.
		Payload *string `json:"payload"`
		Wait    bool    `json:"wait,omitempty"`
		// FinalContent: which files' final text the outcome carries (final.go).
		FinalContent finalParam `json:"finalContent,omitempty"`
	}
	proposeResult struct {
		ID    string       `json:"id"`
		State review.State `json:"state"`
		// Changeset is the key of the changeset the proposal joined (its
		// agent, session and turn), in the answer to propose and finish.
		Changeset string          `json:"changeset,omitempty"`
		Outcome   *review.Outcome `json:"outcome,omitempty"`
		Text      string          `json:"text,omitempty"` // agenttext.Outcome, when there is an outcome
	}
	idParams struct {
		ID     string `json:"id"`
		Data   string `json:"data,omitempty"`   // chunk
		Reason string `json:"reason,omitempty"` // cancel; agentWrote: what the tool said
		Wait   bool   `json:"wait,omitempty"`   // finish
		// FinalContent (finish, wait, dismiss): which files' final text
		// the outcome carries (final.go).
		FinalContent finalParam `json:"finalContent,omitempty"`
	}
	readParams struct {
		Path string `json:"path"`
	}
	readResult struct {
		Path    string `json:"path"`
		Exists  bool   `json:"exists"`
		Content string `json:"content"`
		SHA256  string `json:"sha256"`
	}
	decideParams struct {
		ID        string                    `json:"id"`
		Decision  string                    `json:"decision"` // a verdict or its imperative: approve, approve-edited, partial, reject
		Feedback  string                    `json:"feedback,omitempty"`
		Edited    map[string]string         `json:"edited,omitempty"`
		Hunks     map[string][]string       `json:"hunks,omitempty"`
		Overwrite map[string]string         `json:"overwrite,omitempty"`
		Comments  []decision.Comment        `json:"comments,omitempty"`  // path, side, line, endLine, text; a quote sent is ignored
		Seen      map[string][]string       `json:"seen,omitempty"`      // path → ids of the hunks on screen; absent: not tracked
		SeenLines map[string]map[string]int `json:"seenLines,omitempty"` // path → id of a hunk shown in part → its changed lines on screen
		Shown     string                    `json:"shown,omitempty"`     // the version of the proposal on screen (review.ShownVersion); absent: not checked
		// FinalContent: which files' final text the outcome carries (final.go).
		FinalContent finalParam `json:"finalContent,omitempty"`
	}
	decideChangesetParams struct {
		Changeset string `json:"changeset"` // the key, as status and propose give it
		Decision  string `json:"decision"`  // approve or reject (or approved, rejected)
		Feedback  string `json:"feedback,omitempty"`
		// Seen maps a proposal's id to the hunks on screen, as decide's seen.
		Seen map[string]map[string][]string `json:"seen,omitempty"`
		// SeenLines maps a proposal's id to decide's seenLines.
		SeenLines map[string]map[string]map[string]int `json:"seenLines,omitempty"`
		// Comments maps a proposal's id to its comments, as decide's
		// comments: each goes with that proposal's outcome only.
		Comments map[string][]decision.Comment `json:"comments,omitempty"`
		// Shown maps a proposal's id to the version of it on screen, as
		// decide's shown; given, an approval leaves out every proposal
		// missing from it.
		Shown map[string]string `json:"shown,omitempty"`
		// FinalContent: which files' final text each outcome carries (final.go).
		FinalContent finalParam `json:"finalContent,omitempty"`
	}
	placeParams struct {
		ID        string `json:"id"`
		Path      string `json:"path,omitempty"` // the proposal's file; "" for its one file
		Block     int    `json:"block"`
		StartLine int    `json:"startLine"`
		EndLine   int    `json:"endLine"`
	}
	statusResult struct {
		Protocol  int                 `json:"protocol"`
		Roots     []string            `json:"roots"`
		Waiting   int                 `json:"waiting"`
		Proposals []Summary           `json:"proposals"`
		Doors     []review.DoorStatus `json:"doors"`
		// Version is the desk's build: its version and commit.
		Version version.Info `json:"version"`
	}
)
