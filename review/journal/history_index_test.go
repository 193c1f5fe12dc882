package journal

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// history list --file dir/name.go matches at any depth (*/dir/name.go):
// the files are looked up by their base name's index (migration 9), not
// by reading every file row the journal ever held.
func TestHistoryFileFilterUsesTheBaseNameIndex(t *testing.T) {
	f := Filter{File: "dir42/file4242.go"}
	glob := historyGlob(f.File)
	for name, plan := range historyPlans(t, map[string]func() (string, []any){
		"checkpoints": func() (string, []any) { return checkpointEntriesSQL(f, glob, historyCursor{}, 0, 100, false) },
		"checkpoints (window)": func() (string, []any) {
			return checkpointEntriesSQL(f, glob, historyCursor{}, globProbeWindow, 100, true)
		},
		"decisions":         func() (string, []any) { return decisionEntriesSQL(f, glob, 0, 0, 100, false) },
		"decisions (dense)": func() (string, []any) { return decisionEntriesSQL(f, glob, 0, 0, 100, true) },
	}) {
		if !strings.Contains(plan, "_files_base") {
			t.Errorf("%s: the query plan uses no base-name index:\n%s", name, plan)
		}
	}
}

// A pattern whose last element is a wildcard (dir42/*: every file under
// any dir42) has no base name to look up: it is matched against the
// distinct paths (migration 10) and their rows read by the path index,
// not checked against every file row the journal ever held.
func TestHistoryWildcardFileFilterUsesThePathIndex(t *testing.T) {
	for _, file := range []string{"dir42/*", "/w/dir42/*", "*.go"} {
		f := Filter{File: file}
		glob := historyGlob(f.File)
		for name, plan := range historyPlans(t, map[string]func() (string, []any){
			"checkpoints": func() (string, []any) { return checkpointEntriesSQL(f, glob, historyCursor{}, 0, 100, false) },
			"decisions":   func() (string, []any) { return decisionEntriesSQL(f, glob, 0, 0, 100, false) },
		}) {
			if !strings.Contains(plan, "history_paths") || !strings.Contains(plan, "_files_path") ||
				strings.Contains(plan, "SCAN checkpoint_files") || strings.Contains(plan, "SCAN proposal_files") {
				t.Errorf("%s, --file %s: the query plan does not go from the distinct paths to the path index:\n%s", name, file, plan)
			}
		}
	}
}

// historyPlans returns SQLite's query plan of each query, its steps
// joined by "; ".
func historyPlans(t *testing.T, queries map[string]func() (string, []any)) map[string]string {
	t.Helper()
	j := openTestJournal(t)
	ctx := context.Background()
	plans := map[string]string{}
	for name, q := range queries {
		sql, args := q()
		rows, err := j.db.QueryContext(ctx, "EXPLAIN QUERY PLAN "+sql, args...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		plans[name] = strings.Join(plan, "; ")
	}
	return plans
}

// The distinct paths follow the file rows: a path comes with its first
// row and goes with its last, so a pruned file's name does not outlive
// its history.
func TestHistoryPathsFollowTheFileRows(t *testing.T) {
	ctx := context.Background()
	j := openTestJournal(t)
	dir := t.TempDir()
	old, kept := filepath.Join(dir, "old.go"), filepath.Join(dir, "kept.go")
	historyWrite(t, j, "p1", "claude", old, []byte("one\n"))
	ageHistory(t, j, 48*time.Hour)
	historyWrite(t, j, "p2", "claude", kept, []byte("two\n"))
	paths := func() []string {
		t.Helper()
		rows, err := j.db.QueryContext(ctx, `SELECT path FROM history_paths ORDER BY path`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var p string
			if err := rows.Scan(&p); err != nil {
				t.Fatal(err)
			}
			out = append(out, p)
		}
		return out
	}
	if got, want := paths(), []string{kept, old}; !slices.Equal(got, want) {
		t.Fatalf("history paths = %q; want %q", got, want)
	}
	if _, err := j.Prune(ctx, RetentionPolicy{MaxAge: 24 * time.Hour}, false); err != nil {
		t.Fatal(err)
	}
	if got, want := paths(), []string{kept}; !slices.Equal(got, want) {
		t.Errorf("history paths after pruning %s = %q; want %q", old, got, want)
	}
}
