package checker

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
)

// The real tools, on real snippets: each proposal adds exactly one problem
// and moves one the base already had, which must not be reported.

func needTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("%s not on PATH (scripts/test installs it)", name)
	}
}

func preset(t *testing.T, name string) Checker {
	t.Helper()
	c, err := Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// writeTree writes files (relative path → content) under a new temporary
// directory and returns it, symlinks resolved.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for rel, content := range files {
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func checkWithin(t *testing.T, c Checker, f File, with ...File) []Problem {
	t.Helper()
	got, err := within(t, func() ([]Problem, error) { return c.Check(context.Background(), f, with...) })
	if err != nil {
		t.Fatalf("Check(%s): %v", c.Name, err)
	}
	return got
}

func TestGofmt(t *testing.T) {
	needTool(t, "gofmt")
	dir := writeTree(t, nil)
	base := "package p\n\nvar a = 08\n"
	proposal := "package p\n\n// a is bad.\nvar a = 08\n\nfunc g() {\n\tif {\n\t}\n}\n"
	got := checkWithin(t, preset(t, "gofmt"), File{Path: filepath.Join(dir, "x.go"), Base: base, Proposed: proposal})
	want := []Problem{{Line: 7, Col: 5, Severity: SeverityError, Message: "missing condition in if statement", Source: "gofmt"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("gofmt Check = %v; want %v", got, want)
	}
}

// goPackage is a module with a package of two files; a.go has a vet
// problem (a Printf verb of the wrong type) at line 5.
func goPackage(t *testing.T) string {
	t.Helper()
	return writeTree(t, map[string]string{
		"go.mod": "module example.com/p\n\ngo 1.22\n",
		"a.go":   "package p\n\nimport \"fmt\"\n\nfunc A() { fmt.Printf(\"%d\\n\", \"x\") }\n\nfunc N() int { return 1 }\n",
		"b.go":   "package p\n\nfunc B() int { return N() }\n",
	})
}

func TestGoVet(t *testing.T) {
	needTool(t, "go")
	dir := goPackage(t)
	a := filepath.Join(dir, "a.go")
	base, _ := os.ReadFile(a)
	proposal := "package p\n\nimport \"fmt\"\n\n// A prints.\nfunc A() { fmt.Printf(\"%d\\n\", \"x\") }\n\nfunc N() int { return 1 }\n\nfunc C() { fmt.Printf(\"%s\\n\", 1) }\n"
	got := checkWithin(t, preset(t, "go-vet"), File{Path: a, Base: string(base), Proposed: proposal})
	want := []Problem{{Line: 10, Col: 24, Severity: SeverityError, Message: "fmt.Printf format %s has arg 1 of wrong type int", Source: "go vet"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("go vet Check = %v; want %v", got, want)
	}
	if b, _ := os.ReadFile(a); string(b) != string(base) {
		t.Errorf("a.go on disk changed to %q", b)
	}
}

// TestGoVetOtherFiles changes N's signature: go vet's type check fails
// in b.go, the caller, unless the proposal changes b.go too.
func TestGoVetOtherFiles(t *testing.T) {
	needTool(t, "go")
	dir := goPackage(t)
	a, b := filepath.Join(dir, "a.go"), filepath.Join(dir, "b.go")
	aBase, _ := os.ReadFile(a)
	bBase, _ := os.ReadFile(b)
	fa := File{Path: a, Base: string(aBase), Proposed: "package p\n\nfunc N(x int) int { return x }\n"}
	vet := preset(t, "go-vet")

	got := checkWithin(t, vet, fa)
	want := []Problem{{Path: b, Line: 3, Col: 25, Severity: SeverityError, Message: "not enough arguments in call to N", Source: "go vet"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("go vet Check(a.go alone) = %v; want %v", got, want)
	}

	fb := File{Path: b, Base: string(bBase), Proposed: "package p\n\nfunc B() int { return N(2) }\n"}
	if got := checkWithin(t, vet, fa, fb); len(got) != 0 {
		t.Errorf("go vet Check(a.go with b.go) = %v; want no problem: the proposal fixes its caller", got)
	}
}

// TestGoVetCachedReplay checks the same text twice. go vet caches its
// findings by content and the second time prints them with the first
// run's paths, in a temporary directory that is gone: they are still the
// file's problems.
func TestGoVetCachedReplay(t *testing.T) {
	needTool(t, "go")
	dir := goPackage(t)
	a := filepath.Join(dir, "a.go")
	base, _ := os.ReadFile(a)
	f := File{Path: a, Base: string(base), Proposed: string(base) + "\nfunc C() { fmt.Printf(\"%s\\n\", 1) }\n"}
	vet := preset(t, "go-vet")
	first := checkWithin(t, vet, f)
	second := checkWithin(t, vet, f)
	if len(first) != 1 || !reflect.DeepEqual(first, second) {
		t.Errorf("go vet Check twice = %v, then %v; want the same one problem", first, second)
	}
}

func TestGoVetNewFile(t *testing.T) {
	needTool(t, "go")
	dir := goPackage(t)
	c := filepath.Join(dir, "c.go")
	got := checkWithin(t, preset(t, "go-vet"), File{Path: c, Created: true, Proposed: "package p\n\nfunc C() int { return undefined }\n"})
	want := []Problem{{Line: 3, Col: 23, Severity: SeverityError, Message: "undefined: undefined", Source: "go vet"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("go vet Check(new file) = %v; want %v (a.go's old problem is not the new file's)", got, want)
	}
}

func TestShellcheck(t *testing.T) {
	needTool(t, "shellcheck")
	dir := writeTree(t, nil)
	base := "#!/bin/sh\necho $1\n"
	proposal := "#!/bin/sh\nset -e\necho $1\nunused=1\n"
	got := checkWithin(t, preset(t, "shellcheck"), File{Path: filepath.Join(dir, "run.sh"), Base: base, Proposed: proposal})
	want := []Problem{{Line: 4, Col: 1, Severity: SeverityWarning, Message: "unused appears unused. Verify use (or export if used externally).", Source: "shellcheck", Code: "SC2034"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("shellcheck Check = %v; want %v", got, want)
	}
}

func TestPythonSyntax(t *testing.T) {
	needTool(t, "python3")
	dir := writeTree(t, nil)
	got := checkWithin(t, preset(t, "python"), File{Path: filepath.Join(dir, "x.py"), Base: "x = 1\n", Proposed: "x = 1\ny = (2,\n"})
	if len(got) != 1 || got[0].Line != 2 || got[0].Severity != SeverityError || got[0].Source != "python" {
		t.Errorf("python Check = %v; want one error on line 2 (the unclosed parenthesis)", got)
	}
}
