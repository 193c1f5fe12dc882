// Package ui is DiffDesk's Fyne front end, the shell around the diff: the
// main window (a queue of the proposals agents sent, the selected one in a
// diffview.DiffView, and a decision bar), the History tab, themes and
// keyboard shortcuts. It renders review's types directly and calls the
// desk's methods; ui/diffview knows nothing of either, so imports point one
// way (ui → ui/diffview).
//
// Invariants: the desk's events arrive on arbitrary goroutines and reach the
// widgets through one coalesced fyne.Do per burst (see eventPump); slow work
// (deciding, which writes files and runs formatters; external editors) runs
// off the UI goroutine and reports back the same way; the window never asks
// for focus when proposals arrive.
package ui
