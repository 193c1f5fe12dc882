// Package diffcount counts the diffs the desk makes of a file's two texts,
// for tests of any package under review (a far desk's window, the hub's
// view) that show a proposal's file is diffed once.
package diffcount

import "sync/atomic"

var counter atomic.Pointer[atomic.Int64]

// Diffed records one diff of a file's base and proposed texts.
func Diffed() {
	if n := counter.Load(); n != nil {
		n.Add(1)
	}
}

// Count returns a count of the diffs made from now until the test ends.
func Count(t interface{ Cleanup(func()) }) *atomic.Int64 {
	n := new(atomic.Int64)
	counter.Store(n)
	t.Cleanup(func() { counter.CompareAndSwap(n, nil) })
	return n
}
