package engine

import "testing"

// TestApplySaysWhenTheEditsLineEndingsWereNotKept: an edit in other line
// endings than the file's is written in the file's, and Result says which
// the edit used, so the agent can be told its bytes were not kept.
func TestApplySaysWhenTheEditsLineEndingsWereNotKept(t *testing.T) {
	for _, tt := range []struct {
		name, file, payload, want, editEOL string
	}{
		{"CRLF edit, LF file", "a\nb\n", "A\r\nB\r\n", "A\nB\n", "\r\n"},
		{"LF edit, CRLF file", "a\r\nb\r\n", "A\nB\n", "A\r\nB\r\n", "\n"},
		{"same endings", "a\nb\n", "A\nB\n", "A\nB\n", ""},
		{"new file's first line break", "", "A\r\nB\r\n", "A\r\nB\r\n", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Parse(FormatWrite, tt.payload)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Apply(tt.file, e)
			if err != nil {
				t.Fatal(err)
			}
			if res.Content != tt.want || res.EditEOL != tt.editEOL {
				t.Errorf("Apply = %q, EditEOL %q; want %q, %q", res.Content, res.EditEOL, tt.want, tt.editEOL)
			}
		})
	}
}
