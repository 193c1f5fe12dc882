package engine

import "errors"

// Format reports FormatMultiEdit.
func (e MultiEdit) Format() Format { return FormatMultiEdit }

func (e MultiEdit) payload() []string { return nil }

func (e MultiEdit) apply(text string) (string, []Match, error) {
	return "", nil, errors.New("FormatMultiEdit: not implemented yet")
}
