package journal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/decision"
)

// historyWrite does what the desk does for an approved one-file proposal
// (nil content: delete the file) and returns the checkpoint.
func historyWrite(t testing.TB, j *Journal, id, agent, path string, content []byte) int64 {
	t.Helper()
	return historyWriteIn(t, j, filepath.Dir(path), id, agent, path, content)
}

// historyWriteIn is historyWrite recording root as the workspace root.
func historyWriteIn(t testing.TB, j *Journal, root, id, agent, path string, content []byte) int64 {
	t.Helper()
	ctx := context.Background()
	disk, err := atomicfile.ReadSnapshot(path)
	if err != nil {
		t.Fatal(err)
	}
	var base []byte
	if disk.Exists {
		base = disk.Content
	}
	del := content == nil
	err = j.RecordProposal(ctx, ProposalRecord{ID: id, Agent: agent, Session: "s-" + agent, Format: "write",
		Payload: content, Status: "pending", Files: []ProposalFileRecord{{Path: path, Root: root,
			BaseExists: disk.Exists, Base: base, Delete: del, Proposed: content}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.RecordDecision(ctx, DecisionRecord{ProposalID: id, Decision: decision.Approved,
		Files: []DecisionFile{{Path: path, Delete: del, Approved: content}}}); err != nil {
		t.Fatal(err)
	}
	cp, err := j.BeginWrite(ctx, WriteIntent{ProposalID: id, Files: []FileWrite{{Path: path, Root: root,
		BeforeExists: disk.Exists, Before: base, Delete: del, After: content}}})
	if err != nil {
		t.Fatal(err)
	}
	var created []string
	if del {
		err = os.Remove(path)
	} else {
		created, err = atomicfile.Save(path, content, 0)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := j.FinishWrite(ctx, cp, []FileFinal{{Path: path, Final: content, Deleted: del, CreatedDirs: created}}); err != nil {
		t.Fatal(err)
	}
	return cp
}

// historyReject journals a proposal to path and its rejection; it returns
// the decision's history ref.
func historyReject(t testing.TB, j *Journal, id, agent, path string, proposed []byte, reason string) Ref {
	t.Helper()
	ctx := context.Background()
	disk, err := atomicfile.ReadSnapshot(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.RecordProposal(ctx, ProposalRecord{ID: id, Agent: agent, Session: "s-" + agent, Format: "write",
		Payload: proposed, Status: "pending", Files: []ProposalFileRecord{{Path: path, Root: filepath.Dir(path),
			BaseExists: disk.Exists, Base: disk.Content, Proposed: proposed}}}); err != nil {
		t.Fatal(err)
	}
	did, err := j.RecordDecision(ctx, DecisionRecord{ProposalID: id, Decision: decision.Rejected, Feedback: reason})
	if err != nil {
		t.Fatal(err)
	}
	return Ref(fmt.Sprint("d", did))
}

func refs(entries []Entry) []Ref {
	var out []Ref
	for _, e := range entries {
		out = append(out, e.Ref)
	}
	return out
}

func TestHistoryListsCheckpointsAndSilentDecisions(t *testing.T) {
	ctx := context.Background()
	j := openTestJournal(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.go"), filepath.Join(dir, "sub", "b.txt")
	c1 := historyWrite(t, j, "p1", "claude", a, []byte("one\n"))
	c2 := historyWrite(t, j, "p2", "gemini", b, []byte("two\n"))
	d3 := historyReject(t, j, "p3", "claude", a, []byte("three\n"), "no thanks")
	c4 := historyWrite(t, j, "p4", "claude", a, []byte("four\n"))
	ref := func(id int64) Ref { return Ref(fmt.Sprint(id)) }
	tests := []struct {
		name   string
		filter Filter
		want   []Ref
	}{
		{"all", Filter{}, []Ref{ref(c4), d3, ref(c2), ref(c1)}},
		{"agent", Filter{Agent: "claude"}, []Ref{ref(c4), d3, ref(c1)}},
		{"rejected", Filter{Decision: string(decision.Rejected)}, []Ref{d3}},
		{"approved", Filter{Decision: string(decision.Approved)}, []Ref{ref(c4), ref(c2), ref(c1)}},
		{"exact file", Filter{File: b}, []Ref{ref(c2)}},
		{"glob", Filter{File: "*.go"}, []Ref{ref(c4), d3, ref(c1)}},
		{"relative path", Filter{File: "sub/b.txt"}, []Ref{ref(c2)}},
		{"absolute glob", Filter{File: dir + "/sub/*"}, []Ref{ref(c2)}},
		{"relative wildcard", Filter{File: "sub/*"}, []Ref{ref(c2)}},
		{"relative wildcard, a page of one", Filter{File: "*.go", Limit: 1}, []Ref{ref(c4)}},
		{"wildcard matching none", Filter{File: "nowhere/*"}, nil},
		{"future", Filter{Since: time.Now().Add(time.Hour)}, nil},
		{"restores", Filter{Decision: EntryRestore}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page, err := j.History(ctx, tt.filter)
			if err != nil {
				t.Fatal(err)
			}
			if got := refs(page.Entries); !slices.Equal(got, tt.want) {
				t.Errorf("History(%+v) = %v; want %v", tt.filter, got, tt.want)
			}
		})
	}
	page, err := j.History(ctx, Filter{Agent: "claude", Decision: string(decision.Rejected)})
	if err != nil || len(page.Entries) != 1 {
		t.Fatalf("History(rejected by claude) = %+v, %v", page, err)
	}
	if e := page.Entries[0]; e.Kind != EntryDecision || e.Feedback != "no thanks" || !slices.Equal(e.Paths, []string{a}) || e.ProposalID != "p3" {
		t.Errorf("rejected entry = %+v; want kind decision, the reason, the file and the proposal", e)
	}
}

func TestHistoryPaging(t *testing.T) {
	ctx := context.Background()
	j := openTestJournal(t)
	path := filepath.Join(t.TempDir(), "f.txt")
	var want []Ref
	for i := range 7 {
		if i%3 == 2 {
			want = append(want, historyReject(t, j, fmt.Sprint("r", i), "claude", path, []byte("x"), "no"))
			continue
		}
		want = append(want, Ref(fmt.Sprint(historyWrite(t, j, fmt.Sprint("p", i), "claude", path, fmt.Appendf(nil, "v%d\n", i)))))
	}
	slices.Reverse(want)
	var got []Ref
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 10 {
			t.Fatal("paging does not end")
		}
		page, err := j.History(ctx, Filter{Limit: 2, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, refs(page.Entries)...)
		if cursor = page.Next; cursor == "" {
			break
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("History pages = %v; want %v", got, want)
	}
	if _, err := j.History(ctx, Filter{Cursor: "garbage"}); !errors.Is(err, errBadCursor) {
		t.Errorf("History(bad cursor) = %v; want errBadCursor", err)
	}
}

func TestParseHistoryRef(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"42", "42", true}, {"c42", "42", true}, {"d7", "d7", true}, {" 9 ", "9", true},
		{"0", "", false}, {"x1", "", false}, {"d", "", false}, {"-3", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseRef(tt.in)
			if (err == nil) != tt.ok || string(got) != tt.want {
				t.Errorf("ParseRef(%q) = %q, %v; want %q (ok %v)", tt.in, got, err, tt.want, tt.ok)
			}
			if err != nil && !strings.Contains(err.Error(), tt.in) {
				t.Errorf("ParseRef(%q) error %q does not name the input", tt.in, err)
			}
		})
	}
}

func TestHistoryDetailStages(t *testing.T) {
	ctx := context.Background()
	j := openTestJournal(t)
	path := filepath.Join(t.TempDir(), "main.go")
	os.WriteFile(path, []byte("package main\n"), 0o644)
	base := []byte("package main\n")
	proposed := []byte("package main\nfunc  f() {}\n")
	approved := []byte("package main\nfunc  g() {}\n")
	formatted := []byte("package main\n\nfunc g() {}\n")
	if err := j.RecordProposal(ctx, ProposalRecord{ID: "p", Agent: "claude", Session: "s", Format: "edit", Payload: []byte(`{"old_string":"x"}`),
		Status: "pending", Files: []ProposalFileRecord{{Path: path, Root: filepath.Dir(path), BaseExists: true, Base: base, Proposed: proposed}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := j.RecordDecision(ctx, DecisionRecord{ProposalID: "p", Decision: decision.ApprovedEdited, Feedback: "renamed",
		Files: []DecisionFile{{Path: path, Approved: approved}}}); err != nil {
		t.Fatal(err)
	}
	cp, err := j.BeginWrite(ctx, WriteIntent{ProposalID: "p", Files: []FileWrite{{Path: path, Root: filepath.Dir(path), BeforeExists: true, Before: base, After: formatted}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := atomicfile.Save(path, formatted, 0); err != nil {
		t.Fatal(err)
	}
	if err := j.FinishWrite(ctx, cp, []FileFinal{{Path: path, Formatted: true, FormatterOutput: formatted, Final: formatted}}); err != nil {
		t.Fatal(err)
	}
	if err := j.RecordOutcome(ctx, "p", []byte(`{"status":"approved-edited"}`), time.Time{}); err != nil {
		t.Fatal(err)
	}
	d, err := j.Detail(ctx, Ref(fmt.Sprint(cp)))
	if err != nil {
		t.Fatal(err)
	}
	if d.Decision != decision.ApprovedEdited || d.Feedback != "renamed" || d.Format != "edit" || string(d.Payload) != `{"old_string":"x"}` || string(d.Outcome) != `{"status":"approved-edited"}` {
		t.Errorf("Detail = %+v; want the decision, reason, format, payload and outcome", d.Entry)
	}
	if len(d.Files) != 1 {
		t.Fatalf("Detail files = %+v; want one", d.Files)
	}
	f := d.Files[0]
	stages := []struct{ name, got, want string }{
		{"base", f.Base, atomicfile.Hash(base)}, {"proposed", f.Proposed, atomicfile.Hash(proposed)},
		{"approved", f.Approved, atomicfile.Hash(approved)}, {"before", f.Before, atomicfile.Hash(base)},
		{"formatted", f.Formatted, atomicfile.Hash(formatted)}, {"final", f.Final, atomicfile.Hash(formatted)},
	}
	for _, s := range stages {
		if s.got != s.want {
			t.Errorf("Detail file %s = %s; want %s", s.name, s.got, s.want)
		}
	}
	edits, err := j.DiffStage(ctx, path, "proposed", f.Proposed, "approved", f.Approved)
	if err != nil || !strings.Contains(edits.Unified, "-func  f() {}\n+func  g() {}\n") {
		t.Errorf("DiffStage(person's edits) = %q, %v", edits.Unified, err)
	}
	change, err := j.DiffEntry(ctx, Ref(fmt.Sprint(cp)), nil)
	if err != nil || len(change) != 1 || change[0].Added != 2 || change[0].Removed != 0 {
		t.Errorf("DiffEntry = %+v, %v; want 2 lines added", change, err)
	}
	if _, err := j.Detail(ctx, "999"); !errors.Is(err, ErrNotJournaled) {
		t.Errorf("Detail(999) = %v; want ErrNotJournaled", err)
	}
	if _, err := j.Detail(ctx, "d999"); !errors.Is(err, ErrNotJournaled) {
		t.Errorf("Detail(d999) = %v; want ErrNotJournaled", err)
	}
}

func TestHistoryDiffs(t *testing.T) {
	ctx := context.Background()
	j := openTestJournal(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("a0\n"), 0o644)
	c1 := historyWrite(t, j, "p1", "claude", a, []byte("a1\n"))
	c2 := historyWrite(t, j, "p2", "claude", b, []byte("b1\n"))
	c3 := historyWrite(t, j, "p3", "claude", a, []byte("a2\n"))
	d4 := historyReject(t, j, "p4", "claude", b, []byte("b-rejected\n"), "no")
	os.WriteFile(a, []byte("a-disk\n"), 0o644)

	tests := []struct {
		name string
		diff func() ([]FileDiff, error)
		want map[string][2]string // path → old, new ("-" = no file)
	}{
		{"entry", func() ([]FileDiff, error) { return j.DiffEntry(ctx, Ref(fmt.Sprint(c3)), nil) },
			map[string][2]string{a: {"a1\n", "a2\n"}}},
		{"rejected decision", func() ([]FileDiff, error) { return j.DiffEntry(ctx, d4, nil) },
			map[string][2]string{b: {"b1\n", "b-rejected\n"}}},
		{"points", func() ([]FileDiff, error) { return j.DiffPoints(ctx, c1, c3, nil) },
			map[string][2]string{a: {"a1\n", "a2\n"}, b: {"-", "b1\n"}}},
		{"points reversed", func() ([]FileDiff, error) { return j.DiffPoints(ctx, c3, c1, nil) },
			map[string][2]string{a: {"a2\n", "a1\n"}, b: {"b1\n", "-"}}},
		{"points one file", func() ([]FileDiff, error) { return j.DiffPoints(ctx, c1, c3, []string{a}) },
			map[string][2]string{a: {"a1\n", "a2\n"}}},
		{"disk", func() ([]FileDiff, error) { return j.DiffDisk(ctx, c1, nil) },
			map[string][2]string{a: {"a1\n", "a-disk\n"}}},
		{"disk unchanged", func() ([]FileDiff, error) { return j.DiffDisk(ctx, c2, nil) }, map[string][2]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diffs, err := tt.diff()
			if err != nil {
				t.Fatal(err)
			}
			got := map[string][2]string{}
			for _, d := range diffs {
				side := func(exists bool, c []byte) string {
					if !exists {
						return "-"
					}
					return string(c)
				}
				got[d.Path] = [2]string{side(d.OldExists, d.Old), side(d.NewExists, d.New)}
				if d.Unified == "" || !strings.Contains(d.Unified, d.OldLabel) {
					t.Errorf("%s: unified diff %q lacks its label %q", d.Path, d.Unified, d.OldLabel)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("diff = %v; want %v", got, tt.want)
			}
		})
	}
	if _, err := j.DiffEntry(ctx, Ref(fmt.Sprint(c1)), []string{b}); err == nil || !strings.Contains(err.Error(), b) {
		t.Errorf("DiffEntry(c1, other file) = %v; want an error naming %s", err, b)
	}
}

func TestHistoryOnJournalMigratedFromFirstSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "journal.db")
	old, err := openAt(ctx, path, 1)
	if err != nil {
		t.Fatal(err)
	}
	content := []byte("package main\n")
	hash := atomicfile.Hash(content)
	for _, q := range []string{
		fmt.Sprintf(`INSERT INTO blobs(hash, size, codec, data) VALUES ('%s', %d, 'zstd', x'%x')`, hash, len(content), old.codec.enc.EncodeAll(content, nil)),
		`INSERT INTO sessions VALUES ('claude', 's1', 1, 1)`,
		`INSERT INTO proposals(id, agent, session, created, format, status, updated) VALUES ('p1', 'claude', 's1', 1, 'write', 'reported', 1)`,
		fmt.Sprintf(`INSERT INTO proposal_files(proposal_id, path, root, proposed) VALUES ('p1', '/w/main.go', '/w', '%s')`, hash),
		`INSERT INTO decisions(proposal_id, decision, time) VALUES ('p1', 'approved', 2)`,
		`INSERT INTO checkpoints(kind, proposal_id, decision_id, agent, session, state, created, finished) VALUES ('write', 'p1', 1, 'claude', 's1', 'written', 3, 4)`,
		fmt.Sprintf(`INSERT INTO checkpoint_files(checkpoint_id, path, root, after, final, state) VALUES (1, '/w/main.go', '/w', '%s', '%s', 'written')`, hash, hash),
		`INSERT INTO proposals(id, agent, session, created, format, status, updated) VALUES ('p2', 'claude', 's1', 5, 'write', 'rejected', 5)`,
		fmt.Sprintf(`INSERT INTO proposal_files(proposal_id, path, root, base, proposed) VALUES ('p2', '/w/main.go', '/w', '%s', '%s')`, hash, hash),
		`INSERT INTO decisions(proposal_id, decision, time, feedback) VALUES ('p2', 'rejected', 6, 'no')`,
	} {
		if _, err := old.db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	old.Close()
	j, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	page, err := j.History(ctx, Filter{File: "/w/main.go"})
	if err != nil || !slices.Equal(refs(page.Entries), []Ref{"d2", "1"}) {
		t.Fatalf("History(v1 journal) = %+v, %v; want d2 then 1", page.Entries, err)
	}
	diffs, err := j.DiffEntry(ctx, "1", nil)
	if err != nil || len(diffs) != 1 || !strings.Contains(diffs[0].Unified, "+package main") {
		t.Errorf("DiffEntry(v1 checkpoint) = %+v, %v", diffs, err)
	}
	if rep, err := j.Prune(ctx, RetentionPolicy{MaxAge: time.Hour}, false); err != nil || rep.Checkpoints != 1 || rep.Blobs != 1 {
		t.Errorf("Prune(v1 journal) = %+v, %v; want the old checkpoint and its blob gone", rep, err)
	}
}

func TestHistoryAgents(t *testing.T) {
	ctx := context.Background()
	j := openTestJournal(t)
	for i, as := range [][2]string{{"claude", "s1"}, {"gemini", "g1"}, {"claude", "s2"}} {
		if err := j.TouchSession(ctx, as[0], as[1], time.Unix(int64(100+i), 0)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := j.Agents(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := "[{claude [s2 s1]} {gemini [g1]}]"
	var short []struct {
		A string
		S []string
	}
	for _, a := range got {
		short = append(short, struct {
			A string
			S []string
		}{a.Agent, a.Sessions})
	}
	if fmt.Sprint(short) != want {
		t.Errorf("Agents = %v; want %s", short, want)
	}
}
