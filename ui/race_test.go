//go:build race

package ui

// raceOn says the race detector is on: measures of memory mean nothing
// under it, and long runs are left to the plain tests.
const raceOn = true
