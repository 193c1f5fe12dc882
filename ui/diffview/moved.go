package diffview

import (
	"slices"
	"sort"

	"github.com/diffdesk/diffdesk/engine"
)

// movedAt returns the index in moves of the moved block holding line i
// of side (0 a, 1 b), or -1. The editor shows its own diff: no moves.
func (mk *Marks) movedAt(side, i int) int {
	if i < 0 || mk.host.Editor() != nil {
		return -1
	}
	ms := mk.moves
	k := sort.Search(len(ms), func(k int) bool { return end(ms[k], side) > i })
	if side == 1 {
		// Moves are in order of A0, their B ends in any order.
		for k, m := range ms {
			if i >= m.B0 && i < m.B1 {
				return k
			}
		}
		return -1
	}
	if k < len(ms) && i >= ms[k].A0 {
		return k
	}
	return -1
}

// end returns where move m ends on side.
func end(m engine.Move, side int) int {
	if side == 1 {
		return m.B1
	}
	return m.A1
}

// movedRow returns the move shown on row r and the side it is on there
// (the left side's first when both sides are moved lines), or -1.
func (mk *Marks) movedRow(r row) (int, int) {
	if k := mk.movedOn(r, 0); k >= 0 {
		return k, 0
	}
	if k := mk.movedOn(r, 1); k >= 0 {
		return k, 1
	}
	return -1, 0
}

// movedOn returns the move holding row r's line on side (0 left, 1
// right), or -1. A changed row can show two: the left line of one moved
// block beside the right line of another.
func (mk *Marks) movedOn(r row, side int) int {
	if side == 0 && (r.kind == rowDeleted || r.kind == rowChanged) {
		return mk.movedAt(0, r.a)
	}
	if side == 1 && (r.kind == rowInserted || r.kind == rowChanged) {
		return mk.movedAt(1, r.b)
	}
	return -1
}

// Moves returns the blocks of the diff shown that moved (engine.Moves).
func (mk *Marks) Moves() []engine.Move { return mk.moves }

// JumpMoved scrolls from a moved line to the same line at the block's
// other end: from the row j and k went to or, with none, the first moved
// row on screen. It reports false when there is no moved line there.
func (v *DiffView) JumpMoved() bool {
	m := v.model
	from := []int{}
	if v.nav.cur >= 0 && v.nav.cur < m.Len() {
		s := m.segs[m.segAt(v.nav.cur)]
		for r := s.row0; r < s.row0+s.rows; r++ {
			from = append(from, r)
		}
	}
	top := v.topRow()
	for r := top; r < min(top+v.visibleRows(), m.Len()); r++ {
		from = append(from, r)
	}
	for _, r := range from {
		if v.jumpFrom(m.Row(r)) {
			return true
		}
	}
	return false
}

// jumpFrom scrolls from row r, if moved, to its line at the other end of
// its block, and reports whether it did.
func (v *DiffView) jumpFrom(r row) bool {
	k, side := v.marks.movedRow(r)
	if k < 0 {
		return false
	}
	return v.jumpFromSide(r, k, side)
}

// jumpFromSide scrolls from row r's line on side, in move k, to the same
// line at the block's other end.
func (v *DiffView) jumpFromSide(r row, k, side int) bool {
	mv := v.marks.moves[k]
	if side == 0 {
		v.nav.toRow(v.folds.reveal(1, mv.B0+r.a-mv.A0))
	} else {
		v.nav.toRow(v.folds.reveal(0, mv.A0+r.b-mv.B0))
	}
	return true
}

// MovePartners returns the IDs of the hunks holding the other end of a
// block moved out of or into hunk id. Ticking one end of a move without
// the other turns the move into a deletion, or a copy (QA in the real
// window: five functions gone on a bare a, told as "1 of 2 hunks").
func (mk *Marks) MovePartners(id string) []string {
	hs := mk.host.Hunks()
	var h *engine.Hunk
	for i := range hs {
		if hs[i].ID == id {
			h = &hs[i]
		}
	}
	if h == nil {
		return nil
	}
	overlaps := func(a0, a1, b0, b1 int) bool { return a0 < b1 && b0 < a1 }
	var out []string
	add := func(side int, m0, m1 int) {
		for _, o := range hs {
			lo, hi := o.Change.A0, o.Change.A1
			if side == 1 {
				lo, hi = o.Change.B0, o.Change.B1
			}
			if o.ID != id && overlaps(lo, hi, m0, m1) && !slices.Contains(out, o.ID) {
				out = append(out, o.ID)
			}
		}
	}
	for _, m := range mk.moves {
		if overlaps(h.Change.A0, h.Change.A1, m.A0, m.A1) {
			add(1, m.B0, m.B1) // moved out of h: the hunk it moved into
		}
		if overlaps(h.Change.B0, h.Change.B1, m.B0, m.B1) {
			add(0, m.A0, m.A1) // moved into h: the hunk it moved out of
		}
	}
	return out
}
