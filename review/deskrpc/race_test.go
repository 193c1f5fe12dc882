//go:build race

package deskrpc

// raceOn says the race detector is on: its tests run less volume.
const raceOn = true
