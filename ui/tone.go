package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/ui/present"
)

// importance is a label's colour for a presentation tone.
func importance(t present.Tone) widget.Importance {
	switch t {
	case present.Accent:
		return widget.HighImportance
	case present.Success:
		return widget.SuccessImportance
	case present.Warning:
		return widget.WarningImportance
	case present.Danger:
		return widget.DangerImportance
	case present.Muted:
		return widget.LowImportance
	}
	return widget.MediumImportance
}

// toneColor is a drawn text's theme colour for a presentation tone.
func toneColor(t present.Tone) fyne.ThemeColorName {
	switch t {
	case present.Accent:
		return theme.ColorNamePrimary
	case present.Success:
		return theme.ColorNameSuccess
	case present.Warning:
		return theme.ColorNameWarning
	case present.Danger:
		return theme.ColorNameError
	case present.Muted:
		return theme.ColorNamePlaceHolder
	}
	return theme.ColorNameForeground
}
