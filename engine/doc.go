// Package engine turns a file's current text and an agent's proposed edit
// into the proposed text, explains failures so an agent can fix them, and
// computes the diffs a person reviews.
//
// It is pure: no I/O, no goroutines, no globals that change, and the
// standard library only; the emphasis inside changed lines is package
// engine/words, with go-diff. Text is handled as Go
// strings of UTF-8; Decode and Doc.Encode keep a file's BOM, line endings
// and final newline across an edit, so formats work on "\n" text.
//
// Formats (see Format): whole-file write, SEARCH/REPLACE blocks, old/new
// replace, multi-edit, Gemini smart edit, and multi-file patches (Codex
// apply_patch and unified diffs). Every applied block reports a Match: the
// Strategy that found it, its line range, the similarity and how many places
// fit; a Loose one (not exact, or the first of several places) also carries
// the text searched for and the text found, so it is never silent. Every
// failure is a *MatchError,
// *FormatError or *ContentError carrying what an agent needs to retry. A
// payload cut short (a SEARCH/REPLACE block without its end marker) applies
// as far as it arrived, as upstream applies it, and Result.Incomplete says
// which block and why.
//
// # Divergences from upstream
//
// The conformance test (conformance_test.go) runs the upstream vectors in
// ../shared/fixtures/upstream. Where upstream loses or corrupts data, or two
// upstreams disagree, DiffDesk deliberately differs; each such vector id is
// listed here with the reason, and our behaviour has its own test.
//
// Aider edit blocks (ApplyEditBlocks, aider-editblock vectors) — all or
// nothing, where aider keeps earlier blocks applied when a later one fails;
// an empty SEARCH on an existing non-empty file is refused, where aider
// appends to it; a SEARCH not in the named file moves to another file only
// if exactly one takes it; a marker line before a block is not taken for its
// filename (aider names the file ">>>>>>> REPLACE"); a filename line in a
// SEARCH/REPLACE text is only stripped together with a fence around it;
// like aider, a SEARCH that fits several places edits the first, disclosed
// as a Loose match. A search-replace payload in aider's markers is applied
// as SearchReplace applies every payload (Cline's matching), which differs
// from aider's do_replace (the generated cases, exactness_contract_test.go):
// a SEARCH that starts inside a line matches there, where aider matches
// whole lines only (disclosed: partial-line, or leading-whitespace when
// only indentation comes before it); a SEARCH whose blank first line is the newline ending
// the line before and a REPLACE that starts with a blank line too keep
// that line as it was (Cline's bytes), where aider adds a blank line; a
// spurious blank first line is dropped also from a two-line SEARCH (aider
// only from longer ones), disclosed as skipped-blank-line:
//   - aider-probe/file-without-final-newline: aider adds a final newline; we keep its absence.
//   - aider-probe/crlf-search-vs-lf-file: SEARCH text is normalised to "\n", so CRLF text matches.
//   - aider-probe/delete-entire-content-is-failure: deleting a file's whole content succeeds.
//
// Old/new replacement (Replace, MultiEdit, SmartEdit; edit and gemini-*
// vectors) — a mixed-ending file keeps each line's ending, where Gemini
// turns every line CRLF once one is; an empty old_string on an existing
// empty file fills it, where Gemini reports the file exists (Claude Code
// fills it too, and also a file of whitespace only, which the engine
// refuses as existing and not empty); SmartEdit's
// legacy variant uses the current re-indentation and counts every regex
// place, where the legacy tool prefixes lines without re-basing and applies
// the first of several regex places:
// Against Gemini CLI's own code (TestGeminiOracle, gemini.json in
// testdata/exactness): a BOM is kept outside the text, where Gemini reads it
// as a character of the first line (which JavaScript's trim removes, so a
// flexible match there drops it); unescaping old and new (our strategy)
// comes before fuzzy matching, so an over-escaped old that Gemini fuzzily
// matches (or fuzzily finds twice and refuses) is replaced where its
// unescaped text is, disclosed as unescaped; where both refuse, the
// unescaped old may make ours a count or no-change error where Gemini's
// is no-occurrence. Fuzzy lengths and distances are counted in UTF-16 code
// units, as Gemini counts them:
//   - gemini/edit.test.ts/EditTool > applyReplacement > should return empty string if currentContent is null and oldString is not empty (defensive):
//     a missing file with a non-empty old_string is FailFileMissing (as Gemini's tool reports), not an empty file.
//
// Codex apply_patch (ApplyPatch, codex-patch vectors) — all or nothing and
// never overwriting; also, a pure-addition chunk with an "@@ context" line
// goes right after that line (Codex appends it at the end of the file),
// and context lines keep the file's own text when they matched loosely; a
// chunk that fits several places takes the first, as Codex does, disclosed
// as a Loose match:
//   - codex/apply-patch/scenarios/015_failure_after_partial_success_leaves_changes: a failing
//     hunk fails the whole patch; Codex leaves the earlier Add File applied (half a patch).
//   - codex/apply-patch/scenarios/011_add_overwrites_existing_file: Add File on an existing
//     file is FailFileExists; Codex silently replaces the file.
//   - codex/apply-patch/scenarios/010_move_overwrites_existing_destination: Move to an
//     existing file is FailFileExists; Codex silently replaces the destination.
//
// SEARCH/REPLACE blocks (SearchReplace, Stream; cline-sr, cline-sr-stream and
// roo-sr vectors) — Cline v1 where Cline v1 and v2 disagree, except where v1
// loses text; all blocks or none (Roo applies the blocks that match); a
// block not in the file as it was, but in the text the blocks before it
// made, applies there as in aider (Cline fails it), disclosed as Loose with
// Match.After; blocks that are all in the file match it as Cline matches
// them, after the previous block's match, where aider searches each from
// the top of the text the blocks before made (they differ when a REPLACE
// text holds the next block's SEARCH text again, and when Cline's cascade
// finds a block loosely after the previous block's match while its exact
// text is before it, disclosed as Loose); the
// payload's CRLF is read as LF; a line-trimmed match re-indents the
// replacement by the uniform indentation difference (as Roo; Cline inserts
// it verbatim); Roo's fuzzyThreshold is not taken (its vectors match
// through the normalized and block-anchor strategies), so a block-anchor
// match with a different middle applies as in Cline, disclosed as Loose,
// where Roo's exact threshold refuses it; a text found at several places
// edits the first, as in Cline, also disclosed. An exact match is Cline's
// bytes (the SEARCH text replaced by the REPLACE text), or it is not called
// exact: a SEARCH whose blank first line matched the newline ending a
// non-blank line replaces the whole lines after it, and where the REPLACE
// does not start with a blank line too (Cline would join the two lines) it
// is skipped-blank-line, as aider drops a spurious blank first line (also
// when the SEARCH is found only without it); a SEARCH found inside a line
// after its indentation whose REPLACE is re-indented, or deletes the whole
// line (Cline leaves the indentation joined to the next line), is
// leading-whitespace:
//   - cline/diff.test.ts/constructNewFileContent > should handle line-trimmed match replacement case correctly[v1]:
//     " line2 " matched "line2", so the replacement gets the file's extra space of indentation.
//   - cline/diff.test.ts/constructNewFileContent > should handle line-trimmed match replacement case correctly[v2]: as [v1].
//   - cline-probe/legacy-markers-no-final-newline[v2]: v2 drops a final non-canonical end marker and fails; v1 and we accept it.
//   - cline-probe/trailing-gt-on-markers[v2]: as legacy-markers-no-final-newline[v2].
//   - cline-probe/three-char-markers[v2]: as legacy-markers-no-final-newline[v2].
//   - cline-probe/crlf-diff-text[v1]: a CRLF payload parses; Cline finds no marker.
//   - cline-probe/crlf-diff-text[v2]: as [v1].
//   - cline-probe/crlf-file[v1]: the CRLF file stays CRLF; Cline writes LF lines into it.
//   - cline-probe/crlf-file[v2]: as [v1].
//   - cline-probe/empty-search-on-nonempty-file[v2]: FailEmptySearch (as v1), not v2's whole-file replace.
//   - cline-probe/no-trailing-newline-in-file[v1]: the file keeps lacking a final newline.
//   - cline-probe/no-trailing-newline-in-file[v2]: as [v1].
//   - cline-probe/out-of-order-blocks[v2]: out-of-order blocks apply (as v1).
//   - cline-probe/unterminated-block-then-new-search[v1]: FormatError; v1 silently drops the block.
//   - cline-probe/equals-line-inside-search[v1]: two separators are a FormatError; v1 cuts SEARCH short.
//   - cline-probe/final-line-starting-with-dash-dropped[v1]: a final "- item" REPLACE line is kept; v1 drops it and deletes the matched line.
//     (A last line cut off inside a marker, a strict prefix of one such as "+++++++ REPLAC", is dropped as in Cline.)
//   - cline-probe/final-line-starting-with-dash-dropped[v2]: the line is kept and the block applies; v2 fails.
//   - cline-probe/prose-before-first-block[v2]: prose before a block is ignored (as v1).
//   - cline-derived/diff.test.ts/constructNewFileContent > should handle line-trimmed match replacement case correctly[v1]:
//     the replacement streams re-indented, as it applies.
//   - cline-derived/diff.test.ts/constructNewFileContent > should handle line-trimmed match replacement case correctly[v2]: as [v1].
//   - cline-derived/diff.test.ts/Diff Format Out of Order Cases > should handle out-of-order replacements with different positions[v1]:
//     an out-of-order block streams in place of its lines (Done is rebuilt once); v1 shows it only when final.
//   - cline-derived/diff.test.ts/Diff Format Out of Order Cases > should handle out-of-order replacements with different positions[v2]: streams in place; v2 fails.
//   - cline-derived/diff.test.ts/Diff Format Out of Order Cases > should handle multiple out-of-order replacements[v1]:
//     an out-of-order block streams in place of its lines (Done is rebuilt once); v1 shows it only when final.
//   - cline-derived/diff.test.ts/Diff Format Out of Order Cases > should handle multiple out-of-order replacements[v2]: streams in place; v2 fails.
//   - cline-derived/diff.test.ts/Diff Format Out of Order Cases > should handle out-of-order replacements with indentation[v1]:
//     an out-of-order block streams in place of its lines (Done is rebuilt once); v1 shows it only when final.
//   - cline-derived/diff.test.ts/Diff Format Out of Order Cases > should handle out-of-order replacements with indentation[v2]: streams in place; v2 fails.
//   - cline-derived/diff.test.ts/Diff Format Out of Order Cases > should handle out-of-order replacements with empty lines[v1]:
//     an out-of-order block streams in place of its lines (Done is rebuilt once); v1 shows it only when final.
//   - cline-derived/diff.test.ts/Diff Format Out of Order Cases > should handle out-of-order replacements with empty lines[v2]: streams in place; v2 fails.
//   - roo/multi-search-replace.spec.ts/MultiSearchReplaceDiffStrategy > validateMarkerSequencing > detects incomplete sequence:
//     a last block without its end marker is accepted (Cline v1).
//   - roo/multi-search-replace.spec.ts/MultiSearchReplaceDiffStrategy > validateMarkerSequencing > exact matching > should return false if search content does not match:
//     "console.log("wrong")" between equal first and last lines is a block-anchor match (Cline), reported Loose at 92% similarity.
//   - roo/multi-search-replace-trailing-newline.spec.ts/MultiSearchReplaceDiffStrategy - trailing newline preservation > should handle content with line numbers at the last line:
//     a whitespace-only first REPLACE line is kept; Roo's separator regex swallows it.
package engine
