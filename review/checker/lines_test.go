package checker

import (
	"reflect"
	"testing"
)

// TestParseLines reads real output of each tool FormatLines is for.
// gofmt, go vet, gcc, shellcheck and the python preset were run here;
// ruff's concise lines are from ruff's own issues (astral-sh/ruff#17295),
// the others follow each tool's documented format.
func TestParseLines(t *testing.T) {
	for _, c := range []struct {
		tool, out string
		want      []finding
	}{
		{"gofmt -e on stdin",
			"<standard input>:3:11: expected ';', found 'EOF'\n<standard input>:3:11: expected '}', found 'EOF'\n",
			[]finding{
				{path: "<standard input>", line: 3, col: 11, message: "expected ';', found 'EOF'"},
				{path: "<standard input>", line: 3, col: 11, message: "expected '}', found 'EOF'"},
			}},
		{"gofmt -l (not formatted: no location)", "<standard input>\n", nil},
		{"go vet", "# example.com/p\n# [example.com/p]\n./a.go:5:24: fmt.Printf format %d has arg \"x\" of wrong type string\n",
			[]finding{{path: "./a.go", line: 5, col: 24, message: `fmt.Printf format %d has arg "x" of wrong type string`}}},
		{"go vet type error", "# example.com/p\nvet: ../b2.go:3:23: undefined: undefinedThing\n",
			[]finding{{path: "../b2.go", line: 3, col: 23, message: "undefined: undefinedThing"}}},
		{"gcc", "d.c: In function ‘main’:\n" +
			"d.c:4:12: warning: format ‘%d’ expects argument of type ‘int’, but argument 2 has type ‘char *’ [-Wformat=]\n" +
			"    4 |   printf(\"%d\\n\", \"s\");\n      |           ~^     ~~~\n" +
			"c.c:3:3: error: expected ‘=’, ‘,’, ‘;’, ‘asm’ or ‘__attribute__’ before ‘return’\n" +
			"In file included from d.c:1:\n",
			[]finding{
				{path: "d.c", line: 4, col: 12, severity: SeverityWarning, code: "-Wformat=",
					message: "format ‘%d’ expects argument of type ‘int’, but argument 2 has type ‘char *’"},
				{path: "c.c", line: 3, col: 3, severity: SeverityError, message: "expected ‘=’, ‘,’, ‘;’, ‘asm’ or ‘__attribute__’ before ‘return’"},
			}},
		{"shellcheck --format=gcc",
			"t.sh:3:1: note: The mentioned syntax error was in this if expression. [SC1009]\n" +
				"t.sh:3:15: error: Couldn't parse this then clause. Fix to allow more checks. [SC1073]\n" +
				"-:3:1: warning: foo appears unused. Verify use (or export if used externally). [SC2034]\n",
			[]finding{
				{path: "t.sh", line: 3, col: 1, severity: SeverityInfo, code: "SC1009", message: "The mentioned syntax error was in this if expression."},
				{path: "t.sh", line: 3, col: 15, severity: SeverityError, code: "SC1073", message: "Couldn't parse this then clause. Fix to allow more checks."},
				{path: "-", line: 3, col: 1, severity: SeverityWarning, code: "SC2034", message: "foo appears unused. Verify use (or export if used externally)."},
			}},
		{"ruff --output-format=concise",
			"aisuite/provider.py:4:8: F401 [*] `os` imported but unused\n" +
				"examples/chat-ui/chat.py:96:9: F841 Local variable `role_display` is assigned to but never used\n" +
				"Found 2 errors.\n[*] 1 fixable with the `--fix` option.\n",
			[]finding{
				{path: "aisuite/provider.py", line: 4, col: 8, code: "F401", message: "`os` imported but unused"},
				{path: "examples/chat-ui/chat.py", line: 96, col: 9, code: "F841", message: "Local variable `role_display` is assigned to but never used"},
			}},
		{"mypy (no column)",
			"x.py:3: error: Incompatible return value type (got \"int\", expected \"str\")  [return-value]\nFound 1 error in 1 file (checked 1 source file)\n",
			[]finding{{path: "x.py", line: 3, severity: SeverityError, code: "return-value", message: `Incompatible return value type (got "int", expected "str")`}}},
		{"eslint unix",
			"/p/x.js:1:10: 'foo' is defined but never used. [Error/no-unused-vars]\n/p/x.js:2:1: Missing semicolon. [Warning/semi]\n\n2 problems\n",
			[]finding{
				{path: "/p/x.js", line: 1, col: 10, severity: SeverityError, code: "no-unused-vars", message: "'foo' is defined but never used."},
				{path: "/p/x.js", line: 2, col: 1, severity: SeverityWarning, code: "semi", message: "Missing semicolon."},
			}},
		{"tsc --pretty false",
			"src/x.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.\n",
			[]finding{{path: "src/x.ts", line: 3, col: 5, severity: SeverityError, code: "TS2322", message: "Type 'string' is not assignable to type 'number'."}}},
		{"yamllint -f parsable",
			"x.yaml:1:1: [warning] missing document start \"---\" (document-start)\n",
			[]finding{{path: "x.yaml", line: 1, col: 1, severity: SeverityWarning, message: `missing document start "---" (document-start)`}}},
		{"python preset",
			"/p/x.py:2:1: error: '(' was never closed\n",
			[]finding{{path: "/p/x.py", line: 2, col: 1, severity: SeverityError, message: "'(' was never closed"}}},
		{"CRLF line ends", "x.go:1:2: bad\r\n", []finding{{path: "x.go", line: 1, col: 2, message: "bad"}}},
		{"go type error with bounds is no code", "x.go:4:7: invalid argument: index 5 out of bounds [0:3]\n",
			[]finding{{path: "x.go", line: 4, col: 7, message: "invalid argument: index 5 out of bounds [0:3]"}}},
		{"not locations",
			"goroutine 1 [running]:\n\t/usr/local/go/src/x.go:12 +0x1d\nok  \texample.com/p\t0.01s\nx.go:3:\n",
			nil},
	} {
		t.Run(c.tool, func(t *testing.T) {
			if got := parseLines(c.out); !reflect.DeepEqual(got, c.want) {
				t.Errorf("parseLines(%q) =\n%+v\nwant\n%+v", c.out, got, c.want)
			}
		})
	}
}

func FuzzParseLines(f *testing.F) {
	for _, s := range []string{
		"x.go:1:2: msg\n", "vet: ./a.go:5:24: m [SC1]\n", "a(1,2): error TS1: m", "x:1: [error] m",
		"x:1:1: F401 [*] m", "x:1:1: m [Error/r]", ":1:1: m", "x:99999999999999999999:1: m",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, out string) {
		for _, fd := range parseLines(out) {
			if fd.path == "" || fd.message == "" || fd.line < 0 || fd.col < 0 {
				t.Errorf("parseLines(%q) gave %+v: a finding needs a path, a message and lines ≥ 0", out, fd)
			}
		}
	})
}
