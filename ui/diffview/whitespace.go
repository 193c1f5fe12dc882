package diffview

import (
	"strings"
	"unicode"

	"github.com/diffdesk/diffdesk/engine"
)

// SetIgnoreWhitespace fades the changes that only change whitespace
// (on): j and k, the overview strip and HunkCount pass over them. Hunks
// and AcceptedHunks still list them, so a faded change is approved with the
// rest unless the person unticks it.
func (v *DiffView) SetIgnoreWhitespace(on bool) {
	if v.ws.ignore == on {
		return
	}
	v.ws.ignore = on
	if k := v.nav.CurrentHunk(); k >= 0 && v.whitespaceOnly(k) {
		v.nav.cur = -1
	}
	v.overview.Refresh()
	v.redrawRows()
}

// IgnoreWhitespace reports whether whitespace-only changes are faded.
func (v *DiffView) IgnoreWhitespace() bool { return v.ws.ignore }

// whitespaceOnly reports whether change k (its index in Hunks) is faded:
// whitespace is ignored and the change's removed and added lines are the
// same once all whitespace is taken out (blank lines added or removed,
// re-indented lines, a space before a brace).
func (v *DiffView) whitespaceOnly(k int) bool {
	if !v.ws.ignore || k < 0 {
		return false
	}
	m := v.model
	if v.ws.of != m {
		v.ws.only, v.ws.of = v.ws.only[:0], m
		for _, op := range m.ops {
			if op.Kind != engine.OpEqual {
				v.ws.only = append(v.ws.only, sameIgnoringSpace(&m.a, op.A0, op.A1, &m.b, op.B0, op.B1))
			}
		}
	}
	return k < len(v.ws.only) && v.ws.only[k]
}

// sameIgnoringSpace reports whether lines a0:a1 of a and b0:b1 of b are
// the same text with all whitespace (line ends included) taken out.
func sameIgnoringSpace(a *lineSet, a0, a1 int, b *lineSet, b0, b1 int) bool {
	var sa, sb strings.Builder
	for i := a0; i < a1; i++ {
		sa.WriteString(stripSpace(a.Line(i)))
	}
	for j := b0; j < b1; j++ {
		sb.WriteString(stripSpace(b.Line(j)))
	}
	return sa.String() == sb.String()
}

// stripSpace returns s without whitespace.
func stripSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// changeRows returns the first row of every change j and k go to: all of
// them, or those not faded by SetIgnoreWhitespace.
func (v *DiffView) changeRows() []int {
	rows := v.model.ChangeRows()
	if !v.ws.ignore {
		return rows
	}
	out := rows[:0]
	for _, r := range rows {
		if !v.whitespaceOnly(v.model.Row(r).hunk) {
			out = append(out, r)
		}
	}
	return out
}

// wsState is whitespace ignored: which changes differ in it alone.
type wsState struct {
	ignore bool      // SetIgnoreWhitespace
	only   []bool    // per change of of: only whitespace differs
	of     *rowModel // the model only describes
}
