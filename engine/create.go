package engine

import "errors"

// The creator implementations: how each format treats a file that does not
// exist yet (see Create).

func (e Replace) create() (string, []Match, error) {
	if e.Old == "" {
		return toLF(e.New), []Match{{Block: 1, Strategy: StrategyWholeFile, StartLine: 1, EndLine: 0}}, nil
	}
	return "", nil, missingFile(FormatEdit, 1, e.Old)
}

func (e SmartEdit) create() (string, []Match, error) {
	if e.Old == "" {
		return toLF(e.New), []Match{{Block: 1, Strategy: StrategyWholeFile, StartLine: 1, EndLine: 0}}, nil
	}
	return "", nil, missingFile(FormatSmartEdit, 1, e.Old)
}

// create lets the first edit of a MultiEdit create the file (an empty
// old_string); the rest then apply to that content.
func (e MultiEdit) create() (string, []Match, error) {
	if len(e.Edits) == 0 || e.Edits[0].Old != "" {
		old := ""
		if len(e.Edits) > 0 {
			old = e.Edits[0].Old
		}
		return "", nil, missingFile(FormatMultiEdit, 1, old)
	}
	first := toLF(e.Edits[0].New)
	rest := MultiEdit{Edits: e.Edits[1:]}
	if len(rest.Edits) == 0 {
		return first, []Match{{Block: 1, Strategy: StrategyWholeFile, StartLine: 1, EndLine: 0}}, nil
	}
	text, matches, err := rest.apply(first)
	var me *MatchError
	if errors.As(err, &me) {
		me.Block++
		for i := range me.Applied {
			me.Applied[i].Block++
		}
		me.Applied = append([]Match{{Block: 1, Strategy: StrategyWholeFile, StartLine: 1, EndLine: 0}}, me.Applied...)
		return "", nil, me
	}
	if err != nil {
		return "", nil, err
	}
	for i := range matches {
		matches[i].Block++
	}
	return text, append([]Match{{Block: 1, Strategy: StrategyWholeFile, StartLine: 1, EndLine: 0}}, matches...), nil
}

// create applies the blocks to an empty file: only empty SEARCH sections can
// apply there.
func (e SearchReplace) create() (string, []Match, error) {
	text, matches, err := e.apply("")
	var me *MatchError
	if errors.As(err, &me) && me.Kind == FailNoMatch {
		me.Kind = FailFileMissing
		me.Hint = "the file does not exist; to create it send its whole content as one block with an empty SEARCH section, or use write"
	}
	return text, matches, err
}

func missingFile(f Format, block int, search string) *MatchError {
	return &MatchError{
		Format: f, Block: block, Kind: FailFileMissing, Search: search,
		Hint: "the file does not exist; to create it use an empty old_string (or the write format) with the whole content",
	}
}
