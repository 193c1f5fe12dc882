// Package textbuf is the text a DiffView's editor edits: an array of
// lines, a cursor and a selection, and the edits a code editor makes
// (typing, replacing the selection, deleting, auto-indenting newlines, tab
// and outdent) with undo and redo. It has no Fyne and no diff in it: the
// editor widget maps keys, shortcuts and the clipboard to a Buffer's
// methods, and every edit reports the Change it made so the widget
// patches only the lines it touched.
//
// The text is an array of lines rather than one string because a
// keystroke then touches one line, whatever the file's size, and a Change
// is a range of lines: what a side-by-side diff is patched by.
//
// Invariants: a Buffer has at least one line; lines hold no "\n"; the
// cursor and the selection's anchor are always inside the text (0-based
// line, byte column at most the line's length); undoing every edit gives
// back the text New was given (with its line endings as "\n"), and
// redoing them all the edited text again; typed runes undo as one edit
// until a move, a space or a newline starts another. Columns are bytes;
// display widths are cells (RuneWidth: two for a wide CJK character, none
// for a combining mark), a tab reaching to the next multiple of TabWidth.
package textbuf
