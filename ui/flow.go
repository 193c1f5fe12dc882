package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
)

// flowLayout lays its objects out left to right and wraps them onto more
// rows when the width runs out, so a row of buttons never makes the window
// wider than the screen (at FYNE_SCALE=1.5 the decision bar held a window
// 1,289 px wide). With lastRight, the last object sits at the right end of
// the last row (the bar's Follow and View). Its minimum width is its widest
// object; its minimum height is that of the rows it took at its present
// width, as a wrapping label's is: the canvas lays the pane out again when
// that changes.
type flowLayout struct {
	lastRight bool
	width     float32 // the width last laid out at; 0: not yet (one row)
}

func newFlow(lastRight bool, objects ...fyne.CanvasObject) *fyne.Container {
	return container.New(&flowLayout{lastRight: lastRight}, objects...)
}

// rows places the visible objects in width w: each one's position, and
// the height of the rows they take.
func (l *flowLayout) rows(objects []fyne.CanvasObject, w float32) (pos []fyne.Position, height float32) {
	pad := theme.Padding()
	var shown []fyne.CanvasObject
	var rowH float32
	for _, o := range objects {
		if o.Visible() {
			shown = append(shown, o)
			rowH = max(rowH, o.MinSize().Height)
		}
	}
	if len(shown) == 0 {
		return nil, 0
	}
	x, y := float32(0), float32(0)
	for i, o := range shown {
		ow := o.MinSize().Width
		if x > 0 && x+ow > w {
			x, y = 0, y+rowH+pad
		}
		at := fyne.NewPos(x, y)
		if l.lastRight && i == len(shown)-1 && w < 1e9 {
			at.X = max(x, w-ow)
		}
		pos = append(pos, at)
		x += ow + pad
	}
	return pos, y + rowH
}

func (l *flowLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var wide float32
	for _, o := range objects {
		if o.Visible() {
			wide = max(wide, o.MinSize().Width)
		}
	}
	w := l.width
	if w <= 0 {
		w = 1e9 // not laid out yet: one row
	}
	_, h := l.rows(objects, max(w, wide))
	return fyne.NewSize(wide, h)
}

func (l *flowLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	l.width = size.Width
	pos, _ := l.rows(objects, size.Width)
	i := 0
	for _, o := range objects {
		if !o.Visible() {
			continue
		}
		o.Move(pos[i])
		o.Resize(o.MinSize())
		i++
	}
}

// narrowLayout holds one object (a scroll around content) that asks for no
// width of its own: the content scrolls sideways in a pane narrower than
// it (the stale views' three names side by side), and takes no room at all
// while content is hidden.
type narrowLayout struct{ content fyne.CanvasObject }

func (l narrowLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	if !l.content.Visible() {
		return fyne.Size{}
	}
	return fyne.NewSize(0, l.content.MinSize().Height)
}

func (l narrowLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objects {
		o.Move(fyne.Position{})
		o.Resize(size)
	}
}

// settledBorder is Fyne's border layout (top, bottom, the rest between)
// for a top and bottom holding word-wrapped labels. Such a label asks for
// the height its text takes at the width it was last given, and one shown
// for the first time had none: the border gave the top the height of a
// stale file's three-line note as one line, and the choice of views under
// the note was drawn over the diff (the window repaired it at no later
// frame). Each is sized to the width first, then to what it asks then.
type settledBorder struct {
	border      fyne.Layout
	top, bottom fyne.CanvasObject
}

func newSettledBorder(top, bottom fyne.CanvasObject) settledBorder {
	return settledBorder{layout.NewBorderLayout(top, bottom, nil, nil), top, bottom}
}

func (l settledBorder) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for _, o := range []fyne.CanvasObject{l.top, l.bottom} {
		if o.Visible() {
			o.Resize(fyne.NewSize(size.Width, o.MinSize().Height)) // its labels wrap at the width
		}
	}
	l.border.Layout(objects, size)
}

func (l settledBorder) MinSize(objects []fyne.CanvasObject) fyne.Size {
	return l.border.MinSize(objects)
}

// cappedLayout holds one object (a vertical scroll around content) no
// taller than content, and no taller than maxHeight says: in a short
// window a long note scrolls instead of taking the diff's rows.
type cappedLayout struct {
	content   fyne.CanvasObject
	maxHeight func() float32
}

func (l cappedLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	s := l.content.MinSize()
	return fyne.NewSize(s.Width, min(s.Height, l.maxHeight()))
}

func (l cappedLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objects {
		o.Move(fyne.Position{})
		o.Resize(size)
	}
}
