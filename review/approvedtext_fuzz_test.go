package review_test

import (
	"testing"

	"github.com/diffdesk/diffdesk/review"
)

// FuzzApprovedText: a far desk's outcome carries a file's final text and
// the formatter's patch (AutoFormatEdits), and the window undoes one on
// the other to show what was approved. Both are the far desk's to choose:
// any pair is an answer or false, never a panic in the window.
func FuzzApprovedText(f *testing.F) {
	f.Add("a\nB\nc\n", "--- a\n+++ b\n@@ -2 +2 @@\n-b\n+B\n")
	f.Add("x", "--- a\n+++ b\n@@ -1 +1 @@\n-y\n\\ No newline at end of file\n+x\n\\ No newline at end of file\n")
	f.Add("", "--- a\n+++ b\n@@ -0,0 +1 @@\n+\n")
	f.Add("a\n", "--- a\n+++ b\n@@ -1,0 +999999999999999999999,3 @@\n\\\n")
	f.Fuzz(func(t *testing.T, final, patch string) {
		fo := review.FileOutcome{FinalContent: final, AutoFormatEdits: patch}
		fo.ApprovedText()
	})
}
