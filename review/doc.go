// Package review is the desk itself: proposals from agents applied in
// memory and queued, their lifecycle (streaming, pending, stale, decided,
// reported), decisions (approve, approve with edits, approve some hunks,
// reject), the safe write of what was approved, stale detection, unattended
// and rule-based approval, and the outcome and the text the agent reads.
//
// Around it, each in its own package: atomicfile (safe saves), glob,
// config, workspace (what may be edited), formatter, journal (the record,
// history, restore), deskrpc (the native protocol), ide (the IDE doors),
// startup (the one start-up both binaries use) and reviewtest.
//
// It owns disk and sockets; the engine stays pure. No package under review
// imports Fyne: the window renders review's types and calls its methods.
package review
