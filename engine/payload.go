package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
)

// The JSON payloads of edit, multi-edit and smart-edit are checked against
// the fields each format takes before they are decoded, as Claude Code and
// Gemini CLI check their tools' input against its schema: a required field
// that is missing or null, a field of the wrong type and a field the format
// does not take (names are case-sensitive) are each a *FormatError naming
// the field. Go's decoder alone would read a missing or null new_string as
// "", an edit that deletes what it matches.

type fieldKind uint8

const (
	kindString fieldKind = iota
	kindBool
	kindCount // a whole number
	kindEdits // multi-edit's array of old/new objects
)

// field is one field a payload object takes.
type field struct {
	name     string
	kind     fieldKind
	required bool
}

var (
	replaceFields = []field{
		{"old_string", kindString, true},
		{"new_string", kindString, true},
		{"replace_all", kindBool, false},
		{"expected_replacements", kindCount, false},
	}
	editFields      = append([]field{{"file_path", kindString, false}}, replaceFields...)
	multiEditFields = []field{{"file_path", kindString, false}, {"edits", kindEdits, true}}
	smartEditFields = []field{
		{"file_path", kindString, false},
		{"old_string", kindString, true},
		{"new_string", kindString, true},
		{"expected_replacements", kindCount, false},
		{"allow_multiple", kindBool, false},
		{"instruction", kindString, false},
	}
)

// parseAs parses a payload of format f as an E.
func parseAs[E Edit](f Format, payload string, fields []field) (Edit, error) {
	var e E
	if err := parseJSON(f, payload, fields, &e); err != nil {
		return nil, err
	}
	return e, nil
}

// parseJSON decodes a payload of format f into v (edit, multi-edit or
// smart-edit) once checkFields accepts it.
func parseJSON(f Format, payload string, fields []field, v any) error {
	dec := json.NewDecoder(strings.NewReader(payload))
	dec.UseNumber()
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return &FormatError{Format: f, Msg: "payload is not valid JSON: " + err.Error() + "; send one JSON object, e.g. " + example(f)}
	}
	if dec.More() {
		return &FormatError{Format: f, Msg: "payload has text after the JSON object; send one JSON object"}
	}
	if err := checkFields(raw, fields, ""); err != nil {
		return &FormatError{Format: f, Msg: err.Error() + "; send " + example(f)}
	}
	if err := json.Unmarshal(raw, v); err != nil { // checked above; kept as a guard
		return &FormatError{Format: f, Msg: "payload does not fit this format: " + err.Error()}
	}
	return nil
}

func example(f Format) string {
	switch f {
	case FormatMultiEdit:
		return `{"edits":[{"old_string":…,"new_string":…},…]}`
	case FormatSmartEdit:
		return `{"old_string":…,"new_string":…,"instruction":…}`
	}
	return `{"old_string":…,"new_string":…}`
}

// checkFields checks that raw is an object with every required field of
// fields, none null, each of its kind, and no other; where says which
// object it is ("" for the payload itself).
func checkFields(raw json.RawMessage, fields []field, where string) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return fmt.Errorf("%sis %s, not a JSON object", whereIs(where), jsonKind(raw))
	}
	known := map[string]field{}
	for _, fd := range fields {
		known[fd.name] = fd
	}
	var unknown []string
	for name := range obj {
		if _, ok := known[name]; !ok {
			unknown = append(unknown, fmt.Sprintf("%q", name))
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return fmt.Errorf("%sunknown field %s; the fields are %s", whereIn(where), strings.Join(unknown, ", "), fieldNames(fields))
	}
	for _, fd := range fields {
		v, ok := obj[fd.name]
		switch {
		case !ok && fd.required:
			return fmt.Errorf("%s%q is missing; %s", whereIn(where), fd.name, fd.needs())
		case !ok:
			continue
		case bytes.Equal(bytes.TrimSpace(v), []byte("null")):
			return fmt.Errorf("%s%q is null; %s", whereIn(where), fd.name, fd.needs())
		}
		if err := fd.check(v, where); err != nil {
			return err
		}
	}
	return nil
}

// check checks one present, non-null value of the field.
func (fd field) check(v json.RawMessage, where string) error {
	bad := func() error {
		return fmt.Errorf("%s%q is %s; %s", whereIn(where), fd.name, jsonKind(v), fd.needs())
	}
	switch fd.kind {
	case kindString:
		var s string
		if json.Unmarshal(v, &s) != nil {
			return bad()
		}
	case kindBool:
		var b bool
		if json.Unmarshal(v, &b) != nil {
			return bad()
		}
	case kindCount:
		var n float64
		if json.Unmarshal(v, &n) != nil || n != math.Trunc(n) || math.Abs(n) > 1<<31 {
			return bad()
		}
	case kindEdits:
		var edits []json.RawMessage
		if json.Unmarshal(v, &edits) != nil {
			return bad()
		}
		if len(edits) == 0 {
			return fmt.Errorf("%q is empty; %s", fd.name, fd.needs())
		}
		for i, e := range edits {
			if err := checkFields(e, replaceFields, fmt.Sprintf("edit %d of \"edits\"", i+1)); err != nil {
				return err
			}
		}
	}
	return nil
}

// needs says what the field takes.
func (fd field) needs() string {
	switch fd.kind {
	case kindBool:
		return "it must be true or false"
	case kindCount:
		return "it must be a whole number"
	case kindEdits:
		return "it must be a list of one or more {\"old_string\":…,\"new_string\":…} objects, applied in order"
	}
	switch fd.name {
	case "new_string":
		return `it must be a string, the text that replaces old_string ("" deletes it)`
	case "old_string":
		return `it must be a string, the exact text to replace ("" only to create a file)`
	}
	return "it must be a string"
}

func whereIs(where string) string {
	if where == "" {
		return "the payload "
	}
	return where + " "
}

func whereIn(where string) string {
	if where == "" {
		return ""
	}
	return where + ": "
}

func fieldNames(fields []field) string {
	names := make([]string, len(fields))
	for i, fd := range fields {
		names[i] = fmt.Sprintf("%q", fd.name)
	}
	return strings.Join(names, ", ")
}

// jsonKind names the JSON type of a value: "a string", "null", …
func jsonKind(v json.RawMessage) string {
	t := bytes.TrimSpace(v)
	if len(t) == 0 {
		return "empty"
	}
	switch t[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "a list"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "the number " + string(t)
}
