package engine

import (
	"encoding/json"
	"fmt"
	"maps"
)

func init() {
	registerRunner("codex-patch", runCodexPatch)
	registerDivergences(map[string]string{
		"codex/apply-patch/scenarios/010_move_overwrites_existing_destination":         "a move onto an existing file is refused (FailFileExists) instead of silently overwriting it",
		"codex/apply-patch/scenarios/011_add_overwrites_existing_file":                 "Add File on an existing file is refused (FailFileExists) instead of silently overwriting it",
		"codex/apply-patch/scenarios/015_failure_after_partial_success_leaves_changes": "ApplyPatch is all or nothing: a failing hunk leaves no earlier change behind",
	})
}

type codexPatchInput struct {
	Files   map[string]string `json:"files"`
	Patch   string            `json:"patch"`
	Options struct {
		PreserveLineEndings bool `json:"preserveLineEndings"`
	} `json:"options"`
}

type codexPatchExpect struct {
	Files map[string]string `json:"files"`
}

// runCodexPatch applies the vector's patch to its tree and compares the
// final tree: on an error the tree stays as it was.
func runCodexPatch(c fixtureCase) error {
	var in codexPatchInput
	var want codexPatchExpect
	if err := json.Unmarshal(c.Input, &in); err != nil {
		return err
	}
	if err := json.Unmarshal(c.Expect, &want); err != nil {
		return err
	}
	got, err := patchTreeResult(in.Files, in.Patch)
	if !maps.Equal(got, want.Files) {
		return fmt.Errorf("ApplyPatch gave tree %q (error %v); want %q", got, err, want.Files)
	}
	return nil
}

// patchTreeResult applies patch to a copy of files as a caller of
// ApplyPatch would, returning the original tree when it fails.
func patchTreeResult(files map[string]string, patch string) (map[string]string, error) {
	read := func(p string) (string, bool, error) {
		s, ok := files[p]
		return s, ok, nil
	}
	out := maps.Clone(files)
	if out == nil {
		out = map[string]string{}
	}
	changes, err := ApplyPatch(patch, read)
	if err != nil {
		return out, err
	}
	for _, ch := range changes {
		switch {
		case ch.Op == PatchDelete:
			delete(out, ch.Path)
		case ch.MoveTo != "":
			delete(out, ch.Path)
			out[ch.MoveTo] = ch.New
		default:
			out[ch.Path] = ch.New
		}
	}
	return out, nil
}
