package diffview

import (
	"fmt"
	"image/color"
	"sort"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/ui/diffview/textbuf"
)

const sampleOld = `package main

import "fmt"

// greet says hello.
func greet(name string) string {
	return "Hello, " + name
}

func main() {
	fmt.Println(greet("world"))
	unused := 42
	_ = unused
}
`

const sampleNew = `package main

import (
	"fmt"
	"os"
)

// greet says hello to someone.
func greet(name string) string {
	return "Hello, " + name + "!"
}

func main() {
	fmt.Println(greet(os.Args[1]))
}
`

// newTestView returns a view in a w×h test window, highlighting inline,
// every line shown (collapse.go's tests turn collapsing on).
func newTestView(t *testing.T, w, h float32) (*DiffView, fyne.Window) {
	t.Helper()
	test.NewTempApp(t)
	v := NewDiffView()
	v.SetSynchronous(true)
	v.Folds().Collapse(false)
	win := test.NewTempWindow(t, v)
	win.Resize(fyne.NewSize(w, h))
	return v, win
}

// numbered returns n lines "line k\n".
func numbered(n int, change func(k int) string) string {
	var b strings.Builder
	for k := range n {
		if change != nil {
			if s := change(k); s != "" {
				b.WriteString(s)
				continue
			}
		}
		fmt.Fprintf(&b, "line %d\n", k)
	}
	return b.String()
}

func TestDiffViewRendersChanges(t *testing.T) {
	v, w := newTestView(t, 900, 330)
	//lint:ignore SA1019 the golden is drawn in one fixed variant, whatever the desktop prefers
	fyne.CurrentApp().Settings().SetTheme(theme.LightTheme())
	v.SetTexts("main.go", sampleOld, sampleNew)
	test.AssertRendersToMarkup(t, "diffview/changes.xml", w.Canvas())
	test.AssertImageMatches(t, "diffview/changes.png", w.Canvas().Capture())
}

func TestDiffViewRendersRejectedHunk(t *testing.T) {
	v, w := newTestView(t, 900, 330)
	v.SetTexts("main.go", sampleOld, sampleNew)
	v.SetHunkAccepted(v.Hunks()[1].ID, false)
	test.AssertImageMatches(t, "diffview/rejected.png", w.Canvas().Capture())
}

func TestDiffViewRendersDark(t *testing.T) {
	v, w := newTestView(t, 900, 330)
	//lint:ignore SA1019 the golden is drawn in one fixed variant, whatever the desktop prefers
	fyne.CurrentApp().Settings().SetTheme(theme.DarkTheme())
	v.SetDark(true)
	v.SetTexts("main.go", sampleOld, sampleNew)
	test.AssertRendersToMarkup(t, "diffview/dark.xml", w.Canvas())
	test.AssertImageMatches(t, "diffview/dark.png", w.Canvas().Capture())
}

func TestDiffViewRendersStreamGrowing(t *testing.T) {
	v, w := newTestView(t, 900, 250)
	s, err := engine.NewStream(sampleOld, engine.FormatWrite)
	if err != nil {
		t.Fatal(err)
	}
	half := sampleNew[:strings.Index(sampleNew, "func greet")+20]
	p, err := s.Feed(half)
	if err != nil {
		t.Fatal(err)
	}
	v.SetStream("main.go", sampleOld, p)
	test.AssertRendersToMarkup(t, "diffview/stream.xml", w.Canvas())
	test.AssertImageMatches(t, "diffview/stream.png", w.Canvas().Capture())
}

func TestDiffViewRendersStale(t *testing.T) {
	v, w := newTestView(t, 900, 250)
	base := "a\nb\nc\nd\n"
	disk := "a\nB (disk)\nc\nd\n"
	proposed := "a\nB (agent)\nc\nd\ne\n"
	v.SetStale("", disk, engine.Merge3(base, disk, proposed, engine.MergeLabels{}))
	test.AssertRendersToMarkup(t, "diffview/stale.xml", w.Canvas())
	test.AssertImageMatches(t, "diffview/stale.png", w.Canvas().Capture())
}

func TestDiffViewWrapsLongLines(t *testing.T) {
	v, w := newTestView(t, 600, 160)
	long := "x := " + strings.Repeat("word ", 30) + "\n"
	v.SetTexts("a.go", "a\n"+long, "a\n"+strings.Replace(long, "x", "y", 1))
	v.SetWrap(true)
	test.AssertRendersToMarkup(t, "diffview/wrap.xml", w.Canvas())
	test.AssertImageMatches(t, "diffview/wrap.png", w.Canvas().Capture())
}

func TestDiffViewScrollsLongLinesTogether(t *testing.T) {
	v, _ := newTestView(t, 600, 160)
	long := "x := " + strings.Repeat("word ", 30) + "\n"
	v.SetTexts("a.go", "a\n"+long, "a\n"+strings.Replace(long, "x", "y", 1))
	if !v.hbar.Visible() {
		t.Fatal("horizontal scrollbar hidden with lines wider than the view")
	}
	v.setHOffset(10)
	if v.hbar.off != 10 || v.hbar.value != 10 {
		t.Errorf("hoff = %d, bar = %v; want 10, 10", v.hbar.off, v.hbar.value)
	}
}

func TestGutterTapTogglesHunk(t *testing.T) {
	v, w := newTestView(t, 900, 330)
	v.SetTexts("main.go", sampleOld, sampleNew)
	var got []string
	v.OnHunkToggled = func(id string, ok bool) { got = append(got, fmt.Sprintf("%s %v", id, ok)) }
	first := v.Hunks()[0]
	row := v.model.RowOfB(first.Change.B0)
	mt := v.metric
	test.TapCanvas(w.Canvas(), fyne.NewPos(mt.numW+mt.sideW+mt.gutW/2, v.wr.rowY(row)+mt.line/2))
	if want := []string{first.ID + " false"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("OnHunkToggled calls = %v; want %v", got, want)
	}
}

func TestAcceptedHunksLeavesOutRejected(t *testing.T) {
	v, _ := newTestView(t, 900, 330)
	v.SetTexts("main.go", sampleOld, sampleNew)
	hs := v.Hunks()
	v.SetHunkAccepted(hs[0].ID, false)
	acc := v.AcceptedHunks()
	if len(acc) != len(hs)-1 || acc[0] != hs[1].ID {
		t.Fatalf("AcceptedHunks = %v; want all of %d but %s", acc, len(hs), hs[0].ID)
	}
	keep := map[string]bool{}
	for _, id := range acc {
		keep[id] = true
	}
	got := engine.ApplyHunks(sampleOld, sampleNew, func(id string) bool { return keep[id] })
	if !strings.Contains(got, `import "fmt"`) {
		t.Errorf("ApplyHunks with AcceptedHunks kept the rejected import change:\n%s", got)
	}
}

// streamInto feeds text to a write stream in chunks of n bytes, showing
// each preview in v.
func streamInto(t *testing.T, v *DiffView, old, text string, n int, each func()) {
	t.Helper()
	s, err := engine.NewStream(old, engine.FormatWrite)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(text); i += n {
		p, err := s.Feed(text[i:min(i+n, len(text))])
		if err != nil {
			t.Fatal(err)
		}
		v.SetStream("a.txt", old, p)
		if each != nil {
			each()
		}
	}
}

func TestListCreatesRowsOnlyForVisibleLines(t *testing.T) {
	v, _ := newTestView(t, 1000, 600)
	old := numbered(100000, nil)
	v.SetTexts("a.txt", old, numbered(100000, func(k int) string {
		if k%1000 == 0 {
			return "changed\n"
		}
		return ""
	}))
	visible := int(600/v.metric.line) + 1
	if v.rows.created > visible+5 {
		t.Errorf("created %d row widgets for %d rows; want about %d (the visible ones)", v.rows.created, v.model.Len(), visible)
	}
	if v.rows.created > 3*visible {
		t.Errorf("created %d row widgets; want at most a few screens' worth (%d rows visible)", v.rows.created, visible)
	}
	var bound []int
	v.rows.onBind = func(row int) { bound = append(bound, row) }
	for range 20 {
		bound = bound[:0]
		v.Nav().NextHunk()
		top := v.topRow()
		for _, r := range bound {
			if r < top-1 || r > top+visible+1 {
				t.Fatalf("scroll to row %d bound row %d, off screen", top, r)
			}
		}
	}
}

func TestDiffViewRendersNewFileFullWidth(t *testing.T) {
	v, w := newTestView(t, 700, 200)
	v.SetTexts("new.go", "", sampleNew)
	if v.metric.leftW != 0 {
		t.Errorf("left side width = %v for a new file; want 0", v.metric.leftW)
	}
	test.AssertRendersToMarkup(t, "diffview/newfile.xml", w.Canvas())
	test.AssertImageMatches(t, "diffview/newfile.png", w.Canvas().Capture())
}

func TestHorizontalBarDragScrollsBothSides(t *testing.T) {
	v, w := newTestView(t, 600, 160)
	long := "x := " + strings.Repeat("word ", 30) + "\n"
	v.SetTexts("a.go", "a\n"+long, "a\n"+strings.Replace(long, "x", "y", 1))
	v.hbar.Dragged(&fyne.DragEvent{Dragged: fyne.NewDelta(v.hbar.Size().Width, 0)})
	v.hbar.DragEnd()
	if v.hbar.off != v.hbar.max || v.hbar.off == 0 {
		t.Errorf("after dragging the thumb to the end hoff = %d; want %d", v.hbar.off, v.hbar.max)
	}
	test.AssertImageMatches(t, "diffview/hscrolled.png", w.Canvas().Capture())
}

func TestWrapToggleKeepsTopLine(t *testing.T) {
	v, _ := newTestView(t, 600, 300)
	long := func(k int) string {
		if k%10 == 0 {
			return fmt.Sprintf("line %d %s\n", k, strings.Repeat("word ", 40))
		}
		return ""
	}
	v.SetTexts("a.txt", numbered(3000, long), numbered(3000, long))
	v.list.ScrollToOffset(v.wr.rowY(2219))
	for _, on := range []bool{true, false, true} {
		v.SetWrap(on)
		if top := v.topRow(); top != 2219 {
			t.Fatalf("after SetWrap(%v) the top row is %d; want 2219, the line on top before", on, top)
		}
	}
}

// visualText returns the text row shows on side 1 (or 0), one string per
// visual line, as its canvas texts lay it out.
func visualText(v *DiffView, id, side int) []string {
	r := newDiffRow(&v.parts)
	r.id = id
	r.build()
	mt := v.metric
	x0 := mt.leftW + mt.gutW + mt.numW
	type piece struct {
		x float32
		s string
	}
	lines := map[int][]piece{}
	n := 0
	for _, t := range r.texts[:r.nText] {
		x := t.Position().X
		if side == 1 && x < x0 || side == 0 && (x < mt.numW || x >= mt.leftW) {
			continue // the other side, or a line number
		}
		k := int(t.Position().Y / mt.line)
		lines[k] = append(lines[k], piece{x, t.Text})
		n = max(n, k+1)
	}
	out := make([]string, n)
	for k := range n {
		ps := lines[k]
		sort.Slice(ps, func(i, j int) bool { return ps[i].x < ps[j].x })
		for _, p := range ps {
			out[k] += p.s
		}
	}
	return out
}

func TestWrapBreaksAtWordBoundaries(t *testing.T) {
	v, _ := newTestView(t, 600, 300)
	long := "identifier_that_never_ends_at_all_and_keeps_going_on_past_the_edge" // wider than the view: a hard break
	words := strings.Fields("the quick brown fox jumps over the lazy dog while a rather too long " + long + " waits")
	line := strings.Join(words, " ")
	v.SetTexts("a.txt", "x\n", line+"\n")
	v.SetWrap(true)
	known := map[string]bool{}
	for _, w := range words {
		known[w] = true
	}
	got := visualText(v, v.model.RowOfB(0), 1)
	if len(got) < 2 {
		t.Fatalf("visual lines = %q; want the line wrapped", got)
	}
	if strings.Join(got, "") != line {
		t.Fatalf("visual lines = %q; joined they differ from %q", got, line)
	}
	for k, l := range got {
		for _, w := range strings.Fields(l) {
			if !known[w] && !strings.Contains(long, w) {
				t.Errorf("visual line %d = %q breaks inside a word (%q)", k, l, w)
			}
		}
		if w := textbuf.Width(l); w > v.metric.cols {
			t.Errorf("visual line %d = %q is %d cells; want at most %d", k, l, w, v.metric.cols)
		}
	}
}

// farChange returns n lines, line k of them carrying at column 250 the
// price p (the rest of each line is filler words).
func farChange(n, k int, p string) string {
	return numbered(n, func(i int) string {
		if i == k {
			return strings.Repeat("pad ", 62) + "price " + p + " " + strings.Repeat("tail ", 40) + "\n"
		}
		return ""
	})
}

func TestOffsideChangeIsMarked(t *testing.T) {
	v, _ := newTestView(t, 1000, 300)
	v.SetTexts("a.txt", farChange(10, 3, "10.30"), farChange(10, 3, "110.30"))
	row := v.model.RowOfB(3)
	marks := func() (left, right int) {
		r := newDiffRow(&v.parts)
		r.id = row
		r.build()
		mt := v.metric
		xR := mt.leftW + mt.gutW + mt.numW // the right side's text
		for _, o := range r.rects[:r.nRect] {
			c, ok := o.FillColor.(color.NRGBA)
			if !ok || c.A != 0xff || o.Size().Height != mt.line {
				continue // backgrounds and spans are translucent
			}
			switch x := o.Position().X; {
			case x >= xR+mt.sideW-8 && x < xR+mt.sideW:
				right++
			case x >= xR && x < xR+4:
				left++
			}
		}
		return left, right
	}
	if l, r := marks(); r != 1 || l != 0 {
		t.Errorf("with the change past the right edge: %d left, %d right marks; want 0, 1", l, r)
	}
	v.setHOffset(v.hbar.max)
	if l, r := marks(); l != 1 || r != 0 {
		t.Errorf("scrolled past the change: %d left, %d right marks; want 1, 0", l, r)
	}
	v.setHOffset(240)
	if l, r := marks(); l != 0 || r != 0 {
		t.Errorf("with the change in view: %d left, %d right marks; want none", l, r)
	}
}

// flush recomputes the diff at once instead of after the typing pause
// (OnEdited follows if the text changed).
func (e *Editor) flush() {
	e.mu.Lock()
	if e.timer != nil {
		e.timer.Stop()
	}
	e.mu.Unlock()
	e.rediffNow()
}

// wait blocks until no highlighting is pending (tests).
func (h *highlighter) wait() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for h.running {
		h.idle.Wait()
	}
}
