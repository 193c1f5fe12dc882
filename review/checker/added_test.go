package checker

import (
	"reflect"
	"testing"
)

func TestAdded(t *testing.T) {
	p := func(line int, msg string) Problem { return Problem{Line: line, Message: msg, Severity: SeverityError} }
	base := "a\nbad\nc\nd\n"
	for _, c := range []struct {
		name           string
		base, proposal string
		before, after  []Problem
		want           []Problem
	}{
		{"a problem that moved with its line is not new",
			base, "new 1\nnew 2\na\nbad\nc\nd\n",
			[]Problem{p(2, "bad line")}, []Problem{p(4, "bad line")}, nil},
		{"a problem on an added line is new",
			base, "a\nbad\nworse\nc\nd\n",
			[]Problem{p(2, "bad line")}, []Problem{p(2, "bad line"), p(3, "worse line")}, []Problem{p(3, "worse line")}},
		{"the same message on another unchanged line is new",
			base, base,
			[]Problem{p(2, "bad line")}, []Problem{p(2, "bad line"), p(4, "bad line")}, []Problem{p(4, "bad line")}},
		{"a second identical problem on one line is new",
			base, base,
			[]Problem{p(2, "bad line")}, []Problem{p(2, "bad line"), p(2, "bad line")}, []Problem{p(2, "bad line")}},
		{"a changed line keeping its problem adds none",
			base, "a\nbad too\nc\nd\n",
			[]Problem{p(2, "bad line")}, []Problem{p(2, "bad line")}, nil},
		{"a changed line with another problem adds it",
			base, "a\nbad too\nc\nd\n",
			[]Problem{p(2, "bad line")}, []Problem{p(2, "other")}, []Problem{p(2, "other")}},
		{"a problem whose line was deleted does not stand for one elsewhere",
			base, "a\nc\nd\nbad\n",
			[]Problem{p(2, "bad line")}, []Problem{p(4, "bad line")}, []Problem{p(4, "bad line")}},
		{"a whole-file problem is new only if the base lacks it",
			base, "x\n" + base,
			[]Problem{{Message: "no package clause"}}, []Problem{{Message: "no package clause"}, {Message: "too long"}}, []Problem{{Message: "too long"}}},
		{"the code counts",
			base, base,
			[]Problem{{Line: 2, Message: "m", Code: "A1"}}, []Problem{{Line: 2, Message: "m", Code: "B2"}}, []Problem{{Line: 2, Message: "m", Code: "B2"}}},
		{"problems in another file match by place",
			base, "x\n" + base,
			[]Problem{{Path: "/p/b.go", Line: 3, Col: 2, Message: "undefined: f"}},
			[]Problem{{Path: "/p/b.go", Line: 3, Col: 2, Message: "undefined: f"}, {Path: "/p/b.go", Line: 4, Col: 1, Message: "undefined: f"}},
			[]Problem{{Path: "/p/b.go", Line: 4, Col: 1, Message: "undefined: f"}}},
		{"an end-of-file problem that stays at the end is not new",
			"package p\nfunc f() {\n", "// doc\npackage p\nfunc f() {\n",
			[]Problem{p(2, "expected '}', found 'EOF'")}, []Problem{p(3, "expected '}', found 'EOF'")}, nil},
		{"a new file: every problem is new",
			"", "package p\nfunc {\n",
			nil, []Problem{p(2, "expected name")}, []Problem{p(2, "expected name")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Added(c.base, c.proposal, c.before, c.after); !reflect.DeepEqual(got, c.want) {
				t.Errorf("Added(%q, %q, %v, %v) = %v; want %v", c.base, c.proposal, c.before, c.after, got, c.want)
			}
		})
	}
}
