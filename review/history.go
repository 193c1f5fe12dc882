package review

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// HistoryRef names one history entry: "42" is checkpoint 42 (a write or a
// restore), "d7" is decision 7, a decision that wrote nothing (rejected,
// withdrawn, failed or stale). Checkpoint ids are what outcomes report.
type HistoryRef string

// ParseHistoryRef checks s as a HistoryRef ("42", "c42" or "d7"; the "c"
// is optional) and returns it in canonical form.
func ParseHistoryRef(s string) (HistoryRef, error) {
	prefix, num := "", strings.TrimSpace(s)
	if strings.HasPrefix(num, "c") || strings.HasPrefix(num, "d") {
		prefix, num = num[:1], num[1:]
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 {
		return "", fmt.Errorf("history: %q is not a history id; want a checkpoint number like 42, or d7 for a decision that wrote nothing", s)
	}
	if prefix == "d" {
		return HistoryRef("d" + strconv.FormatInt(n, 10)), nil
	}
	return HistoryRef(strconv.FormatInt(n, 10)), nil
}

// Checkpoint returns the checkpoint id r names, or 0 if r names a decision.
func (r HistoryRef) Checkpoint() int64 {
	if strings.HasPrefix(string(r), "d") {
		return 0
	}
	n, _ := strconv.ParseInt(string(r), 10, 64)
	return n
}

// Decision returns the decision id r names, or 0 if r names a checkpoint.
func (r HistoryRef) Decision() int64 {
	if !strings.HasPrefix(string(r), "d") {
		return 0
	}
	n, _ := strconv.ParseInt(string(r)[1:], 10, 64)
	return n
}

// History entry kinds: a checkpoint's kind, or EntryDecision.
const (
	EntryWrite    = CheckpointWrite   // a proposal's approved content was written
	EntryRestore  = CheckpointRestore // files were returned to earlier content
	EntryDecision = "decision"        // a decision that wrote nothing
)

// HistoryEntry is one line of the history timeline.
type HistoryEntry struct {
	Ref          HistoryRef
	Kind         string // EntryWrite, EntryRestore or EntryDecision
	Time         time.Time
	Agent        string
	Session      string
	ProposalID   string     // "" for a restore
	Decision     string     // a Decision… constant; "" for a restore
	Feedback     string     // the person's reason or note; "" if none
	RestoredFrom int64      // for a restore, the checkpoint it went back to
	Note         string     // e.g. what a restore did
	State        WriteState // the write's state; "" for a decision
	Paths        []string   // the files, absolute, in journal order
}

// HistoryFilter selects history entries; zero fields do not filter.
type HistoryFilter struct {
	Agent   string
	Session string
	// File is an absolute path, or a pattern: '*' matches any run of
	// characters including '/', '?' one character, [...] a class. A
	// pattern that is not absolute matches the end of a path at a '/'
	// boundary, so "*.go" and "cmd/main.go" work from anywhere.
	File string
	// Decision is a Decision… constant, or EntryRestore for restores.
	Decision string
	Since    time.Time // at or after
	Until    time.Time // before
	Cursor   string    // HistoryPage.Next of the previous page; "" for the newest
	Limit    int       // entries per page; 0 means 100
}

// HistoryPage is one page of history, newest first.
type HistoryPage struct {
	Entries []HistoryEntry
	Next    string // the Cursor for the next (older) page; "" at the end
}

// writingDecisions are the decisions that lead to a checkpoint; the others
// appear in history as decision entries.
var writingDecisions = map[string]bool{DecisionApproved: true, DecisionApprovedEdited: true, DecisionPartial: true}

// silentDecisionsSQL lists the decisions that write nothing, for SQL.
const silentDecisionsSQL = `('rejected','withdrawn','failed','stale')`

// History returns a page of the history timeline: checkpoints (writes and
// restores) and decisions that wrote nothing, newest first. Entries with
// the same time are ordered by id, checkpoints before decisions.
func (j *Journal) History(ctx context.Context, f HistoryFilter) (HistoryPage, error) {
	limit := f.Limit
	if limit <= 0 {
		limit = 100
	}
	cur, err := parseHistoryCursor(f.Cursor)
	if err != nil {
		return HistoryPage{}, err
	}
	switch f.Decision {
	case "", EntryRestore, DecisionApproved, DecisionApprovedEdited, DecisionPartial,
		DecisionRejected, DecisionWithdrawn, DecisionFailed, DecisionStale:
	default:
		return HistoryPage{}, fmt.Errorf("history: unknown decision %q; want approved, approved-edited, partial, rejected, withdrawn, failed, stale or restore", f.Decision)
	}
	glob := historyGlob(f.File)
	var parts []string
	var args []any
	if f.Decision == "" || f.Decision == EntryRestore || writingDecisions[f.Decision] {
		q, a := checkpointEntriesSQL(f, glob, cur, limit+1)
		parts, args = append(parts, q), append(args, a...)
	}
	if f.Decision == "" || !writingDecisions[f.Decision] && f.Decision != EntryRestore {
		q, a := decisionEntriesSQL(f, glob, cur, limit+1)
		parts, args = append(parts, q), append(args, a...)
	}
	q := `SELECT src, id, t, agent, session, proposal_id, decision, feedback, restored_from, note, state FROM (` +
		strings.Join(parts, " UNION ALL ") + `) ORDER BY t DESC, src DESC, id DESC LIMIT ?`
	args = append(args, limit+1)
	rows, err := j.db.QueryContext(ctx, q, args...)
	if err != nil {
		return HistoryPage{}, fmt.Errorf("journal %s: read history: %w", j.path, err)
	}
	defer rows.Close()
	var page HistoryPage
	var last historyCursor
	for rows.Next() {
		var e HistoryEntry
		var c historyCursor
		if err := rows.Scan(&c.src, &c.id, &c.t, &e.Agent, &e.Session, &e.ProposalID, &e.Decision,
			&e.Feedback, &e.RestoredFrom, &e.Note, &e.State); err != nil {
			return HistoryPage{}, fmt.Errorf("journal %s: read history: %w", j.path, err)
		}
		if len(page.Entries) == limit {
			page.Next = last.String()
			break
		}
		e.Time = time.Unix(0, c.t)
		e.Ref, e.Kind = c.ref(), EntryDecision
		if c.src == 1 {
			e.Kind = EntryWrite
			if e.ProposalID == "" {
				e.Kind = EntryRestore
			}
		}
		page.Entries, last = append(page.Entries, e), c
	}
	if err := rows.Err(); err != nil {
		return HistoryPage{}, fmt.Errorf("journal %s: read history: %w", j.path, err)
	}
	rows.Close()
	for i := range page.Entries {
		if page.Entries[i].Paths, err = j.entryPaths(ctx, page.Entries[i]); err != nil {
			return HistoryPage{}, err
		}
	}
	return page, nil
}

// checkpointEntriesSQL selects the checkpoints matching f after cur, at
// most limit of them, as history rows (src 1).
func checkpointEntriesSQL(f HistoryFilter, glob string, cur historyCursor, limit int) (string, []any) {
	var where []string
	var args []any
	add := func(cond string, a ...any) { where, args = append(where, cond), append(args, a...) }
	if f.Agent != "" {
		add("c.agent = ?", f.Agent)
	}
	if f.Session != "" {
		add("c.session = ?", f.Session)
	}
	switch {
	case f.Decision == EntryRestore:
		add("c.kind = 'restore'")
	case f.Decision != "":
		add("d.decision = ?", f.Decision)
	}
	if f.File != "" {
		if glob == "" {
			add("c.id IN (SELECT checkpoint_id FROM checkpoint_files WHERE path = ?)", f.File)
		} else {
			add("EXISTS (SELECT 1 FROM checkpoint_files cf WHERE cf.checkpoint_id = c.id AND cf.path GLOB ?)", glob)
		}
	}
	if !f.Since.IsZero() {
		add("c.created >= ?", f.Since.UnixNano())
	}
	if !f.Until.IsZero() {
		add("c.created < ?", f.Until.UnixNano())
	}
	if cur.t != 0 {
		// Checkpoints sort before decisions of the same time.
		add("c.created <= ? AND (c.created < ? OR (? = 1 AND c.id < ?))", cur.t, cur.t, cur.src, cur.id)
	}
	q := `SELECT * FROM (SELECT 1 AS src, c.id AS id, c.created AS t, c.agent AS agent, c.session AS session,
		coalesce(c.proposal_id, '') AS proposal_id, coalesce(d.decision, '') AS decision,
		coalesce(d.feedback, '') AS feedback, coalesce(c.restored_from, 0) AS restored_from,
		c.note AS note, c.state AS state
		FROM checkpoints c LEFT JOIN decisions d ON d.id = c.decision_id`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	return q + " ORDER BY c.created DESC, c.id DESC LIMIT ?)", append(args, limit)
}

// decisionEntriesSQL selects the decisions that wrote nothing matching f
// after cur, at most limit of them, as history rows (src 0).
func decisionEntriesSQL(f HistoryFilter, glob string, cur historyCursor, limit int) (string, []any) {
	where := []string{"d.decision IN " + silentDecisionsSQL}
	var args []any
	add := func(cond string, a ...any) { where, args = append(where, cond), append(args, a...) }
	if f.Agent != "" {
		add("p.agent = ?", f.Agent)
	}
	if f.Session != "" {
		add("p.session = ?", f.Session)
	}
	if f.Decision != "" {
		add("d.decision = ?", f.Decision)
	}
	if f.File != "" {
		if glob == "" {
			add("EXISTS (SELECT 1 FROM proposal_files pf WHERE pf.proposal_id = d.proposal_id AND pf.path = ?)", f.File)
		} else {
			add("EXISTS (SELECT 1 FROM proposal_files pf WHERE pf.proposal_id = d.proposal_id AND pf.path GLOB ?)", glob)
		}
	}
	if !f.Since.IsZero() {
		add("d.time >= ?", f.Since.UnixNano())
	}
	if !f.Until.IsZero() {
		add("d.time < ?", f.Until.UnixNano())
	}
	if cur.t != 0 {
		add("d.time <= ? AND (d.time < ? OR ? = 1 OR d.id < ?)", cur.t, cur.t, cur.src, cur.id)
	}
	q := `SELECT * FROM (SELECT 0 AS src, d.id AS id, d.time AS t, p.agent AS agent, p.session AS session,
		d.proposal_id AS proposal_id, d.decision AS decision, d.feedback AS feedback, 0 AS restored_from,
		'' AS note, '' AS state
		FROM decisions d JOIN proposals p ON p.id = d.proposal_id WHERE ` + strings.Join(where, " AND ")
	return q + " ORDER BY d.time DESC, d.id DESC LIMIT ?)", append(args, limit)
}

// historyGlob turns a HistoryFilter.File into an SQLite GLOB pattern, or
// "" when it is a plain absolute path (matched exactly, by index).
func historyGlob(file string) string {
	if file == "" {
		return ""
	}
	plain := !strings.ContainsAny(file, "*?[")
	if plain && filepath.IsAbs(file) {
		return ""
	}
	if filepath.IsAbs(file) {
		return filepath.ToSlash(file)
	}
	return "*/" + strings.TrimPrefix(filepath.ToSlash(file), "./")
}

// entryPaths returns the files of a history entry.
func (j *Journal) entryPaths(ctx context.Context, e HistoryEntry) ([]string, error) {
	q := `SELECT path FROM checkpoint_files WHERE checkpoint_id = ? ORDER BY rowid`
	id := e.Ref.Checkpoint()
	if id == 0 {
		q = `SELECT pf.path FROM proposal_files pf JOIN decisions d ON d.proposal_id = pf.proposal_id
			WHERE d.id = ? ORDER BY pf.rowid`
		id = e.Ref.Decision()
	}
	rows, err := j.db.QueryContext(ctx, q, id)
	if err != nil {
		return nil, fmt.Errorf("journal %s: read files of history entry %s: %w", j.path, e.Ref, err)
	}
	defer rows.Close()
	var paths []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, fmt.Errorf("journal %s: read files of history entry %s: %w", j.path, e.Ref, err)
		}
		paths = append(paths, p)
	}
	return paths, rows.Err()
}

// historyCursor is the position of the last entry of a page: its time,
// source (1 checkpoint, 0 decision) and id.
type historyCursor struct {
	t   int64
	src int
	id  int64
}

func (c historyCursor) ref() HistoryRef {
	if c.src == 0 {
		return HistoryRef("d" + strconv.FormatInt(c.id, 10))
	}
	return HistoryRef(strconv.FormatInt(c.id, 10))
}

// String encodes the cursor as "time:src:id".
func (c historyCursor) String() string { return fmt.Sprintf("%d:%d:%d", c.t, c.src, c.id) }

var errBadCursor = errors.New("history: bad page cursor; pass HistoryPage.Next unchanged, or \"\" for the newest page")

func parseHistoryCursor(s string) (historyCursor, error) {
	if s == "" {
		return historyCursor{}, nil
	}
	var c historyCursor
	if n, err := fmt.Sscanf(s, "%d:%d:%d", &c.t, &c.src, &c.id); err != nil || n != 3 || c.src < 0 || c.src > 1 {
		return historyCursor{}, fmt.Errorf("%w (got %q)", errBadCursor, s)
	}
	return c, nil
}
