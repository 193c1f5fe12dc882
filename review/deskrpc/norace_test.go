//go:build !race

package deskrpc

const raceOn = false
