package journal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/decision"
)

func openTestJournal(t *testing.T) *Journal {
	t.Helper()
	j, err := Open(context.Background(), filepath.Join(t.TempDir(), "data", "journal.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j
}

// bigText returns about n bytes of source-like text (compressing about 4x
// with zstd, like real code), the same for the same seed.
func bigText(n, seed int) []byte {
	var b bytes.Buffer
	r := rand.New(rand.NewPCG(uint64(seed), 1))
	words := []string{"func", "return", "err", "nil", "if", "for", "range", "ctx", "journal", "path",
		"content", "hash", "proposal", "desk", "file", "write", "state", "agent", "session", "blob"}
	word := func() string { return words[r.IntN(len(words))] }
	for b.Len() < n {
		fmt.Fprintf(&b, "%s%s := %s(%s, %d) // %s %s\n", strings.Repeat("\t", 1+r.IntN(3)),
			word(), word(), word(), r.IntN(100000), word(), word())
	}
	return b.Bytes()
}

func TestOpenJournalCreatesWALDatabase(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "a", "b", "journal.db")
	j, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	var mode, sync string
	var version int
	if err := j.db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if err := j.db.QueryRowContext(ctx, `PRAGMA synchronous`).Scan(&sync); err != nil {
		t.Fatal(err)
	}
	if err := j.db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version); err != nil {
		t.Fatal(err)
	}
	if mode != "wal" || sync != "2" || version != len(journalMigrations) {
		t.Errorf("journal_mode %q, synchronous %q, user_version %d; want wal, 2 (FULL), %d", mode, sync, version, len(journalMigrations))
	}
	for _, p := range []struct {
		path string
		perm os.FileMode
	}{{path, 0o600}, {filepath.Dir(path), 0o700}} {
		info, err := os.Stat(p.path)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != p.perm {
			t.Errorf("%s mode %v; want %v", p.path, info.Mode().Perm(), p.perm)
		}
	}
}

func TestOpenJournalRefuses(t *testing.T) {
	ctx := context.Background()
	newer := filepath.Join(t.TempDir(), "newer.db")
	j, err := Open(ctx, newer)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.db.ExecContext(ctx, `PRAGMA user_version = 99`); err != nil {
		t.Fatal(err)
	}
	j.Close()
	notDB := filepath.Join(t.TempDir(), "text.db")
	if err := os.WriteFile(notDB, bytes.Repeat([]byte("not a database\n"), 100), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string
	}{
		{"relative", "journal.db", "absolute"},
		{"newer schema", newer, "newer than this DiffDesk"},
		{"not a database", notDB, "not a usable SQLite database"},
		{"query characters", filepath.Join(t.TempDir(), "a?b.db"), "must not contain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, err := Open(ctx, tt.path)
			if err == nil {
				j.Close()
				t.Fatalf("Open(%s) succeeded; want an error", tt.path)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.path) {
				t.Errorf("Open(%s) = %v; want an error naming the path and saying %q", tt.path, err, tt.want)
			}
		})
	}
}

// TestJournalMigratesFromFirstVersion makes a database at schema version 1
// with records in it, as the first release wrote them, and opens it with
// the current code.
func TestJournalMigratesFromFirstVersion(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "journal.db")
	old, err := openAt(ctx, path, 1)
	if err != nil {
		t.Fatal(err)
	}
	content := []byte("package main\n")
	hash := atomicfile.Hash(content)
	v1 := []string{
		fmt.Sprintf(`INSERT INTO blobs(hash, size, codec, data) VALUES ('%s', %d, 'zstd', x'%x')`,
			hash, len(content), old.codec.enc.EncodeAll(content, nil)),
		`INSERT INTO sessions VALUES ('claude', 's1', 1, 1)`,
		fmt.Sprintf(`INSERT INTO proposals(id, agent, session, created, format, payload, status, updated)
			VALUES ('p1', 'claude', 's1', 1, 'write', '%s', 'approved', 1)`, hash),
		`INSERT INTO decisions(proposal_id, decision, time) VALUES ('p1', 'approved', 2)`,
		`INSERT INTO checkpoints(kind, proposal_id, decision_id, agent, session, state, created, finished)
			VALUES ('write', 'p1', 1, 'claude', 's1', 'written', 3, 4)`,
		fmt.Sprintf(`INSERT INTO checkpoint_files(checkpoint_id, path, root, after, final, state)
			VALUES (1, '/w/main.go', '/w', '%s', '%s', 'written')`, hash, hash),
	}
	for _, q := range v1 {
		if _, err := old.db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	old.Close()

	j, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open(v1 database) = %v", err)
	}
	defer j.Close()
	var version int
	if err := j.db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version); err != nil || version != len(journalMigrations) {
		t.Fatalf("user_version = %d, %v; want %d", version, err, len(journalMigrations))
	}
	got, err := j.Blob(ctx, hash)
	if err != nil || !bytes.Equal(got, content) {
		t.Errorf("Blob(v1 blob) = %q, %v; want %q", got, err, content)
	}
	cps, err := j.Checkpoints(ctx, CheckpointFilter{Path: "/w/main.go", Decision: decision.Approved})
	if err != nil || len(cps) != 1 || cps[0].Files[0].Final != hash || cps[0].Agent != "claude" {
		t.Errorf("Checkpoints(after migration) = %+v, %v; want the v1 checkpoint", cps, err)
	}
	// The decisions table, rebuilt by migration 7, keeps its rows and
	// takes the verdict it added.
	if _, err := j.RecordDecision(ctx, DecisionRecord{ProposalID: "p1", Decision: decision.Overwritten}); err != nil {
		t.Errorf("RecordDecision(approved-overwrite) after migration = %v", err)
	}
	// New records use the new columns.
	edited := append(bigText(8<<10, 1), "// edit\n"...)
	if _, err := j.PutBlobDelta(ctx, edited, mustPut(t, j, bigText(8<<10, 1))); err != nil {
		t.Errorf("PutBlobDelta after migration = %v", err)
	}
}

func mustPut(t *testing.T, j *Journal, content []byte) string {
	t.Helper()
	hash, err := j.PutBlob(context.Background(), content)
	if err != nil {
		t.Fatal(err)
	}
	return hash
}

func TestJournalBlobs(t *testing.T) {
	ctx := context.Background()
	j := openTestJournal(t)
	large := bigText(256<<10, 1)
	edited := bytes.Replace(large, []byte("journal"), []byte("JOURNAL"), 1)
	tests := []struct {
		name      string
		content   []byte
		base      []byte
		wantCodec string
	}{
		{"empty", []byte{}, nil, codecZstd},
		{"small", []byte("hello\r\n"), nil, codecZstd},
		{"binary-ish", []byte{0, 1, 2, 0xff, 0xfe}, nil, codecZstd},
		{"large", large, nil, codecZstd},
		{"small edit of large", edited, large, codecZstdDelta},
		{"unrelated to base", bigText(64<<10, 5), []byte(strings.Repeat("z", 64<<10)), codecZstd},
		{"base too small", []byte("hello world\n"), []byte("hello\n"), codecZstd},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := ""
			if tt.base != nil {
				base = mustPut(t, j, tt.base)
			}
			hash, err := j.PutBlobDelta(ctx, tt.content, base)
			if err != nil {
				t.Fatalf("PutBlobDelta = %v", err)
			}
			if hash != atomicfile.Hash(tt.content) {
				t.Errorf("PutBlobDelta hash %s; want the content's SHA-256", hash)
			}
			again, err := j.PutBlob(ctx, tt.content)
			if err != nil || again != hash {
				t.Errorf("PutBlob(same content) = %s, %v; want %s", again, err, hash)
			}
			got, err := j.Blob(ctx, hash)
			if err != nil || !bytes.Equal(got, tt.content) {
				t.Errorf("Blob(%s) = %d bytes, %v; want the %d bytes stored", hash, len(got), err, len(tt.content))
			}
			var codec string
			var n int
			if err := j.db.QueryRowContext(ctx, `SELECT codec, count(*) FROM blobs WHERE hash = ?`, hash).Scan(&codec, &n); err != nil {
				t.Fatal(err)
			}
			if codec != tt.wantCodec || n != 1 {
				t.Errorf("blob stored %d times as %q; want once as %q", n, codec, tt.wantCodec)
			}
		})
	}
	if _, err := j.Blob(ctx, atomicfile.Hash([]byte("never stored"))); !errors.Is(err, ErrBlobNotFound) {
		t.Errorf("Blob(unknown) = %v; want ErrBlobNotFound", err)
	}
}

func TestJournalDeltaChainIsBounded(t *testing.T) {
	ctx := context.Background()
	j := openTestJournal(t)
	content := bigText(16<<10, 2)
	prev := mustPut(t, j, content)
	var versions [][]byte
	for i := range 2*maxDeltaDepth + 2 {
		content = append(bytes.Clone(content), fmt.Sprintf("// edit %d\n", i)...)
		hash, err := j.PutBlobDelta(ctx, content, prev)
		if err != nil {
			t.Fatal(err)
		}
		versions = append(versions, content)
		prev = hash
	}
	var maxDepth int
	if err := j.db.QueryRowContext(ctx, `SELECT max(depth) FROM blobs`).Scan(&maxDepth); err != nil {
		t.Fatal(err)
	}
	if maxDepth > maxDeltaDepth {
		t.Errorf("delta chain depth %d; want at most %d", maxDepth, maxDeltaDepth)
	}
	var full int
	if err := j.db.QueryRowContext(ctx, `SELECT count(*) FROM blobs WHERE codec = ?`, codecZstd).Scan(&full); err != nil {
		t.Fatal(err)
	}
	if full != 1 {
		t.Errorf("%d blobs stored in full; want only the first version (the rest as deltas)", full)
	}
	for i, v := range versions {
		got, err := j.Blob(ctx, atomicfile.Hash(v))
		if err != nil || !bytes.Equal(got, v) {
			t.Errorf("Blob(version %d) = %v; want it back", i, err)
		}
	}
}

func TestJournalBlobCorruptionDetected(t *testing.T) {
	ctx := context.Background()
	j := openTestJournal(t)
	hash := mustPut(t, j, []byte("original"))
	other := j.codec.enc.EncodeAll([]byte("tampered"), nil)
	if _, err := j.db.ExecContext(ctx, `UPDATE blobs SET data = ? WHERE hash = ?`, other, hash); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Blob(ctx, hash); err == nil || !strings.Contains(err.Error(), "corrupt") {
		t.Errorf("Blob(tampered) = %v; want a corruption error", err)
	}
}

func TestDefaultJournalPath(t *testing.T) {
	tests := []struct {
		name, xdg, home, want string
	}{
		{"xdg", "/xdg/data", "/home/u", "/xdg/data/diffdesk/journal.db"},
		{"no xdg", "", "/home/u", "/home/u/.local/share/diffdesk/journal.db"},
		{"relative xdg ignored", "rel", "/home/u", "/home/u/.local/share/diffdesk/journal.db"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("XDG_DATA_HOME", tt.xdg)
			t.Setenv("HOME", tt.home)
			got, err := DefaultPath()
			if err != nil || got != tt.want {
				t.Errorf("DefaultPath() = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// recordApproved journals a single-file proposal and its approval, as the
// desk does before writing.
func recordApproved(t testing.TB, j *Journal, id, agent, path string, base, proposed []byte) {
	t.Helper()
	ctx := context.Background()
	err := j.RecordProposal(ctx, ProposalRecord{
		ID: id, Agent: agent, Session: "s-" + agent, Format: "whole-file", Payload: proposed, Status: "pending",
		Files: []ProposalFileRecord{{Path: path, Root: filepath.Dir(path), BaseExists: base != nil, Base: base, Proposed: proposed}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.RecordDecision(ctx, DecisionRecord{ProposalID: id, Decision: decision.Approved,
		Files: []DecisionFile{{Path: path, Approved: proposed}}}); err != nil {
		t.Fatal(err)
	}
}

func TestJournalLifecycle(t *testing.T) {
	ctx := context.Background()
	j := openTestJournal(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "main.go")
	before := []byte("package main\n")
	proposed := []byte("package main\n\nfunc main(){}\n")
	formatted := []byte("package main\n\nfunc main() {}\n")
	if err := os.WriteFile(path, before, 0o644); err != nil {
		t.Fatal(err)
	}
	recordApproved(t, j, "p1", "claude", path, before, proposed)

	id, err := j.BeginWrite(ctx, WriteIntent{ProposalID: "p1", Files: []FileWrite{
		{Path: path, Root: dir, BeforeExists: true, Before: before, After: proposed}}})
	if err != nil {
		t.Fatal(err)
	}
	cp, err := j.Checkpoint(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if cp.State != WriteIntended || cp.Agent != "claude" || cp.Decision != decision.Approved || cp.Kind != CheckpointWrite {
		t.Errorf("Checkpoint(%d) after BeginWrite = %+v; want intended, claude, approved, write", id, cp)
	}
	for _, content := range [][]byte{proposed, formatted} {
		if _, err := atomicfile.Save(path, content, 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.FinishWrite(ctx, id, []FileFinal{{Path: path, Formatted: true, FormatterOutput: formatted, Final: formatted}}); err != nil {
		t.Fatal(err)
	}
	if err := j.RecordOutcome(ctx, "p1", []byte(`{"id":"p1","status":"approved"}`), time.Time{}); err != nil {
		t.Fatal(err)
	}
	cp, err = j.Checkpoint(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	f := cp.Files[0]
	if cp.State != WriteWritten || cp.Finished.IsZero() || f.State != WriteWritten ||
		f.Before != atomicfile.Hash(before) || f.After != atomicfile.Hash(proposed) ||
		f.Formatted != atomicfile.Hash(formatted) || f.Final != atomicfile.Hash(formatted) {
		t.Errorf("Checkpoint(%d) after FinishWrite = %+v", id, cp)
	}
	if got, err := j.Blob(ctx, f.Before); err != nil || !bytes.Equal(got, before) {
		t.Errorf("Blob(before) = %q, %v; want %q", got, err, before)
	}
	status, _, err := j.ProposalStatus(ctx, "p1")
	if err != nil || status != "reported" {
		t.Errorf("ProposalStatus(p1) = %q, %v; want reported", status, err)
	}
	if _, _, err := j.ProposalStatus(ctx, "nope"); !errors.Is(err, ErrNotJournaled) {
		t.Errorf("ProposalStatus(unknown) = %v; want ErrNotJournaled", err)
	}
	if err := j.RecordOutcome(ctx, "nope", []byte(`{}`), time.Time{}); !errors.Is(err, ErrNotJournaled) {
		t.Errorf("RecordOutcome(unknown proposal) = %v; want ErrNotJournaled", err)
	}
	if _, err := j.RecordDecision(ctx, DecisionRecord{ProposalID: "nope", Decision: decision.Rejected}); !errors.Is(err, ErrNotJournaled) {
		t.Errorf("RecordDecision(unknown proposal) = %v; want ErrNotJournaled", err)
	}
	if _, err := j.RecordDecision(ctx, DecisionRecord{ProposalID: "p1", Decision: "maybe"}); err == nil {
		t.Errorf("RecordDecision(decision %q) succeeded; want an error", "maybe")
	}
	if _, err := j.Checkpoint(ctx, 999); !errors.Is(err, ErrNotJournaled) {
		t.Errorf("Checkpoint(999) = %v; want ErrNotJournaled", err)
	}
	if _, err := j.BeginWrite(ctx, WriteIntent{ProposalID: "nope", Files: []FileWrite{{Path: path}}}); !errors.Is(err, ErrNotJournaled) {
		t.Errorf("BeginWrite(unknown proposal) = %v; want ErrNotJournaled", err)
	}

	if err := j.FinishWrite(ctx, id, nil); err == nil || !strings.Contains(err.Error(), "already settled") {
		t.Errorf("FinishWrite(settled checkpoint) = %v; want an error", err)
	}

	// A write that failed and was put back is interrupted, not written.
	recordApproved(t, j, "p2", "claude", path, formatted, proposed)
	failed, err := j.BeginWrite(ctx, WriteIntent{ProposalID: "p2", Files: []FileWrite{
		{Path: path, Root: dir, BeforeExists: true, Before: formatted, After: proposed}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.FinishWrite(ctx, failed, []FileFinal{{Path: path, Final: formatted}}); err != nil {
		t.Fatal(err)
	}
	if cp, err := j.Checkpoint(ctx, failed); err != nil || cp.State != WriteInterrupted || cp.Files[0].State != WriteInterrupted {
		t.Errorf("Checkpoint(rolled back) = %+v, %v; want interrupted", cp, err)
	}

	// A restore is a checkpoint too, pointing at the one it undoes.
	rid, err := j.BeginWrite(ctx, WriteIntent{RestoredFrom: id, Note: "undo", Files: []FileWrite{
		{Path: path, Root: dir, BeforeExists: true, Before: formatted, After: before}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.FinishWrite(ctx, rid, nil); err != nil {
		t.Fatal(err)
	}
	rcp, err := j.Checkpoint(ctx, rid)
	if err != nil || rcp.Kind != CheckpointRestore || rcp.RestoredFrom != id || rcp.State != WriteWritten || rcp.Files[0].Final != atomicfile.Hash(before) {
		t.Errorf("Checkpoint(restore) = %+v, %v", rcp, err)
	}
}

func TestJournalCheckpointsFilter(t *testing.T) {
	ctx := context.Background()
	j := openTestJournal(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	var ids []int64
	for i, w := range []struct{ agent, path string }{{"claude", a}, {"gemini", a}, {"claude", b}} {
		pid := fmt.Sprint("p", i)
		recordApproved(t, j, pid, w.agent, w.path, nil, []byte(pid))
		id, err := j.BeginWrite(ctx, WriteIntent{ProposalID: pid, Files: []FileWrite{{Path: w.path, Root: dir, After: []byte(pid)}}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := j.FinishWrite(ctx, ids[0], nil); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path   string
		id     int64
		want   string
		exists bool
		err    error
	}{
		{a, ids[0], "p0", true, nil},
		{a, ids[2], "p0", true, nil}, // ids[1] is still intended
		{b, ids[1], "", false, ErrNotJournaled},
		{b, ids[2], "", false, ErrNotJournaled},
	} {
		got, exists, err := j.FileAt(ctx, tt.path, tt.id)
		if string(got) != tt.want || exists != tt.exists || !errors.Is(err, tt.err) {
			t.Errorf("FileAt(%s, %d) = %q, %v, %v; want %q, %v, %v", tt.path, tt.id, got, exists, err, tt.want, tt.exists, tt.err)
		}
	}
	tests := []struct {
		name   string
		filter CheckpointFilter
		want   []int64
	}{
		{"all newest first", CheckpointFilter{}, []int64{ids[2], ids[1], ids[0]}},
		{"agent", CheckpointFilter{Agent: "claude"}, []int64{ids[2], ids[0]}},
		{"path", CheckpointFilter{Path: a}, []int64{ids[1], ids[0]}},
		{"decision", CheckpointFilter{Decision: decision.Approved, Limit: 1}, []int64{ids[2]}},
		{"rejected", CheckpointFilter{Decision: decision.Rejected}, nil},
		{"state", CheckpointFilter{State: WriteWritten}, []int64{ids[0]}},
		{"page", CheckpointFilter{BeforeID: ids[2], Limit: 1}, []int64{ids[1]}},
		{"until", CheckpointFilter{Until: time.Unix(0, 1)}, nil},
		{"since", CheckpointFilter{Since: time.Unix(0, 1), Session: "s-gemini"}, []int64{ids[1]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cps, err := j.Checkpoints(ctx, tt.filter)
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			for _, cp := range cps {
				got = append(got, cp.ID)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("Checkpoints(%+v) = %v; want %v", tt.filter, got, tt.want)
			}
		})
	}
}

func TestJournalRecover(t *testing.T) {
	ctx := context.Background()
	before, after, formatted := []byte("old\n"), []byte("new\n"), []byte("new, formatted\n")
	tests := []struct {
		name         string
		beforeExists bool
		deletes      bool
		disk         []byte // nil: no file on disk at recovery
		temp         bool   // a killed SaveFile left a temp file
		want         WriteState
	}{
		{"written", true, false, after, false, WriteWritten},
		{"interrupted before rename", true, false, before, true, WriteInterrupted},
		{"new file never written", false, false, nil, true, WriteInterrupted},
		{"new file in new dirs never written", false, false, nil, true, WriteInterrupted},
		{"new file written", false, false, after, false, WriteWritten},
		{"delete done", true, true, nil, false, WriteWritten},
		{"delete not done", true, true, before, false, WriteInterrupted},
		{"changed by someone else", true, false, []byte("theirs\n"), false, WriteConflicted},
		{"removed by someone else", true, false, nil, false, WriteConflicted},
	}
	j := openTestJournal(t)
	dir := t.TempDir()
	want := map[int64]WriteState{}
	for i, tt := range tests {
		path := filepath.Join(dir, fmt.Sprintf("f%d.txt", i))
		if strings.Contains(tt.name, "new dirs") {
			path = filepath.Join(dir, "x", "y", fmt.Sprintf("f%d.txt", i))
		}
		pid := fmt.Sprint("p", i)
		var base []byte
		if tt.beforeExists {
			base = before
		}
		recordApproved(t, j, pid, "agent", path, base, after)
		id, err := j.BeginWrite(ctx, WriteIntent{ProposalID: pid, Files: []FileWrite{
			{Path: path, Root: dir, BeforeExists: tt.beforeExists, Before: before, Delete: tt.deletes, After: after}}})
		if err != nil {
			t.Fatal(err)
		}
		want[id] = tt.want
		if tt.disk != nil {
			if err := os.WriteFile(path, tt.disk, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if tt.temp {
			// What SaveFile leaves when killed after creating the
			// directories and the temp file.
			mustMkdir(t, filepath.Dir(path))
			temp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+atomicfile.TempMarker+"1.tmp")
			if err := os.WriteFile(temp, after[:2], 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A write that finished is left alone.
	done := filepath.Join(dir, "done.txt")
	recordApproved(t, j, "done", "agent", done, nil, formatted)
	doneID, err := j.BeginWrite(ctx, WriteIntent{ProposalID: "done", Files: []FileWrite{{Path: done, Root: dir, After: formatted}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.FinishWrite(ctx, doneID, nil); err != nil {
		t.Fatal(err)
	}

	got, err := j.Recover(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(tests) {
		t.Fatalf("Recover() settled %d writes; want %d", len(got), len(tests))
	}
	for i, it := range got {
		t.Run(tests[i].name, func(t *testing.T) {
			if it.State != want[it.Checkpoint] || it.Files[0].State != want[it.Checkpoint] {
				t.Errorf("Recover() checkpoint %d = %s (file %s); want %s", it.Checkpoint, it.State, it.Files[0].State, want[it.Checkpoint])
			}
			if tests[i].temp && len(it.Files[0].TempFiles) != 1 {
				t.Errorf("Recover() removed temp files %q; want the one left", it.Files[0].TempFiles)
			}
			if want := strings.Contains(tests[i].name, "new dirs"); (len(it.Files[0].RemovedDirs) == 2) != want {
				t.Errorf("Recover() removed dirs %q; want x/y and x removed: %v", it.Files[0].RemovedDirs, want)
			}
			cp, err := j.Checkpoint(ctx, it.Checkpoint)
			if err != nil || cp.State != it.State || cp.Finished.IsZero() {
				t.Errorf("Checkpoint(%d) after Recover = %+v, %v", it.Checkpoint, cp, err)
			}
			if d := tests[i].disk; d != nil && cp.Files[0].Final != atomicfile.Hash(d) {
				t.Errorf("Checkpoint(%d) final %s; want the disk's content", it.Checkpoint, cp.Files[0].Final)
			}
			got, exists, err := j.FileAt(ctx, cp.Files[0].Path, it.Checkpoint)
			if err != nil || exists != (tests[i].disk != nil) || !bytes.Equal(got, tests[i].disk) {
				t.Errorf("FileAt(%d) = %q, %v, %v; want the disk's %q", it.Checkpoint, got, exists, err, tests[i].disk)
			}
		})
	}
	if temps := saveTemps(t, dir); len(temps) > 0 {
		t.Errorf("Recover() left temp files %q", temps)
	}
	if _, err := os.Stat(filepath.Join(dir, "x")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Recover() left the directories an interrupted new file created: %v", err)
	}
	again, err := j.Recover(ctx)
	if err != nil || len(again) != 0 {
		t.Errorf("second Recover() = %v, %v; want nothing to do", again, err)
	}
}

// TestJournalConcurrentWriters runs 50 goroutines, half on each of two
// Journals opened on the same file (as a desk and a deskctl would), each
// journaling a full proposal → write → outcome cycle.
func TestJournalConcurrentWriters(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "journal.db")
	var journals [2]*Journal
	for i := range journals {
		j, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer j.Close()
		journals[i] = j
	}
	dir := t.TempDir()
	const writers = 50
	errs := make(chan error, writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		// Ends when its one cycle is journaled or fails.
		go func() {
			defer wg.Done()
			errs <- journalCycle(ctx, journals[w%2], w, dir)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	cps, err := journals[0].Checkpoints(ctx, CheckpointFilter{State: WriteWritten, Limit: 1000})
	if err != nil || len(cps) != writers {
		t.Errorf("Checkpoints(written) = %d, %v; want %d", len(cps), err, writers)
	}
}

func journalCycle(ctx context.Context, j *Journal, w int, dir string) error {
	id, agent := fmt.Sprint("p", w), fmt.Sprint("agent", w%5)
	path := filepath.Join(dir, fmt.Sprintf("f%d.txt", w%10))
	base := bigText(2<<10, w%10)
	proposed := append(bytes.Clone(base), fmt.Sprintf("// writer %d\n", w)...)
	if err := j.RecordProposal(ctx, ProposalRecord{ID: id, Agent: agent, Session: "s", Format: "whole-file",
		Payload: proposed, Status: "pending",
		Files: []ProposalFileRecord{{Path: path, Root: dir, BaseExists: true, Base: base, Proposed: proposed}}}); err != nil {
		return err
	}
	if _, err := j.RecordDecision(ctx, DecisionRecord{ProposalID: id, Decision: decision.Approved,
		Files: []DecisionFile{{Path: path, Approved: proposed}}}); err != nil {
		return err
	}
	cid, err := j.BeginWrite(ctx, WriteIntent{ProposalID: id, Files: []FileWrite{
		{Path: path, Root: dir, BeforeExists: true, Before: base, After: proposed}}})
	if err != nil {
		return err
	}
	if err := j.FinishWrite(ctx, cid, []FileFinal{{Path: path, Final: proposed}}); err != nil {
		return err
	}
	if err := j.TouchSession(ctx, agent, "s", time.Time{}); err != nil {
		return err
	}
	return j.RecordOutcome(ctx, id, []byte(`{}`), time.Time{})
}

// BenchmarkJournalCheckpointGrowth measures how much the database grows per
// checkpoint when an agent makes a one-line edit to a 1 MB file, each edit
// on top of the last, journaled as the desk does (proposal, decision, write
// begun and finished): "db-bytes/checkpoint" is the main database file's
// growth after a WAL checkpoint, divided by b.N; "whole-zstd-bytes" is what
// one version of the file costs compressed whole, without deltas.
func BenchmarkJournalCheckpointGrowth(b *testing.B) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "journal.db")
	j, err := Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	dir := b.TempDir()
	file := filepath.Join(dir, "big.go")
	content := bigText(1<<20, 3)
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
	// The first version of the file is stored once, whatever b.N is.
	if _, err := j.PutBlob(ctx, content); err != nil {
		b.Fatal(err)
	}
	start := size()
	b.ResetTimer()
	for i := range b.N {
		id := fmt.Sprint("p", i)
		line := bytes.Index(content[len(content)/2:], []byte("\n")) + len(content)/2 + 1
		next := append(append(bytes.Clone(content[:line]), fmt.Sprintf("\t// edit %d\n", i)...), content[line:]...)
		recordApproved(b, j, id, "bench", file, content, next)
		cid, err := j.BeginWrite(ctx, WriteIntent{ProposalID: id, Files: []FileWrite{
			{Path: file, Root: dir, BeforeExists: true, Before: content, After: next}}})
		if err != nil {
			b.Fatal(err)
		}
		if err := j.FinishWrite(ctx, cid, []FileFinal{{Path: file, Final: next}}); err != nil {
			b.Fatal(err)
		}
		content = next
	}
	b.StopTimer()
	b.ReportMetric(float64(size()-start)/float64(b.N), "db-bytes/checkpoint")
	// For comparison: what storing each version whole would cost.
	b.ReportMetric(float64(len(j.codec.enc.EncodeAll(content, nil))), "whole-zstd-bytes")
}

// FuzzBlobDelta checks that any content delta-compressed against any
// base decodes back byte for byte. (It exercises the codec alone: SQLite
// under coverage instrumentation is too slow to fuzz through.)
func FuzzBlobDelta(f *testing.F) {
	big := bigText(6<<10, 4)
	f.Add(big, append(bytes.Clone(big), "tail\n"...))
	f.Add(big, []byte{})
	f.Add([]byte{}, big)
	f.Add([]byte("short"), big)
	f.Add(big[:minDeltaBase], bytes.ToUpper(big))
	f.Fuzz(func(t *testing.T, base, content []byte) {
		delta, err := encodeDelta(content, base)
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeDelta(delta, base, int64(len(content)))
		if err != nil || !bytes.Equal(got, content) {
			t.Fatalf("decodeDelta(encodeDelta(%d bytes), base of %d) = %d bytes, %v; want the content back", len(content), len(base), len(got), err)
		}
	})
}

func mustMkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

// saveTemps lists atomicfile.Save's temporary files in dir.
func saveTemps(t *testing.T, dir string) []string {
	t.Helper()
	temps, err := atomicfile.Temps(dir)
	if err != nil {
		t.Fatal(err)
	}
	return temps
}
