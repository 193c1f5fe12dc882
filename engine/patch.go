package engine

import (
	"fmt"
	"path"
	"strings"
	"unicode/utf8"
)

// PatchOp says what a FileChange does to its file.
type PatchOp string

// The file operations of a patch. A move is a PatchUpdate with MoveTo set:
// the file at Path goes away and New is written at MoveTo.
const (
	PatchAdd    PatchOp = "add"    // create Path with New; Old is ""
	PatchDelete PatchOp = "delete" // remove Path; Old is its content, New is ""
	PatchUpdate PatchOp = "update" // rewrite Path (or move it to MoveTo) with New
)

// FileChange is one file operation of a patch with the file's bytes before
// and after it. Paths are relative, slash-separated and cleaned (no "./",
// no "//", no trailing "/"); a patch never names an absolute path or one
// that climbs out of its directory with "..".
//
// When a patch touches the same path more than once (say, Delete File then
// Add File), each operation is its own FileChange in patch order, and a
// later change's Old is the earlier change's New: applying the changes in
// order gives the patched tree.
type FileChange struct {
	Op      PatchOp `json:"op"`
	Path    string  `json:"path"`
	MoveTo  string  `json:"moveTo,omitempty"` // PatchUpdate only: the new path, "" if the file stays put
	Old     string  `json:"old"`              // the file's bytes as read; "" for PatchAdd
	New     string  `json:"new"`              // the bytes to write; "" for PatchDelete
	Matches []Match `json:"matches"`          // PatchUpdate: where each chunk applied (Block = 1-based chunk within the file)
}

// ApplyPatch applies a multi-file patch to the files read returns and
// reports every change it makes. The patch is either a Codex apply_patch
// envelope ("*** Begin Patch" … "*** End Patch", optionally wrapped in a
// <<EOF heredoc) or a unified diff (git-style or plain), detected from its
// text.
//
// Codex chunks are found searching forward from the previous chunk (after
// their "@@ context" line, at the end for "*** End of File"); unified hunks
// are found nearest the line their header names. Either tries exact lines,
// then lines equal up to whitespace (StrategyLineTrimmed), then up to
// Unicode dashes, quotes and spaces (StrategyNormalized); each FileChange's
// Matches say which, and where.
//
// read returns a file's bytes and whether it exists; ApplyPatch calls it at
// most once per path and has no other side effects. It is all or nothing:
// either every change or an error. A chunk that does not apply gives a
// *MatchError naming the file (Path) and the chunk (Block), with the
// closest lines and the file's earlier chunks that did match (Applied); a
// chunk that fits several places takes the first after the previous chunk,
// as Codex does, and its Match counts them (Candidates); a file that must
// not exist but does (Add File, Move to, a diff from /dev/null), or must
// exist but does not, gives a *MatchError of kind FailFileExists or
// FailFileMissing with Block 0; a malformed patch gives a *FormatError with
// the 1-based patch line; a binary file or patch a *ContentError.
//
// Updated files keep their BOM and line endings: each kept line keeps its
// own ending and new lines take the file's dominant one. A file without a
// final newline keeps that unless the patch changes its last line (a
// unified diff's "\ No newline at end of file" says which side lacks it).
func ApplyPatch(patch string, read func(path string) (content string, exists bool, err error)) ([]FileChange, error) {
	sections, err := parsePatch(patch)
	if err != nil {
		return nil, err
	}
	if err := checkText("edit", patch); err != nil {
		return nil, err
	}
	t := patchTree{read: read, files: map[string]patchFile{}, eol: payloadEOL([]string{patch})}
	changes := make([]FileChange, 0, len(sections))
	for _, s := range sections {
		c, err := t.apply(s)
		if err != nil {
			return nil, err
		}
		changes = append(changes, c)
	}
	return changes, nil
}

// patchSection is one file operation as parsed from either syntax.
type patchSection struct {
	op      PatchOp
	path    string
	moveTo  string
	line    int      // 1-based patch line of the section's header
	add     []string // PatchAdd (Codex): the new file's lines, without "\n"
	chunks  []patchChunk
	unified bool // from a unified diff: chunks carry line numbers
}

// patchLine is one line of a chunk: ' ' context, '-' removed, '+' added.
type patchLine struct {
	kind byte
	text string
}

// patchChunk is one Codex update chunk or one unified-diff hunk.
type patchChunk struct {
	line     int      // 1-based patch line where the chunk starts
	contexts []string // Codex "@@ context" lines: each comes after the one before, the chunk after the last
	eof      bool     // Codex "*** End of File": the chunk ends the file
	lines    []patchLine
	oldStart int  // unified: 0-based index the old side starts at per the header; -1 if unknown
	oldNoEOL bool // unified: the old side's last line has no final newline
	newNoEOL bool // unified: the new side's last line has no final newline
}

// sides returns the chunk's old and new lines.
func (c patchChunk) sides() (before, after []string) {
	for _, l := range c.lines {
		if l.kind != '+' {
			before = append(before, l.text)
		}
		if l.kind != '-' {
			after = append(after, l.text)
		}
	}
	return before, after
}

// parsePatch detects the patch syntax and parses it.
func parsePatch(patch string) ([]patchSection, error) {
	lines := strings.Split(toLF(strings.TrimPrefix(patch, bom)), "\n")
	switch patchSyntax(lines) {
	case "codex":
		return parseCodexPatch(lines)
	case "unified":
		return parseUnifiedPatch(lines)
	}
	return nil, &FormatError{Format: FormatPatch, Line: 1, Msg: "not a patch: send a Codex envelope ('*** Begin Patch' … '*** End Patch') or a unified diff ('--- a/path', '+++ b/path', '@@ -l,n +l,n @@')"}
}

// patchSyntax tells a Codex envelope ("codex") from a unified diff
// ("unified") by whichever marker comes first; "" if there is neither.
func patchSyntax(lines []string) string {
	blank := true // every line so far is blank
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case t == codexBegin || blank && codexHeredocOpen(t) != "":
			return "codex"
		case strings.HasPrefix(l, "diff --git ") || patchHunkHeader().MatchString(l) ||
			strings.HasPrefix(l, "--- ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "+++ "):
			return "unified"
		case strings.HasPrefix(t, codexAdd) || strings.HasPrefix(t, codexDelete) || strings.HasPrefix(t, codexUpdate) || t == codexEnd:
			return "codex"
		}
		blank = blank && t == ""
	}
	return ""
}

// cleanPatchPath checks a path named by a patch and returns it cleaned; what
// says which header named it, for the error.
func cleanPatchPath(p string, line int, what string) (string, error) {
	bad := func(why string) error {
		return &FormatError{Format: FormatPatch, Line: line, Msg: fmt.Sprintf("%s %q %s", what, p, why)}
	}
	switch {
	case p == "":
		return "", &FormatError{Format: FormatPatch, Line: line, Msg: what + " has no file name; write the path after the colon"}
	case strings.IndexByte(p, 0) >= 0:
		return "", bad("contains a NUL byte; file names cannot")
	case !utf8.ValidString(p):
		return "", bad("is not valid UTF-8")
	}
	slashed := strings.ReplaceAll(p, `\`, "/")
	if strings.HasPrefix(slashed, "/") || (len(slashed) >= 2 && slashed[1] == ':') {
		return "", bad("is absolute; use a path relative to the project root")
	}
	c := path.Clean(slashed)
	switch {
	case c == "." || strings.HasSuffix(slashed, "/"):
		return "", bad("names a directory, not a file")
	case c == ".." || strings.HasPrefix(c, "../"):
		return "", bad("climbs out of the project with '..'; use a path inside it")
	}
	return c, nil
}

// patchFile is a file of the tree as the patch has left it so far.
type patchFile struct {
	content string
	exists  bool
}

// patchTree applies sections in order over the files read returns, without
// writing anything.
type patchTree struct {
	read  func(path string) (string, bool, error)
	files map[string]patchFile
	eol   string // the patch's own line ending, for new files
}

func (t *patchTree) get(p string) (patchFile, error) {
	if f, ok := t.files[p]; ok {
		return f, nil
	}
	content, exists, err := t.read(p)
	if err != nil {
		return patchFile{}, fmt.Errorf("patch: cannot read %s: %w", p, err)
	}
	f := patchFile{exists: exists}
	if exists {
		f.content = content
	}
	t.files[p] = f
	return f, nil
}

func (t *patchTree) apply(s patchSection) (FileChange, error) {
	f, err := t.get(s.path)
	if err != nil {
		return FileChange{}, err
	}
	c := FileChange{Op: s.op, Path: s.path, Old: f.content}
	switch s.op {
	case PatchAdd:
		if f.exists {
			return c, &MatchError{Format: FormatPatch, Path: s.path, Kind: FailFileExists,
				Hint: fmt.Sprintf("the patch creates %s, which already exists, and DiffDesk does not overwrite files that way: change it with an update (*** Update File: or a diff against it), or delete it earlier in the same patch", s.path)}
		}
		c.New, err = t.addContent(s)
		if err != nil {
			return c, err
		}
		t.files[s.path] = patchFile{content: c.New, exists: true}
		return c, nil
	case PatchDelete:
		if !f.exists {
			return c, &MatchError{Format: FormatPatch, Path: s.path, Kind: FailFileMissing,
				Hint: fmt.Sprintf("the patch deletes %s, which does not exist (or is a directory); drop that section", s.path)}
		}
		if len(s.chunks) > 0 {
			// A diff to /dev/null: the file must be exactly what it deletes.
			if err := t.checkDeleted(s, f.content); err != nil {
				return c, err
			}
		}
		t.files[s.path] = patchFile{}
		return c, nil
	}
	if !f.exists && s.unified && s.moveTo == "" && patchOnlyAdds(s.chunks) {
		// A diff whose hunks only add lines, to a file that is not there,
		// creates it (as GNU patch does).
		s.op = PatchAdd
		return t.apply(s)
	}
	if !f.exists {
		return c, &MatchError{Format: FormatPatch, Path: s.path, Kind: FailFileMissing,
			Hint: fmt.Sprintf("the patch updates %s, which does not exist; create it with *** Add File: (or a diff from /dev/null) instead", s.path)}
	}
	dest := s.path
	if s.moveTo != "" && s.moveTo != s.path {
		d, err := t.get(s.moveTo)
		if err != nil {
			return c, err
		}
		if d.exists {
			return c, &MatchError{Format: FormatPatch, Path: s.path, Kind: FailFileExists,
				Hint: fmt.Sprintf("the patch moves %s to %s, which already exists, and DiffDesk does not overwrite files with a move: delete %s earlier in the same patch, or move to a new path", s.path, s.moveTo, s.moveTo)}
		}
		c.MoveTo, dest = s.moveTo, s.moveTo
	}
	c.New, c.Matches, err = t.update(s, f.content)
	if err != nil {
		return c, err
	}
	if dest != s.path {
		t.files[s.path] = patchFile{}
	}
	t.files[dest] = patchFile{content: c.New, exists: true}
	return c, nil
}

// patchOnlyAdds reports whether chunks hold nothing but added lines.
func patchOnlyAdds(chunks []patchChunk) bool {
	for _, ch := range chunks {
		for _, l := range ch.lines {
			if l.kind != '+' {
				return false
			}
		}
	}
	return true
}

// addContent builds the bytes of a file the patch creates, with the patch's
// own line ending.
func (t *patchTree) addContent(s patchSection) (string, error) {
	doc := Doc{EOL: t.eol}
	if !s.unified {
		if len(s.add) == 0 {
			return "", nil
		}
		return doc.Encode(strings.Join(s.add, "\n") + "\n"), nil
	}
	var lines []string
	noEOL := false
	for _, ch := range s.chunks {
		_, n := ch.sides()
		lines = append(lines, n...)
		noEOL = ch.newNoEOL
	}
	if len(lines) == 0 {
		return "", nil
	}
	text := strings.Join(lines, "\n")
	if !noEOL {
		text += "\n"
	}
	return doc.Encode(text), nil
}

// update applies an update section's chunks to a file's bytes.
func (t *patchTree) update(s patchSection, content string) (string, []Match, error) {
	doc, err := Decode(content)
	if err != nil {
		return "", nil, fmt.Errorf("patch: %s: %w", s.path, err)
	}
	text, matches, err := applyPatchChunks(s, doc.Text)
	if err != nil {
		return "", nil, err
	}
	if doc.EOL == "" {
		doc.EOL = t.eol
	}
	return doc.Encode(text), matches, nil
}

// checkDeleted verifies that a diff deleting a file removes all of it.
func (t *patchTree) checkDeleted(s patchSection, content string) error {
	doc, err := Decode(content)
	if err != nil {
		// Binary files may be deleted; there is nothing to compare.
		return nil
	}
	text, matches, err := applyPatchChunks(s, doc.Text)
	if err != nil {
		return err
	}
	if strings.TrimSpace(text) != "" {
		old, _ := s.chunks[0].sides()
		return &MatchError{Format: FormatPatch, Path: s.path, Block: len(s.chunks), Kind: FailNoMatch,
			Search: joinPatchLines(old), Applied: matches,
			Hint: fmt.Sprintf("the diff deletes %s but the file has lines the diff does not remove, so it changed since the diff was made; diff it again", s.path)}
	}
	return nil
}

func joinPatchLines(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}
