package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/ui/diffview"
	"github.com/diffdesk/diffdesk/ui/present"
)

// looseCard shows, above the diff, the loose match that placed the hunk j
// and k went to: how it was reached and where it went, with the text the
// agent expected beside the lines the file really held there. The view
// marks those lines with a bar (Marks.SetLooseLines).
type looseCard struct {
	box             *fyne.Container
	title           *widget.Label
	expected, found *widget.Label
	foundHead       *widget.Label
	m               engine.Match // the match shown (Mark other lines… places its block)
}

func newLooseCard() *looseCard {
	mono := func() *widget.Label {
		l := widget.NewLabel("")
		l.TextStyle = fyne.TextStyle{Monospace: true}
		l.Truncation = fyne.TextTruncateEllipsis
		return l
	}
	c := &looseCard{title: widget.NewLabel(""), expected: mono(), found: mono(), foundHead: widget.NewLabel("")}
	c.title.Wrapping = fyne.TextWrapWord
	head := widget.NewLabel("The agent expected:")
	head.TextStyle.Bold = true
	c.foundHead.TextStyle.Bold = true
	c.box = container.NewVBox(container.NewBorder(nil, nil, widget.NewIcon(theme.WarningIcon()), nil, c.title), container.NewGridWithColumns(2,
		container.NewVBox(head, c.expected), container.NewVBox(c.foundHead, c.found)))
	c.box.Hide()
	return c
}

// show shows m, or hides the card when ok is false.
func (c *looseCard) show(m engine.Match, ok bool) {
	if !ok || m.Found == "" && m.Searched == "" {
		c.box.Hide()
		return
	}
	c.m = m
	c.title.SetText(fmt.Sprintf("This change is block %d's loose match (%s). Check that these are the lines the agent meant:", m.Block, m.Strategy))
	c.expected.SetText(present.CardText(m.Searched))
	c.foundHead.SetText(fmt.Sprintf("The file had (%s):", present.LineSpan(m.StartLine, m.EndLine)))
	c.found.SetText(present.CardText(m.Found))
	c.box.Show()
}

// follow shows the card for the change j and k went to in v, the diff of
// f's proposal (nil: v shows no such diff), or hides it; it reports
// whether the card came or went.
func (c *looseCard) follow(f *review.File, v *diffview.DiffView) bool {
	was := c.box.Visible()
	k, hs := v.Nav().CurrentHunk(), v.Hunks()
	if f == nil || k < 0 || k >= len(hs) {
		c.show(engine.Match{}, false)
	} else {
		c.show(looseMatchAt(*f, hs[k]))
	}
	return c.box.Visible() != was
}

// looseRanges are the original's lines (0-based, half-open) f's loose
// matches replaced.
func looseRanges(f review.File) [][2]int {
	var out [][2]int
	for _, m := range f.Loose() {
		if m.EndLine >= m.StartLine {
			out = append(out, [2]int{m.StartLine - 1, m.EndLine})
		}
	}
	return out
}

// looseMatchAt returns the loose match of f that placed hunk h (a diff of
// f's base and proposal): the one whose replaced lines overlap the
// change's, or, for an insertion, touch it.
func looseMatchAt(f review.File, h engine.Hunk) (engine.Match, bool) {
	a0, a1 := h.Change.A0, h.Change.A1
	for _, m := range f.Loose() {
		s, e := m.StartLine-1, m.EndLine // 0-based, half-open
		if s < a1 && a0 < e || s == e && a0 <= s && s <= a1 || a0 == a1 && s <= a0 && a0 <= e {
			return m, true
		}
	}
	return engine.Match{}, false
}
