package journal

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/diffdesk/diffdesk/review/atomicfile"
)

// RetentionPolicy says how much history the journal keeps. The zero
// policy keeps everything, which is the default.
type RetentionPolicy struct {
	// MaxAge prunes history entries older than this; 0 keeps every age.
	MaxAge time.Duration
	// MaxBytes prunes the oldest entries until the stored (compressed)
	// content is at most this many bytes; 0 sets no limit.
	MaxBytes int64
}

// PruneReport is what Journal.Prune removed (or, in a dry run, would).
type PruneReport struct {
	DryRun      bool
	Cutoff      time.Time // entries before this were pruned; zero if none
	Checkpoints int       // checkpoints removed
	Decisions   int       // decisions removed
	Proposals   int       // proposals removed, with their files and outcomes
	Blobs       int       // content blobs no longer referenced, removed
	BlobBytes   int64     // their stored (compressed) bytes
	// Rebased counts kept blobs that were stored as a delta against a
	// removed blob and are now stored in full, so nothing kept depends on
	// removed content.
	Rebased     int
	StoredBytes int64 // stored content bytes left afterwards
}

// pruneBatchDiv sets how much of the remaining history one step of a size
// prune removes: about 1/pruneBatchDiv of it.
const pruneBatchDiv = 8

// Prune removes history the policy does not keep, oldest first, in one
// transaction: checkpoints settled before the cutoff; decisions, and
// proposals no longer open, from before it that nothing kept refers to; then
// every blob nothing kept refers to. A kept blob stored as a delta against
// a removed one is first stored in full, so kept content never breaks.
// Writes still intended, open proposals, and anything they refer to are
// never removed. With dryRun it reports the same figures and rolls back.
// The database file does not shrink (SQLite reuses the freed pages); run
// VACUUM for that.
//
// Foreign keys are checked once, over the whole journal, before commit
// (PRAGMA foreign_key_check) rather than row by row: most referencing
// columns have no index, and per-row checks made pruning 100,000
// checkpoints take many minutes. A dangling reference aborts the prune.
func (j *Journal) Prune(ctx context.Context, p RetentionPolicy, dryRun bool) (PruneReport, error) {
	rep := PruneReport{DryRun: dryRun}
	fail := func(err error) (PruneReport, error) {
		return rep, fmt.Errorf("journal %s: prune: %w", j.path, err)
	}
	j.writeMu.Lock()
	defer j.writeMu.Unlock()
	conn, err := j.db.Conn(ctx)
	if err != nil {
		return fail(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA foreign_keys = OFF`); err != nil {
		return fail(err)
	}
	// The connection goes back to the pool with its checks on again.
	defer conn.ExecContext(context.WithoutCancel(ctx), `PRAGMA foreign_keys = ON`)
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fail(fmt.Errorf("begin: %w", err))
	}
	defer tx.Rollback()
	if p.MaxAge > 0 {
		rep.Cutoff = time.Now().Add(-p.MaxAge)
		if err := pruneBefore(tx, rep.Cutoff, &rep); err != nil {
			return fail(err)
		}
	}
	if err := j.collectBlobs(ctx, tx, &rep); err != nil {
		return fail(err)
	}
	for p.MaxBytes > 0 && rep.StoredBytes > p.MaxBytes {
		cutoff, ok, err := nextPruneCutoff(tx)
		if err != nil {
			return fail(err)
		}
		if !ok {
			break // nothing prunable is left
		}
		rep.Cutoff = cutoff
		if err := pruneBefore(tx, cutoff, &rep); err != nil {
			return fail(err)
		}
		if err := j.collectBlobs(ctx, tx, &rep); err != nil {
			return fail(err)
		}
	}
	if err := checkForeignKeys(tx); err != nil {
		return fail(err)
	}
	if dryRun {
		return rep, nil
	}
	if err := tx.Commit(); err != nil {
		return fail(fmt.Errorf("commit: %w", err))
	}
	return rep, nil
}

// checkForeignKeys fails if any record refers to one that is gone.
func checkForeignKeys(tx *sql.Tx) error {
	rows, err := tx.Query(`PRAGMA foreign_key_check`)
	if err != nil {
		return err
	}
	defer rows.Close()
	if rows.Next() {
		var table, parent string
		var rowid sql.NullInt64
		var fk int
		if err := rows.Scan(&table, &rowid, &parent, &fk); err != nil {
			return err
		}
		return fmt.Errorf("nothing pruned: a %s row (rowid %d) would refer to a removed %s row; please report this journal bug", table, rowid.Int64, parent)
	}
	return rows.Err()
}

// nextPruneCutoff returns a time before which about 1/pruneBatchDiv of
// the prunable history lies; ok is false when nothing prunable is left.
func nextPruneCutoff(tx *sql.Tx) (time.Time, bool, error) {
	var n int64
	err := tx.QueryRow(`SELECT (SELECT count(*) FROM checkpoints WHERE state != 'intended') +
		(SELECT count(*) FROM decisions d WHERE ` + silentDecisionsSQL + `)`).Scan(&n)
	if err != nil || n == 0 {
		return time.Time{}, false, err
	}
	var t int64
	err = tx.QueryRow(`SELECT t FROM (SELECT created AS t FROM checkpoints WHERE state != 'intended'
		UNION ALL SELECT d.time FROM decisions d WHERE `+silentDecisionsSQL+`)
		ORDER BY t LIMIT 1 OFFSET ?`, min(n-1, n/pruneBatchDiv)).Scan(&t)
	if err != nil {
		return time.Time{}, false, err
	}
	return time.Unix(0, t+1), true, nil
}

// pruneBefore removes the records before cutoff that nothing kept refers
// to, counting them in rep. Blobs are left to collectBlobs.
func pruneBefore(tx *sql.Tx, cutoff time.Time, rep *PruneReport) error {
	t := cutoff.UnixNano()
	const doomedCheckpoints = `SELECT id FROM checkpoints WHERE created < ?1 AND state != 'intended'`
	steps := []struct {
		q     string
		count *int
	}{
		// A kept restore forgets the id of a removed checkpoint it went
		// back to (its note still names it).
		{`UPDATE checkpoints SET restored_from = NULL WHERE restored_from IN (` + doomedCheckpoints + `)
			AND id NOT IN (` + doomedCheckpoints + `)`, nil},
		{`DELETE FROM checkpoint_files WHERE checkpoint_id IN (` + doomedCheckpoints + `)`, nil},
		{`DELETE FROM checkpoints WHERE created < ?1 AND state != 'intended'`, &rep.Checkpoints},
		{`DELETE FROM decision_files WHERE decision_id IN (SELECT id FROM decisions WHERE time < ?1
			AND id NOT IN (SELECT decision_id FROM checkpoints WHERE decision_id IS NOT NULL))`, nil},
		{`DELETE FROM decisions WHERE time < ?1
			AND id NOT IN (SELECT decision_id FROM checkpoints WHERE decision_id IS NOT NULL)`, &rep.Decisions},
	}
	const doomedProposals = `SELECT id FROM proposals WHERE updated < ?1
		AND status NOT IN ('streaming','pending','stale','decided')
		AND id NOT IN (SELECT proposal_id FROM decisions)
		AND id NOT IN (SELECT proposal_id FROM checkpoints WHERE proposal_id IS NOT NULL)`
	steps = append(steps, []struct {
		q     string
		count *int
	}{
		{`DELETE FROM outcomes WHERE proposal_id IN (` + doomedProposals + `)`, nil},
		{`DELETE FROM proposal_files WHERE proposal_id IN (` + doomedProposals + `)`, nil},
		{`DELETE FROM proposals WHERE id IN (` + doomedProposals + `)`, &rep.Proposals},
		{`DELETE FROM sessions WHERE last_seen < ?1 AND NOT EXISTS
			(SELECT 1 FROM proposals p WHERE p.agent = sessions.agent AND p.session = sessions.session)`, nil},
	}...)
	for _, s := range steps {
		res, err := tx.Exec(s.q, t)
		if err != nil {
			return err
		}
		if s.count != nil {
			n, _ := res.RowsAffected()
			*s.count += int(n)
		}
	}
	return nil
}

// liveBlobsSQL selects every blob hash a record refers to.
const liveBlobsSQL = `SELECT payload FROM proposals WHERE payload IS NOT NULL
	UNION SELECT base FROM proposal_files WHERE base IS NOT NULL
	UNION SELECT proposed FROM proposal_files WHERE proposed IS NOT NULL
	UNION SELECT approved FROM decision_files WHERE approved IS NOT NULL
	UNION SELECT before FROM checkpoint_files WHERE before IS NOT NULL
	UNION SELECT after FROM checkpoint_files WHERE after IS NOT NULL
	UNION SELECT formatted FROM checkpoint_files WHERE formatted IS NOT NULL
	UNION SELECT final FROM checkpoint_files WHERE final IS NOT NULL`

// collectBlobs removes the blobs no record refers to, first storing in
// full each kept blob whose delta base is removed, and sets
// rep.StoredBytes.
func (j *Journal) collectBlobs(ctx context.Context, tx *sql.Tx, rep *PruneReport) error {
	if _, err := tx.Exec(`CREATE TEMP TABLE IF NOT EXISTS prune_live(hash TEXT PRIMARY KEY) WITHOUT ROWID`); err != nil {
		return err
	}
	defer tx.Exec(`DROP TABLE IF EXISTS temp.prune_live`)
	if _, err := tx.Exec(`DELETE FROM temp.prune_live`); err != nil {
		return err
	}
	if _, err := tx.Exec(`INSERT INTO temp.prune_live ` + liveBlobsSQL); err != nil {
		return err
	}
	orphans, err := orphanedDeltas(tx)
	if err != nil {
		return err
	}
	for _, hash := range orphans {
		content, err := j.txBlob(ctx, tx, hash)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(`UPDATE blobs SET codec = ?, data = ?, base = NULL, depth = 0 WHERE hash = ?`,
			codecZstd, j.codec.enc.EncodeAll(content, nil), hash); err != nil {
			return fmt.Errorf("store blob %s in full: %w", hash, err)
		}
		rep.Rebased++
	}
	var n, bytes int64
	if err := tx.QueryRow(`SELECT count(*), coalesce(sum(length(data)), 0) FROM blobs
		WHERE hash NOT IN (SELECT hash FROM temp.prune_live)`).Scan(&n, &bytes); err != nil {
		return err
	}
	if _, err := tx.Exec(`DELETE FROM blobs WHERE hash NOT IN (SELECT hash FROM temp.prune_live)`); err != nil {
		return err
	}
	rep.Blobs += int(n)
	rep.BlobBytes += bytes
	return tx.QueryRow(`SELECT coalesce(sum(length(data)), 0) FROM blobs`).Scan(&rep.StoredBytes)
}

// orphanedDeltas returns the kept blobs stored as deltas against blobs
// that are not kept.
func orphanedDeltas(tx *sql.Tx) ([]string, error) {
	rows, err := tx.Query(`SELECT b.hash FROM blobs b JOIN temp.prune_live l ON l.hash = b.hash
		WHERE b.base IS NOT NULL AND b.base NOT IN (SELECT hash FROM temp.prune_live)`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// txBlob reads a blob inside tx, whose changes (blobs already stored in
// full) another connection would not see.
func (j *Journal) txBlob(ctx context.Context, tx *sql.Tx, hash string) ([]byte, error) {
	var size int64
	var codec string
	var data []byte
	var base sql.NullString
	if err := tx.QueryRowContext(ctx, `SELECT size, codec, data, base FROM blobs WHERE hash = ?`, hash).
		Scan(&size, &codec, &data, &base); err != nil {
		return nil, fmt.Errorf("read blob %s: %w", hash, err)
	}
	var content []byte
	var err error
	switch codec {
	case codecZstd:
		content, err = j.codec.dec.DecodeAll(data, make([]byte, 0, size))
	case codecZstdDelta:
		var baseContent []byte
		if baseContent, err = j.txBlob(ctx, tx, base.String); err == nil {
			content, err = decodeDelta(data, baseContent, size)
		}
	default:
		err = fmt.Errorf("unknown codec %q", codec)
	}
	if err != nil {
		return nil, fmt.Errorf("decode blob %s: %w", hash, err)
	}
	if atomicfile.Hash(content) != hash {
		return nil, fmt.Errorf("blob %s is corrupt: content does not match its hash", hash)
	}
	return content, nil
}
