package diffview

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/diffdesk/diffdesk/engine"
)

func TestStreamFollowsGrowingEdge(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	old := numbered(300, nil)
	streamInto(t, v, old, numbered(300, func(k int) string { return fmt.Sprintf("new %d\n", k) }), 400, nil)
	if !v.Following() {
		t.Fatal("not following after streaming")
	}
	if v.list.GetScrollOffset() == 0 {
		t.Error("view stayed at the top while following a stream")
	}
}

func TestStreamScrollAwayStopsFollowing(t *testing.T) {
	v, w := newTestView(t, 800, 300)
	old := numbered(300, nil)
	var changes []bool
	v.OnFollowChanged = func(on bool) { changes = append(changes, on) }
	text := numbered(300, func(k int) string { return fmt.Sprintf("new %d\n", k) })
	streamInto(t, v, old, text[:len(text)/2], 400, nil)
	test.Scroll(w.Canvas(), fyne.NewPos(300, 100), 0, 50) // wheel up
	if v.Following() {
		t.Fatal("still following after scrolling up")
	}
	if fmt.Sprint(changes) != "[false]" {
		t.Errorf("OnFollowChanged calls = %v; want [false]", changes)
	}
}

func TestSetFollowReturnsToEdge(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	old := numbered(300, nil)
	text := numbered(300, func(k int) string { return fmt.Sprintf("new %d\n", k) })
	streamInto(t, v, old, text[:len(text)/2], 400, nil)
	v.list.ScrollToTop()
	v.userScrolled(1)
	v.SetFollow(true)
	if !v.Following() || v.list.GetScrollOffset() == 0 {
		t.Errorf("Following = %v, offset = %v after SetFollow(true); want true, at the edge", v.Following(), v.list.GetScrollOffset())
	}
}

func TestStreamEndsWithSameRowsAsFullDiff(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	old := numbered(200, nil)
	text := numbered(200, func(k int) string {
		if k%37 == 0 {
			return fmt.Sprintf("changed %d\n", k)
		}
		return ""
	})
	streamInto(t, v, old, text, 97, nil)
	s, _ := engine.NewStream(old, engine.FormatWrite)
	p, _ := s.Feed(text)
	p.Growing = engine.LineRange{}
	v.SetStream("a.txt", old, p)
	if got, want := rowsString(v.model), rowsString(modelOf(old, text)); got != want {
		t.Errorf("streamed rows differ from the full diff:\n%s\nwant\n%s", got, want)
	}
}

func TestStreamEndKeepsFollowPosition(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	old := numbered(300, nil)
	text := numbered(300, func(k int) string { return fmt.Sprintf("new %d\n", k) })
	streamInto(t, v, old, text, 400, nil)
	at := v.list.GetScrollOffset()
	if at == 0 {
		t.Fatal("stream left the view at the top; the test needs it followed down")
	}
	v.SetTexts("a.txt", old, text) // the stream finished
	if got := v.list.GetScrollOffset(); got != at {
		t.Errorf("after the stream ended the offset is %v; want %v, where following left it", got, at)
	}
	v.SetTexts("b.txt", old, text) // another file starts at the top
	if got := v.list.GetScrollOffset(); got != 0 {
		t.Errorf("a new file opened at offset %v; want 0", got)
	}
}

// TestStreamBeforeItsFirstChunk: a stream shown before any chunk arrived
// (the desk's zero Preview: the proposal is still the original) shows the
// original's lines instead of rows past the end of the text (real window:
// deskctl propose --stream of a 200 MB file over a one-line file panicked
// the window, index out of range, before its first 20 MB chunk arrived).
func TestStreamBeforeItsFirstChunk(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	v.SetStream("a.txt", "start\nsecond\n", engine.Preview{})
	if n := v.model.Len(); n != 2 {
		t.Fatalf("%d rows; want the original's 2 lines", n)
	}
	for i := range v.model.Len() {
		r := newDiffRow(&v.parts)
		r.id = i
		r.build() // panicked: the right side had no lines
		if rw := v.model.Row(i); rw.kind != rowEqual || v.model.b.Line(rw.b) != v.model.a.Line(rw.a) {
			t.Errorf("row %d = %+v; want the original's line, unchanged", i, rw)
		}
	}
	s, err := engine.NewStream("start\nsecond\n", engine.FormatWrite)
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Feed("abc")
	if err != nil {
		t.Fatal(err)
	}
	v.SetStream("a.txt", "start\nsecond\n", p)
	if got := v.model.b.Line(0); got != "abc" {
		t.Errorf("first line of the right side %q after the first chunk; want \"abc\"", got)
	}
}
