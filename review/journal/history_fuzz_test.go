package journal

import "testing"

// FuzzParseHistoryRef checks that ParseRef never panics and that
// what it accepts is canonical: parsing it again gives it back.
func FuzzParseHistoryRef(f *testing.F) {
	for _, s := range []string{"42", "c42", "d7", " 9 ", "0", "d", "-3", "9999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ref, err := ParseRef(s)
		if err != nil {
			return
		}
		again, err := ParseRef(string(ref))
		if err != nil || again != ref {
			t.Errorf("ParseRef(%q) = %q, but that parses as %q, %v", s, ref, again, err)
		}
		if (ref.Checkpoint() == 0) == (ref.Decision() == 0) {
			t.Errorf("ParseRef(%q) = %q names both or neither a checkpoint (%d) and a decision (%d)", s, ref, ref.Checkpoint(), ref.Decision())
		}
	})
}

// FuzzParseRetention checks that the retention and page-cursor parsers
// never panic and never accept a negative age or size.
func FuzzParseRetention(f *testing.F) {
	for _, s := range []string{"90d", "2w", "1.5d", "36h", "2GB", "500MiB", "1k", "-1", "c1.2.d3", "", "1e300d", "NaNd", "1e300GB", "NaN", "Inf"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d, err := ParseAge(s); err == nil && d < 0 {
			t.Errorf("ParseAge(%q) = %v; want no negative age", s, d)
		}
		if n, err := ParseByteSize(s); err == nil && n < 0 {
			t.Errorf("ParseByteSize(%q) = %d; want no negative size", s, n)
		}
		if c, err := parseHistoryCursor(s); err == nil && s != "" && c.String() != s {
			if again, err := parseHistoryCursor(c.String()); err != nil || again != c {
				t.Errorf("parseHistoryCursor(%q) = %+v, which does not round-trip", s, c)
			}
		}
	})
}
