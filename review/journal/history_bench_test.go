package journal

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/decision"
)

// Scale of the history benchmark: checkpoints over files, plus rejected
// proposals that wrote nothing.
const (
	benchCheckpoints = 100_000
	benchFiles       = 10_000
	benchRejections  = 10_000
)

// fillHistory journals benchCheckpoints one-file writes spread over
// benchFiles files (in 100 directories, half of them .go), by 5 agents in
// 50 sessions, one second apart, ending now; every tenth proposal is
// followed by a rejected one. It writes the rows directly, in one
// transaction, as BeginWrite and FinishWrite would leave them.
func fillHistory(b *testing.B, j *Journal) {
	ctx := context.Background()
	tx, err := j.db.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer tx.Rollback()
	prep := func(q string) *sql.Stmt {
		s, err := tx.Prepare(q)
		if err != nil {
			b.Fatal(err)
		}
		return s
	}
	blob := prep(`INSERT OR IGNORE INTO blobs(hash, size, codec, data) VALUES (?, ?, 'zstd', ?)`)
	session := prep(`INSERT OR IGNORE INTO sessions VALUES (?, ?, ?, ?)`)
	proposal := prep(`INSERT INTO proposals(id, agent, session, created, format, payload, status, updated) VALUES (?, ?, ?, ?, 'edit', ?, ?, ?)`)
	propFile := prep(`INSERT INTO proposal_files(proposal_id, path, root, base, proposed) VALUES (?, ?, '/w', ?, ?)`)
	decisionStmt := prep(`INSERT INTO decisions(proposal_id, decision, time) VALUES (?, ?, ?)`)
	decFile := prep(`INSERT INTO decision_files(decision_id, path, approved) VALUES (?, ?, ?)`)
	checkpoint := prep(`INSERT INTO checkpoints(kind, proposal_id, decision_id, agent, session, state, created, finished) VALUES ('write', ?, ?, ?, ?, 'written', ?, ?)`)
	cpFile := prep(`INSERT INTO checkpoint_files(checkpoint_id, path, root, before, after, final, state) VALUES (?, ?, '/w', ?, ?, ?, 'written')`)
	put := func(content string) string {
		h := atomicfile.Hash([]byte(content))
		if _, err := blob.Exec(h, len(content), j.codec.enc.EncodeAll([]byte(content), nil)); err != nil {
			b.Fatal(err)
		}
		return h
	}
	exec := func(s *sql.Stmt, args ...any) sql.Result {
		res, err := s.Exec(args...)
		if err != nil {
			b.Fatal(err)
		}
		return res
	}
	start := time.Now().Add(-time.Duration(benchCheckpoints+benchRejections) * time.Second).UnixNano()
	version := make([]string, benchFiles)
	t := start
	for i := range benchCheckpoints {
		f := i % benchFiles
		path := benchPath(f)
		agent := fmt.Sprint("agent", i%5)
		sess := fmt.Sprint("s", i%50)
		dec := decision.Approved
		switch i % 100 {
		case 7, 17, 27, 37, 47:
			dec = decision.ApprovedEdited
		case 9, 59, 99:
			dec = decision.Partial
		}
		if version[f] == "" {
			version[f] = put(path + " v0\n")
		}
		after := put(fmt.Sprintf("%s v%d\n", path, i))
		id := fmt.Sprint("p", i)
		t += int64(time.Second)
		exec(session, agent, sess, t, t)
		exec(proposal, id, agent, sess, t, after, "reported", t)
		exec(propFile, id, path, version[f], after)
		did, _ := exec(decisionStmt, id, dec, t).LastInsertId()
		exec(decFile, did, path, after)
		cid, _ := exec(checkpoint, id, did, agent, sess, t, t).LastInsertId()
		exec(cpFile, cid, path, version[f], after, after)
		version[f] = after
		if i%10 == 0 {
			rid := fmt.Sprint("r", i)
			t += int64(time.Second)
			exec(proposal, rid, agent, sess, t, after, "reported", t)
			exec(propFile, rid, path, version[f], after)
			exec(decisionStmt, rid, decision.Rejected, t)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	// A journal in use is checkpointed as it grows; one huge transaction
	// leaves its pages in the WAL until the next.
	for _, q := range []string{`ANALYZE`, `PRAGMA wal_checkpoint(TRUNCATE)`} {
		if _, err := j.db.ExecContext(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
}

// benchPath is the path of file f of the benchmark: 100 directories, even
// files .go, odd .ts.
func benchPath(f int) string {
	ext := ".go"
	if f%2 == 1 {
		ext = ".ts"
	}
	return fmt.Sprintf("/w/dir%d/file%d%s", f%100, f, ext)
}

// BenchmarkHistory100k works on a journal with 100,000 checkpoints over
// 10,000 files (plus 10,000 rejections): it lists the newest 100 history
// entries, unfiltered and with each filter deskctl history list offers
// (the target is 50 ms per listing), and dry-runs pruning the older half.
func BenchmarkHistory100k(b *testing.B) {
	ctx := context.Background()
	j, err := Open(ctx, filepath.Join(b.TempDir(), "journal.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	fillHistory(b, j)
	page, err := j.History(ctx, Filter{Limit: 1000})
	if err != nil {
		b.Fatal(err)
	}
	deep, err := j.History(ctx, Filter{Cursor: page.Next, Limit: 1})
	if err != nil {
		b.Fatal(err)
	}
	filters := []struct {
		name string
		f    Filter
	}{
		{"all", Filter{}},
		{"agent", Filter{Agent: "agent3"}},
		{"approved", Filter{Decision: string(decision.Approved)}},
		{"partial-3pct", Filter{Decision: string(decision.Partial)}},
		{"rejected", Filter{Decision: string(decision.Rejected)}},
		{"file-exact", Filter{File: benchPath(4242)}},
		{"file-glob-half", Filter{File: "*.go"}},
		{"file-glob-under-dir", Filter{File: "/w/dir42/*"}},
		{"file-glob-1pct", Filter{File: "dir42/*"}},
		{"file-glob-rare", Filter{File: "dir42/file4242.go"}},
		{"since-2h", Filter{Since: time.Now().Add(-2 * time.Hour)}},
		{"agent+decision+glob", Filter{Agent: "agent2", Decision: string(decision.ApprovedEdited), File: "*.ts"}},
		{"page-after-1000", Filter{Cursor: page.Next}},
		{"page-after-1000-agent", Filter{Cursor: deep.Next, Agent: "agent2"}},
		// The worst case: agent3 rejected nothing, so every decision is read.
		{"rejected-none-by-agent", Filter{Agent: "agent3", Decision: string(decision.Rejected)}},
	}
	for _, tt := range filters {
		b.Run("newest100/"+tt.name, func(b *testing.B) {
			tt.f.Limit = 100
			for b.Loop() {
				if _, err := j.History(ctx, tt.f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("prune-half-dry-run", func(b *testing.B) {
		age := time.Duration(benchCheckpoints+benchRejections) * time.Second / 2
		for b.Loop() {
			rep, err := j.Prune(ctx, RetentionPolicy{MaxAge: age}, true)
			if err != nil {
				b.Fatal(err)
			}
			if rep.Checkpoints < benchCheckpoints/3 {
				b.Fatalf("Prune(older than %v) = %+v; want about half the checkpoints", age, rep)
			}
		}
	})
}

// BenchmarkRestoreGrowth measures what a restore adds to the journal:
// restoring a 1 MiB file back and forth between two checkpointed versions
// stores no new content, only the restore's records.
func BenchmarkRestoreGrowth(b *testing.B) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "journal.db")
	j, err := Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	file := filepath.Join(b.TempDir(), "big.go")
	v0 := bigText(1<<20, 5)
	v1 := append(bytes.Clone(v0), "// one more line\n"...)
	if _, err := atomicfile.Save(file, v0, 0); err != nil {
		b.Fatal(err)
	}
	cp := historyWrite(b, j, "p", "bench", file, v1)
	size := func() int64 {
		if _, err := j.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
			b.Fatal(err)
		}
		info, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		return info.Size()
	}
	start := size()
	b.ResetTimer()
	for i := range b.N {
		target := RestoreBefore
		if i%2 == 1 {
			target = RestoreAfter
		}
		plan, err := j.PlanRestore(ctx, RestoreRequest{Checkpoint: cp, Target: target})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := j.ApplyRestore(ctx, plan); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(size()-start)/float64(b.N), "db-bytes/restore")
}
