package checker

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// bigGoFile returns a 10k-line Go file with one vet problem; variant
// changes a comment, so that go vet's cache does not answer for it.
func bigGoFile(variant int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package p\n\nimport \"fmt\"\n\n// variant %d\n", variant)
	for i := 0; i < (10000-7)/5; i++ {
		fmt.Fprintf(&b, "\n// F%d returns its argument doubled.\nfunc F%d(x int) int {\n\treturn 2 * x\n}\n", i, i)
	}
	b.WriteString("\nfunc Bad() { fmt.Printf(\"%d\\n\", \"x\") }\n")
	return b.String()
}

// BenchmarkGoVet10k compares go vet run directly on a 10k-line file with
// Check on the same file, whose base and proposal runs go concurrently:
// "direct" is the tool's own run time; "check" (the base unchanged, as
// while a proposal streams: go vet's cache answers for it) and
// "check-new-base" (both texts new to go vet) are what a check adds.
func BenchmarkGoVet10k(b *testing.B) {
	if _, err := exec.LookPath("go"); err != nil {
		b.Skip("go not on PATH")
	}
	vet, _ := Preset("go-vet")
	benchTool(b, vet, "x.go", []string{"go", "vet", "."}, map[string]string{"go.mod": "module example.com/p\n\ngo 1.22\n"})
}

// BenchmarkGofmt10k is BenchmarkGoVet10k for gofmt -e.
func BenchmarkGofmt10k(b *testing.B) {
	if _, err := exec.LookPath("gofmt"); err != nil {
		b.Skip("gofmt not on PATH")
	}
	gofmt, _ := Preset("gofmt")
	benchTool(b, gofmt, "x.go", []string{"gofmt", "-e", "-l", "x.go"}, nil)
}

func benchTool(b *testing.B, c Checker, name string, direct []string, files map[string]string) {
	dir := writeTree(b, files)
	path := filepath.Join(dir, name)
	base := bigGoFile(-1)
	if err := os.WriteFile(path, []byte(base), 0o644); err != nil {
		b.Fatal(err)
	}
	variant := 0
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			variant++
			if err := os.WriteFile(path, []byte(bigGoFile(variant)), 0o644); err != nil {
				b.Fatal(err)
			}
			cmd := exec.Command(direct[0], direct[1:]...)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil && len(out) == 0 {
				b.Fatal(err)
			}
		}
	})
	if err := os.WriteFile(path, []byte(base), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, newBase := range []bool{false, true} {
		name := "check"
		if newBase {
			name = "check-new-base"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				variant++
				f := File{Path: path, Base: base, Proposed: bigGoFile(variant)}
				if newBase {
					variant++
					f.Base = bigGoFile(variant)
				}
				if _, err := c.Check(context.Background(), f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
