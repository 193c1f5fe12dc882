package journal

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ageHistory makes every record journaled so far look age old.
func ageHistory(t *testing.T, j *Journal, age time.Duration) {
	t.Helper()
	then := time.Now().Add(-age).UnixNano()
	for _, q := range []string{
		`UPDATE checkpoints SET created = ?1, finished = ?1`, `UPDATE decisions SET time = ?1`,
		`UPDATE proposals SET created = ?1, updated = ?1`, `UPDATE sessions SET first_seen = ?1, last_seen = ?1`,
	} {
		if _, err := j.db.Exec(q, then); err != nil {
			t.Fatal(err)
		}
	}
}

// checkAllBlobsReadable reads every blob a record refers to.
func checkAllBlobsReadable(t *testing.T, j *Journal) int {
	t.Helper()
	ctx := context.Background()
	rows, err := j.db.QueryContext(ctx, liveBlobsSQL)
	if err != nil {
		t.Fatal(err)
	}
	var hashes []string
	for rows.Next() {
		var h string
		rows.Scan(&h)
		hashes = append(hashes, h)
	}
	rows.Close()
	for _, h := range hashes {
		if _, err := j.Blob(ctx, h); err != nil {
			t.Errorf("Blob(%s) after prune: %v", h, err)
		}
	}
	return len(hashes)
}

// editedVersions returns n versions of a large file, each a one-line edit
// of the one before (so the journal stores them as deltas).
func editedVersions(n int) [][]byte {
	content := bigText(64<<10, 9)
	var out [][]byte
	for i := range n {
		at := bytes.IndexByte(content[len(content)*i/(n+1):], '\n') + len(content)*i/(n+1) + 1
		content = append(append(bytes.Clone(content[:at]), fmt.Sprintf("// edit %d\n", i)...), content[at:]...)
		out = append(out, content)
	}
	return out
}

func TestPruneByAgeKeepsDeltaChainsReadable(t *testing.T) {
	ctx := context.Background()
	versions := editedVersions(6)
	tests := []struct {
		name   string
		dryRun bool
	}{{"dry run", true}, {"apply", false}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := openTestJournal(t)
			path := filepath.Join(t.TempDir(), "big.go")
			for i, v := range versions[:3] {
				historyWrite(t, j, fmt.Sprint("old", i), "claude", path, v)
			}
			historyReject(t, j, "old-rejected", "claude", path, []byte("nope"), "no")
			ageHistory(t, j, 48*time.Hour)
			var kept []int64
			for i, v := range versions[3:] {
				kept = append(kept, historyWrite(t, j, fmt.Sprint("new", i), "claude", path, v))
			}
			var deltas int
			j.db.QueryRow(`SELECT count(*) FROM blobs WHERE codec = 'zstd-delta'`).Scan(&deltas)
			if deltas == 0 {
				t.Fatal("no delta blobs: the test does not exercise delta bases")
			}
			rep, err := j.Prune(ctx, RetentionPolicy{MaxAge: 24 * time.Hour}, tt.dryRun)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Checkpoints != 3 || rep.Decisions != 4 || rep.Proposals != 4 || rep.Blobs == 0 || rep.Rebased == 0 {
				t.Errorf("Prune = %+v; want 3 checkpoints, 4 decisions and 4 proposals removed, blobs removed, some rebased", rep)
			}
			page, err := j.History(ctx, Filter{})
			if err != nil {
				t.Fatal(err)
			}
			want := 3
			if tt.dryRun {
				want = 7
			}
			if len(page.Entries) != want {
				t.Errorf("after Prune (dry run %v) history has %d entries; want %d", tt.dryRun, len(page.Entries), want)
			}
			checkAllBlobsReadable(t, j)
			for i, id := range kept {
				got, exists, err := j.FileAt(ctx, path, id)
				if err != nil || !exists || !bytes.Equal(got, versions[3+i]) {
					t.Errorf("FileAt(%d) after prune = %d bytes, %v; want version %d", id, len(got), err, 3+i)
				}
			}
			// Restoring to before the oldest kept checkpoint still works.
			plan, err := j.PlanRestore(ctx, RestoreRequest{Checkpoint: kept[0]})
			if err != nil || len(plan.Files) != 1 || !bytes.Equal(plan.Files[0].Target, versions[2]) {
				t.Errorf("PlanRestore(before %d) after prune = %+v, %v; want version 2", kept[0], plan.Files, err)
			}
		})
	}
}

func TestPruneKeepsEverythingByDefault(t *testing.T) {
	ctx := context.Background()
	j := openTestJournal(t)
	path := filepath.Join(t.TempDir(), "f.txt")
	historyWrite(t, j, "p", "claude", path, []byte("x\n"))
	ageHistory(t, j, 10*365*24*time.Hour)
	rep, err := j.Prune(ctx, RetentionPolicy{}, false)
	if err != nil || rep.Checkpoints+rep.Decisions+rep.Proposals+rep.Blobs != 0 || rep.StoredBytes == 0 {
		t.Errorf("Prune(zero policy) = %+v, %v; want nothing removed", rep, err)
	}
}

func TestPruneBySize(t *testing.T) {
	ctx := context.Background()
	j := openTestJournal(t)
	dir := t.TempDir()
	for i := range 20 {
		historyWrite(t, j, fmt.Sprint("p", i), "claude", filepath.Join(dir, fmt.Sprint("f", i)), bigText(16<<10, i))
	}
	var total int64
	j.db.QueryRow(`SELECT sum(length(data)) FROM blobs`).Scan(&total)
	limit := total / 3
	rep, err := j.Prune(ctx, RetentionPolicy{MaxBytes: limit}, false)
	if err != nil {
		t.Fatal(err)
	}
	if rep.StoredBytes > limit || rep.Checkpoints == 0 || rep.Checkpoints == 20 {
		t.Errorf("Prune(max %d of %d bytes) = %+v; want some but not all checkpoints removed and at most the limit stored", limit, total, rep)
	}
	page, _ := j.History(ctx, Filter{})
	if len(page.Entries) != 20-rep.Checkpoints || page.Entries[0].ProposalID != "p19" {
		t.Errorf("after a size prune history = %d entries, newest %+v; want the newest kept", len(page.Entries), page.Entries[0])
	}
	checkAllBlobsReadable(t, j)
}

func TestParseRetention(t *testing.T) {
	tests := []struct {
		keep, size string
		want       RetentionPolicy
		ok         bool
	}{
		{"", "", RetentionPolicy{}, true},
		{"90d", "2GB", RetentionPolicy{MaxAge: 90 * 24 * time.Hour, MaxBytes: 2e9}, true},
		{"2w", "500MiB", RetentionPolicy{MaxAge: 14 * 24 * time.Hour, MaxBytes: 500 << 20}, true},
		{"36h", "1024", RetentionPolicy{MaxAge: 36 * time.Hour, MaxBytes: 1024}, true},
		{"1.5d", "1.5k", RetentionPolicy{MaxAge: 36 * time.Hour, MaxBytes: 1536}, true},
		{"forever", "", RetentionPolicy{}, false},
		{"", "lots", RetentionPolicy{}, false},
		{"-3d", "", RetentionPolicy{}, false},
		{"1e300d", "", RetentionPolicy{}, false},
		{"NaNd", "", RetentionPolicy{}, false},
		{"", "1e300GB", RetentionPolicy{}, false},
		{"", "NaN", RetentionPolicy{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.keep+"/"+tt.size, func(t *testing.T) {
			got, err := ParseRetentionPolicy(tt.keep, tt.size)
			if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
				t.Errorf("ParseRetentionPolicy(%q, %q) = %+v, %v; want %+v (ok %v)", tt.keep, tt.size, got, err, tt.want, tt.ok)
			}
		})
	}
}

func TestPruneRefusesToLeaveDanglingReferences(t *testing.T) {
	ctx := context.Background()
	j := openTestJournal(t)
	historyWrite(t, j, "p", "claude", filepath.Join(t.TempDir(), "f.txt"), []byte("x\n"))
	conn, err := j.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// A kept (open) proposal pointing at content the journal does not hold:
	// a bug the check must catch rather than prune around.
	for _, q := range []string{`PRAGMA foreign_keys = OFF`, `UPDATE proposals SET status = 'pending'`,
		`UPDATE proposal_files SET base = 'feedface'`, `PRAGMA foreign_keys = ON`} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	conn.Close()
	if _, err := j.Prune(ctx, RetentionPolicy{MaxBytes: 1}, false); err == nil || !strings.Contains(err.Error(), "nothing pruned") {
		t.Errorf("Prune(journal with a dangling reference) = %v; want it refused", err)
	}
	if page, _ := j.History(ctx, Filter{}); len(page.Entries) != 1 {
		t.Errorf("after a refused prune history has %d entries; want 1", len(page.Entries))
	}
	var fk int
	if err := j.db.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&fk); err != nil || fk != 1 {
		t.Errorf("foreign_keys after Prune = %d, %v; want the checks back on", fk, err)
	}
}
