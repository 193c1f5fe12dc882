package present

import (
	"strings"
	"testing"
)

// TestKeyboard: each holder of the keyboard is named, with the key that
// gives it back where there is one.
func TestKeyboard(t *testing.T) {
	for _, c := range []struct {
		k    Keys
		what string
		want []string
	}{
		{ReviewKeys, "", []string{"review", "?"}},
		{Typing, "the search box", []string{"typing in the search box", "Esc"}},
		{RejectBox, "", []string{"reject box", "Ctrl+Enter", "Esc"}},
		{Editor, "", []string{"editor", "Esc"}},
		{TextBox, "", []string{"text box"}},
		{Queue, "", []string{"queue", "Space", "Esc"}},
		{Control, "", []string{"button", "Space", "Tab"}},
	} {
		got := Keyboard(c.k, c.what)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("Keyboard(%d, %q) = %q; want it to say %q", c.k, c.what, got, w)
			}
		}
	}
}
