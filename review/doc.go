// Package review is DiffDesk's domain: proposals from agents, the queue,
// decisions, workspace safety, safe writes, formatters, outcomes and the
// agent-facing text that reports them, and the journal.
//
// It owns disk and sockets; the engine stays pure. It never imports Fyne:
// the UI renders review's types and calls its methods.
package review
