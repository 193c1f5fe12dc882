// Package ui is DiffDesk's Fyne front end: the main window (a queue of the
// proposals agents sent, the selected one as a side-by-side diff, and a
// decision bar), the DiffView widget and its code editor, themes and
// keyboard shortcuts. It renders review's types directly and calls the
// desk's methods; it is the only package that calls fyne.Do.
//
// Invariants: the desk's events arrive on arbitrary goroutines and reach the
// widgets through one coalesced fyne.Do per burst (see eventPump); slow work
// (deciding, which writes files and runs formatters; external editors) runs
// off the UI goroutine and reports back the same way; the window never asks
// for focus when proposals arrive.
package ui
