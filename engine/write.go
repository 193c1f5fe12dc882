package engine

import "errors"

// Format reports FormatWrite.
func (e Write) Format() Format { return FormatWrite }

func (e Write) payload() []string { return []string{e.Content} }

func (e Write) apply(text string) (string, []Match, error) {
	return "", nil, errors.New("FormatWrite: not implemented yet")
}
