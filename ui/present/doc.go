// Package present says what the window shows for a state, without Fyne:
// the status line's sentences (Outcome), the header's state and notes
// (State, Stale, Unsure, Failed), the counter's place among hunks
// (HunkWhere), the checkers' word (Checks), the changeset tree's state
// labels (FileState), the words an IDE door changes (verdictonly.go), and
// which colour each gets (Tone). The window maps a Tone to its theme;
// everything here is a pure function of review values, tested by tables.
package present
