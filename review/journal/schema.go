package journal

import (
	"context"
	"database/sql"
	"fmt"
)

// journalMigrations are the journal's schema changes in order; after
// migration i has run, PRAGMA user_version is i+1. Append only: a released
// migration is never edited, because databases out there have run it.
//
// Times are INTEGER Unix nanoseconds (UTC). Content is referred to by the
// lowercase hex SHA-256 of its bytes (blobs.hash); NULL where a hash is
// expected means "no file" (missing before, deleted after).
var journalMigrations = []string{
	// 1: the records the desk acknowledges — blobs, sessions, proposals,
	// decisions, writes (checkpoints) and outcomes.
	`
CREATE TABLE blobs (
	hash  TEXT PRIMARY KEY,        -- SHA-256 of the raw content, hex
	size  INTEGER NOT NULL,        -- raw content length in bytes
	codec TEXT NOT NULL,           -- 'zstd'
	data  BLOB NOT NULL            -- the content, encoded by codec
); -- a rowid table: rows are large, which WITHOUT ROWID handles badly

CREATE TABLE sessions (
	agent      TEXT NOT NULL,
	session    TEXT NOT NULL,
	first_seen INTEGER NOT NULL,
	last_seen  INTEGER NOT NULL,
	PRIMARY KEY (agent, session)
) WITHOUT ROWID;

CREATE TABLE proposals (
	id       TEXT PRIMARY KEY,
	agent    TEXT NOT NULL,
	session  TEXT NOT NULL,
	created  INTEGER NOT NULL,
	format   TEXT NOT NULL,        -- engine edit format name
	payload  TEXT REFERENCES blobs(hash), -- the edit as the agent sent it
	status   TEXT NOT NULL,        -- latest lifecycle state
	reason   TEXT NOT NULL DEFAULT '', -- failure text, rejection reason or feedback
	updated  INTEGER NOT NULL
);

CREATE TABLE proposal_files (
	proposal_id TEXT NOT NULL REFERENCES proposals(id),
	path        TEXT NOT NULL,     -- absolute
	root        TEXT NOT NULL,     -- workspace root the path is inside
	base        TEXT REFERENCES blobs(hash),     -- NULL: file was missing
	proposed    TEXT REFERENCES blobs(hash),     -- NULL: proposal deletes it
	PRIMARY KEY (proposal_id, path)
);

CREATE TABLE decisions (
	id          INTEGER PRIMARY KEY AUTOINCREMENT,
	proposal_id TEXT NOT NULL REFERENCES proposals(id),
	decision    TEXT NOT NULL CHECK (decision IN ('approved','approved-edited','partial','rejected','withdrawn','failed','stale')),
	time        INTEGER NOT NULL,
	feedback    TEXT NOT NULL DEFAULT '',
	hunks       TEXT NOT NULL DEFAULT '[]'  -- JSON array of accepted hunk ids
);

CREATE TABLE decision_files (
	decision_id INTEGER NOT NULL REFERENCES decisions(id),
	path        TEXT NOT NULL,
	approved    TEXT REFERENCES blobs(hash), -- NULL: approved deletion
	PRIMARY KEY (decision_id, path)
);

CREATE TABLE checkpoints (
	id            INTEGER PRIMARY KEY AUTOINCREMENT,
	kind          TEXT NOT NULL CHECK (kind IN ('write','restore')),
	proposal_id   TEXT REFERENCES proposals(id), -- NULL for a restore
	decision_id   INTEGER REFERENCES decisions(id),
	restored_from INTEGER REFERENCES checkpoints(id),
	agent         TEXT NOT NULL,
	session       TEXT NOT NULL,
	note          TEXT NOT NULL DEFAULT '',
	state         TEXT NOT NULL CHECK (state IN ('intended','written','interrupted','conflicted')),
	created       INTEGER NOT NULL,
	finished      INTEGER          -- NULL while intended
);

CREATE TABLE checkpoint_files (
	checkpoint_id INTEGER NOT NULL REFERENCES checkpoints(id),
	path          TEXT NOT NULL,
	root          TEXT NOT NULL,
	before        TEXT REFERENCES blobs(hash), -- NULL: file was missing
	after         TEXT REFERENCES blobs(hash), -- NULL: write deletes it
	formatted     TEXT REFERENCES blobs(hash), -- formatter output; NULL: none
	final         TEXT REFERENCES blobs(hash), -- content on disk when settled; NULL: no file, or still intended
	created_dirs  TEXT NOT NULL DEFAULT '[]',  -- JSON array of directories the write created
	state         TEXT NOT NULL CHECK (state IN ('intended','written','interrupted','conflicted')),
	PRIMARY KEY (checkpoint_id, path)
);

CREATE TABLE outcomes (
	proposal_id TEXT PRIMARY KEY REFERENCES proposals(id),
	json        TEXT NOT NULL,
	reported    INTEGER NOT NULL
);
`,
	// 2: delta blobs — a blob may be stored as a zstd frame that uses
	// another blob's content as its dictionary, so a small edit to a large
	// file costs roughly the size of the edit.
	`
ALTER TABLE blobs ADD COLUMN base TEXT REFERENCES blobs(hash); -- codec 'zstd-delta': dictionary blob
ALTER TABLE blobs ADD COLUMN depth INTEGER NOT NULL DEFAULT 0; -- delta chain length to a full blob
`,
	// 3: indexes for browsing history by time, agent, file and decision.
	`
CREATE INDEX checkpoints_created ON checkpoints(created DESC, id DESC);
CREATE INDEX checkpoints_agent ON checkpoints(agent, created DESC);
CREATE INDEX checkpoints_state ON checkpoints(state) WHERE state = 'intended';
CREATE INDEX checkpoint_files_path ON checkpoint_files(path, checkpoint_id DESC);
CREATE INDEX proposals_session ON proposals(agent, session, created DESC);
CREATE INDEX proposal_files_path ON proposal_files(path);
CREATE INDEX decisions_proposal ON decisions(proposal_id, id DESC);
`,
	// 4: the person's line comments, kept with the decision they came with.
	`
ALTER TABLE decisions ADD COLUMN comments TEXT NOT NULL DEFAULT '[]'; -- JSON array of Comment, quotes included
`,
	// 5: per hunk, whether the person had it on screen before deciding.
	`
ALTER TABLE decisions ADD COLUMN seen TEXT; -- NULL: not tracked; else JSON array of HunkSeen, one per hunk of the proposal's files
`,
	// 6: who decided: the person's user and host (a window on another
	// machine names its own), or the rule.
	`
ALTER TABLE decisions ADD COLUMN decided_by TEXT NOT NULL DEFAULT ''; -- '' for a journal older than this, a failure or a withdrawal
`,
	// 7: the verdict approved-overwrite (a stale proposal written as
	// proposed over someone else's change, because a person asked), which
	// the decision column's CHECK must allow: the table is rebuilt (SQLite
	// cannot alter a CHECK), with foreign keys off (migrateJournal); and
	// the checkpoints of a decision found by index (an approval whose
	// agent writes the file has none: history lists it as a decision).
	`
CREATE TABLE decisions_v7 (
	id          INTEGER PRIMARY KEY AUTOINCREMENT,
	proposal_id TEXT NOT NULL REFERENCES proposals(id),
	decision    TEXT NOT NULL CHECK (decision IN ('approved','approved-edited','partial','approved-overwrite','rejected','withdrawn','failed','stale')),
	time        INTEGER NOT NULL,
	feedback    TEXT NOT NULL DEFAULT '',
	hunks       TEXT NOT NULL DEFAULT '[]',
	comments    TEXT NOT NULL DEFAULT '[]',
	seen        TEXT,
	decided_by  TEXT NOT NULL DEFAULT ''
);
INSERT INTO decisions_v7 (id, proposal_id, decision, time, feedback, hunks, comments, seen, decided_by)
	SELECT id, proposal_id, decision, time, feedback, hunks, comments, seen, decided_by FROM decisions;
DROP TABLE decisions;
ALTER TABLE decisions_v7 RENAME TO decisions;
CREATE INDEX decisions_proposal ON decisions(proposal_id, id DESC);
CREATE INDEX checkpoints_decision ON checkpoints(decision_id);
`,
	// 8: whether a rule or a person decided, in a column of its own: a
	// person whose name began "rule: " read as a rule's decision when the
	// prefix said it. Rows written before keep that reading, once.
	`
ALTER TABLE decisions ADD COLUMN decided_by_rule INTEGER NOT NULL DEFAULT 0; -- 1: decided_by names a rule; 0: a person, or no one
UPDATE decisions SET decided_by_rule = 1, decided_by = substr(decided_by, 7) WHERE decided_by LIKE 'rule: %';
`,
	// 9: the files' base names indexed (the expression is pathBaseSQL's):
	// history list --file dir/name.go, a pattern matched at any depth,
	// read every file row the journal ever held.
	`
CREATE INDEX checkpoint_files_base ON checkpoint_files(substr(path, length(rtrim(path, replace(path, '/', ''))) + 1));
CREATE INDEX proposal_files_base ON proposal_files(substr(path, length(rtrim(path, replace(path, '/', ''))) + 1));
`,
	// 10: every path the file rows hold, once: a --file pattern whose last
	// element is a wildcard (dir42/*) is matched against the distinct paths
	// (thousands), not against every file row (one per write: hundreds of
	// thousands), and the rows then found by the path index. Triggers keep
	// it: a path is added with its first row and dropped with its last.
	`
CREATE TABLE history_paths (path TEXT PRIMARY KEY) WITHOUT ROWID;
INSERT OR IGNORE INTO history_paths SELECT DISTINCT path FROM checkpoint_files;
INSERT OR IGNORE INTO history_paths SELECT DISTINCT path FROM proposal_files;
CREATE TRIGGER checkpoint_files_path_add AFTER INSERT ON checkpoint_files
	BEGIN INSERT OR IGNORE INTO history_paths VALUES (NEW.path); END;
CREATE TRIGGER proposal_files_path_add AFTER INSERT ON proposal_files
	BEGIN INSERT OR IGNORE INTO history_paths VALUES (NEW.path); END;
CREATE TRIGGER checkpoint_files_path_drop AFTER DELETE ON checkpoint_files
	BEGIN DELETE FROM history_paths WHERE path = OLD.path
		AND NOT EXISTS (SELECT 1 FROM checkpoint_files WHERE path = OLD.path)
		AND NOT EXISTS (SELECT 1 FROM proposal_files WHERE path = OLD.path); END;
CREATE TRIGGER proposal_files_path_drop AFTER DELETE ON proposal_files
	BEGIN DELETE FROM history_paths WHERE path = OLD.path
		AND NOT EXISTS (SELECT 1 FROM checkpoint_files WHERE path = OLD.path)
		AND NOT EXISTS (SELECT 1 FROM proposal_files WHERE path = OLD.path); END;
`,
}

// migrateJournal brings db up to schema version target (at most
// len(journalMigrations)) in one IMMEDIATE transaction, so two processes
// opening the same journal at once cannot both migrate it. A database
// newer than this build is refused rather than guessed at.
//
// The migrations run on one connection with foreign keys off, as SQLite's
// way of rebuilding a table asks (migration 7), and checked before commit.
func migrateJournal(ctx context.Context, db *sql.DB, path string, target int) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("journal %s: migrate: %w", path, err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA foreign_keys = OFF`); err != nil {
		return fmt.Errorf("journal %s: migrate: %w", path, err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `PRAGMA foreign_keys = ON`)
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("journal %s: migrate: %w", path, err)
	}
	defer tx.Rollback()
	var version int
	if err := tx.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version); err != nil {
		return fmt.Errorf("journal %s: read schema version: %w", path, err)
	}
	if version > len(journalMigrations) {
		return fmt.Errorf("journal %s: schema version %d is newer than this DiffDesk understands (%d); upgrade DiffDesk or use another journal path", path, version, len(journalMigrations))
	}
	for v := version; v < target; v++ {
		if _, err := tx.ExecContext(ctx, journalMigrations[v]); err != nil {
			return fmt.Errorf("journal %s: migration %d: %w", path, v+1, err)
		}
	}
	if target > version {
		if err := foreignKeysHold(ctx, tx); err != nil {
			return fmt.Errorf("journal %s: migrate: %w", path, err)
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, target)); err != nil {
			return fmt.Errorf("journal %s: set schema version %d: %w", path, target, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("journal %s: migrate: commit: %w", path, err)
	}
	return nil
}

// foreignKeysHold checks what the migrations did with foreign keys off.
func foreignKeysHold(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `PRAGMA foreign_key_check`)
	if err != nil {
		return err
	}
	defer rows.Close()
	if rows.Next() {
		var table string
		var rowid sql.NullInt64
		var parent string
		var fk int
		if err := rows.Scan(&table, &rowid, &parent, &fk); err != nil {
			return err
		}
		return fmt.Errorf("a row of %s (rowid %d) refers to a missing row of %s", table, rowid.Int64, parent)
	}
	return rows.Err()
}
