package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"
)

func init() {
	registerRunner("aider-editblock", runAiderEditBlock)
	registerDivergences(map[string]string{
		"aider-probe/file-without-final-newline":       "aider gives a file without a final newline one; we keep the file's final-newline state",
		"aider-probe/crlf-search-vs-lf-file":           "we normalise the SEARCH text's line endings, so CRLF SEARCH text matches an LF file",
		"aider-probe/delete-entire-content-is-failure": "aider counts an empty result as a failure; deleting a file's whole content succeeds here",
	})
}

// aiderInput holds the fields of every aider-editblock op.
type aiderInput struct {
	Op         string            `json:"op"`
	Content    string            `json:"content"`
	Fence      []string          `json:"fence"`
	ValidNames []string          `json:"valid_fnames"`
	Whole      string            `json:"whole"`
	Part       string            `json:"part"`
	Replace    string            `json:"replace"`
	Text       string            `json:"text"`
	Fname      *string           `json:"fname"`
	Lines      []string          `json:"lines"`
	Files      map[string]string `json:"files"`
	InChat     []string          `json:"inChat"`
	Response   string            `json:"response"`
}

func (in aiderInput) fence() EditBlockFence {
	if len(in.Fence) != 2 {
		return DefaultEditBlockFence()
	}
	return EditBlockFence{in.Fence[0], in.Fence[1]}
}

func runAiderEditBlock(c fixtureCase) error {
	var in aiderInput
	if err := json.Unmarshal(c.Input, &in); err != nil {
		return err
	}
	switch in.Op {
	case "parse":
		return runAiderParse(in, c.Expect)
	case "replace_most_similar_chunk":
		var want struct{ Content *string }
		if err := json.Unmarshal(c.Expect, &want); err != nil {
			return err
		}
		// The engine's role of replace_most_similar_chunk: one block applied
		// to the file's text through Apply.
		res, err := Apply(in.Whole, aiderBlock{search: in.Part, replace: in.Replace})
		switch {
		case want.Content == nil && err == nil:
			return fmt.Errorf("got %q; want no match", res.Content)
		case want.Content != nil && err != nil:
			return fmt.Errorf("got error %v; want %q", err, *want.Content)
		case want.Content != nil && res.Content != *want.Content:
			return fmt.Errorf("got %q; want %q", res.Content, *want.Content)
		}
		return nil
	case "strip_quoted_wrapping":
		var want expectContent
		if err := json.Unmarshal(c.Expect, &want); err != nil {
			return err
		}
		name := ""
		if in.Fname != nil {
			name = *in.Fname
		}
		return checkContent(want, stripQuotedWrapping(in.Text, name, in.fence()), nil)
	case "find_filename":
		var want struct{ Filename *string }
		if err := json.Unmarshal(c.Expect, &want); err != nil {
			return err
		}
		if got := findEditBlockFilename(in.Lines, in.fence(), in.ValidNames); got != deref(want.Filename) && (got != "" || want.Filename != nil) {
			return fmt.Errorf("got %q; want %q", got, deref(want.Filename))
		}
		return nil
	case "apply":
		var want struct{ Files map[string]string }
		if err := json.Unmarshal(c.Expect, &want); err != nil {
			return err
		}
		blocks, err := ParseEditBlocksWithFence(in.Response, in.InChat, in.fence())
		if err != nil {
			return err
		}
		got, err := ApplyEditBlocks(in.Files, blocks)
		if err != nil {
			return err
		}
		if !maps.Equal(got, want.Files) {
			return fmt.Errorf("got files %q; want %q", got, want.Files)
		}
		return nil
	}
	return fmt.Errorf("unknown op %q", in.Op)
}

func runAiderParse(in aiderInput, expect json.RawMessage) error {
	var want struct {
		Blocks        [][]*string
		Error         bool
		ErrorContains string
	}
	if err := json.Unmarshal(expect, &want); err != nil {
		return err
	}
	blocks, err := ParseEditBlocksWithFence(in.Content, in.ValidNames, in.fence())
	if want.Error {
		var fe *FormatError
		switch {
		case err == nil:
			return fmt.Errorf("got %d blocks; want error %q", len(blocks), want.ErrorContains)
		case !errors.As(err, &fe):
			return fmt.Errorf("got %T %v; want *FormatError", err, err)
		case !strings.Contains(fe.Msg, want.ErrorContains):
			return fmt.Errorf("got error %q; want it to contain %q", fe.Msg, want.ErrorContains)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("got error %v; want %d blocks", err, len(want.Blocks))
	}
	got := make([][]*string, len(blocks))
	for k, b := range blocks {
		if b.Shell {
			got[k] = []*string{nil, &b.Commands}
		} else {
			got[k] = []*string{&b.Path, &b.Search, &b.Replace}
		}
	}
	gj, _ := json.Marshal(got)
	wj, _ := json.Marshal(want.Blocks)
	if string(gj) != string(wj) {
		return fmt.Errorf("got blocks\n%s\nwant\n%s", gj, wj)
	}
	return nil
}
