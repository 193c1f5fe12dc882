package trivial

import (
	"strings"
	"testing"

	"github.com/diffdesk/diffdesk/engine"
)

// hunksOf is the diff's hunks as the desk makes them (review.File.Hunks:
// 3 lines of context).
func hunksOf(base, proposed string) []engine.Hunk {
	a, b := engine.SplitLines(base), engine.SplitLines(proposed)
	return engine.Hunks(a, b, engine.DiffLines(a, b), 3)
}

// classify returns the kind Classify gives the one hunk of base →
// proposed ("" for none).
func classify(t *testing.T, path, base, proposed string) Kind {
	t.Helper()
	hs := hunksOf(base, proposed)
	if len(hs) != 1 {
		t.Fatalf("%s: %d hunks; want 1", path, len(hs))
	}
	return Classify(path, base, proposed, hs)[hs[0].ID]
}

func TestClassifyHunks(t *testing.T) {
	const goBase = "package app\n\n// Run runs.\nfunc Run() {\n\tx := 1 // one\n\ty := \"a b\"\n\t_ = x + len(y)\n}\n"
	const pyBase = "def f(x):\n    # add one\n    if x:\n        return x + 1\n    return 0\n"
	for _, c := range []struct {
		name, path, base, proposed string
		want                       Kind
	}{
		{"go: re-indented", "a.go", goBase, strings.Replace(goBase, "\tx := 1", "    x := 1", 1), Whitespace},
		{"go: spaces around :=", "a.go", goBase, strings.Replace(goBase, "x := 1", "x:=1", 1), Whitespace},
		{"go: a blank line", "a.go", goBase, strings.Replace(goBase, "}\n", "\n}\n", 1), Whitespace},
		{"go: space inside a string", "a.go", goBase, strings.Replace(goBase, `"a b"`, `"ab"`, 1), ""},
		{"go: doc comment reworded", "a.go", goBase, strings.Replace(goBase, "// Run runs.", "// Run runs the app.", 1), Comment},
		{"go: trailing comment changed", "a.go", goBase, strings.Replace(goBase, "// one", "// the first", 1), Comment},
		{"go: comment lines added", "a.go", goBase, strings.Replace(goBase, "func Run", "/*\n * more\n */\nfunc Run", 1), Comment},
		{"go: code changed beside a comment", "a.go", goBase, strings.Replace(goBase, "x := 1 // one", "x := 2 // two", 1), ""},
		{"go: code commented out", "a.go", goBase, strings.Replace(goBase, "\t_ = x + len(y)", "\t// _ = x + len(y)", 1), ""},
		{"go: // inside a string", "a.go", goBase, strings.Replace(goBase, `"a b"`, `"a // b"`, 1), ""},
		{"go: a word changed", "a.go", goBase, strings.Replace(goBase, "x + len", "x - len", 1), ""},
		{"python: comment reworded", "a.py", pyBase, strings.Replace(pyBase, "# add one", "# one more", 1), Comment},
		{"python: trailing comment added", "a.py", pyBase, strings.Replace(pyBase, "return 0\n", "return 0  # none\n", 1), Comment},
		{"python: spaces inside a line", "a.py", pyBase, strings.Replace(pyBase, "x + 1", "x+1", 1), Whitespace},
		{"python: re-indented is code", "a.py", pyBase, strings.Replace(pyBase, "        return x + 1", "    return x + 1", 1), ""},
		{"python: # inside a string", "a.py", pyBase, strings.Replace(pyBase, "return 0", "return '# 0'", 1), ""},
		{"python: docstring is a string", "a.py", "def f():\n    \"\"\"Old.\"\"\"\n", "def f():\n    \"\"\"New.\"\"\"\n", ""},
		{"shell: $# is no comment", "a.sh", "echo $# done\n", "echo $# gone\n", ""},
		{"shell: comment reworded", "a.sh", "ls # list\n", "ls # show\n", Comment},
		{"text: whitespace", "notes.txt", "a b\n", "a  b\n", Whitespace},
		{"text: no comments known", "notes.txt", "# a\n", "# b\n", ""},
		{"js: // after an escaped slash is code", "a.js", "let r = /\\/\\/x/;\n", "let r = /\\/\\/y/;\n", ""},
		{"text: newline at the end added", "notes.txt", "a\nb", "a\nb\n", EOFNewline},
		{"go: newline at the end removed", "a.go", goBase, strings.TrimSuffix(goBase, "\n"), EOFNewline},
		{"text: CRLF newline at the end added", "notes.txt", "a\r\nb", "a\r\nb\r\n", EOFNewline},
		{"text: last line changed and newline added", "notes.txt", "a\nb", "a\nc\n", ""},
		{"text: a blank line added at the end", "notes.txt", "a\nb\n", "a\nb\n\n", Whitespace},
	} {
		if got := classify(t, c.path, c.base, c.proposed); got != c.want {
			t.Errorf("%s: %q; want %q", c.name, got, c.want)
		}
	}
}

// TestClassifyHunksAcrossABlockComment: a hunk inside a block comment that
// started above it is comment-only; one after the comment closed is code.
func TestClassifyHunksAcrossABlockComment(t *testing.T) {
	base := "/*\n" + strings.Repeat("text\n", 10) + "x = 1;\n*/\nint y = 2;\n" + strings.Repeat("int z;\n", 10)
	proposed := strings.Replace(strings.Replace(base, "x = 1;", "x = 2;", 1), "y = 2", "y = 3", 1)
	hs := hunksOf(base, proposed)
	got := Classify("a.c", base, proposed, hs)
	if len(hs) != 2 || got[hs[0].ID] != Comment || got[hs[1].ID] != "" {
		t.Errorf("%d hunks, classified %v; want the first comment only, the second not", len(hs), got)
	}
}
