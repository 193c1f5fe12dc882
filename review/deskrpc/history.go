package deskrpc

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
)

// History's reads for a reviewer (the window over diffdesk --connect):
// a page of the timeline, the agents for its filters, who decided an
// entry, and a comparison's files. Each answer is bounded: a page holds at
// most HistoryPageMax entries, a comparison at most HistoryTextBytes of
// texts (the files past it come with their counts only, "omitted").

// HistoryPageMax is the most entries one page of history holds.
const HistoryPageMax = 500

// HistoryTextBytes is the most bytes of file texts one historyDiff answer
// carries.
const HistoryTextBytes = 32 << 20

type (
	historyParams struct {
		Agent    string    `json:"agent,omitempty"`
		Session  string    `json:"session,omitempty"`
		File     string    `json:"file,omitempty"`     // absolute path or pattern (journal.Filter's File)
		Decision string    `json:"decision,omitempty"` // a verdict, or "restore"
		Since    time.Time `json:"since,omitzero"`
		Until    time.Time `json:"until,omitzero"`
		Cursor   string    `json:"cursor,omitempty"` // next of the page before
		Limit    int       `json:"limit,omitempty"`  // default 100, at most HistoryPageMax
	}
	// HistoryPage is history's answer: entries newest first, and the
	// cursor of the next (older) page, "" at the end.
	HistoryPage struct {
		Entries []journal.Entry `json:"entries"`
		Next    string          `json:"next,omitempty"`
	}
	historyShowParams struct {
		Ref journal.Ref `json:"ref"`
	}
	// HistoryEntry is historyShow's answer: the entry, who decided it,
	// and per hunk whether the person had it on screen (absent: not
	// tracked).
	HistoryEntry struct {
		journal.Entry
		DecidedBy     string              `json:"decidedBy,omitempty"`
		DecidedByRule bool                `json:"decidedByRule,omitempty"` // decidedBy names a rule, not a person
		Seen          []decision.HunkSeen `json:"seen,omitempty"`
	}
	// HistoryDiffAnswer is historyDiff's answer.
	HistoryDiffAnswer struct {
		Files []review.HistoryFile `json:"files"`
	}
)

func (cc *conn) history(ctx context.Context, p historyParams) (any, error) {
	if p.Limit < 0 || p.Limit > HistoryPageMax {
		return nil, &rpcError{Code: codeInvalidParams, Message: fmt.Sprintf("history: limit %d: a page holds 1 to %d entries (0: 100)", p.Limit, HistoryPageMax)}
	}
	page, err := cc.s.desk.History(ctx, journal.Filter{Agent: p.Agent, Session: p.Session, File: p.File, Decision: p.Decision,
		Since: p.Since, Until: p.Until, Cursor: p.Cursor, Limit: p.Limit})
	if err != nil {
		return nil, &rpcError{Code: codeInvalidParams, Message: "history: " + err.Error()}
	}
	return HistoryPage{Entries: append([]journal.Entry{}, page.Entries...), Next: page.Next}, nil
}

func (cc *conn) historyAgents(ctx context.Context, _ noParams) (any, error) {
	agents, err := cc.s.desk.HistoryAgents(ctx)
	if err != nil {
		return nil, err
	}
	return append([]journal.Agent{}, agents...), nil
}

func (cc *conn) historyShow(ctx context.Context, p historyShowParams) (any, error) {
	d, err := cc.s.desk.HistoryDetail(ctx, p.Ref)
	if errors.Is(err, journal.ErrNotJournaled) {
		return nil, &rpcError{Code: codeInvalidParams, Message: "historyShow: " + err.Error() + "; history lists the entries"}
	}
	if err != nil {
		return nil, err
	}
	return HistoryEntry{Entry: d.Entry, DecidedBy: d.DecidedBy, DecidedByRule: d.DecidedByRule, Seen: d.Seen}, nil
}

func (cc *conn) historyDiff(ctx context.Context, p review.HistoryCompare) (any, error) {
	files, err := cc.s.desk.HistoryDiff(ctx, p)
	if err != nil {
		return nil, &rpcError{Code: codeInvalidParams, Message: "historyDiff: " + err.Error()}
	}
	return HistoryDiffAnswer{Files: boundHistoryFiles(files, HistoryTextBytes)}, nil
}

// boundHistoryFiles keeps the texts of files, in order, while they add up
// to at most limit bytes; the rest are omitted (their counts kept). The
// unified diffs are left out: the texts say the same.
func boundHistoryFiles(files []review.HistoryFile, limit int) []review.HistoryFile {
	out := make([]review.HistoryFile, len(files))
	used := 0
	for i, f := range files {
		f.Unified = ""
		if n := len(f.Old) + len(f.New); used+n > limit {
			f.Old, f.New, f.Omitted = nil, nil, true
		} else {
			used += n
		}
		out[i] = f
	}
	return out
}

// History reads a page of the desk's history, as a reviewer.
func (cl *Client) History(ctx context.Context, f journal.Filter) (HistoryPage, error) {
	var page HistoryPage
	err := cl.Call(ctx, "history", historyParams{Agent: f.Agent, Session: f.Session, File: f.File, Decision: f.Decision,
		Since: f.Since, Until: f.Until, Cursor: f.Cursor, Limit: f.Limit}, &page)
	return page, err
}

// HistoryAgents reads the agents and sessions the desk's history holds.
func (cl *Client) HistoryAgents(ctx context.Context) ([]journal.Agent, error) {
	var agents []journal.Agent
	err := cl.Call(ctx, "historyAgents", struct{}{}, &agents)
	return agents, err
}

// HistoryShow reads one entry of the desk's history and who decided it.
func (cl *Client) HistoryShow(ctx context.Context, ref journal.Ref) (HistoryEntry, error) {
	var e HistoryEntry
	err := cl.Call(ctx, "historyShow", historyShowParams{Ref: ref}, &e)
	return e, err
}

// HistoryDiff reads the files of a history comparison.
func (cl *Client) HistoryDiff(ctx context.Context, c review.HistoryCompare) ([]review.HistoryFile, error) {
	var a HistoryDiffAnswer
	err := cl.Call(ctx, "historyDiff", c, &a)
	return a.Files, err
}
