// Package diffview is DiffView, the Fyne widget that shows one file's
// side-by-side diff: aligned rows with word-level emphasis, syntax colours,
// a hunk gutter to accept or reject changes, an overview strip, a shared
// horizontal scrollbar, a proposal still streaming in, a stale file's
// merge, and a code editor on the right side whose text is a
// textbuf.Buffer. It knows engine's types and Fyne, nothing of the desk or
// the window: the ui package embeds it and listens to its On… callbacks.
// Its parts own their state and reach the view only through a small
// interface each: Search, Seen, Folds, Marks, Selection, Nav, the
// Editor, wrap mode, the rows, the strip and the horizontal scrollbar
// (…Host in their files).
//
// Invariants: only the visible rows exist as canvas objects (the rows are
// virtualised); building the rows of a diff costs O(ops), not O(lines);
// syntax highlighting and the editor's full re-diff run in goroutines that
// end when their work is done and touch the widget only through fyne.Do
// (SetSynchronous keeps both on the caller's goroutine for tests); lines
// are 0-based and columns are byte offsets, except where a comment says
// cells (a tab spans to the next multiple of textbuf.TabWidth).
package diffview
