package diffview

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/diffdesk/diffdesk/engine"
)

// A streamed chunk that adds a line draws again only the rows whose lines
// or marks changed (the growing edge), not every row on screen; a refresh
// of the view from outside (the window's pane, each chunk) draws none.
func TestStreamChunkRedrawsOnlyChangedRows(t *testing.T) {
	v, _ := newTestView(t, 800, 600)
	var text strings.Builder
	for k := range 200 {
		fmt.Fprintf(&text, "line %d of the new file\n", k)
	}
	s, err := engine.NewStream("", engine.FormatWrite)
	if err != nil {
		t.Fatal(err)
	}
	feed := func(c string) {
		p, err := s.Feed(c)
		if err != nil {
			t.Fatal(err)
		}
		v.SetStream("a.txt", "", p)
	}
	all := text.String()
	feed(all[:len(all)/2])
	vis := v.visibleRows()
	for i := len(all) / 2; i < len(all)/2+3*25; i += 25 {
		before := v.rows.drawn
		feed(all[i : i+25])
		if n := v.rows.drawn - before; n == 0 || n > 6 {
			t.Errorf("a chunk drew %d rows (%d on screen); want only the few at the growing edge", n, vis)
		}
	}
	before := v.rows.drawn
	v.Refresh()
	if n := v.rows.drawn - before; n > 2 {
		t.Errorf("refreshing the unchanged view drew %d rows; want none but a row the refresh brought on screen", n)
	}
	v.SetWrap(true) // a change of the view as a whole draws every row again
	if n := v.rows.drawn - before; n < vis/2 {
		t.Errorf("wrap on drew %d rows; want every row on screen (%d)", n, vis)
	}
}

// The overview strip of a file with a change on every pixel's worth of
// rows draws a few long ticks, not one rectangle per pixel: every object
// of the window is drawn again each frame.
func TestOverviewMergesTouchingTicks(t *testing.T) {
	v, _ := newTestView(t, 800, 300)
	v.SetTexts("a.txt", numbered(20000, nil), numbered(20000, func(k int) string {
		if k%20 == 5 {
			return "changed\n"
		}
		return ""
	}))
	v.overview.Refresh()
	if n := len(v.overview.ticks); n > 10 {
		t.Errorf("the strip has %d ticks for 1,000 changes that touch on its %v pixels; want a few merged ticks", n, v.overview.Size().Height)
	}
	if n := len(test.WidgetRenderer(v.overview).Objects()); n > 2 {
		t.Errorf("the strip is %d objects; want its picture and the frame: every object of the window is drawn each frame", n)
	}
}

// The view keeps no row widget the list has let go: Fyne's list pools the
// rows it hides in a sync.Pool, which a GC empties, and makes new ones; a
// long session kept every row ever made (issue 28: memory after an hour).
func TestRowWidgetsStayBoundedWhileScrolling(t *testing.T) {
	v, _ := newTestView(t, 900, 400)
	var old, new strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&old, "line %d\n", i)
		if i%50 == 0 {
			fmt.Fprintf(&new, "changed %d\n", i)
		} else {
			fmt.Fprintf(&new, "line %d\n", i)
		}
	}
	v.Folds().Collapse(false)
	v.SetTexts("big.txt", old.String(), new.String())
	for range 200 {
		v.Nav().PageDown()
		runtime.GC() // empties the list's pool of hidden rows now and then
	}
	if n, most := len(v.rows.widgets), 4*v.visibleRows()+16; n > most {
		t.Errorf("the view holds %d row widgets after 200 pages (%d made); want at most %d", n, v.rows.created, most)
	}
}

// A one-row change draws that row, not the view: ticking a hunk draws
// its rows, moving the editor's cursor the rows it left and reached.
func TestOneRowChangeDrawsOnlyItsRows(t *testing.T) {
	v, _ := newTestView(t, 900, 400)
	v.SetTexts("a.txt", numbered(200, nil), numbered(200, func(k int) string {
		if k == 5 || k == 6 || k == 20 {
			return fmt.Sprintf("changed %d\n", k)
		}
		return ""
	}))
	vis := v.visibleRows()
	before := v.rows.drawn
	v.ToggleHunk(0)
	if n := v.rows.drawn - before; n == 0 || n > 2 {
		t.Errorf("ticking a 2-line hunk drew %d rows (%d on screen); want its 2", n, vis)
	}
	v.SetEditable(true)
	ed := v.Editor()
	ed.SetCursor(10, 0)
	before = v.rows.drawn
	ed.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	if n := v.rows.drawn - before; n == 0 || n > 2 {
		t.Errorf("the cursor one line down drew %d rows (%d on screen); want the 2 it left and reached", n, vis)
	}
	before = v.rows.drawn
	ed.TypedRune('x') // an edit: the rows after it may move
	if n := v.rows.drawn - before; n < vis/2 {
		t.Errorf("typing drew %d rows; want the rows on screen (%d) drawn again", n, vis)
	}
}
