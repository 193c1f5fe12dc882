package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/ui/present"
)

// tones maps a presentation tone to the theme: a label's importance and a
// drawn text's colour; a tone not listed is present.Normal's.
var tones = [...]struct {
	importance widget.Importance
	color      fyne.ThemeColorName
}{
	present.Normal:  {widget.MediumImportance, theme.ColorNameForeground},
	present.Accent:  {widget.HighImportance, theme.ColorNamePrimary},
	present.Success: {widget.SuccessImportance, theme.ColorNameSuccess},
	present.Warning: {widget.WarningImportance, theme.ColorNameWarning},
	present.Danger:  {widget.DangerImportance, theme.ColorNameError},
	present.Muted:   {widget.LowImportance, theme.ColorNamePlaceHolder},
}

// importance is a label's colour for a presentation tone.
func importance(t present.Tone) widget.Importance { return tones[toneIndex(t)].importance }

// toneColor is a drawn text's theme colour for a presentation tone.
func toneColor(t present.Tone) fyne.ThemeColorName { return tones[toneIndex(t)].color }

func toneIndex(t present.Tone) present.Tone {
	if t < 0 || int(t) >= len(tones) {
		return present.Normal
	}
	return t
}
