package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
)

// TestANeverDoesNothingSilently: a on a proposal that streams, or on a
// held failure, says why it did not approve (real window: a during a
// stream did nothing, and nothing said why), and approves nothing.
func TestANeverDoesNothingSilently(t *testing.T) {
	h := newHarness(t)
	p, err := h.desk.Propose(t.Context(), review.Request{Agent: "a", Format: engine.FormatWrite, Path: "s.txt", Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	h.desk.Feed(p.ID, "x\n")
	h.until("the stream shows", func() bool { return h.Shown() == p.ID && strings.Contains(h.Header(), "streaming") })
	h.press('a')
	if !strings.Contains(h.Message(), "Still streaming") {
		t.Errorf("a while streaming: message %q; want it to say the proposal still streams", h.Message())
	}
	if _, ok := h.desk.Outcome(p.ID); ok {
		t.Fatal("a while streaming decided the proposal")
	}

	h.write("a.go", pickBase)
	q := h.propose("agent", "s", engine.FormatSearchReplace, "a.go", srBlock("\tx := 1\n\ty := 3\n", "\tx := 10\n"))
	h.win.Select(q.ID)
	h.press('a')
	if !strings.Contains(h.Message(), "did not apply") {
		t.Errorf("a on a held failure: message %q; want it to say the edit did not apply and what to do", h.Message())
	}
	if _, ok := h.desk.Outcome(q.ID); ok {
		t.Fatal("a on a held failure sent it")
	}
}

// TestGoButtonWithALineNotInTheFileSaysSo: Go in the Go to line dialog with
// a line the file does not have says so (real window: Go closed the dialog
// first and the hint went with it; nothing happened that could be seen).
func TestGoButtonWithALineNotInTheFileSaysSo(t *testing.T) {
	h := newHarness(t)
	base, proposed := twoHunks()
	h.write("long.txt", base)
	h.propose("a", "s", engine.FormatWrite, "long.txt", proposed)
	h.press('g')
	if !strings.Contains(h.Keyboard(), "typing") {
		t.Errorf("keyboard line %q with the line box focused; want it to say a text box has the keys", h.Keyboard())
	}
	h.typeWord("400")
	var goButton *widget.Button
	for _, o := range h.win.Win.Canvas().Overlays().List() {
		for _, x := range test.LaidOutObjects(o) {
			if b, ok := x.(*widget.Button); ok && b.Text == "Go" {
				goButton = b
			}
		}
	}
	if goButton == nil {
		t.Fatal("no Go button in the dialog")
	}
	test.Tap(goButton)
	if h.win.modal() {
		return // kept open: its hint shows
	}
	if !strings.Contains(h.Message(), `No line "400"`) {
		t.Errorf("Go with line 400 of 300 closed the dialog; message %q; want it to say there is no line 400", h.Message())
	}
}
