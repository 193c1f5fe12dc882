package diffview

// A proposal still streaming in, and following its growing edge.

import (
	"fyne.io/fyne/v2/widget"
	"github.com/diffdesk/diffdesk/engine"
)

// streamState is what SetStream keeps between updates of one stream.
type streamState struct {
	path, old string
	a         []string
	live      *engine.LiveDiff
	pairs     map[engine.Op][]alignRow
	head      int // len(Done) at the last update
	headArr   *string
}

// SetStream shows a proposal that is still streaming in. Successive calls
// for the same path and old update the view incrementally (engine.LiveDiff
// re-diffs only near the frontier); the growing region (p.Growing) is
// marked and followed while Following is true. When the stream ends, call
// SetTexts with the final text.
func (v *DiffView) SetStream(path, old string, p engine.Preview) {
	st := v.feed.st
	if st == nil || st.path != path || st.old != old {
		v.cancelOpening()
		v.stopEditing()
		v.marks.stale, v.marks.conflicts = false, nil
		v.banner.Hide()
		a := engine.SplitLines(old)
		st = &streamState{path: path, old: old, a: a, live: engine.NewLiveDiff(a), pairs: map[engine.Op][]alignRow{}}
		v.feed.st = st
		v.marks.moves = nil
		v.search.clear()
		v.doc.path = path
		v.nav.forget()
		v.dec.rejected = map[string]bool{}
		v.hbar.off = 0
		v.hl.reset(path)
		v.hbar.maxW = widest(&lineSet{head: a}, 0)
		if !v.feed.on {
			v.feed.on = true
			if v.OnFollowChanged != nil {
				v.OnFollowChanged(true)
			}
		}
		v.feed.y = -1
	}
	// A new backing array for Done (an out-of-order block) or fewer lines
	// means earlier lines changed: their tokens and spans go.
	newArr := len(p.Done) > 0 && &p.Done[0] != st.headArr
	from := st.head
	if newArr && st.headArr != nil || len(p.Done) < st.head {
		from = 0
		st.pairs = map[engine.Op][]alignRow{}
	}
	if len(p.Done) > 0 {
		st.headArr = &p.Done[0]
	}
	st.live.Update(p.Done, p.TailStart)
	ops := st.live.Ops()
	// The tail as the live diff takes it, the original from TailStart:
	// p.Tail is that sub-slice, but the zero Preview of a stream before
	// its first chunk has none while it stands for the whole original.
	tailStart := min(max(p.TailStart, 0), len(st.a))
	b := lineSet{head: p.Done, tail: st.a[tailStart:], tailStart: tailStart}
	if p.Partial != "" {
		ops = spliceLine(ops, len(p.Done))
		b.mid = []string{p.Partial}
	}
	var grow [2]int
	if p.Growing.End >= p.Growing.Start && p.Growing.Start > 0 {
		grow = [2]int{p.Growing.Start - 1, p.Growing.End}
	}
	m := newRowModel(lineSet{head: st.a}, b, ops, grow, st.pairs)
	if old := v.model; old != nil && from > 0 && old.words != nil {
		m.words = old.words // done lines never change: their spans stay
	}
	v.model = m
	v.hl.invalidateFrom(1, from)
	st.head = len(p.Done)
	v.hbar.maxW = max(v.hbar.maxW, widest(&lineSet{head: p.Done[min(from, len(p.Done)):], mid: b.mid}, 0))
	// Rows whose lines and marks stay as they were (above the growing
	// edge) are not drawn again for each chunk.
	v.rows.keep = from > 0
	v.show(m)
	v.rows.keep = false
	v.followEdge()
}

// followEdge scrolls to the growing edge while following; an offset other
// than the one it last set means the person scrolled away.
func (v *DiffView) followEdge() {
	if !v.feed.on || v.feed.st == nil {
		v.feed.btn.Hide()
		return
	}
	if v.feed.y >= 0 && v.list.GetScrollOffset() != v.feed.y {
		v.setFollowing(false)
		return
	}
	edge := v.model.Len() - 1
	if v.model.growing[1] > v.model.growing[0] {
		edge = v.model.RowOfB(v.model.growing[1] - 1)
	}
	cur, y := v.list.GetScrollOffset(), v.wr.rowY(edge+1)-v.list.Size().Height
	if y > cur || v.wr.rowY(edge) < cur {
		v.list.ScrollToOffset(max(y, 0))
	}
	v.feed.y = v.list.GetScrollOffset()
}

func (v *DiffView) setFollowing(on bool) {
	if v.feed.on == on {
		return
	}
	v.feed.on = on
	if on {
		v.feed.y = -1
		v.feed.btn.Hide()
	} else if v.feed.st != nil {
		v.feed.btn.Show()
	}
	v.redraw()
	if v.OnFollowChanged != nil {
		v.OnFollowChanged(on)
	}
}

// SetFollow turns following the growing edge of a stream on or off.
func (v *DiffView) SetFollow(on bool) {
	v.setFollowing(on)
	if on {
		v.followEdge()
	}
}

// Following reports whether the view follows the growing edge of a stream.
func (v *DiffView) Following() bool { return v.feed.on }

// scrollBy scrolls the rows by dy (the wheel): up from a stream's edge
// stops following.
func (v *DiffView) scrollBy(dy float32) {
	v.list.ScrollToOffset(v.list.GetScrollOffset() - dy)
	v.userScrolled(dy)
}

// userScrolled is called when the person scrolls the rows; scrolling up
// during a stream stops following.
func (v *DiffView) userScrolled(dy float32) {
	if dy > 0 && v.feed.st != nil && v.feed.on {
		v.setFollowing(false)
	}
}

// feed is a stream on show and following its growing edge.
type feed struct {
	st  *streamState
	on  bool           // following
	y   float32        // list offset the view last scrolled to while following
	btn *widget.Button // Follow, shown once the person scrolled away
}
