package engine

import (
	"fmt"
	"strings"
	"testing"
)

// benchPatchFile returns a file of n numbered lines of Go-like code.
func benchPatchFile(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "\tvalue%d := compute(%d, \"item %d\") // step %d\n", i, i*7, i, i)
	}
	return b.String()
}

// benchCodexPatch changes every step-th line of benchPatchFile(n), with a
// line of context on each side.
func benchCodexPatch(n, step int) string {
	var b strings.Builder
	b.WriteString("*** Begin Patch\n*** Update File: f.go\n")
	for i := step; i+1 < n; i += step {
		fmt.Fprintf(&b, "@@\n \tvalue%d := compute(%d, \"item %d\") // step %d\n", i-1, (i-1)*7, i-1, i-1)
		fmt.Fprintf(&b, "-\tvalue%d := compute(%d, \"item %d\") // step %d\n", i, i*7, i, i)
		fmt.Fprintf(&b, "+\tvalue%d := compute2(%d)\n", i, i)
		fmt.Fprintf(&b, " \tvalue%d := compute(%d, \"item %d\") // step %d\n", i+1, (i+1)*7, i+1, i+1)
	}
	b.WriteString("*** End Patch\n")
	return b.String()
}

func BenchmarkApplyPatchCodex(b *testing.B) {
	read := patchTreeReader(map[string]string{"f.go": benchPatchFile(10000)})
	patch := benchCodexPatch(10000, 200)
	b.SetBytes(int64(len(patch)))
	for b.Loop() {
		if _, err := ApplyPatch(patch, read); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkApplyPatchUnified(b *testing.B) {
	a := benchPatchFile(10000)
	edited := strings.ReplaceAll(a, "// step 5", "// STEP 5")
	read := patchTreeReader(map[string]string{"f.go": a})
	patch := Unified("a/f.go", "b/f.go", a, edited, 3)
	b.SetBytes(int64(len(patch)))
	for b.Loop() {
		if _, err := ApplyPatch(patch, read); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApplyPatchMiss measures a failing chunk: every strategy over
// the whole file, then the closest places.
func BenchmarkApplyPatchMiss(b *testing.B) {
	read := patchTreeReader(map[string]string{"f.go": benchPatchFile(10000)})
	patch := "*** Begin Patch\n*** Update File: f.go\n@@\n \tvalue10 := compute(70, \"item 10\")\n-\tvalue11 := compute(77, \"item eleven\") // step 11\n+\tx := 1\n*** End Patch\n"
	for b.Loop() {
		if _, err := ApplyPatch(patch, read); err == nil {
			b.Fatal("want an error")
		}
	}
}
