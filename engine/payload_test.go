package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// Issue 23: a payload missing a field, or giving it null or the wrong type,
// is a FormatError naming the field, never an edit that deletes text.
func TestParseRefusesMissingNullAndWrongTypedFields(t *testing.T) {
	tests := []struct {
		format  Format
		payload string
		field   string // the error names it
	}{
		{FormatEdit, `{"old_string":"a"}`, `"new_string"`},
		{FormatEdit, `{"old_string":"a","new_string":null}`, `"new_string"`},
		{FormatEdit, `{"new_string":"b"}`, `"old_string"`},
		{FormatEdit, `{"old_string":null,"new_string":"b"}`, `"old_string"`},
		{FormatEdit, `{}`, `"old_string"`},
		{FormatEdit, `{"old_string":"a","new_string":3}`, `"new_string"`},
		{FormatEdit, `{"old_string":"a","new_string":"b","replace_all":"yes"}`, `"replace_all"`},
		{FormatEdit, `{"old_string":"a","new_string":"b","replace_all":null}`, `"replace_all"`},
		{FormatEdit, `{"old_string":"a","new_string":"b","expected_replacements":1.5}`, `"expected_replacements"`},
		{FormatEdit, `{"old_string":"a","new_string":"b","file_path":7}`, `"file_path"`},
		{FormatEdit, `{"old_string":"a","NEW_STRING":"b"}`, `"NEW_STRING"`},
		{FormatEdit, `null`, "JSON object"},
		{FormatEdit, `["a","b"]`, "JSON object"},
		{FormatEdit, `"a"`, "JSON object"},
		{FormatMultiEdit, `{"edits":[{"old_string":"a"}]}`, `"new_string"`},
		{FormatMultiEdit, `{"edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":null}]}`, `edit 2`},
		{FormatMultiEdit, `{"edits":[{"old_string":"a","new_string":"b"},null]}`, `edit 2`},
		{FormatMultiEdit, `{"edits":null}`, `"edits"`},
		{FormatMultiEdit, `{"edits":{"old_string":"a","new_string":"b"}}`, `"edits"`},
		{FormatMultiEdit, `{}`, `"edits"`},
		{FormatSmartEdit, `{"old_string":"a"}`, `"new_string"`},
		{FormatSmartEdit, `{"old_string":"a","new_string":null,"instruction":"x"}`, `"new_string"`},
		{FormatSmartEdit, `{}`, `"old_string"`},
		{FormatSmartEdit, `{"old_string":"a","new_string":"b","allow_multiple":1}`, `"allow_multiple"`},
		{FormatSmartEdit, `{"old_string":"a","new_string":"b","instruction":false}`, `"instruction"`},
	}
	for _, tt := range tests {
		e, err := Parse(tt.format, tt.payload)
		var fe *FormatError
		if !errors.As(err, &fe) {
			res, aerr := Apply("a\n", e)
			t.Errorf("Parse(%s, %s) = %v; want a FormatError naming %s (applied: %q, %v)", tt.format, tt.payload, err, tt.field, res.Content, aerr)
			continue
		}
		if !strings.Contains(fe.Msg, tt.field) {
			t.Errorf("Parse(%s, %s): %q does not name %s", tt.format, tt.payload, fe.Msg, tt.field)
		}
	}
}

// The fields each format takes, given right, still parse, with an empty
// new_string (a deletion asked for) among them.
func TestParseAcceptsEveryField(t *testing.T) {
	tests := []struct {
		format  Format
		payload string
		want    Edit
	}{
		{FormatEdit, `{"file_path":"a","old_string":"a","new_string":"","replace_all":true,"expected_replacements":2}`, Replace{Old: "a", ReplaceAll: true, ExpectedReplacements: 2}},
		{FormatMultiEdit, `{"file_path":"a","edits":[{"old_string":"a","new_string":"b","replace_all":false}]}`, MultiEdit{Edits: []Replace{{Old: "a", New: "b"}}}},
		{FormatSmartEdit, `{"file_path":"a","old_string":"a","new_string":"b","instruction":"x","allow_multiple":true,"expected_replacements":1}`, SmartEdit{Old: "a", New: "b", Instruction: "x", AllowMultiple: true, ExpectedReplacements: 1}},
	}
	for _, tt := range tests {
		e, err := Parse(tt.format, tt.payload)
		if err != nil {
			t.Errorf("Parse(%s, %s): %v", tt.format, tt.payload, err)
			continue
		}
		if got, want := strings.TrimSpace(debugEdit(e)), strings.TrimSpace(debugEdit(tt.want)); got != want {
			t.Errorf("Parse(%s, %s) = %s, want %s", tt.format, tt.payload, got, want)
		}
	}
}

func debugEdit(e Edit) string {
	var b strings.Builder
	switch v := e.(type) {
	case Replace, SmartEdit:
		b.WriteString(strings.ReplaceAll(strings.TrimSpace(strings.Join(strings.Fields(sprint(v)), " ")), "\n", " "))
	case MultiEdit:
		for _, r := range v.Edits {
			b.WriteString(sprint(r))
		}
	}
	return b.String()
}

func sprint(v any) string { return fmt.Sprintf("%#v", v) }
