package diffview

// The hunks of the diff on show and the person's choice of each.

import "github.com/diffdesk/diffdesk/engine"

// Hunks returns the hunks of the diff shown, in order (each with 3 lines
// of context; IDs as engine.Hunks gives them, so engine.ApplyHunks with
// AcceptedHunks applies the person's choice). In edit mode they describe
// the edited text, compared without line endings.
func (v *DiffView) Hunks() []engine.Hunk {
	v.settle()
	if !v.dec.ok {
		v.dec.hunks, v.dec.ok = v.model.Hunks(), true
	}
	return v.dec.hunks
}

// SetHunkAccepted accepts or rejects the hunk with the given ID.
func (v *DiffView) SetHunkAccepted(id string, ok bool) {
	if ok {
		delete(v.dec.rejected, id)
	} else {
		v.dec.rejected[id] = true
	}
	v.refreshChangedRows() // the hunk's own rows
	v.overview.Refresh()
}

// AcceptedHunks returns the IDs of the accepted hunks, in order.
func (v *DiffView) AcceptedHunks() []string {
	var out []string
	for _, h := range v.Hunks() {
		if !v.dec.rejected[h.ID] {
			out = append(out, h.ID)
		}
	}
	return out
}

// rejected reports whether the person rejected hunk k (-1: no hunk).
func (v *DiffView) rejected(k int) bool {
	return k >= 0 && len(v.dec.rejected) > 0 && v.dec.rejected[v.hunkID(k)]
}

// hunkID returns the ID of change k (its index in Hunks order).
func (v *DiffView) hunkID(k int) string {
	hs := v.Hunks()
	if k < 0 || k >= len(hs) {
		return ""
	}
	return hs[k].ID
}

// ToggleHunk flips hunk k (its index in Hunks) from accepted to rejected
// or back, as a tap in the gutter does, and calls OnHunkToggled. It does
// nothing while a stream runs or the view is editable.
func (v *DiffView) ToggleHunk(k int) {
	if v.feed.st != nil || v.ed != nil || v.ReadOnly {
		return // decisions wait for the stream's end; edits replace hunks
	}
	id := v.hunkID(k)
	if id == "" {
		return
	}
	ok := v.dec.rejected[id]
	v.SetHunkAccepted(id, ok)
	if v.OnHunkToggled != nil {
		v.OnHunkToggled(id, ok)
	}
}

// decisions are the hunks of the diff shown and the person's choices.
type decisions struct {
	hunks    []engine.Hunk // of the model, computed on demand
	ok       bool          // hunks describes the model on show
	rejected map[string]bool
}
