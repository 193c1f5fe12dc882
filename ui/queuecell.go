package ui

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/ui/present"
)

// queueCell draws one queue row.
type queueCell struct {
	widget.BaseWidget
	q         *queueView // told when the pointer comes and goes; nil in tests of a cell alone
	hover     *canvas.Rectangle
	header    *canvas.Text
	badge     *canvas.Text
	name      *canvas.Text
	added     *canvas.Text
	removed   *canvas.Text
	age       *canvas.Text
	item      *fyne.Container
	left      *fyne.Container
	right     *fyne.Container
	headerBox *fyne.Container
	// The texts in full; the row shows as much as its width holds.
	fullName, headerName, headerRest string
	row                              int // the row of the queue shown
}

func newQueueCell(q *queueView) *queueCell {
	c := &queueCell{
		q:       q,
		hover:   canvas.NewRectangle(theme.Color(theme.ColorNameHover)),
		header:  canvas.NewText("", theme.Color(theme.ColorNameForeground)),
		badge:   canvas.NewText("", theme.Color(theme.ColorNamePrimary)),
		name:    canvas.NewText("", theme.Color(theme.ColorNameForeground)),
		added:   canvas.NewText("", theme.Color(theme.ColorNameSuccess)),
		removed: canvas.NewText("", theme.Color(theme.ColorNameError)),
		age:     canvas.NewText("", theme.Color(theme.ColorNamePlaceHolder)),
	}
	c.header.TextStyle.Bold = true
	c.header.TextSize = theme.CaptionTextSize() + 1
	c.badge.TextSize = theme.CaptionTextSize()
	c.badge.TextStyle.Bold = true
	c.age.TextSize = theme.CaptionTextSize()
	c.added.TextStyle.Monospace = true
	c.removed.TextStyle.Monospace = true
	c.right = container.NewHBox(c.added, c.removed, c.age)
	c.left = container.NewHBox(c.name, c.badge)
	c.item = container.New(rowLayout{c}, c.left, c.right)
	c.headerBox = container.New(headerLayout{c}, c.header)
	c.hover.Hide()
	c.ExtendBaseWidget(c)
	return c
}

// CreateRenderer is part of fyne.Widget.
func (c *queueCell) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewStack(c.hover, container.NewPadded(c.headerBox), container.NewPadded(c.item)))
}

// MouseIn is part of desktop.Hoverable: the row lights up (as the list's
// own rows do, which a hoverable cell takes the pointer from) and the
// queue holds still.
func (c *queueCell) MouseIn(*desktop.MouseEvent) {
	c.hover.FillColor = theme.Color(theme.ColorNameHover)
	c.hover.Show()
	c.hover.Refresh()
	if c.q != nil {
		c.q.pointerIn()
	}
}

// Tapped is part of fyne.Tappable: a click selects the row. The cell takes
// the click, not the list's row under it, which gives the list the
// keyboard: the list handed it back whenever it got it, so a Tab into the
// queue left it at once and Tab reached no control of the window.
func (c *queueCell) Tapped(*fyne.PointEvent) {
	if c.q == nil || c.row >= len(c.q.rows) {
		return
	}
	c.q.list.Select(c.row)
	c.q.tapped() // the row shown, clicked again, selects nothing
}

// MouseMoved is part of desktop.Hoverable.
func (c *queueCell) MouseMoved(*desktop.MouseEvent) {}

// MouseOut is part of desktop.Hoverable.
func (c *queueCell) MouseOut() {
	c.hover.Hide()
	if c.q != nil {
		c.q.pointerOut()
	}
}

// rowLayout lays a proposal's row out: the counts and age at the right at
// their own width, the name and badge in the rest, the name cut at its
// start ("…/dir/file.go": the end names the file) so that it never runs
// under the counts, however narrow the queue.
type rowLayout struct{ c *queueCell }

func (l rowLayout) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	c, pad := l.c, theme.Padding()
	rw := c.right.MinSize().Width
	left := max(size.Width-rw-pad, 0)
	name := "  " + c.fullName
	if room := left - c.badge.MinSize().Width - pad; textWidth(c.name, name) > room {
		name = fitEnd(c.name, "  …", c.fullName, room)
	}
	c.left.Move(fyne.NewPos(0, 0))
	c.left.Resize(fyne.NewSize(left, size.Height))
	if name != c.name.Text {
		c.name.Text = name
		c.left.Refresh() // the badge moves up to the name
	}
	c.right.Move(fyne.NewPos(size.Width-rw, 0))
	c.right.Resize(fyne.NewSize(rw, size.Height))
}

// MinSize leaves the name out: the row is as narrow as its counts allow.
func (l rowLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	r := l.c.right.MinSize()
	return fyne.NewSize(r.Width+theme.Padding(), max(r.Height, l.c.name.MinSize().Height))
}

// headerLayout fits a session's heading to its width, cutting the name
// of the agent and session, never the counts after it.
type headerLayout struct{ c *queueCell }

func (l headerLayout) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	c := l.c
	text := c.headerName + c.headerRest
	if textWidth(c.header, text) > size.Width {
		if room := size.Width - textWidth(c.header, c.headerRest); room >= textWidth(c.header, "…") {
			text = fitStart(c.header, c.headerName, "…", room) + c.headerRest
		} else { // not even the counts fit
			text = fitStart(c.header, text, "…", size.Width)
		}
	}
	if text != c.header.Text {
		c.header.Text = text
		c.header.Refresh()
	}
	c.header.Move(fyne.NewPos(0, 0))
	c.header.Resize(size)
}

func (l headerLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(0, l.c.header.MinSize().Height)
}

// textWidth is s's width in t's size and style.
func textWidth(t *canvas.Text, s string) float32 {
	return fyne.MeasureText(s, t.TextSize, t.TextStyle).Width
}

// fitEnd is prefix plus the longest end of s that fits width in t's size
// and style, starting after a "/" where one is near (the end names the
// file); just prefix if nothing fits.
func fitEnd(t *canvas.Text, prefix, s string, width float32) string {
	r := []rune(s)
	n := mostThatFit(len(r), func(k int) bool { return textWidth(t, prefix+string(r[len(r)-k:])) <= width })
	tail := string(r[len(r)-n:])
	if i := strings.IndexByte(tail, '/'); i >= 0 && i < len(tail)-1 {
		tail = tail[i:]
	}
	return prefix + tail
}

// fitStart is the longest start of s that, with suffix, fits width in t's
// size and style; just suffix if nothing fits.
func fitStart(t *canvas.Text, s, suffix string, width float32) string {
	r := []rune(s)
	n := mostThatFit(len(r), func(k int) bool { return textWidth(t, string(r[:k])+suffix) <= width })
	return string(r[:n]) + suffix
}

// mostThatFit is the largest k in 0..n for which fits(k) holds, fits being
// true up to some k and false beyond; 0 if none.
func mostThatFit(n int, fits func(k int) bool) int {
	return max(sort.Search(n+1, func(k int) bool { return !fits(k) })-1, 0)
}

// set shows row r as of now.
func (c *queueCell) set(r queueRow, now time.Time) {
	fg := theme.Color(theme.ColorNameForeground)
	if r.header != "" {
		c.headerName = r.header
		if r.where != "" {
			c.headerName = r.where + " — " + r.header
		}
		c.headerRest = fmt.Sprintf("  · %d %s %s · %d open", r.files, present.Plural(r.files, "file", "files"), present.LineCounts(r.added, r.removed, r.streaming, r.count), r.open)
		c.header.Text = c.headerName + c.headerRest
		c.header.Color = theme.Color(theme.ColorNamePlaceHolder)
		c.header.Show()
		c.item.Hide()
		c.headerBox.Refresh() // fits the heading to the row
		return
	}
	c.header.Hide()
	c.item.Show()
	c.fullName = present.FileNames(r.p)
	c.name.Text, c.name.Color = "  "+c.fullName, fg
	b, col := badge(r.p)
	if r.gone {
		b, col = "done", theme.ColorNamePlaceHolder
		c.name.Color = theme.Color(theme.ColorNamePlaceHolder)
	}
	c.badge.Text, c.badge.Color = b, theme.Color(col)
	a, d := r.p.Counts()
	counted := !r.p.State.DidNotApply() && r.p.State != review.StateStreaming
	vis(c.added, counted)
	vis(c.removed, counted)
	c.added.Text, c.added.Color = fmt.Sprintf("+%d", a), theme.Color(theme.ColorNameSuccess)
	c.removed.Text, c.removed.Color = fmt.Sprintf("−%d", d), theme.Color(theme.ColorNameError)
	c.age.Text, c.age.Color = present.Age(now, r.p.Created), theme.Color(theme.ColorNamePlaceHolder)
	// The texts' sizes changed: lay the row out again.
	c.left.Refresh()
	c.right.Refresh()
	c.item.Refresh()
}
