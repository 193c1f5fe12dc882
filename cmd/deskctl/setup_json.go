package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tailscale/hujson"
)

// jsonSettings is an agent's JSON settings file (comments allowed, as
// Gemini CLI and VS Code-style editors allow them), edited in place: what
// setup adds or removes is the only change, the rest — other settings,
// comments, indentation, key order — stays byte for byte.
type jsonSettings struct {
	root hujson.Value
	unit string // one level of indentation, as the file has it
	flat bool   // the file is one line: what is added is too
}

// parseJSONSettings parses a settings file; an empty or missing one is {}.
func parseJSONSettings(path string, b []byte) (*jsonSettings, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		b = []byte("{}\n")
	}
	v, err := hujson.Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s is not JSON DiffDesk can edit (%v); fix it, or move it away and run setup again", path, err)
	}
	if _, ok := v.Value.(*hujson.Object); !ok {
		return nil, fmt.Errorf("%s holds a JSON %s, not an object of settings; fix it, or move it away and run setup again", path, kindName(v.Value.Kind()))
	}
	flat := !bytes.Contains(bytes.TrimSpace(b), []byte("\n")) && len(v.Value.(*hujson.Object).Members) > 0
	return &jsonSettings{root: v, unit: indentUnit(b), flat: flat}, nil
}

func kindName(k hujson.Kind) string {
	return map[hujson.Kind]string{'n': "null", 'f': "boolean", 't': "boolean", '"': "string", '0': "number", '[': "array", '{': "object"}[k]
}

// indentUnit is the file's first indentation (two spaces when it has none).
func indentUnit(b []byte) string {
	for _, line := range strings.Split(string(b), "\n") {
		if t := strings.TrimLeft(line, " \t"); t != "" && len(t) < len(line) {
			return line[:len(line)-len(t)]
		}
	}
	return "  "
}

// bytes returns the file's content.
func (s *jsonSettings) bytes() []byte { return s.root.Pack() }

// value decodes the value at a JSON pointer into v; false if there is none.
func (s *jsonSettings) value(ptr string, v any) bool {
	f := s.root.Find(ptr)
	if f == nil {
		return false
	}
	c := f.Clone()
	c.Standardize()
	return json.Unmarshal(c.Pack(), v) == nil
}

// object returns the object at the path of member names from the root,
// creating the missing ones, and the indentation of the line it starts on.
// A member on the way that is not an object is an error.
func (s *jsonSettings) object(names ...string) (*hujson.Object, string, error) {
	o := s.root.Value.(*hujson.Object)
	indent := ""
	for i, name := range names {
		child := memberValue(o, name)
		if child == nil {
			s.appendMember(o, indent, name, map[string]any{})
			child = memberValue(o, name)
		}
		co, ok := child.Value.(*hujson.Object)
		if !ok {
			return nil, "", fmt.Errorf("%q is a JSON %s, not an object", strings.Join(names[:i+1], "."), kindName(child.Value.Kind()))
		}
		indent = memberIndent(o, indent, s.unit)
		o = co
	}
	return o, indent, nil
}

// array returns the array member name of o (o's line indented by indent),
// creating it, and the indentation of the line it starts on.
func (s *jsonSettings) array(o *hujson.Object, indent, name string) (*hujson.Array, string, error) {
	v := memberValue(o, name)
	if v == nil {
		s.appendMember(o, indent, name, []any{})
		v = memberValue(o, name)
	}
	a, ok := v.Value.(*hujson.Array)
	if !ok {
		return nil, "", fmt.Errorf("%q is a JSON %s, not an array", name, kindName(v.Value.Kind()))
	}
	return a, memberIndent(o, indent, s.unit), nil
}

// memberValue is the value of o's member name, or nil.
func memberValue(o *hujson.Object, name string) *hujson.Value {
	for i := range o.Members {
		if lit, ok := o.Members[i].Name.Value.(hujson.Literal); ok && lit.String() == name {
			return &o.Members[i].Value
		}
	}
	return nil
}

// memberIndent is the indentation of the lines of o's members, given the
// indentation of the line o starts on.
func memberIndent(o *hujson.Object, outer, unit string) string {
	if len(o.Members) > 0 {
		if in, ok := lineIndent(o.Members[0].Name.BeforeExtra); ok {
			return in
		}
	}
	return outer + unit
}

// lineIndent is the whitespace after the last newline of extra; false if
// extra has no newline (the value is on the line of what precedes it).
func lineIndent(extra hujson.Extra) (string, bool) {
	i := bytes.LastIndexByte(extra, '\n')
	if i < 0 {
		return "", false
	}
	return strings.TrimRight(string(extra[i+1:]), "\r"), true
}

// flatLayout says whether a composite whose first element is preceded by
// first is written on one line.
func flatLayout(first hujson.Extra) bool {
	_, nl := lineIndent(first)
	return !nl
}

// encodeValue is v as a hujson value laid out from indent: indented JSON,
// or on one line.
func (s *jsonSettings) encodeValue(v any, indent string, flat bool) hujson.Value {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if !flat {
		enc.SetIndent(indent, s.unit)
	}
	if err := enc.Encode(v); err != nil {
		panic(err) // setup's own values always encode
	}
	hv, err := hujson.Parse(bytes.TrimRight(b.Bytes(), "\n"))
	if err != nil {
		panic(err)
	}
	return hv
}

// appendMember adds name: v as o's last member, laid out as o's members
// are (o's own line is indented by outer).
func (s *jsonSettings) appendMember(o *hujson.Object, outer, name string, v any) {
	flat := s.flat || len(o.Members) > 0 && flatLayout(o.Members[0].Name.BeforeExtra)
	indent := memberIndent(o, outer, s.unit)
	var m hujson.ObjectMember
	m.Name = hujson.Value{Value: hujson.String(name)}
	m.Value = s.encodeValue(v, indent, flat)
	m.Value.BeforeExtra = hujson.Extra(" ")
	switch {
	case flat && len(o.Members) == 0:
		m.Value.BeforeExtra = nil
	case flat:
		// As the first member is spaced: {"a": 1} or {"a":1}.
		m.Name.BeforeExtra = o.Members[0].Name.BeforeExtra
		m.Value.BeforeExtra = o.Members[0].Value.BeforeExtra
		if len(m.Name.BeforeExtra) == 0 {
			m.Name.BeforeExtra = nil
		} else {
			m.Name.BeforeExtra = hujson.Extra(" ")
		}
	default:
		m.Name.BeforeExtra = hujson.Extra("\n" + indent)
		if len(o.Members) == 0 {
			o.AfterExtra = hujson.Extra("\n" + outer)
		}
	}
	o.Members = append(o.Members, m)
}

// appendElement adds v as a's last element, laid out as a's elements are
// (a's own line is indented by outer).
func (s *jsonSettings) appendElement(a *hujson.Array, outer string, v any) {
	flat := s.flat || len(a.Elements) > 0 && flatLayout(a.Elements[0].BeforeExtra)
	indent := outer + s.unit
	if len(a.Elements) > 0 && !flat {
		indent, _ = lineIndent(a.Elements[0].BeforeExtra)
	}
	e := s.encodeValue(v, indent, flat)
	switch {
	case flat && len(a.Elements) > 0 && len(a.Elements[0].BeforeExtra) > 0:
		e.BeforeExtra = hujson.Extra(" ")
	case flat:
		e.BeforeExtra = nil
	default:
		e.BeforeExtra = hujson.Extra("\n" + indent)
		if len(a.Elements) == 0 {
			a.AfterExtra = hujson.Extra("\n" + outer)
		}
	}
	a.Elements = append(a.Elements, e)
}

// removeElements removes the elements of a for which drop is true and
// says how many it removed.
func removeElements(a *hujson.Array, drop func(v *hujson.Value) bool) int {
	kept := a.Elements[:0]
	n := 0
	for i := range a.Elements {
		if drop(&a.Elements[i]) {
			n++
			continue
		}
		kept = append(kept, a.Elements[i])
	}
	trailing := len(a.Elements) > 0 && a.Elements[len(a.Elements)-1].AfterExtra != nil
	a.Elements = kept
	switch {
	case n > 0 && len(kept) == 0:
		a.AfterExtra = nil
	case n > 0 && !trailing:
		// The new last element had a comma after it: it goes, as no
		// trailing comma was there before.
		last := &a.Elements[len(a.Elements)-1]
		a.AfterExtra = append(last.AfterExtra, a.AfterExtra...)
		last.AfterExtra = nil
	}
	return n
}

// removeMember removes o's member name.
func removeMember(o *hujson.Object, name string) {
	for i := range o.Members {
		if lit, ok := o.Members[i].Name.Value.(hujson.Literal); ok && lit.String() == name {
			trailing := o.Members[len(o.Members)-1].Value.AfterExtra != nil
			o.Members = append(o.Members[:i], o.Members[i+1:]...)
			switch {
			case len(o.Members) == 0:
				o.AfterExtra = nil
			case !trailing:
				last := &o.Members[len(o.Members)-1].Value
				o.AfterExtra = append(last.AfterExtra, o.AfterExtra...)
				last.AfterExtra = nil
			}
			return
		}
	}
}

// decodeValue decodes a hujson value (comments allowed) into v.
func decodeValue(h *hujson.Value, v any) error {
	c := h.Clone()
	c.Standardize()
	return json.Unmarshal(c.Pack(), v)
}
