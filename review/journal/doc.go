// Package journal is the desk's durable record: every proposal, decision
// and write, journaled before the agent is told (a write is journaled as
// intended before it happens, and settled by Recover after a crash); the
// content of every file at every checkpoint, compressed and
// content-addressed in SQLite; and on that record, history (a timeline with
// filters, entry details, diffs between any two points or against the
// disk), restore (dry run, atomic apply, itself a checkpoint) and retention
// (pruning without breaking shared content).
//
// What it records a decision with (Verdict, Comment, HunkSeen) is the
// package decision's: the one vocabulary from the request that decides to
// the outcome the agent reads and the record kept here.
package journal
