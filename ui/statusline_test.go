package ui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2/test"
)

// j and Page Down through the hunks must not widen the counter's slot:
// a slot that grows lays the window out again while a frame is drawn,
// and Fyne then draws a second whole frame (issue 28).
func TestCounterSlotKeepsItsWidthThroughTheHunks(t *testing.T) {
	test.NewTempApp(t)
	l := newStatusLine()
	l.setCounter("hunk 1 of 500")
	w := l.row.MinSize().Width
	for _, k := range []int{9, 10, 99, 100, 499, 500} {
		l.setCounter(fmt.Sprintf("hunk %d of 500", k))
		if got := l.row.MinSize().Width; got != w {
			t.Fatalf("at hunk %d the status row is %.1f wide; want %.1f as at hunk 1", k, got, w)
		}
	}
	l.setCounter("")
	l.setCounter("hunk 1 of 3")
	if got := l.row.MinSize().Width; got >= w {
		t.Errorf("a new proposal's counter keeps the old slot: %.1f wide, want narrower than %.1f", got, w)
	}
}

func TestWidestDigits(t *testing.T) {
	for in, want := range map[string]string{
		"hunk 9 of 500":          "hunk 000 of 000",
		"no hunks":               "no hunks",
		"hunk 12 of 17 · 3 seen": "hunk 00 of 00 · 00 seen",
		"":                       "",
	} {
		if got := widestDigits(in); got != want {
			t.Errorf("widestDigits(%q) = %q; want %q", in, got, want)
		}
	}
}
