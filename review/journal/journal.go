package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // pure-Go SQLite: deskctl builds with CGO_ENABLED=0

	"github.com/diffdesk/diffdesk/review/decision"
)

// journalBusyTimeout is how long (milliseconds) a journal statement waits
// for another process's write transaction before failing.
const journalBusyTimeout = 10000

// journalMaxConns is how many SQLite connections a Journal keeps open.
const journalMaxConns = 8

// Journal is DiffDesk's durable record: sessions, proposals, decisions,
// writes (checkpoints) with the content before and after, and outcomes,
// in one SQLite database in WAL mode with synchronous=FULL, so every
// method that returns nil has made its record survive a crash or power
// loss. Content lives in deduplicated, zstd-compressed blobs keyed by
// SHA-256. A Journal is safe for concurrent use; writes from one process
// are serialized in Go, writes from several processes by SQLite's lock
// with a busy timeout.
type Journal struct {
	db      *sql.DB
	path    string
	codec   *blobCodec
	writeMu sync.Mutex // held for each write transaction
}

// DefaultPath returns where the journal lives:
// $XDG_DATA_HOME/diffdesk/journal.db, or ~/.local/share/diffdesk/journal.db
// when XDG_DATA_HOME is unset or not absolute.
func DefaultPath() (string, error) {
	dir := os.Getenv("XDG_DATA_HOME")
	if !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("journal: no XDG_DATA_HOME and no home directory: %w; set XDG_DATA_HOME", err)
		}
		dir = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(dir, "diffdesk", "journal.db"), nil
}

// Open opens the journal at path, creating it (and its directory,
// 0700; the file is 0600 — it holds source code) if needed, and migrates
// its schema to the current version. A journal written by a newer DiffDesk
// is refused.
func Open(ctx context.Context, path string) (*Journal, error) {
	return openAt(ctx, path, len(journalMigrations))
}

// openAt opens the journal migrated to schema version (tests use it
// to make an old database).
func openAt(ctx context.Context, path string, version int) (*Journal, error) {
	if !filepath.IsAbs(path) {
		return nil, fmt.Errorf("journal %s: path must be absolute", path)
	}
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("journal %s: path must not contain '?' or '#'; choose another journal path", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("journal %s: create directory: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	f.Close()
	q := url.Values{}
	q.Set("_busy_timeout", fmt.Sprint(journalBusyTimeout))
	q.Set("_journal_mode", "WAL")
	q.Set("_synchronous", "FULL")
	q.Set("_foreign_keys", "1")
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	// Each connection has its own page cache; a few serve every reader
	// (WAL readers never block) and the one writer at a time.
	db.SetMaxOpenConns(journalMaxConns)
	db.SetMaxIdleConns(journalMaxConns)
	codec, err := newBlobCodec()
	if err != nil {
		db.Close()
		return nil, err
	}
	j := &Journal{db: db, path: path, codec: codec}
	var mode string
	if err := db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil {
		j.Close()
		return nil, fmt.Errorf("journal %s: not a usable SQLite database: %w", path, err)
	}
	if !strings.EqualFold(mode, "wal") {
		j.Close()
		return nil, fmt.Errorf("journal %s: journal_mode is %q, not WAL (is the file on a network file system?)", path, mode)
	}
	if err := migrateJournal(ctx, db, path, version); err != nil {
		j.Close()
		return nil, err
	}
	return j, nil
}

// Path returns the journal's database file.
func (j *Journal) Path() string { return j.path }

// Close closes the database. Calls still running may fail.
func (j *Journal) Close() error {
	err := j.db.Close()
	j.codec.close()
	if err != nil {
		return fmt.Errorf("journal %s: close: %w", j.path, err)
	}
	return nil
}

// write runs fn in one IMMEDIATE transaction, serialized with every other
// write of this Journal, and commits it durably. what names the operation
// in errors.
func (j *Journal) write(ctx context.Context, what string, fn func(tx *sql.Tx) error) error {
	j.writeMu.Lock()
	defer j.writeMu.Unlock()
	tx, err := j.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("journal %s: %s: begin: %w", j.path, what, err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return fmt.Errorf("journal %s: %s: %w", j.path, what, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("journal %s: %s: commit: %w", j.path, what, err)
	}
	return nil
}

// unixNano is t as the journal stores it; the zero time means now.
func unixNano(t time.Time) int64 {
	if t.IsZero() {
		t = time.Now()
	}
	return t.UnixNano()
}

// nullIfEmpty is s for a nullable column: "" becomes NULL (for a blob
// reference, "no file").
func nullIfEmpty(s string) sql.NullString {
	return sql.NullString{String: s, Valid: s != ""}
}

// TouchSession records that an agent's session was seen at t (zero: now),
// creating it on first sight.
func (j *Journal) TouchSession(ctx context.Context, agent, session string, t time.Time) error {
	return j.write(ctx, "record session "+agent+"/"+session, func(tx *sql.Tx) error {
		return touchSession(tx, agent, session, unixNano(t))
	})
}

func touchSession(tx *sql.Tx, agent, session string, at int64) error {
	_, err := tx.Exec(`INSERT INTO sessions(agent, session, first_seen, last_seen) VALUES (?, ?, ?, ?)
		ON CONFLICT(agent, session) DO UPDATE SET
			first_seen = min(first_seen, excluded.first_seen),
			last_seen = max(last_seen, excluded.last_seen)`,
		agent, session, at, at)
	return err
}

// ProposalRecord is a proposal as the journal keeps it.
type ProposalRecord struct {
	ID      string
	Agent   string
	Session string
	Created time.Time // zero: now
	Format  string    // the engine edit format
	Payload []byte    // the edit as the agent sent it
	Status  string    // lifecycle state, e.g. "pending" or "failed"
	Reason  string    // failure text or other explanation; may be ""
	Files   []ProposalFileRecord
}

// ProposalFileRecord is one file of a proposal.
type ProposalFileRecord struct {
	Path       string // absolute
	Root       string // the workspace root holding Path
	BaseExists bool   // false: the file did not exist; Base is ignored
	Base       []byte // the file's content when the proposal arrived
	Delete     bool   // the proposal deletes the file; Proposed is ignored
	Proposed   []byte // the proposed content
}

// RecordProposal journals a proposal, its files' base and proposed content,
// and its session. Recording the same id again replaces its status, reason
// and files (a streamed proposal is recorded when complete, or again if it
// is re-proposed).
func (j *Journal) RecordProposal(ctx context.Context, p ProposalRecord) error {
	if p.ID == "" {
		return fmt.Errorf("journal %s: record proposal: empty id", j.path)
	}
	var batch blobBatch
	var err error
	type fileRow struct{ path, root, base, proposed string }
	rows := make([]fileRow, 0, len(p.Files))
	var firstBase []byte // the payload is often a whole file, or close to one
	for i, f := range p.Files {
		row := fileRow{path: f.Path, root: f.Root}
		var baseContent []byte
		if f.BaseExists {
			baseContent = f.Base
			if baseContent == nil {
				baseContent = []byte{}
			}
			if row.base, err = batch.add(ctx, j, baseContent, nil); err != nil {
				return err
			}
		}
		if !f.Delete {
			if row.proposed, err = batch.add(ctx, j, f.Proposed, baseContent); err != nil {
				return err
			}
		}
		if i == 0 {
			firstBase = baseContent
		}
		rows = append(rows, row)
	}
	payload, err := batch.add(ctx, j, p.Payload, firstBase)
	if err != nil {
		return err
	}
	created := unixNano(p.Created)
	return j.write(ctx, "record proposal "+p.ID, func(tx *sql.Tx) error {
		if err := batch.insert(tx); err != nil {
			return err
		}
		if err := touchSession(tx, p.Agent, p.Session, created); err != nil {
			return err
		}
		_, err := tx.Exec(`INSERT INTO proposals(id, agent, session, created, format, payload, status, reason, updated)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT(id) DO UPDATE SET status = excluded.status, reason = excluded.reason,
				payload = excluded.payload, updated = excluded.updated`,
			p.ID, p.Agent, p.Session, created, p.Format, payload, p.Status, p.Reason, time.Now().UnixNano())
		if err != nil {
			return err
		}
		if _, err := tx.Exec(`DELETE FROM proposal_files WHERE proposal_id = ?`, p.ID); err != nil {
			return err
		}
		for _, r := range rows {
			_, err := tx.Exec(`INSERT INTO proposal_files(proposal_id, path, root, base, proposed) VALUES (?, ?, ?, ?, ?)`,
				p.ID, r.path, r.root, nullIfEmpty(r.base), nullIfEmpty(r.proposed))
			if err != nil {
				return fmt.Errorf("file %s: %w", r.path, err)
			}
		}
		return nil
	})
}

// SetProposalStatus records a proposal's new lifecycle state and reason
// (e.g. "stale" with what changed); a reason of "" keeps the previous one.
func (j *Journal) SetProposalStatus(ctx context.Context, id, status, reason string) error {
	return j.write(ctx, "set status of proposal "+id, func(tx *sql.Tx) error {
		return setProposalStatus(tx, id, status, reason)
	})
}

func setProposalStatus(tx *sql.Tx, id, status, reason string) error {
	res, err := tx.Exec(`UPDATE proposals SET status = ?, reason = coalesce(?, reason), updated = ? WHERE id = ?`,
		status, nullIfEmpty(reason), time.Now().UnixNano(), id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("proposal %s: %w", id, ErrNotJournaled)
	}
	return nil
}

// ErrNotJournaled is wrapped by errors about a proposal or checkpoint the
// journal has no record of.
var ErrNotJournaled = errors.New("not in the journal")

// DecisionRecord is what was decided about a proposal.
type DecisionRecord struct {
	ProposalID string
	Decision   decision.Verdict
	Time       time.Time          // zero: now
	Feedback   string             // the reason or note the person typed
	Hunks      []string           // accepted hunk ids (Decision partial)
	Comments   []decision.Comment // the person's line comments, quotes filled in
	// Seen says per hunk of the proposal's files whether the person had
	// it on screen; nil: not tracked (stored as NULL, unlike an empty
	// list: tracked, no hunks).
	Seen []decision.HunkSeen
	// By is who decided: "user@host" of the person, or the rule (ByRule);
	// "" when no one did (a failure, a withdrawal).
	By string
	// ByRule says By names a rule, not a person: kept apart, in a column
	// of its own, so no name a person gives reads as a rule.
	ByRule bool
	Files  []DecisionFile
}

// DecisionFile is the approved content of one file.
type DecisionFile struct {
	Path     string
	Delete   bool   // the approved change deletes the file
	Approved []byte // the approved content (the person's edits and accepted hunks applied)
}

// RecordDecision journals a decision and the approved content of each
// file, and sets the proposal's status to the decision. It returns the
// decision's id. The proposal must have been recorded.
func (j *Journal) RecordDecision(ctx context.Context, d DecisionRecord) (int64, error) {
	if !d.Decision.Valid() {
		return 0, fmt.Errorf("journal %s: record decision on %s: unknown verdict %q (want one of %v)",
			j.path, d.ProposalID, d.Decision, decision.Verdicts())
	}
	hunks, err := json.Marshal(nonNil(d.Hunks))
	if err != nil {
		return 0, fmt.Errorf("journal %s: record decision on %s: %w", j.path, d.ProposalID, err)
	}
	comments, err := json.Marshal(nonNil(d.Comments))
	if err != nil {
		return 0, fmt.Errorf("journal %s: record decision on %s: %w", j.path, d.ProposalID, err)
	}
	var seen sql.NullString
	if d.Seen != nil {
		b, err := json.Marshal(d.Seen)
		if err != nil {
			return 0, fmt.Errorf("journal %s: record decision on %s: %w", j.path, d.ProposalID, err)
		}
		seen = sql.NullString{String: string(b), Valid: true}
	}
	proposed, err := j.proposedHashes(ctx, d.ProposalID)
	if err != nil {
		return 0, err
	}
	var batch blobBatch
	approved := make([]string, len(d.Files))
	for i, f := range d.Files {
		if f.Delete {
			continue
		}
		if approved[i], err = batch.addOnto(ctx, j, f.Approved, proposed[f.Path]); err != nil {
			return 0, err
		}
	}
	var id int64
	err = j.write(ctx, "record decision on "+d.ProposalID, func(tx *sql.Tx) error {
		if err := batch.insert(tx); err != nil {
			return err
		}
		if err := setProposalStatus(tx, d.ProposalID, string(d.Decision), d.Feedback); err != nil {
			return err
		}
		res, err := tx.Exec(`INSERT INTO decisions(proposal_id, decision, time, feedback, hunks, comments, seen, decided_by, decided_by_rule) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			d.ProposalID, d.Decision, unixNano(d.Time), d.Feedback, string(hunks), string(comments), seen, d.By, d.ByRule)
		if err != nil {
			return err
		}
		if id, err = res.LastInsertId(); err != nil {
			return err
		}
		for i, f := range d.Files {
			if _, err := tx.Exec(`INSERT INTO decision_files(decision_id, path, approved) VALUES (?, ?, ?)`,
				id, f.Path, nullIfEmpty(approved[i])); err != nil {
				return fmt.Errorf("file %s: %w", f.Path, err)
			}
		}
		return nil
	})
	return id, err
}

// proposedHashes returns the proposed content's hash of each file of a
// proposal that has some, by path: the base for delta-compressing approved
// content.
func (j *Journal) proposedHashes(ctx context.Context, proposalID string) (map[string]string, error) {
	rows, err := j.db.QueryContext(ctx,
		`SELECT path, proposed FROM proposal_files WHERE proposal_id = ? AND proposed IS NOT NULL`, proposalID)
	if err != nil {
		return nil, fmt.Errorf("journal %s: read proposal %s: %w", j.path, proposalID, err)
	}
	defer rows.Close()
	hashes := map[string]string{}
	for rows.Next() {
		var path, hash string
		if err := rows.Scan(&path, &hash); err != nil {
			return nil, fmt.Errorf("journal %s: read proposal %s: %w", j.path, proposalID, err)
		}
		hashes[path] = hash
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("journal %s: read proposal %s: %w", j.path, proposalID, err)
	}
	return hashes, nil
}

// RecordOutcome journals the outcome JSON reported to the proposal's agent
// at t (zero: now) and sets the proposal's status to "reported". Record it
// before sending it: what the agent was told is then always on record.
func (j *Journal) RecordOutcome(ctx context.Context, proposalID string, outcomeJSON []byte, t time.Time) error {
	if !json.Valid(outcomeJSON) {
		return fmt.Errorf("journal %s: record outcome of %s: not valid JSON", j.path, proposalID)
	}
	return j.write(ctx, "record outcome of "+proposalID, func(tx *sql.Tx) error {
		if err := setProposalStatus(tx, proposalID, "reported", ""); err != nil {
			return err
		}
		_, err := tx.Exec(`INSERT INTO outcomes(proposal_id, json, reported) VALUES (?, ?, ?)
			ON CONFLICT(proposal_id) DO UPDATE SET json = excluded.json, reported = excluded.reported`,
			proposalID, string(outcomeJSON), unixNano(t))
		return err
	})
}

// nonNil returns s, or an empty slice for nil (JSON "[]", not "null").
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
