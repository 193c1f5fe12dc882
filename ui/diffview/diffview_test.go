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
	"github.com/alecthomas/chroma/v2"

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
	v.SetCollapse(false)
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
	v.SetStale(disk, engine.Merge3(base, disk, proposed, engine.MergeLabels{}))
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

func TestNextHunkScrollsDown(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	old := numbered(400, nil)
	v.SetTexts("a.txt", old, numbered(400, func(k int) string {
		if k == 100 || k == 300 {
			return "changed\n"
		}
		return ""
	}))
	v.NextHunk()
	first := v.list.GetScrollOffset()
	if want := v.rowY(100 - hunkLead); first != want {
		t.Fatalf("after NextHunk offset = %v; want %v", first, want)
	}
	v.NextHunk()
	if got, want := v.list.GetScrollOffset(), v.rowY(300-hunkLead); got != want {
		t.Errorf("after second NextHunk offset = %v; want %v", got, want)
	}
}

func TestPrevHunkScrollsUp(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	v.SetTexts("a.txt", numbered(400, nil), numbered(400, func(k int) string {
		if k == 100 || k == 300 {
			return "changed\n"
		}
		return ""
	}))
	v.NextHunk()
	v.NextHunk()
	v.PrevHunk()
	if got, want := v.list.GetScrollOffset(), v.rowY(100-hunkLead); got != want {
		t.Errorf("after PrevHunk offset = %v; want %v", got, want)
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
	test.TapCanvas(w.Canvas(), fyne.NewPos(mt.numW+mt.sideW+mt.gutW/2, v.rowY(row)+mt.line/2))
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
		v.NextHunk()
		top := v.topRow()
		for _, r := range bound {
			if r < top-1 || r > top+visible+1 {
				t.Fatalf("scroll to row %d bound row %d, off screen", top, r)
			}
		}
	}
}

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

func TestHighlightArrivesInOneRefresh(t *testing.T) {
	test.NewTempApp(t)
	refreshes := 0
	h := newHighlighter(func() { refreshes++ })
	h.reset("main.go")
	// More lines than want tokenises at once (hlSyncLines): the worker's.
	lines := strings.Split(strings.Repeat(sampleNew, hlSyncLines/10), "\n")
	get := func(i int) string { return lines[i] }
	all := func() []int {
		out := make([]int, len(lines))
		for i := range out {
			out[i] = i
		}
		return out
	}
	h.want(0, 0, all, get, len(lines))
	h.want(1, 0, all, get, len(lines))
	h.wait()
	if _, ok := h.tokens(0, 0); !ok {
		t.Fatal("no tokens for line 0 after the worker finished")
	}
	if toks, _ := h.tokens(1, 0); len(toks) == 0 || !toks[0].typ.InCategory(chroma.Keyword) {
		t.Errorf("tokens of %q = %v; want a keyword first", lines[0], toks)
	}
	if refreshes < 1 || refreshes > 2 {
		t.Errorf("refreshes = %d; want one per burst (1, or 2 if the worker finished between the asks)", refreshes)
	}
}

// A screen's lines are tokenised when a row asks for them, on its
// goroutine: the row is drawn in its colours in the same frame, not drawn
// plain and again when the worker is done (a second frame in the window).
func TestHighlightOfAScreenIsThereAtOnce(t *testing.T) {
	test.NewTempApp(t)
	refreshes := 0
	h := newHighlighter(func() { refreshes++ })
	h.reset("main.go")
	lines := strings.Split(strings.TrimSuffix(sampleNew, "\n"), "\n")
	get := func(i int) string { return lines[i] }
	all := func() []int {
		out := make([]int, len(lines))
		for i := range out {
			out[i] = i
		}
		return out
	}
	h.want(1, 0, all, get, len(lines))
	if toks, ok := h.tokens(1, 0); !ok || len(toks) == 0 || !toks[0].typ.InCategory(chroma.Keyword) {
		t.Errorf("right after want: tokens of %q = %v (cached %v); want a keyword first", lines[0], toks, ok)
	}
	h.wait()
	if refreshes != 0 {
		t.Errorf("refreshes = %d; want none (nothing was drawn without its colours)", refreshes)
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

func TestNewTextsNeverShowOldTokens(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	first := numbered(300, func(k int) string { return fmt.Sprintf("// comment %d\n", k) })
	v.SetTexts("a.go", first, first)
	v.list.ScrollToOffset(v.rowY(100))
	second := strings.Repeat("x := y + 1\n", 300)
	v.SetTexts("a.go", second, second)
	want := tokenise(lexerFor("a.go"), []string{"x := y + 1"})[0]
	for i := range 20 {
		got, ok := v.hl.tokens(0, i)
		if ok && fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("tokens of line %d = %v; want %v (the new text's)", i, got, want)
		}
	}
}

func TestNextHunkFromTopGoesToFirstChange(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	v.SetTexts("a.txt", numbered(400, nil), numbered(400, func(k int) string {
		if k == 1 || k == 300 {
			return "changed\n"
		}
		return ""
	}))
	v.NextHunk()
	if v.nav.cur != 1 {
		t.Fatalf("NextHunk from the top went to row %d; want 1, the first change", v.nav.cur)
	}
	v.NextHunk()
	if v.nav.cur != 300 {
		t.Errorf("second NextHunk went to row %d; want 300", v.nav.cur)
	}
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

func TestWrapToggleKeepsTopLine(t *testing.T) {
	v, _ := newTestView(t, 600, 300)
	long := func(k int) string {
		if k%10 == 0 {
			return fmt.Sprintf("line %d %s\n", k, strings.Repeat("word ", 40))
		}
		return ""
	}
	v.SetTexts("a.txt", numbered(3000, long), numbered(3000, long))
	v.list.ScrollToOffset(v.rowY(2219))
	for _, on := range []bool{true, false, true} {
		v.SetWrap(on)
		if top := v.topRow(); top != 2219 {
			t.Fatalf("after SetWrap(%v) the top row is %d; want 2219, the line on top before", on, top)
		}
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

// visualText returns the text row shows on side 1 (or 0), one string per
// visual line, as its canvas texts lay it out.
func visualText(v *DiffView, id, side int) []string {
	r := newDiffRow(v)
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

func TestNextHunkScrollsChangeIntoViewHorizontally(t *testing.T) {
	v, _ := newTestView(t, 1000, 300)
	v.SetTexts("a.txt", farChange(200, 120, "10.30"), farChange(200, 120, "110.30"))
	if !v.NextHunk() {
		t.Fatal("NextHunk found no change")
	}
	r := v.model.Row(v.nav.cur)
	ins := v.model.Words(r).ins
	if len(ins) == 0 {
		t.Fatal("no word spans on the changed row")
	}
	line := v.model.b.Line(r.b)
	c0, c1 := textbuf.Width(line[:ins[0].Start]), textbuf.Width(line[:ins[len(ins)-1].End])
	if c0 < v.hbar.off || c1 > v.hbar.off+v.metric.cols {
		t.Errorf("after NextHunk the view shows cells %d..%d; the change is at %d..%d", v.hbar.off, v.hbar.off+v.metric.cols, c0, c1)
	}
	v.PrevHunk() // nothing before: stays
	v.SetTexts("a.txt", numbered(200, nil), numbered(200, func(k int) string {
		if k == 50 {
			return "near\n"
		}
		return ""
	}))
	v.setHOffset(5)
	v.NextHunk()
	if v.hbar.off != 0 {
		t.Errorf("a change at the line start left the view scrolled to cell %d; want 0", v.hbar.off)
	}
	// A change that starts near the line's start but runs past the pane's
	// edge (a long line replaced) shows from the start too, even when the
	// last change left the view scrolled far right.
	long := strings.Repeat("word ", 60)
	v.SetTexts("a.txt", numbered(200, func(k int) string {
		if k == 40 {
			return "row 40 value 581 " + long + "\n"
		}
		return ""
	}), numbered(200, func(k int) string {
		if k == 40 {
			return "row 40 value 582\n"
		}
		return ""
	}))
	v.setHOffset(50)
	v.NextHunk()
	if v.hbar.off != 0 {
		t.Errorf("a change starting at cell 13 of a long line left the view at cell %d; want 0", v.hbar.off)
	}
}

func TestOffsideChangeIsMarked(t *testing.T) {
	v, _ := newTestView(t, 1000, 300)
	v.SetTexts("a.txt", farChange(10, 3, "10.30"), farChange(10, 3, "110.30"))
	row := v.model.RowOfB(3)
	marks := func() (left, right int) {
		r := newDiffRow(v)
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
	if v.CurrentHunk() != 1 || jumped != 1 || !v.CurrentOnScreen() {
		t.Errorf("tap at the second change's tick: current hunk %d (on screen %v), OnJumped %d times; want hunk 1 on screen, once", v.CurrentHunk(), v.CurrentOnScreen(), jumped)
	}
	test.TapAt(o, fyne.NewPos(o.Size().Width/2, o.Size().Height*0.45))
	if v.CurrentHunk() != 1 || jumped != 1 {
		t.Errorf("tap far from any tick: current hunk %d, OnJumped %d times; want hunk 1 kept, no call", v.CurrentHunk(), jumped)
	}
	if top := v.topRow(); top < 350 || top > 500 {
		t.Errorf("tap at 45%% far from any tick: top row %d; want about 450 (scrolled there)", top)
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
		r := newDiffRow(v)
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
