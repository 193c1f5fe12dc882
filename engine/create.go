package engine

import "errors"

// The creator implementations: how each format treats a file that does not
// exist yet (see Create).

func (e Replace) create() (Result, error) {
	if e.Old == "" {
		return created(toLF(e.New)), nil
	}
	return Result{}, missingFile(FormatEdit, 1, e.Old)
}

func (e SmartEdit) create() (Result, error) {
	if e.Old == "" {
		return created(toLF(e.New)), nil
	}
	return Result{}, missingFile(FormatSmartEdit, 1, e.Old)
}

// create lets the first edit of a MultiEdit create the file (an empty
// old_string); the rest then apply to that content.
func (e MultiEdit) create() (Result, error) {
	if len(e.Edits) == 0 || e.Edits[0].Old != "" {
		old := ""
		if len(e.Edits) > 0 {
			old = e.Edits[0].Old
		}
		return Result{}, missingFile(FormatMultiEdit, 1, old)
	}
	first := created(toLF(e.Edits[0].New))
	return e.applyFrom(first.Content, 1, first.Matches)
}

// create applies the blocks to an empty file: only empty SEARCH sections can
// apply there.
func (e SearchReplace) create() (Result, error) {
	res, err := e.apply("")
	var me *MatchError
	if errors.As(err, &me) && me.Kind == FailNoMatch {
		me.Kind = FailFileMissing
		me.Hint = "the file does not exist; to create it send its whole content as one block with an empty SEARCH section, or use write"
	}
	return res, err
}

// created is the result of an edit that creates content: one whole-file
// insertion at line 1.
func created(content string) Result {
	return Result{Content: content, Matches: []Match{newMatch(1, StrategyWholeFile, 1, 0)}}
}

func missingFile(f Format, block int, search string) *MatchError {
	return &MatchError{
		Format: f, Block: block, Kind: FailFileMissing, Search: search,
		Hint: "the file does not exist; to create it use an empty old_string (or the write format) with the whole content",
	}
}
