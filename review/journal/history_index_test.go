package journal

import (
	"context"
	"strings"
	"testing"
)

// history list --file dir/name.go matches at any depth (*/dir/name.go):
// the files are looked up by their base name's index (migration 9), not
// by reading every file row the journal ever held.
func TestHistoryFileFilterUsesTheBaseNameIndex(t *testing.T) {
	j := openTestJournal(t)
	ctx := context.Background()
	f := Filter{File: "dir42/file4242.go"}
	glob := historyGlob(f.File)
	plans := map[string]string{}
	for name, q := range map[string]func() (string, []any){
		"checkpoints":          func() (string, []any) { return checkpointEntriesSQL(f, glob, historyCursor{}, 0, 100) },
		"checkpoints (window)": func() (string, []any) { return checkpointEntriesSQL(f, glob, historyCursor{}, globProbeWindow, 100) },
		"decisions":            func() (string, []any) { return decisionEntriesSQL(f, glob, 0, 0, 100) },
	} {
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
	for name, plan := range plans {
		if !strings.Contains(plan, "_files_base") {
			t.Errorf("%s: the query plan uses no base-name index:\n%s", name, plan)
		}
	}
}
