package engine

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
)

// patchTreeReader serves files from a map, as ApplyPatch's read callback.
func patchTreeReader(files map[string]string) func(string) (string, bool, error) {
	return func(p string) (string, bool, error) {
		s, ok := files[p]
		return s, ok, nil
	}
}

func TestApplyPatchTree(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		patch string
		want  map[string]string
	}{
		{
			name:  "codex update keeps CRLF and BOM",
			files: map[string]string{"a.txt": "\uFEFFone\r\ntwo\r\n"},
			patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+TWO\n+three\n*** End Patch",
			want:  map[string]string{"a.txt": "\uFEFFone\r\nTWO\r\nthree\r\n"},
		},
		{
			name:  "codex context line keeps the file's text when matched loosely",
			files: map[string]string{"a.go": "x := 1   \ny := 2\n"},
			patch: "*** Begin Patch\n*** Update File: a.go\n@@\n x := 1\n-y := 2\n+y := 3\n*** End Patch",
			want:  map[string]string{"a.go": "x := 1   \ny := 3\n"},
		},
		{
			name:  "codex normalised punctuation",
			files: map[string]string{"a.txt": "say “hi” — now\nend\n"},
			patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n-say \"hi\" - now\n+say hello\n end\n*** End Patch",
			want:  map[string]string{"a.txt": "say hello\nend\n"},
		},
		{
			name:  "codex no final newline kept when last line untouched",
			files: map[string]string{"a.txt": "a\nb\nc"},
			patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n b\n*** End Patch",
			want:  map[string]string{"a.txt": "A\nb\nc"},
		},
		{
			name:  "codex changing the last line adds the final newline",
			files: map[string]string{"a.txt": "a\nb"},
			patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n a\n-b\n+B\n*** End Patch",
			want:  map[string]string{"a.txt": "a\nB\n"},
		},
		{
			name:  "codex @@ context picks the later of two equal blocks",
			files: map[string]string{"a.py": "def f():\n    return 1\ndef g():\n    return 1\n"},
			patch: "*** Begin Patch\n*** Update File: a.py\n@@ def g():\n-    return 1\n+    return 2\n*** End Patch",
			want:  map[string]string{"a.py": "def f():\n    return 1\ndef g():\n    return 2\n"},
		},
		{
			name:  "codex several @@ lines narrow the place",
			files: map[string]string{"a.py": "class A:\n    def f(self):\n        return 1\nclass B:\n    def f(self):\n        return 1\n"},
			patch: "*** Begin Patch\n*** Update File: a.py\n@@ class B:\n@@     def f(self):\n-        return 1\n+        return 2\n*** End Patch",
			want:  map[string]string{"a.py": "class A:\n    def f(self):\n        return 1\nclass B:\n    def f(self):\n        return 2\n"},
		},
		{
			name:  "codex pure addition after its @@ context",
			files: map[string]string{"a.py": "import os\n\ndef f():\n    pass\n"},
			patch: "*** Begin Patch\n*** Update File: a.py\n@@ import os\n+import sys\n*** End Patch",
			want:  map[string]string{"a.py": "import os\nimport sys\n\ndef f():\n    pass\n"},
		},
		{
			name:  "codex chunk after an appending chunk",
			files: map[string]string{"a.txt": "a\nb\n"},
			patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n+c\n@@\n-a\n+A\n*** End Patch",
			want:  map[string]string{"a.txt": "A\nb\nc\n"},
		},
		{
			name:  "codex End of File anchors at the end",
			files: map[string]string{"a.txt": "x\ny\nx\n"},
			patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+z\n*** End of File\n*** End Patch",
			want:  map[string]string{"a.txt": "x\ny\nz\n"},
		},
		{
			name:  "codex trailing empty context line retried without it",
			files: map[string]string{"a.txt": "a\nb\n"},
			patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n-b\n+c\n\n*** End Patch",
			want:  map[string]string{"a.txt": "a\nc\n"},
		},
		{
			name:  "codex heredoc wrapper",
			files: map[string]string{"a.txt": "a\n"},
			patch: "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: a.txt\n-a\n+b\n*** End Patch\nEOF\n",
			want:  map[string]string{"a.txt": "b\n"},
		},
		{
			name:  "codex in a Markdown fence",
			files: map[string]string{"a.txt": "a\n"},
			patch: "```\n*** Begin Patch\n*** Update File: a.txt\n-a\n+--- b\n++++ c\n*** End Patch\n```\n",
			want:  map[string]string{"a.txt": "--- b\n+++ c\n"},
		},
		{
			name:  "codex unified-style chunk header",
			files: map[string]string{"a.txt": "a\nb\n"},
			patch: "*** Begin Patch\n*** Update File: a.txt\n@@ -2,1 +2,1 @@\n-b\n+c\n*** End Patch",
			want:  map[string]string{"a.txt": "a\nc\n"},
		},
		{
			name:  "codex delete then add the same path",
			files: map[string]string{"a.txt": "old\n"},
			patch: "*** Begin Patch\n*** Delete File: a.txt\n*** Add File: a.txt\n+new\n*** End Patch",
			want:  map[string]string{"a.txt": "new\n"},
		},
		{
			name:  "codex add with a lost '+' on a blank line",
			files: map[string]string{},
			patch: "*** Begin Patch\n*** Add File: n.txt\n+a\n\n+b\n*** End Patch",
			want:  map[string]string{"n.txt": "a\n\nb\n"},
		},
		{
			name:  "codex add takes the patch's CRLF",
			files: map[string]string{},
			patch: "*** Begin Patch\r\n*** Add File: n.txt\r\n+a\r\n+b\r\n*** End Patch\r\n",
			want:  map[string]string{"n.txt": "a\r\nb\r\n"},
		},
		{
			name:  "codex paths are cleaned",
			files: map[string]string{"d/a.txt": "a\n"},
			patch: "*** Begin Patch\n*** Update File: ./d//a.txt\n*** Move to: e\\b.txt\n@@\n-a\n+b\n*** End Patch",
			want:  map[string]string{"e/b.txt": "b\n"},
		},
		{
			name:  "codex context line that looks like a header",
			files: map[string]string{"doc.md": "Example:\n*** Update File: x\nend\n"},
			patch: "*** Begin Patch\n*** Update File: doc.md\n@@\n-Example:\n+For example:\n *** Update File: x\n*** End Patch",
			want:  map[string]string{"doc.md": "For example:\n*** Update File: x\nend\n"},
		},
		{
			name:  "unified git diff with two files",
			files: map[string]string{"a.txt": "1\n2\n3\n", "b.txt": "x\n"},
			patch: "diff --git a/a.txt b/a.txt\nindex 1..2 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n 1\n-2\n+two\n 3\ndiff --git a/b.txt b/b.txt\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-x\n+y\n",
			want:  map[string]string{"a.txt": "1\ntwo\n3\n", "b.txt": "y\n"},
		},
		{
			name:  "unified add and delete via /dev/null",
			files: map[string]string{"old.txt": "gone\nnow\n"},
			patch: "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n--- a/old.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-gone\n-now\n",
			want:  map[string]string{"new.txt": "hello\nworld\n"},
		},
		{
			name:  "unified no newline markers",
			files: map[string]string{"a.txt": "a\nb"},
			patch: "--- a.txt\n+++ a.txt\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n",
			want:  map[string]string{"a.txt": "a\nc\n"},
		},
		{
			name:  "unified removes the final newline",
			files: map[string]string{"a.txt": "a\nb\n"},
			patch: "--- a/a.txt\n+++ b/a.txt\n@@ -2 +2 @@\n-b\n+b\n\\ No newline at end of file\n",
			want:  map[string]string{"a.txt": "a\nb"},
		},
		{
			name:  "unified rename with a hunk",
			files: map[string]string{"old.go": "package a\n"},
			patch: "diff --git a/old.go b/new.go\nsimilarity index 90%\nrename from old.go\nrename to new.go\n--- a/old.go\n+++ b/new.go\n@@ -1 +1 @@\n-package a\n+package b\n",
			want:  map[string]string{"new.go": "package b\n"},
		},
		{
			name:  "unified pure rename",
			files: map[string]string{"old.go": "package a\n"},
			patch: "diff --git a/old.go b/new.go\nsimilarity index 100%\nrename from old.go\nrename to new.go\n",
			want:  map[string]string{"new.go": "package a\n"},
		},
		{
			name:  "unified hunk found away from its header line",
			files: map[string]string{"a.txt": "p\nq\nr\ns\nt\nu\n"},
			patch: "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n s\n-t\n+T\n@@ -3,1 +3,1 @@\n-u\n+U\n",
			want:  map[string]string{"a.txt": "p\nq\nr\ns\nT\nU\n"},
		},
		{
			name:  "unified miscounted hunk and prose around it",
			files: map[string]string{"a.txt": "a\nb\nc\n"},
			patch: "Here is the fix:\n\n--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,1 @@\n a\n-b\n+B\n c\n\nThat's all.\n",
			want:  map[string]string{"a.txt": "a\nB\nc\n"},
		},
		{
			name:  "unified insertion at the header's line",
			files: map[string]string{"a.txt": "a\nb\n"},
			patch: "--- a/a.txt\n+++ b/a.txt\n@@ -1,0 +2 @@\n+between\n",
			want:  map[string]string{"a.txt": "a\nbetween\nb\n"},
		},
		{
			name:  "unified hunk without numbers",
			files: map[string]string{"a.txt": "a\nb\n\nc\n"},
			patch: "--- a/a.txt\n+++ b/a.txt\n@@ @@\n b\n\n-c\n+C\n",
			want:  map[string]string{"a.txt": "a\nb\n\nC\n"},
		},
		{
			name:  "unified insertion without numbers goes at the end",
			files: map[string]string{"a.txt": "a\n"},
			patch: "--- a/a.txt\n+++ b/a.txt\n@@\n+z\n",
			want:  map[string]string{"a.txt": "a\nz\n"},
		},
		{
			name:  "patch with a BOM",
			files: map[string]string{"a.txt": "a\n"},
			patch: "\uFEFF*** Begin Patch\n*** Update File: a.txt\n-a\n+b\n*** End Patch",
			want:  map[string]string{"a.txt": "b\n"},
		},
		{
			name:  "unified diff of a missing file that only adds lines creates it",
			files: map[string]string{},
			patch: "--- a/n.txt\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n",
			want:  map[string]string{"n.txt": "a\nb\n"},
		},
		{
			name:  "diff -ruN of two trees",
			files: map[string]string{"sub/x.txt": "a\nb\n", "del.txt": "bye\n"},
			patch: "diff -ruN d1/del.txt d2/del.txt\n--- d1/del.txt\t2026-11-22 09:11:42.636774446 +0000\n+++ d2/del.txt\t1970-01-01 00:00:00.000000000 +0000\n@@ -1 +0,0 @@\n-bye\n" +
				"diff -ruN d1/new.txt d2/new.txt\n--- d1/new.txt\t1969-12-31 19:00:00.000000000 -0500\n+++ d2/new.txt\t2026-11-22 09:11:42.636774446 +0000\n@@ -0,0 +1 @@\n+hi\n" +
				"diff -ruN d1/sub/x.txt d2/sub/x.txt\n--- d1/sub/x.txt\t2026-11-22 09:11:42.636774446 +0000\n+++ d2/sub/x.txt\t2026-11-22 09:11:42.636774446 +0000\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n",
			want: map[string]string{"sub/x.txt": "a\nB\n", "new.txt": "hi\n"},
		},
		{
			name:  "unified new empty file",
			files: map[string]string{},
			patch: "diff --git a/e.txt b/e.txt\nnew file mode 100644\nindex 0000000..e69de29\n",
			want:  map[string]string{"e.txt": ""},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := patchTreeResult(tt.files, tt.patch)
			if err != nil {
				t.Fatalf("ApplyPatch(%q) error: %v", tt.patch, err)
			}
			if !maps.Equal(got, tt.want) {
				t.Errorf("ApplyPatch(%q) tree = %q; want %q", tt.patch, got, tt.want)
			}
		})
	}
}

func TestApplyPatchMixedLineEndings(t *testing.T) {
	tests := []struct {
		name, file, patch, want string
	}{
		{
			name:  "new lines take the dominant ending",
			file:  "one\r\ntwo\nthree\r\nfour\r\n",
			patch: "*** Begin Patch\n*** Update File: m.txt\n@@\n one\n-two\n+TWO\n+2b\n three\n*** End Patch",
			want:  "one\r\nTWO\r\n2b\r\nthree\r\nfour\r\n",
		},
		{
			name:  "lines between chunks keep their own endings",
			file:  "a\r\nb\nc\rd\ne\r\nf\r\n",
			patch: "--- a/m.txt\n+++ b/m.txt\n@@ -1 +1 @@\n-a\n+A\n@@ -6 +6 @@\n-f\n+F\n",
			want:  "A\r\nb\nc\rd\ne\r\nF\r\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := patchTreeResult(map[string]string{"m.txt": tt.file}, tt.patch)
			if err != nil || got["m.txt"] != tt.want {
				t.Errorf("ApplyPatch(%q) on %q = %q, %v; want %q", tt.patch, tt.file, got["m.txt"], err, tt.want)
			}
		})
	}
}

func TestApplyPatchMatches(t *testing.T) {
	files := map[string]string{"a.txt": "1\n2\n3\n4\n5\n6\n7\n8\n"}
	tests := []struct {
		name  string
		patch string
		want  []Match
	}{
		{
			name:  "codex chunks",
			patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n 2\n-3\n+three\n@@\n-7 \n+seven\n*** End Patch",
			want:  []Match{{Block: 1, Strategy: StrategyExact, StartLine: 2, EndLine: 3}, {Block: 2, Strategy: StrategyLineTrimmed, StartLine: 7, EndLine: 7}},
		},
		{
			name:  "codex pure addition",
			patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n+9\n*** End Patch",
			want:  []Match{{Block: 1, Strategy: StrategyExact, StartLine: 9, EndLine: 8}},
		},
		{
			name:  "unified offset shows in the lines",
			patch: "--- a/a.txt\n+++ b/a.txt\n@@ -2,2 +2,2 @@\n 5\n-6\n+six\n",
			want:  []Match{{Block: 1, Strategy: StrategyExact, StartLine: 5, EndLine: 6}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			changes, err := ApplyPatch(tt.patch, patchTreeReader(files))
			if err != nil {
				t.Fatalf("ApplyPatch(%q) error: %v", tt.patch, err)
			}
			if len(changes) != 1 || !slices.Equal(locations(changes[0].Matches), tt.want) {
				t.Errorf("ApplyPatch(%q) = %+v; want one change with matches %+v", tt.patch, changes, tt.want)
			}
		})
	}
}

func TestApplyPatchChangeFields(t *testing.T) {
	files := map[string]string{"a.txt": "a\n", "gone.txt": "bye\n"}
	patch := "*** Begin Patch\n*** Add File: n.txt\n+hi\n*** Delete File: gone.txt\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-a\n+b\n*** End Patch"
	got, err := ApplyPatch(patch, patchTreeReader(files))
	if err != nil {
		t.Fatal(err)
	}
	want := []FileChange{
		{Op: PatchAdd, Path: "n.txt", New: "hi\n"},
		{Op: PatchDelete, Path: "gone.txt", Old: "bye\n"},
		{Op: PatchUpdate, Path: "a.txt", MoveTo: "b.txt", Old: "a\n", New: "b\n", Matches: []Match{{Block: 1, Strategy: StrategyExact, StartLine: 1, EndLine: 1}}},
	}
	if len(got) != len(want) {
		t.Fatalf("ApplyPatch(%q) = %+v; want %+v", patch, got, want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Op != w.Op || g.Path != w.Path || g.MoveTo != w.MoveTo || g.Old != w.Old || g.New != w.New || !slices.Equal(locations(g.Matches), w.Matches) {
			t.Errorf("ApplyPatch(%q)[%d] = %+v; want %+v", patch, i, g, w)
		}
	}
}

// TestApplyPatchAllOrNothing covers the divergence from Codex scenario 015:
// a failing hunk leaves no earlier change behind.
func TestApplyPatchAllOrNothing(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: created.txt\n+hello\n*** Update File: a.txt\n@@\n-x\n+y\n@@\n-missing\n+z\n*** End Patch"
	changes, err := ApplyPatch(patch, patchTreeReader(map[string]string{"a.txt": "x\nq\n"}))
	var me *MatchError
	if !errors.As(err, &me) || changes != nil {
		t.Fatalf("ApplyPatch(%q) = %+v, %v; want no changes and a *MatchError", patch, changes, err)
	}
	if me.Path != "a.txt" || me.Block != 2 || me.Kind != FailNoMatch || me.Search != "missing\n" || len(me.Applied) != 1 {
		t.Errorf("ApplyPatch(%q) error = %+v; want a.txt chunk 2 not found with chunk 1 applied", patch, me)
	}
	if !strings.Contains(err.Error(), "a.txt") {
		t.Errorf("ApplyPatch(%q) error %q does not name the file", patch, err)
	}
}

// TestApplyPatchRefusesOverwrite covers the divergences from Codex
// scenarios 010 and 011: creating or moving onto an existing file fails.
func TestApplyPatchRefusesOverwrite(t *testing.T) {
	files := map[string]string{"a.txt": "a\n", "b.txt": "b\n"}
	tests := []struct {
		name, patch, path string
	}{
		{"add", "*** Begin Patch\n*** Add File: b.txt\n+new\n*** End Patch", "b.txt"},
		{"move", "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-a\n+A\n*** End Patch", "a.txt"},
		{"unified add", "--- /dev/null\n+++ b/b.txt\n@@ -0,0 +1 @@\n+new\n", "b.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			changes, err := ApplyPatch(tt.patch, patchTreeReader(files))
			var me *MatchError
			if !errors.As(err, &me) || me.Kind != FailFileExists || me.Path != tt.path || !strings.Contains(me.Hint, "b.txt") {
				t.Errorf("ApplyPatch(%q) = %+v, %v; want FailFileExists on %s naming b.txt", tt.patch, changes, err, tt.path)
			}
		})
	}
}

func TestApplyPatchFileErrors(t *testing.T) {
	files := map[string]string{"a.txt": "a\n", "bin": "\x00\x01", "d/x": "x\n"}
	tests := []struct {
		name, patch string
		kind        Failure
	}{
		{"update missing", "*** Begin Patch\n*** Update File: nope.txt\n@@\n-a\n+b\n*** End Patch", FailFileMissing},
		{"delete missing", "*** Begin Patch\n*** Delete File: nope.txt\n*** End Patch", FailFileMissing},
		{"delete directory", "*** Begin Patch\n*** Delete File: d\n*** End Patch", FailFileMissing},
		{"update after delete", "*** Begin Patch\n*** Delete File: a.txt\n*** Update File: a.txt\n@@\n-a\n+b\n*** End Patch", FailFileMissing},
		{"unified delete of a changed file", "--- a/a.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-b\n", FailNoMatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ApplyPatch(tt.patch, patchTreeReader(files))
			var me *MatchError
			if !errors.As(err, &me) || me.Kind != tt.kind || me.Hint == "" {
				t.Errorf("ApplyPatch(%q) error = %v; want a *MatchError of kind %s with a hint", tt.patch, err, tt.kind)
			}
		})
	}
	t.Run("binary file", func(t *testing.T) {
		patch := "*** Begin Patch\n*** Update File: bin\n@@\n-a\n+b\n*** End Patch"
		_, err := ApplyPatch(patch, patchTreeReader(files))
		var ce *ContentError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), "bin") {
			t.Errorf("ApplyPatch(%q) error = %v; want a *ContentError naming bin", patch, err)
		}
	})
	t.Run("read error", func(t *testing.T) {
		boom := errors.New("boom")
		_, err := ApplyPatch("*** Begin Patch\n*** Delete File: a.txt\n*** End Patch", func(string) (string, bool, error) { return "", false, boom })
		if !errors.Is(err, boom) || !strings.Contains(err.Error(), "a.txt") {
			t.Errorf("ApplyPatch with a failing read: error = %v; want it to wrap boom and name a.txt", err)
		}
	})
}

func TestApplyPatchClosest(t *testing.T) {
	files := map[string]string{"a.go": "package a\n\nfunc f() {\n\treturn 1\n}\n\nfunc g() {}\n"}
	patch := "*** Begin Patch\n*** Update File: a.go\n@@\n func f() {\n-\treturn 2\n+\treturn 3\n }\n*** End Patch"
	_, err := ApplyPatch(patch, patchTreeReader(files))
	var me *MatchError
	if !errors.As(err, &me) || len(me.Closest) == 0 {
		t.Fatalf("ApplyPatch(%q) error = %v; want a *MatchError with closest lines", patch, err)
	}
	c := me.Closest[0]
	if c.StartLine != 3 || c.EndLine != 5 || c.Similarity <= 0.5 || c.Similarity >= 1 || len(c.Lines) != 3 {
		t.Errorf("ApplyPatch(%q) closest = %+v; want lines 3-5 with similarity in (0.5, 1)", patch, c)
	}
	if len(me.Tried) != 3 {
		t.Errorf("ApplyPatch(%q) tried = %v; want exact, line-trimmed and normalized", patch, me.Tried)
	}
}

func TestApplyPatchFormatErrors(t *testing.T) {
	tests := []struct {
		name, patch string
		line        int
		msg         string
	}{
		{"not a patch", "hello", 1, "not a patch"},
		{"bad hunk header", "*** Begin Patch\n*** Frobnicate File: foo\n*** End Patch", 2, "is not a valid hunk header"},
		{"no end", "*** Begin Patch\n*** Delete File: a\n", 2, "*** End Patch"},
		{"no begin", "*** Update File: a\n@@\n-a\n+b\n*** End Patch", 1, "*** Begin Patch"},
		{"empty patch", "*** Begin Patch\n*** End Patch", 1, "no file sections"},
		{"empty update", "*** Begin Patch\n*** Update File: a\n*** End Patch", 2, "has no chunks"},
		{"chunk line without prefix", "*** Begin Patch\n*** Update File: a\n@@\n-a\n+b\n@@\n-c\nd\n*** End Patch", 8, "is not a chunk line"},
		{"absolute path", "*** Begin Patch\n*** Delete File: /etc/passwd\n*** End Patch", 2, "absolute"},
		{"windows absolute path", "*** Begin Patch\n*** Delete File: C:\\x\n*** End Patch", 2, "absolute"},
		{"escape", "*** Begin Patch\n*** Add File: a/../../x\n+x\n*** End Patch", 2, "'..'"},
		{"empty name", "*** Begin Patch\n*** Add File: \n+x\n*** End Patch", 2, "no file name"},
		{"NUL", "*** Begin Patch\n\n*** Add File: a\x00b\n+x\n*** End Patch", 3, "NUL"},
		{"move escape", "*** Begin Patch\n*** Update File: a\n*** Move to: ../b\n@@\n-a\n+b\n*** End Patch", 3, "'..'"},
		{"unclosed heredoc", "<<EOF\n*** Begin Patch\n*** Delete File: a\n*** End Patch", 4, "not closed"},
		{"unified hunk without file", "@@ -1 +1 @@\n-a\n+b\n--- x\n", 1, "no file header"},
		{"unified bad hunk header", "--- a/x\n+++ b/x\n@@ -1 +1\n-a\n+b\n", 3, "not a valid hunk header"},
		{"unified short hunk", "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\nnot a hunk line\n", 6, "ends early"},
		{"unified binary", "diff --git a/x b/x\nBinary files a/x and b/x differ\n", 2, "binary"},
		{"unified escape", "--- a/../x\n+++ b/../x\n@@ -1 +1 @@\n-a\n+b\n", 1, "'..'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			changes, err := ApplyPatch(tt.patch, patchTreeReader(map[string]string{"a": "a\n"}))
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Line != tt.line || fe.Format != FormatPatch || !strings.Contains(fe.Msg, tt.msg) {
				t.Errorf("ApplyPatch(%q) = %+v, %v; want a *FormatError at line %d containing %q", tt.patch, changes, err, tt.line, tt.msg)
			}
		})
	}
}

func TestApplyPatchRefusesBinaryPatch(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: a\n+x\x00y\n*** End Patch"
	_, err := ApplyPatch(patch, patchTreeReader(nil))
	var ce *ContentError
	if !errors.As(err, &ce) {
		t.Errorf("ApplyPatch(%q) error = %v; want a *ContentError", patch, err)
	}
}

func FuzzApplyPatch(f *testing.F) {
	for _, s := range []string{
		"*** Begin Patch\n*** Update File: a\n@@ ctx\n a\n-b\n+c\n*** End of File\n*** End Patch",
		"<<'EOF'\n*** Begin Patch\n*** Add File: n\n+x\n*** Delete File: a\n*** End Patch\nEOF",
		"diff --git a/a b/c\nrename from a\nrename to c\n--- a/a\n+++ b/c\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n",
		"--- /dev/null\n+++ b/n\n@@ -0,0 +1 @@\n+x\n",
		"@@ @@\n",
		"```\n*** Begin Patch\n*** Update File: b\n@@ a\n@@ b\n+x\n@@\n-a\n*** End Patch\n```",
		"diff -ruN d1/a d2/a\n--- d1/a\t1970-01-01 00:00:00 +0000\n+++ d2/a\t2020-01-01 00:00:00 +0000\n@@ -0,0 +1 @@\n+x\n",
	} {
		f.Add(s, "a\nb\n")
	}
	f.Fuzz(func(t *testing.T, patch, content string) {
		files := map[string]string{"a": content, "b": content}
		changes, err := ApplyPatch(patch, patchTreeReader(files))
		if err != nil && changes != nil {
			t.Fatalf("ApplyPatch(%q) returned changes with error %v", patch, err)
		}
		for _, c := range changes {
			if c.Path == "" || strings.HasPrefix(c.Path, "/") || strings.HasPrefix(c.Path, "../") || c.Path == ".." {
				t.Errorf("ApplyPatch(%q) gave unsafe path %q", patch, c.Path)
			}
		}
	})
}

// TestApplyPatchFirstOfSeveral: a Codex chunk that fits several places
// takes the first after the previous chunk, as Codex's seek_sequence does,
// and its Match says how many places fit.
func TestApplyPatchFirstOfSeveral(t *testing.T) {
	files := map[string]string{"a.txt": "x = 1  \ny\nx = 1\t\nz\n"}
	patch := "*** Begin Patch\n*** Update File: a.txt\n@@\n-x = 1\n+x = 2\n*** End Patch"
	changes, err := ApplyPatch(patch, patchTreeReader(files))
	if err != nil || len(changes) != 1 || changes[0].New != "x = 2\ny\nx = 1\t\nz\n" || len(changes[0].Matches) != 1 {
		t.Fatalf("ApplyPatch(%q) = %+v, %v; want the first loose place changed", patch, changes, err)
	}
	checkDisclosure(t, changes[0].Matches[0], Match{Block: 1, Strategy: StrategyLineTrimmed, StartLine: 1, EndLine: 1, Similarity: 1, Candidates: 2,
		Searched: "x = 1\n", Found: "x = 1  \n"})
	// An @@ line anchors the chunk: the first loose place after it wins.
	patch = "*** Begin Patch\n*** Update File: a.txt\n@@ y\n-x = 1\n+x = 2\n*** End Patch"
	got, err := patchTreeResult(files, patch)
	if want := "x = 1  \ny\nx = 2\nz\n"; err != nil || got["a.txt"] != want {
		t.Errorf("ApplyPatch(%q) = %q, %v; want %q", patch, got["a.txt"], err, want)
	}
	// Exact duplicates follow Codex: the first place after the previous chunk.
	files = map[string]string{"a.txt": "x\ny\nx\n"}
	patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+X\n*** End Patch"
	changes, err = ApplyPatch(patch, patchTreeReader(files))
	if err != nil || len(changes) != 1 || changes[0].New != "X\ny\nx\n" || len(changes[0].Matches) != 1 {
		t.Fatalf("ApplyPatch(%q) = %+v, %v; want the first x changed", patch, changes, err)
	}
	checkDisclosure(t, changes[0].Matches[0], Match{Block: 1, Strategy: StrategyFirstOfSeveral, StartLine: 1, EndLine: 1, Similarity: 1, Candidates: 2,
		Searched: "x\n", Found: "x\n"})
}

func TestApplyPatchMissingContextLine(t *testing.T) {
	files := map[string]string{"a.go": "package a\n\nfunc f() {\n\treturn 1\n}\n"}
	patch := "*** Begin Patch\n*** Update File: a.go\n@@ func g() {\n-\treturn 1\n+\treturn 2\n*** End Patch"
	_, err := ApplyPatch(patch, patchTreeReader(files))
	var me *MatchError
	if !errors.As(err, &me) || me.Search != "func g() {\n" || len(me.Closest) == 0 || me.Closest[0].StartLine != 3 || !strings.Contains(me.Hint, "@@ func g() {") {
		t.Errorf("ApplyPatch(%q) error = %+v; want the @@ line as the search, closest at line 3, and a hint naming it", patch, err)
	}
}

// TestApplyPatchClosestInBigFile covers the closest-lines search of a file
// too big to score every window.
func TestApplyPatchClosestInBigFile(t *testing.T) {
	file := benchPatchFile(30000)
	lines := strings.SplitAfter(file, "\n")
	var chunk strings.Builder
	chunk.WriteString("*** Begin Patch\n*** Update File: f.go\n@@\n")
	for _, l := range lines[20000:20040] {
		chunk.WriteString("-" + strings.Replace(l, "compute", "calc", 1))
	}
	chunk.WriteString("+x\n*** End Patch")
	_, err := ApplyPatch(chunk.String(), patchTreeReader(map[string]string{"f.go": file}))
	var me *MatchError
	if !errors.As(err, &me) || len(me.Closest) == 0 || me.Closest[0].StartLine != 20001 || me.Closest[0].EndLine != 20040 {
		t.Errorf("ApplyPatch(40 altered lines of a 30000-line file) error = %v; want closest lines 20001-20040", err)
	}
}
