package engine

import (
	"errors"
	"strings"
	"testing"
)

func TestDecodeEncodeRoundTrip(t *testing.T) {
	tests := []struct {
		name, in, text, eol string
		bom                 bool
	}{
		{"empty", "", "", "", false},
		{"lf", "a\nb\n", "a\nb\n", "\n", false},
		{"crlf", "a\r\nb\r\n", "a\nb\n", "\r\n", false},
		{"cr", "a\rb\r", "a\nb\n", "\r", false},
		{"no final newline", "a\r\nb", "a\nb", "\r\n", false},
		{"bom", "\uFEFFa\n", "a\n", "\n", true},
		{"mixed keeps each line", "a\r\nb\nc\r\n", "a\nb\nc\n", "\r\n", false},
		{"no line break", "abc", "abc", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Decode(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if d.Text != tt.text || d.EOL != tt.eol || d.BOM != tt.bom {
				t.Errorf("Decode(%q) = {Text %q EOL %q BOM %v}; want {%q %q %v}", tt.in, d.Text, d.EOL, d.BOM, tt.text, tt.eol, tt.bom)
			}
			if got := d.Encode(d.Text); got != tt.in {
				t.Errorf("Encode(Decode(%q).Text) = %q; want the input back", tt.in, got)
			}
		})
	}
}

func TestEncodeMixedNeverMixesFurther(t *testing.T) {
	d, err := Decode("a\r\nb\nc\r\nd\r\n")
	if err != nil {
		t.Fatal(err)
	}
	// b is kept with its own LF; the new line takes the dominant CRLF.
	got := d.Encode("a\nb\nNEW\nc\nd\n")
	if want := "a\r\nb\nNEW\r\nc\r\nd\r\n"; got != want {
		t.Errorf("Encode = %q; want %q", got, want)
	}
}

func TestDecodeRefusesNonText(t *testing.T) {
	tests := []struct {
		name, in, reason string
		line             int
	}{
		{"nul", "ok\nbin\x00ary\n", "NUL", 2},
		{"invalid utf-8", "a\nb\nc\xff\n", "invalid UTF-8", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(tt.in)
			var ce *ContentError
			if !errors.As(err, &ce) || !strings.Contains(ce.Reason, tt.reason) || ce.Line != tt.line {
				t.Fatalf("Decode(%q) = %v; want a ContentError (%s at line %d)", tt.in, err, tt.reason, tt.line)
			}
		})
	}
}

func TestApplyKeepsFidelity(t *testing.T) {
	tests := []struct {
		name, original string
		edit           Edit
		want           string
	}{
		{"crlf and bom kept", "\uFEFFa\r\nb\r\nc\r\n", Replace{Old: "b", New: "B\nB2"}, "\uFEFFa\r\nB\r\nB2\r\nc\r\n"},
		{"no final newline kept", "a\nb", Replace{Old: "a", New: "A"}, "A\nb"},
		{"crlf payload into lf file", "a\nb\n", Replace{Old: "a\r\nb", New: "x\r\ny"}, "x\ny\n"},
		{"cr file", "a\rb\r", Replace{Old: "b", New: "B"}, "a\rB\r"},
		{"new content takes the agent's endings", "", Write{Content: "x\r\ny\r\n"}, "x\r\ny\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Apply(tt.original, tt.edit)
			if err != nil {
				t.Fatal(err)
			}
			if res.Content != tt.want {
				t.Errorf("Apply(%q) = %q; want %q", tt.original, res.Content, tt.want)
			}
		})
	}
}

func TestApplyRefusesBinaryPayload(t *testing.T) {
	_, err := Apply("a\n", Write{Content: "\x00\x01"})
	var ce *ContentError
	if !errors.As(err, &ce) || ce.What != "edit" {
		t.Errorf("Apply(binary payload) = %v; want a ContentError about the edit", err)
	}
}

func TestApplyLargeFile(t *testing.T) {
	line := strings.Repeat("x", 99) + "\n"
	big := strings.Repeat(line, 510_000) // 51 MB
	res, err := Apply(big, Replace{Old: "x\nxxx", New: "x\nYYY", ReplaceAll: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) != len(big) || !strings.HasPrefix(res.Content[100:], "YYY") {
		t.Errorf("Apply on 51 MB: length %d, want %d", len(res.Content), len(big))
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		format  Format
		payload string
		ok      bool
	}{
		{FormatWrite, "anything", true},
		{FormatSearchReplace, "blocks", true},
		{FormatEdit, `{"old_string":"a","new_string":"b","replace_all":true}`, true},
		{FormatEdit, `{"old_string":"a","new":"b"}`, false},
		{FormatEdit, `{"file_path":"/p/a.go","old_string":"a","new_string":"b"}`, true},
		{FormatEdit, `not json`, false},
		{FormatEdit, `{"old_string":"a","new_string":"b"} trailing`, false},
		{FormatMultiEdit, `{"edits":[{"old_string":"a","new_string":"b"}]}`, true},
		{FormatMultiEdit, `{"edits":[]}`, false},
		{FormatSmartEdit, `{"old_string":"a","new_string":"b","instruction":"x","allow_multiple":true}`, true},
		{FormatPatch, "*** Begin Patch", false},
		{"nope", "", false},
	}
	for _, tt := range tests {
		_, err := Parse(tt.format, tt.payload)
		var fe *FormatError
		if tt.ok && err != nil || !tt.ok && !errors.As(err, &fe) {
			t.Errorf("Parse(%s, %q) = %v; want ok=%v (a *FormatError otherwise)", tt.format, tt.payload, err, tt.ok)
		}
	}
}

func TestCreate(t *testing.T) {
	tests := []struct {
		name string
		edit Edit
		want string
		kind Failure
	}{
		{"write", Write{Content: "x\n"}, "x\n", ""},
		{"edit with empty old", Replace{New: "x\r\n"}, "x\r\n", ""},
		{"edit of missing text", Replace{Old: "a", New: "b"}, "", FailFileMissing},
		{"smart edit of missing text", SmartEdit{Old: "a", New: "b"}, "", FailFileMissing},
		{"multi-edit creating then editing", MultiEdit{Edits: []Replace{{New: "a\nb\n"}, {Old: "b", New: "B"}}}, "a\nB\n", ""},
		{"multi-edit of missing text", MultiEdit{Edits: []Replace{{Old: "a", New: "b"}}}, "", FailFileMissing},
		{"search-replace with empty search", SearchReplace{Text: "------- SEARCH\n=======\nnew\n+++++++ REPLACE\n"}, "new\n", ""},
		{"search-replace of missing text", SearchReplace{Text: "------- SEARCH\nx\n=======\nnew\n+++++++ REPLACE\n"}, "", FailFileMissing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Create(tt.edit)
			var me *MatchError
			switch {
			case tt.kind == "" && err != nil:
				t.Fatalf("Create = %v", err)
			case tt.kind == "" && res.Content != tt.want:
				t.Errorf("Create = %q; want %q", res.Content, tt.want)
			case tt.kind != "" && (!errors.As(err, &me) || me.Kind != tt.kind):
				t.Errorf("Create = %v; want MatchError %s", err, tt.kind)
			}
		})
	}
}

func FuzzDecodeEncode(f *testing.F) {
	for _, s := range []string{"", "a\r\nb\n", "\uFEFF\r\r\n\n", "x\ry", "a\r\nb\nc\r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := Decode(s)
		if err != nil {
			return
		}
		if got := d.Encode(d.Text); got != s {
			t.Fatalf("Encode(Decode(%q).Text) = %q", s, got)
		}
	})
}
