package checker

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseSARIF(t *testing.T) {
	for _, c := range []struct {
		name, log string
		want      []finding
	}{
		{"ruff's shape: file URI, level, rule id",
			`{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[{
			  "tool":{"driver":{"name":"ruff","rules":[{"id":"F401","shortDescription":{"text":"unused-import"}}]}},
			  "results":[{"level":"error","message":{"text":"` + "`os`" + ` imported but unused"},"ruleId":"F401",
			    "locations":[{"physicalLocation":{"artifactLocation":{"uri":"file:///p/x%20y.py"},
			      "region":{"startLine":1,"startColumn":8,"endLine":1,"endColumn":10}}}]}]}]}`,
			[]finding{{path: "file:///p/x%20y.py", line: 1, col: 8, severity: SeverityError, code: "F401", message: "`os` imported but unused"}}},
		{"level from the rule, message from the rule, rule by index",
			`{"version":"2.1.0","runs":[{"tool":{"driver":{"rules":[
			    {"id":"R1","shortDescription":{"text":"short one"},"defaultConfiguration":{"level":"note"}}]}},
			  "results":[{"ruleIndex":0,"message":{},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/a.c"},"region":{"startLine":4}}}]}]}]}`,
			[]finding{{path: "src/a.c", line: 4, severity: SeverityInfo, code: "R1", message: "short one"}}},
		{"no level anywhere is a warning; artifact by index; base id",
			`{"version":"2.1.0","runs":[{"tool":{"driver":{}},
			  "originalUriBaseIds":{"SRCROOT":{"uri":"file:///work/p/"}},
			  "artifacts":[{"location":{"uri":"a%20b.go","uriBaseId":"SRCROOT"}}],
			  "results":[{"ruleId":"X","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"index":0},"region":{"startLine":2,"startColumn":3}}}]}]}]}`,
			[]finding{{path: "/work/p/a b.go", line: 2, col: 3, severity: SeverityWarning, code: "X", message: "m"}}},
		{"passes are not problems; a result without a location is the file's",
			`{"version":"2.1.0","runs":[{"tool":{"driver":{}},"results":[
			  {"kind":"pass","ruleId":"OK","message":{"text":"fine"}},
			  {"kind":"fail","level":"none","ruleId":"F","message":{"text":"whole file"}}]}]}`,
			[]finding{{severity: SeverityInfo, code: "F", message: "whole file"}}},
		{"no runs", `{"version":"2.1.0","runs":[]}`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseSARIF([]byte(c.log))
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Errorf("parseSARIF = %+v, %v; want %+v", got, err, c.want)
			}
		})
	}
}

func TestParseSARIFRefusesNonSARIF(t *testing.T) {
	for _, out := range []string{"", "  \n", "x.go:1:1: not json", `{"runs": 5}`} {
		_, err := parseSARIF([]byte(out))
		if err == nil || !strings.HasPrefix(err.Error(), "printed no SARIF log on stdout") {
			t.Errorf("parseSARIF(%q) error = %v; want one saying it printed no SARIF log", out, err)
		}
	}
}

func FuzzParseSARIF(f *testing.F) {
	f.Add(`{"runs":[{"artifacts":[{"location":{"uri":"a"}}],"results":[{"ruleIndex":3,"locations":[{"physicalLocation":{"artifactLocation":{"index":7}}}]}]}]}`)
	f.Add(`{"runs":[{"results":[{"message":{"text":" "},"locations":[{"physicalLocation":{"region":{"startLine":-3,"startColumn":-1}}}]}]}]}`)
	f.Add(`{"runs":[{"results":[{"ruleIndex":-1,"locations":[{"physicalLocation":{"artifactLocation":{"index":-2,"uri":"%zz"}}}]}]}]}`)
	f.Fuzz(func(t *testing.T, log string) {
		found, err := parseSARIF([]byte(log))
		if err != nil && found != nil {
			t.Errorf("parseSARIF(%q) = %+v with error %v", log, found, err)
		}
		for _, fd := range found {
			if fd.message == "" || fd.line < 0 || fd.col < 0 || fd.severity == "" {
				t.Errorf("parseSARIF(%q) gave %+v: a finding needs a message, a severity and lines ≥ 0", log, fd)
			}
		}
	})
}

func TestParseESLint(t *testing.T) {
	// The shape ESLint's json and json-with-metadata formatters print
	// (eslint.org/docs/latest/use/formatters).
	results := `[{"filePath":"/p/x.js","messages":[
	    {"ruleId":"no-unused-vars","severity":2,"message":"'foo' is defined but never used.","line":1,"column":10},
	    {"ruleId":"semi","severity":1,"message":"Missing semicolon.","line":2,"column":3}]},
	  {"filePath":"/p/y.js","messages":[{"ruleId":null,"fatal":true,"severity":2,"message":"Parsing error: Unexpected token )","line":3,"column":7}]},
	  {"filePath":"/p/z.js","messages":[]}]`
	want := []finding{
		{path: "/p/x.js", line: 1, col: 10, severity: SeverityError, code: "no-unused-vars", message: "'foo' is defined but never used."},
		{path: "/p/x.js", line: 2, col: 3, severity: SeverityWarning, code: "semi", message: "Missing semicolon."},
		{path: "/p/y.js", line: 3, col: 7, severity: SeverityError, message: "Parsing error: Unexpected token )"},
	}
	for _, out := range []string{results, `{"results":` + results + `,"metadata":{"rulesMeta":{}}}`} {
		got, err := parseESLint([]byte(out))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("parseESLint(%.40q…) = %+v, %v; want %+v", out, got, err, want)
		}
	}
	for _, out := range []string{"", "Oops! Something went wrong! :(", `{"results": 1}`} {
		if _, err := parseESLint([]byte(out)); err == nil || !strings.HasPrefix(err.Error(), "printed no ESLint JSON on stdout") {
			t.Errorf("parseESLint(%q) error = %v; want one saying it printed no ESLint JSON", out, err)
		}
	}
}
