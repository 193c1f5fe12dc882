package engine

import "errors"

// Format reports FormatSearchReplace.
func (e SearchReplace) Format() Format { return FormatSearchReplace }

func (e SearchReplace) payload() []string { return []string{e.Text} }

func (e SearchReplace) apply(text string) (string, []Match, error) {
	return "", nil, errors.New("FormatSearchReplace: not implemented yet")
}
