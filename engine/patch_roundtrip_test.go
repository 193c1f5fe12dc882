package engine

import (
	"strings"
	"testing"
)

// FuzzApplyPatchUnifiedRoundTrip checks that applying the unified diff of a
// to b to a gives b.
func FuzzApplyPatchUnifiedRoundTrip(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n", 3)
	f.Add("x", "x\n", 1)
	f.Add("", "new\nfile", 0)
	f.Add("-- a\n++ b\n@@ c\n", "--- a\n+++ b\n", 3)
	f.Add("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\nthree\n4\n5\n6\n7\n8\nnine\n", 1)
	f.Fuzz(func(t *testing.T, a, b string, context int) {
		if a == b || strings.ContainsAny(a+b, "\r\x00") || checkText("file", a) != nil || checkText("file", b) != nil {
			return
		}
		context = min(max(context, 0), 5)
		patch := Unified("a/f", "b/f", a, b, context)
		changes, err := ApplyPatch(patch, patchTreeReader(map[string]string{"f": a}))
		if err != nil {
			t.Fatalf("ApplyPatch(%q) error: %v", patch, err)
		}
		if len(changes) != 1 || changes[0].Op != PatchUpdate || changes[0].New != b {
			t.Fatalf("ApplyPatch(%q) = %+v; want an update of f to %q", patch, changes, b)
		}
	})
}
