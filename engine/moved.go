package engine

import "strings"

// Move is a block of lines a diff removes in one place and adds in
// another: lines A0:A1 of a and B0:B1 of b (0-based, half-open), the same
// lines once leading and trailing whitespace is set aside.
type Move struct {
	A0, A1 int // lines of a, removed
	B0, B1 int // lines of b, added
	// Reindented says some line of the block differs between its two
	// ends in whitespace (its indentation changed).
	Reindented bool
}

// MinMoveLines is how many non-blank lines a block needs to be a Move:
// fewer (a lone "}" or "return nil") match by chance.
const MinMoveLines = 3

// moveCandidates is how many added lines a removed line may match for a
// block to start at it; a commoner line ("}") starts no block, though one
// may reach back over it from the rarer line after it. It bounds the
// search at O(moveCandidates) per changed line.
const moveCandidates = 64

// Moves returns the blocks that ops, a diff from a to b, removes in one
// place and adds in another, in order of A0: what git's --color-moved
// (with allow-indentation-change) and VS Code's move detection show. A
// block is a run of removed lines equal, whitespace aside, to a run of
// added lines in another change, with at least MinMoveLines non-blank
// lines; a change that only re-indents lines in place is not a move. Each
// line belongs to at most one block; from each removed line, in order, the
// longest block wins.
func Moves(a, b []string, ops []Op) []Move {
	opA, opB := changeIndex(ops, len(a), true), changeIndex(ops, len(b), false)
	keyA, keyB := make([]string, len(a)), make([]string, len(b))
	added := map[string][]int32{}
	for j := range b {
		if opB[j] >= 0 {
			keyB[j] = strings.TrimSpace(b[j])
			if keyB[j] != "" {
				added[keyB[j]] = append(added[keyB[j]], int32(j))
			}
		}
	}
	if len(added) == 0 {
		return nil
	}
	for i := range a {
		if opA[i] >= 0 {
			keyA[i] = strings.TrimSpace(a[i])
		}
	}
	usedA, usedB := make([]bool, len(a)), make([]bool, len(b))
	// same reports whether removed line i and added line j can be lines of
	// one block.
	same := func(i, j int) bool {
		return i >= 0 && j >= 0 && i < len(a) && j < len(b) && opA[i] >= 0 && opB[j] >= 0 &&
			!usedA[i] && !usedB[j] && keyA[i] == keyB[j]
	}
	var moves []Move
	for i := 0; i < len(a); i++ {
		cands := added[keyA[i]]
		if opA[i] < 0 || usedA[i] || keyA[i] == "" || len(cands) > moveCandidates {
			continue
		}
		best, bestN := Move{}, 0
		for _, j32 := range cands {
			j := int(j32)
			if opA[i] == opB[j] || !same(i, j) {
				continue // in place: a re-indent, not a move
			}
			lo, hi := 0, 1
			for same(i-lo-1, j-lo-1) {
				lo++
			}
			for same(i+hi, j+hi) {
				hi++
			}
			if n := hi + lo; n > bestN {
				best, bestN = Move{A0: i - lo, A1: i + hi, B0: j - lo, B1: j + hi}, n
			}
		}
		if bestN == 0 || nonBlank(keyA[best.A0:best.A1]) < MinMoveLines {
			continue
		}
		for k := range best.A1 - best.A0 {
			usedA[best.A0+k], usedB[best.B0+k] = true, true
			if a[best.A0+k] != b[best.B0+k] && trimEOL(a[best.A0+k]) != trimEOL(b[best.B0+k]) {
				best.Reindented = true
			}
		}
		moves = append(moves, best) // in order of A0: reaching back stops at the last block
		i = best.A1 - 1
	}
	return moves
}

// changeIndex returns, per line of a (side a) or b, the index in ops of
// the change holding it, or -1 for an unchanged line.
func changeIndex(ops []Op, n int, sideA bool) []int32 {
	idx := make([]int32, n)
	for k := range idx {
		idx[k] = -1
	}
	for k, op := range ops {
		if op.Kind == OpEqual {
			continue
		}
		lo, hi := op.B0, op.B1
		if sideA {
			lo, hi = op.A0, op.A1
		}
		for l := lo; l < hi; l++ {
			idx[l] = int32(k)
		}
	}
	return idx
}

// nonBlank counts the non-empty keys.
func nonBlank(keys []string) int {
	n := 0
	for _, k := range keys {
		if k != "" {
			n++
		}
	}
	return n
}

// trimEOL returns l without its line ending.
func trimEOL(l string) string {
	l = strings.TrimSuffix(l, "\n")
	return strings.TrimSuffix(l, "\r")
}
