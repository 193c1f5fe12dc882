package journal

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/diffdesk/diffdesk/review/decision"
)

// Ref names one history entry: "42" is checkpoint 42 (a write or a
// restore), "d7" is decision 7, a decision that wrote nothing (rejected,
// withdrawn, failed or stale). Checkpoint ids are what outcomes report.
type Ref string

// ParseRef checks s as a Ref ("42", "c42" or "d7"; the "c"
// is optional) and returns it in canonical form.
func ParseRef(s string) (Ref, error) {
	prefix, num := "", strings.TrimSpace(s)
	if strings.HasPrefix(num, "c") || strings.HasPrefix(num, "d") {
		prefix, num = num[:1], num[1:]
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 {
		return "", fmt.Errorf("history: %q is not a history id; want a checkpoint number like 42, or d7 for a decision that wrote nothing", s)
	}
	if prefix == "d" {
		return Ref("d" + strconv.FormatInt(n, 10)), nil
	}
	return Ref(strconv.FormatInt(n, 10)), nil
}

// Checkpoint returns the checkpoint id r names, or 0 if r names a decision.
func (r Ref) Checkpoint() int64 {
	if strings.HasPrefix(string(r), "d") {
		return 0
	}
	n, _ := strconv.ParseInt(string(r), 10, 64)
	return n
}

// Decision returns the decision id r names, or 0 if r names a checkpoint.
func (r Ref) Decision() int64 {
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

// Entry is one line of the history timeline.
type Entry struct {
	Ref          Ref
	Kind         string // EntryWrite, EntryRestore or EntryDecision
	Time         time.Time
	Agent        string
	Session      string
	ProposalID   string           // "" for a restore
	Decision     decision.Verdict // "" for a restore
	DecisionID   int64            // the decision's id; 0 for a restore
	Feedback     string           // the person's reason or note; "" if none
	RestoredFrom int64            // for a restore, the checkpoint it went back to
	Note         string           // e.g. what a restore did
	State        WriteState       // the write's state; "" for a decision
	Paths        []string         // the files, absolute, in journal order
}

// Filter selects history entries; zero fields do not filter.
type Filter struct {
	Agent   string
	Session string
	// File is an absolute path, or a pattern: '*' matches any run of
	// characters including '/', '?' one character, [...] a class. A
	// pattern that is not absolute matches the end of a path at a '/'
	// boundary, so "*.go" and "cmd/main.go" work from anywhere.
	File string
	// Decision is a Verdict, or EntryRestore for restores.
	Decision string
	Since    time.Time // at or after
	Until    time.Time // before
	Cursor   string    // Page.Next of the previous page; "" for the newest
	Limit    int       // entries per page; 0 means 100
}

// Page is one page of history, newest first.
type Page struct {
	Entries []Entry
	Next    string // the Cursor for the next (older) page; "" at the end
}

// silentDecisionsSQL selects the decisions that wrote nothing, for SQL:
// those whose verdict writes nothing, and approvals the desk made no write
// for (the agent writes the file itself: Request.AgentWrites in review).
const silentDecisionsSQL = `(d.decision IN ('rejected','withdrawn','failed','stale') OR NOT EXISTS (SELECT 1 FROM checkpoints c WHERE c.decision_id = d.id))`

// History returns a page of the history timeline: checkpoints (writes and
// restores) and decisions that wrote nothing, newest first. Checkpoints
// are read by time, decisions in journal order (ids grow with time), and
// the two are merged by time; paging never repeats or skips an entry, even
// if the clock went back.
func (j *Journal) History(ctx context.Context, f Filter) (Page, error) {
	limit := f.Limit
	if limit <= 0 {
		limit = 100
	}
	cur, err := parseHistoryCursor(f.Cursor)
	if err != nil {
		return Page{}, err
	}
	if f.Decision != "" && f.Decision != EntryRestore && !decision.Verdict(f.Decision).Valid() {
		return Page{}, fmt.Errorf("history: unknown decision %q; want approved, approved-edited, partial, approved-overwrite, rejected, withdrawn, failed, stale or restore", f.Decision)
	}
	glob := historyGlob(f.File)
	// A pattern whose last element is a wildcard (dir42/*) and that
	// matches few distinct paths is read by those paths' index.
	sparse := false
	if glob != "" && globBase(glob) == "" {
		var n int
		if err := j.db.QueryRowContext(ctx, `SELECT count(*) FROM history_paths WHERE path GLOB ?`, glob).Scan(&n); err != nil {
			return Page{}, fmt.Errorf("journal %s: read history: %w", j.path, err)
		}
		sparse = n <= sparseGlobPaths
	}
	var cps, decs []Entry
	if f.Decision == "" || f.Decision == EntryRestore || decision.Verdict(f.Decision).Wrote() {
		// A pattern that starts with a wildcard and matches many files
		// (*.go) cannot use the path index: probe the newest checkpoints
		// first (a wider window if the first found some but too few), and
		// make one pass over the index only if the pattern matches rarely.
		var window int64
		if !sparse && glob != "" && strings.ContainsAny(glob[:1], "*?[") {
			window = globProbeWindow
		}
		for {
			q, args := checkpointEntriesSQL(f, glob, cur, window, limit+1, !sparse)
			if cps, err = j.queryHistory(ctx, q, args...); err != nil {
				return Page{}, err
			}
			if window == 0 || len(cps) > limit {
				break
			}
			// Twice the window the density seen so far needs, if affordable.
			next := 2 * window * int64(limit+1) / int64(max(len(cps), 1))
			if len(cps) == 0 || window >= maxGlobProbeWindow || next > maxGlobProbeWindow {
				next = 0
			}
			window = next
		}
	}
	if f.Decision != EntryRestore {
		// Decisions older than the oldest checkpoint fetched cannot make
		// this page; the bound spares scanning all of them.
		var after int64
		if len(cps) > limit {
			after = cps[limit].DecisionID
		}
		q, args := decisionEntriesSQL(f, glob, cur.decision, after, limit+1, !sparse)
		if decs, err = j.queryHistory(ctx, q, args...); err != nil {
			return Page{}, err
		}
	}
	var page Page
	next := cur
	for len(page.Entries) < limit && (len(cps) > 0 || len(decs) > 0) {
		if len(decs) == 0 || len(cps) > 0 && !cps[0].Time.Before(decs[0].Time) {
			next.checkpointTime, next.checkpoint = cps[0].Time.UnixNano(), cps[0].Ref.Checkpoint()
			page.Entries, cps = append(page.Entries, cps[0]), cps[1:]
		} else {
			page.Entries, next.decision, decs = append(page.Entries, decs[0]), decs[0].Ref.Decision(), decs[1:]
		}
	}
	if len(cps) > 0 || len(decs) > 0 {
		page.Next = next.String()
	}
	for i := range page.Entries {
		if page.Entries[i].Paths, err = j.entryPaths(ctx, page.Entries[i]); err != nil {
			return Page{}, err
		}
	}
	return page, nil
}

// queryHistory runs a query selecting an entry's kind, id, time, agent,
// session, proposal id, decision, decision id, feedback, restored-from
// checkpoint, note and state.
func (j *Journal) queryHistory(ctx context.Context, q string, args ...any) ([]Entry, error) {
	rows, err := j.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("journal %s: read history: %w", j.path, err)
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		var e Entry
		var id, t int64
		if err := rows.Scan(&e.Kind, &id, &t, &e.Agent, &e.Session, &e.ProposalID, &e.Decision, &e.DecisionID,
			&e.Feedback, &e.RestoredFrom, &e.Note, &e.State); err != nil {
			return nil, fmt.Errorf("journal %s: read history: %w", j.path, err)
		}
		e.Time = time.Unix(0, t)
		e.Ref = Ref(strconv.FormatInt(id, 10))
		if e.Kind == EntryDecision {
			e.Ref = "d" + e.Ref
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("journal %s: read history: %w", j.path, err)
	}
	return out, nil
}

// sparseGlobPaths is the most distinct paths a pattern may match for its
// rows to be read path by path rather than checkpoint by checkpoint.
const sparseGlobPaths = 1000

// globProbeWindow is how many of the newest checkpoints History checks one
// by one against a pattern that starts with a wildcard before it scans the
// whole path index instead.
const globProbeWindow = 2000

// maxGlobProbeWindow is the widest such window; past it one pass over the
// path index is cheaper.
const maxGlobProbeWindow = 40000

// checkpointEntriesSQL selects the checkpoints matching f after cur, newest
// first, at most limit of them. With a window, a glob is checked per
// checkpoint among the window newest (after cur) only. dense: a glob
// without a plain base name matches many paths, and is checked row by row,
// not by the paths it matches.
func checkpointEntriesSQL(f Filter, glob string, cur historyCursor, window int64, limit int, dense bool) (string, []any) {
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
	after := "1"
	if cur.checkpoint > 0 {
		after = "(c.created < ? OR (c.created = ? AND c.id < ?))"
		add("c.created <= ? AND "+after, cur.checkpointTime, cur.checkpointTime, cur.checkpointTime, cur.checkpoint)
	}
	switch {
	case f.File != "" && glob == "":
		add("c.id IN (SELECT checkpoint_id FROM checkpoint_files WHERE path = ?)", f.File)
	case f.File != "" && window > 0 && globBase(glob) != "":
		add("c.id IN (SELECT checkpoint_id FROM checkpoint_files WHERE "+pathBaseSQL+" = ? AND path GLOB ?)", globBase(glob), glob)
	case f.File != "" && window > 0:
		add("EXISTS (SELECT 1 FROM checkpoint_files cf WHERE cf.checkpoint_id = c.id AND cf.path GLOB ?)", glob)
		windowStart := `(SELECT c.created FROM checkpoints c WHERE ` + after + ` ORDER BY c.created DESC, c.id DESC LIMIT 1 OFFSET ?)`
		windowArgs := []any{window}
		if cur.checkpoint > 0 {
			windowArgs = []any{cur.checkpointTime, cur.checkpointTime, cur.checkpoint, window}
		}
		add("c.created >= coalesce("+windowStart+", 0)", windowArgs...)
	case f.File != "" && globBase(glob) != "":
		add("c.id IN (SELECT checkpoint_id FROM checkpoint_files WHERE "+pathBaseSQL+" = ? AND path GLOB ?)", globBase(glob), glob)
	case f.File != "" && dense:
		add("c.id IN (SELECT checkpoint_id FROM checkpoint_files WHERE path GLOB ?)", glob)
	case f.File != "":
		add("c.id IN (SELECT checkpoint_id FROM checkpoint_files WHERE path IN (SELECT path FROM history_paths WHERE path GLOB ?))", glob)
	}
	if !f.Since.IsZero() {
		add("c.created >= ?", historyNanos(f.Since))
	}
	if !f.Until.IsZero() {
		add("c.created < ?", historyNanos(f.Until))
	}
	q := `SELECT CASE WHEN c.proposal_id IS NULL THEN 'restore' ELSE 'write' END, c.id, c.created, c.agent, c.session,
		coalesce(c.proposal_id, ''), coalesce(d.decision, ''), coalesce(c.decision_id, 0), coalesce(d.feedback, ''),
		coalesce(c.restored_from, 0), c.note, c.state
		FROM checkpoints c LEFT JOIN decisions d ON d.id = c.decision_id`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	return q + " ORDER BY c.created DESC, c.id DESC LIMIT ?", append(args, limit)
}

// decisionEntriesSQL selects the decisions that wrote nothing matching f
// with ids below before (0: any) and above after (0: any), newest first,
// at most limit of them. dense: a glob is checked decision by decision,
// newest first (soon done when it matches often), not by the paths it
// matches.
func decisionEntriesSQL(f Filter, glob string, before, after int64, limit int, dense bool) (string, []any) {
	where := []string{silentDecisionsSQL}
	var args []any
	add := func(cond string, a ...any) { where, args = append(where, cond), append(args, a...) }
	if f.Agent != "" {
		add("+p.agent = ?", f.Agent) // '+': scan decisions newest first, not all the agent's proposals
	}
	if f.Session != "" {
		add("+p.session = ?", f.Session)
	}
	if f.Decision != "" {
		add("d.decision = ?", f.Decision)
	}
	switch {
	case f.File != "" && glob == "":
		add("d.proposal_id IN (SELECT proposal_id FROM proposal_files WHERE path = ?)", f.File)
	case f.File != "" && globBase(glob) != "":
		add("d.proposal_id IN (SELECT proposal_id FROM proposal_files WHERE "+pathBaseSQL+" = ? AND path GLOB ?)", globBase(glob), glob)
	case f.File != "" && dense:
		add("EXISTS (SELECT 1 FROM proposal_files pf WHERE pf.proposal_id = d.proposal_id AND pf.path GLOB ?)", glob)
	case f.File != "":
		add("d.proposal_id IN (SELECT proposal_id FROM proposal_files WHERE path IN (SELECT path FROM history_paths WHERE path GLOB ?))", glob)
	}
	if !f.Since.IsZero() {
		add("d.time >= ?", historyNanos(f.Since))
	}
	if !f.Until.IsZero() {
		add("d.time < ?", historyNanos(f.Until))
	}
	if before > 0 {
		add("d.id < ?", before)
	}
	if after > 0 {
		add("d.id > ?", after)
	}
	q := `SELECT 'decision', d.id, d.time, p.agent, p.session, d.proposal_id, d.decision, d.id, d.feedback, 0, '', ''
		FROM decisions d JOIN proposals p ON p.id = d.proposal_id WHERE ` + strings.Join(where, " AND ")
	return q + " ORDER BY d.id DESC LIMIT ?", append(args, limit)
}

// historyNanos is t as the journal stores times, clamped to what Unix
// nanoseconds in an int64 can hold (years 1678 to 2262).
func historyNanos(t time.Time) int64 {
	switch {
	case t.Before(time.Unix(0, math.MinInt64)):
		return math.MinInt64
	case t.After(time.Unix(0, math.MaxInt64)):
		return math.MaxInt64
	}
	return t.UnixNano()
}

// pathBaseSQL is a file row's base name (the text after its last '/'),
// as migration 9 indexes it: the same expression, or SQLite cannot use
// the index.
const pathBaseSQL = "substr(path, length(rtrim(path, replace(path, '/', ''))) + 1)"

// globBase returns the base name a GLOB pattern's files must have when
// its last element is plain text (*/dir/name.go: name.go), else "".
func globBase(glob string) string {
	base := glob[strings.LastIndexByte(glob, '/')+1:]
	if base == "" || strings.ContainsAny(base, "*?[") {
		return ""
	}
	return base
}

// historyGlob turns a Filter.File into an SQLite GLOB pattern, or
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
func (j *Journal) entryPaths(ctx context.Context, e Entry) ([]string, error) {
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

// historyCursor is where the next page starts in each of history's two
// streams: after the checkpoint (time, id) and below the decision id given
// (ids 0: from the newest).
type historyCursor struct {
	checkpointTime       int64 // Unix nanoseconds
	checkpoint, decision int64
}

// String encodes the cursor as "c<time>.<id>.d<id>".
func (c historyCursor) String() string {
	return fmt.Sprintf("c%d.%d.d%d", c.checkpointTime, c.checkpoint, c.decision)
}

var errBadCursor = errors.New("history: bad page cursor; pass Page.Next unchanged, or \"\" for the newest page")

func parseHistoryCursor(s string) (historyCursor, error) {
	if s == "" {
		return historyCursor{}, nil
	}
	var c historyCursor
	if n, err := fmt.Sscanf(s, "c%d.%d.d%d", &c.checkpointTime, &c.checkpoint, &c.decision); err != nil || n != 3 || c.checkpoint < 0 || c.decision < 0 {
		return historyCursor{}, fmt.Errorf("%w (got %q)", errBadCursor, s)
	}
	return c, nil
}
