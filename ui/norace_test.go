//go:build !race

package ui

const raceOn = false
