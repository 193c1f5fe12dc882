package engine

import "errors"

// Format reports FormatEdit.
func (e Replace) Format() Format { return FormatEdit }

func (e Replace) payload() []string { return []string{e.Old, e.New} }

func (e Replace) apply(text string) (string, []Match, error) {
	return "", nil, errors.New("FormatEdit: not implemented yet")
}
