package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/ui/diffview"
	"github.com/diffdesk/diffdesk/ui/present"
)

// staleView is a stale file's choice of views: the disk against the
// proposal merged onto it (the one decided), the base against the disk
// (the save that made it stale), or the base against the proposal as
// sent. It owns its choice, made with the callback for another pick.
type staleView struct {
	choice *choice
	box    fyne.CanvasObject // the choice, scrolling sideways in a narrow pane
}

func newStaleView(c *choice) *staleView {
	c.Options = []string{present.StaleMerged, present.StaleDisk, present.StaleProposal}
	s := &staleView{choice: c}
	s.choice.choose(present.StaleMerged)
	s.choice.Hide()
	s.box = container.New(narrowLayout{s.choice}, container.NewHScroll(s.choice))
	return s
}

// shows is the view chosen (present.StaleMerged, StaleDisk, StaleProposal).
func (s *staleView) shows() string { return s.choice.Selected }

// reset chooses the merge again, calling no one: a new proposal shows.
func (s *staleView) reset() { s.choice.choose(present.StaleMerged) }

func (s *staleView) show() { s.choice.Show() }
func (s *staleView) hide() { s.choice.Hide() }

// key names what the view shows of stale file f: a new save on disk or
// another choice draws it again.
func (s *staleView) key(f review.File) string { return "stale:" + f.Disk.SHA256 + ":" + s.shows() }

// draw puts the chosen two texts of f in v, m being the proposal merged
// onto the disk.
func (s *staleView) draw(v *diffview.DiffView, f review.File, m engine.MergeResult) {
	switch s.shows() {
	case present.StaleDisk:
		v.SetTexts(f.Path, f.BaseText(), string(f.Disk.Content))
	case present.StaleProposal:
		v.SetTexts(f.Path, f.BaseText(), f.Proposed)
	default:
		v.SetStale(f.Path, string(f.Disk.Content), m)
	}
}
