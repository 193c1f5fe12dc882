package engine

import "errors"

// Format reports FormatSmartEdit.
func (e SmartEdit) Format() Format { return FormatSmartEdit }

func (e SmartEdit) payload() []string { return []string{e.Old, e.New} }

func (e SmartEdit) apply(text string) (string, []Match, error) {
	return "", nil, errors.New("FormatSmartEdit: not implemented yet")
}
