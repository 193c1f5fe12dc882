// Package trivial classifies a diff's hunks that need no close reading:
// whitespace only, comment only, or only the newline at the end of the
// file (Classify), by a per-language table of comments and strings
// (syntax.go). It is pure: texts and hunks in, kinds out; no desk state.
// The desk adds formatting-only hunks (review.File.Formatting) and
// approves trivial proposals (review.Desk.ApproveTrivial).
package trivial
