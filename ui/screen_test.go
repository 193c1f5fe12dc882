package ui

import (
	"testing"

	"fyne.io/fyne/v2"
)

func TestWindowSizeFitsTheScreen(t *testing.T) {
	want := fyne.NewSize(1400, 900)
	for _, tt := range []struct {
		work, got fyne.Size
	}{
		{fyne.Size{}, want},                                // unknown screen
		{fyne.NewSize(1920, 1080), want},                   // room enough
		{fyne.NewSize(1024, 700), fyne.NewSize(1008, 652)}, // a small screen: within it, room for the frame
		{fyne.NewSize(1400, 900), want},                    // just as big: as it was
		{fyne.NewSize(1400, 800), fyne.NewSize(1400, 752)}, // too low only
		{fyne.NewSize(200, 100), fyne.NewSize(400, 300)},   // never below a usable minimum
	} {
		if got := windowSize(want, tt.work); got != tt.got {
			t.Errorf("windowSize(%v, work %v) = %v; want %v", want, tt.work, got, tt.got)
		}
	}
}
