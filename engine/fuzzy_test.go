package engine

import (
	"math"
	"testing"
)

// FuzzLevenshteinWithin checks the banded distance against the full one.
func FuzzLevenshteinWithin(f *testing.F) {
	f.Add("kitten", "sitting", 3)
	f.Add("", "abc", 2)
	f.Add("héllo wörld", "hello world", 1)
	f.Fuzz(func(t *testing.T, a, b string, k int) {
		if k > 1000 {
			return
		}
		ra, rb := []rune(a), []rune(b)
		want := levenshtein(ra, rb)
		d, ok := levenshteinWithin(ra, rb, k)
		if ok != (want <= k) || ok && d != want {
			t.Fatalf("levenshteinWithin(%q, %q, %d) = %d, %v; the distance is %d", a, b, k, d, ok, want)
		}
	})
}

// FuzzFuzzyScore checks the pruned fuzzy score against Gemini's formula
// computed in full.
func FuzzFuzzyScore(f *testing.F) {
	f.Add("const x = {\n  a: true\n};", "const x = {\n  a: true,\n};")
	f.Add("function doIt() {\n  console.log('hello');\n}", "function doIt() {\n  console.log(\"hello\");\n}")
	f.Add("aaaaaaaaaa", "aaaa aaaaaa")
	f.Fuzz(func(t *testing.T, block, window string) {
		b, w := jsUnits(block), jsUnits(window)
		if len(b) == 0 {
			return
		}
		raw := levenshtein(w, b)
		nows := levenshtein(jsUnits(stripSpace(window)), jsUnits(stripSpace(block)))
		want := (float64(nows) + float64(raw-nows)*fuzzyWhitespaceCost) / float64(len(b))
		lengthOK := math.Abs(float64(len(w)-len(b)))/float64(len(b)) <= fuzzyLengthTolerance
		got, ok := newFuzzyRef(block).score(window)
		if ok != (lengthOK && want <= fuzzyThreshold) || ok && got != want {
			t.Fatalf("score(%q vs %q) = %v, %v; the formula gives %v (length ok %v)", window, block, got, ok, want, lengthOK)
		}
	})
}
