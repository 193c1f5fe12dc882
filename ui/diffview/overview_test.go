package diffview

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

func TestOverviewTapJumps(t *testing.T) {
	v, w := newTestView(t, 800, 300)
	v.SetTexts("a.txt", numbered(1000, nil), numbered(1000, func(k int) string {
		if k == 900 {
			return "changed\n"
		}
		return ""
	}))
	o := v.overview
	test.TapAt(o, fyne.NewPos(o.Size().Width/2, o.Size().Height*0.9))
	top := v.topRow()
	if top < 800 || top > 950 {
		t.Errorf("after tapping the strip at 90%% the top row is %d; want about 900", top)
	}
	_ = w
}

func TestOverviewFrameStaysInStripOnShortFile(t *testing.T) {
	v, _ := newTestView(t, 800, 400)
	v.SetTexts("a.txt", numbered(5, nil), numbered(5, func(k int) string {
		if k == 2 {
			return "changed\n"
		}
		return ""
	}))
	o := v.overview
	f := o.frame
	if bottom := f.Position().Y + f.Size().Height; bottom > o.Size().Height || f.Position().Y < 0 {
		t.Errorf("overview frame spans y %v..%v; want inside the strip's 0..%v (it ran into the button row)", f.Position().Y, bottom, o.Size().Height)
	}
}

// A tap on a change's tick in the strip (or a few pixels off it) makes
// that change the current one, as j does, and says so through OnJumped; a
// tap far from every tick only scrolls.
func TestOverviewTapOnAChangeMakesItCurrent(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	v.SetTexts("a.txt", numbered(1000, nil), numbered(1000, func(k int) string {
		if k == 200 || k == 700 {
			return "changed\n"
		}
		return ""
	}))
	jumped := 0
	v.OnJumped = func() { jumped++ }
	o := v.overview
	second := -1
	for _, s := range v.model.segs {
		if s.hunk == 1 {
			second = s.row0
		}
	}
	y := float32(second)*o.scale() + 3 // just below the 2-pixel tick
	test.TapAt(o, fyne.NewPos(o.Size().Width/2, y))
	if v.Nav().CurrentHunk() != 1 || jumped != 1 || !v.CurrentOnScreen() {
		t.Errorf("tap at the second change's tick: current hunk %d (on screen %v), OnJumped %d times; want hunk 1 on screen, once", v.Nav().CurrentHunk(), v.CurrentOnScreen(), jumped)
	}
	test.TapAt(o, fyne.NewPos(o.Size().Width/2, o.Size().Height*0.45))
	if v.Nav().CurrentHunk() != 1 || jumped != 1 {
		t.Errorf("tap far from any tick: current hunk %d, OnJumped %d times; want hunk 1 kept, no call", v.Nav().CurrentHunk(), jumped)
	}
	if top := v.topRow(); top < 350 || top > 500 {
		t.Errorf("tap at 45%% far from any tick: top row %d; want about 450 (scrolled there)", top)
	}
}
