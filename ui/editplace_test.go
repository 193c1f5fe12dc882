package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/decision"
)

// letters40 is 40 lines "line a" … "line n" (a–z, then a–n again).
func letters40() string {
	var b strings.Builder
	for i := range 40 {
		b.WriteString("line " + string(rune('a'+i%26)) + "\n")
	}
	return b.String()
}

// TestEditStartsFromTheTickedHunksOnly: a hunk unticked before e stays out
// of the editor's text and of the file written when the edit is approved
// (found in the real window: the unticked hunk came back green in edit
// mode and was written).
func TestEditStartsFromTheTickedHunksOnly(t *testing.T) {
	h := newHarness(t)
	base := letters40()
	h.write("list.txt", base)
	prop := strings.Replace(strings.Replace(base, "line b\n", "line B\n", 1), "line x\n", "line X\n", 1)
	p := h.propose("claude-code", "s", engine.FormatWrite, "list.txt", prop)
	h.win.Select(p.ID)
	v := h.win.View()
	if len(v.Hunks()) != 2 {
		t.Fatalf("%d hunks; want 2", len(v.Hunks()))
	}
	v.ToggleHunk(1) // untick x → X
	h.press('e')
	ed := v.Editor()
	if ed == nil {
		t.Fatal("e did not start the editor")
	}
	if txt := ed.Text(); strings.Contains(txt, "line X") || !strings.Contains(txt, "line B") {
		t.Fatalf("the editor starts from %q; want the ticked hunk (B) without the unticked one (X)", txt)
	}
	ed.SetCursor(0, len("line a"))
	h.typed(ed, "!")
	h.CtrlEnter()
	h.Dialog().Click("Write it") // one character: shown before it is written
	if o := h.outcome(p.ID); o.Status != decision.ApprovedEdited {
		t.Fatalf("outcome %s; want approved-edited", o.Status)
	}
	want := strings.Replace(strings.Replace(base, "line b\n", "line B\n", 1), "line a\n", "line a!\n", 1)
	if got := h.read("list.txt"); got != want {
		t.Errorf("list.txt = %q; want %q (the unticked hunk left out)", got, want)
	}
}

// TestEditOfOneFileKeepsAnotherFilesUntickedHunksOut: in a multi-file
// proposal, hunks unticked in one file stay unwritten when the person
// edits another and approves the edit.
func TestEditOfOneFileKeepsAnotherFilesUntickedHunksOut(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n")
	h.write("b.txt", "b\n")
	patch := "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n@@\n-nine\n+NINE\n*** Update File: b.txt\n@@\n-b\n+B\n*** End Patch\n"
	p := h.propose("codex", "s", engine.FormatPatch, "", patch)
	h.win.Select(p.ID)
	h.win.View().ToggleHunk(1) // a.txt: untick nine → NINE
	h.press(']')
	if f := h.ShownFile(); f != "b.txt" {
		t.Fatalf("] showed %q; want b.txt", f)
	}
	h.press('e')
	ed := h.win.View().Editor()
	if ed == nil {
		t.Fatal("e did not start the editor")
	}
	ed.SetCursor(0, 1)
	h.typed(ed, "ee")
	h.CtrlEnter()
	h.Dialog().Click("Write it") // two characters: shown before they are written
	if o := h.outcome(p.ID); o.Status != decision.ApprovedEdited {
		t.Fatalf("outcome %s; want approved-edited", o.Status)
	}
	if got := h.read("a.txt"); got != "ONE\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n" {
		t.Errorf("a.txt = %q; want only its ticked hunk written", got)
	}
	if got := h.read("b.txt"); got != "Bee\n" {
		t.Errorf("b.txt = %q; want the person's edit", got)
	}
}

// bigPair is a 3,000-line file and a proposal changing lines 100, 1500
// and 2900.
func bigPair() (string, string) {
	var old, prop strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&old, "line %d\n", i)
		if i == 100 || i == 1500 || i == 2900 {
			fmt.Fprintf(&prop, "changed %d\n", i)
		} else {
			fmt.Fprintf(&prop, "line %d\n", i)
		}
	}
	return old.String(), prop.String()
}

// TestEditKeepsThePlace: e at the second change of a long file puts the
// editor's cursor on that change, where it was on screen, instead of at
// line 1 at the top of the file (found in the real window).
func TestEditKeepsThePlace(t *testing.T) {
	h := newHarness(t)
	old, prop := bigPair()
	h.write("big.txt", old)
	p := h.propose("claude-code", "s", engine.FormatWrite, "big.txt", prop)
	h.win.Select(p.ID)
	v := h.win.View()
	h.press('j') // the view opens at the first change; j goes to the second
	yBefore, on := v.LineY(1500)
	if !on {
		t.Fatal("line 1501 is not on screen after j")
	}
	h.press('e')
	ed := v.Editor()
	if ed == nil {
		t.Fatal("e did not start the editor")
	}
	if line, _ := ed.Cursor(); line != 1500 {
		t.Errorf("the editor's cursor is on line %d; want 1500 (the change j went to)", line+1)
	}
	if y, on := v.LineY(1500); !on || y != yBefore {
		t.Errorf("line 1501 is at y %v (on screen %v) in edit mode; want %v, where it was", y, on, yBefore)
	}
}

// TestEditKeepsThePlaceAfterAnUntickedHunk: with a hunk above unticked (its
// lines gone from the editor's text), the cursor still lands on the change
// the person was at.
func TestEditKeepsThePlaceAfterAnUntickedHunk(t *testing.T) {
	h := newHarness(t)
	var old, prop strings.Builder
	for i := range 400 {
		fmt.Fprintf(&old, "line %d\n", i)
		fmt.Fprintf(&prop, "line %d\n", i)
		if i == 10 {
			prop.WriteString("added 1\nadded 2\nadded 3\n")
		}
		if i == 300 {
			prop.WriteString("added at 300\n")
		}
	}
	h.write("f.txt", old.String())
	p := h.propose("claude-code", "s", engine.FormatWrite, "f.txt", prop.String())
	h.win.Select(p.ID)
	v := h.win.View()
	v.ToggleHunk(0) // untick the three lines added after line 10
	h.press('j')
	h.press('e')
	ed := v.Editor()
	if ed == nil {
		t.Fatal("e did not start the editor")
	}
	line, _ := ed.Cursor()
	if got := strings.Split(ed.Text(), "\n")[line]; got != "added at 300" {
		t.Errorf("the editor's cursor is on %q (line %d); want the change j went to, \"added at 300\"", got, line+1)
	}
}

// TestEditCountsTheHunksAsTyped: the counter under the buttons follows the
// edit: a change typed away from the agent's is one more hunk (real
// window: it kept saying "1 hunk" with two changes on screen).
func TestEditCountsTheHunksAsTyped(t *testing.T) {
	h := newHarness(t)
	base := letters40()
	h.write("list.txt", base)
	p := h.propose("claude-code", "s", engine.FormatWrite, "list.txt", strings.Replace(base, "line b\n", "line B\n", 1))
	h.win.Select(p.ID)
	h.press('e')
	ed := h.win.View().Editor()
	if ed == nil {
		t.Fatal("e did not start the editor")
	}
	if !strings.HasPrefix(h.Diff().Counter(), "1 hunk") && !strings.Contains(h.Diff().Counter(), "of 1") {
		t.Fatalf("counter %q at the start of the edit; want one hunk", h.Diff().Counter())
	}
	ed.SetCursor(30, len("line e"))
	h.typed(ed, "!")
	if _, n, _ := h.win.View().Nav().HunkCount(); n != 2 {
		t.Fatalf("the view counts %d hunks after the edit; want 2", n)
	}
	if !strings.Contains(h.Diff().Counter(), "2 hunks") && !strings.Contains(h.Diff().Counter(), "of 2") {
		t.Errorf("counter %q after typing a second change; want two hunks", h.Diff().Counter())
	}
}

// TestCancelEditKeepsThePlace: leaving edit mode (Esc, Esc) shows the
// proposal where the person was editing, not its first change.
func TestCancelEditKeepsThePlace(t *testing.T) {
	h := newHarness(t)
	var old, prop strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&old, "line %d\n", i)
		if i%50 == 25 { // 60 changes: folded, still far taller than the view
			fmt.Fprintf(&prop, "changed %d\n", i)
		} else {
			fmt.Fprintf(&prop, "line %d\n", i)
		}
	}
	h.write("big.txt", old.String())
	p := h.propose("claude-code", "s", engine.FormatWrite, "big.txt", prop.String())
	h.win.Select(p.ID)
	v := h.win.View()
	for range 40 {
		h.press('j')
	}
	const at = 40*50 + 25 // the change j went to
	h.press('e')
	yEdit, on := v.LineY(at)
	if v.Editor() == nil || !on {
		t.Fatalf("edit mode %v, line %d on screen %v", v.Editor() != nil, at+1, on)
	}
	h.pressKey(fyne.KeyEscape) // leave the editor
	h.pressKey(fyne.KeyEscape) // leave edit mode
	if v.Editor() != nil || h.EditMode() {
		t.Fatal("Esc Esc did not leave edit mode")
	}
	if y, on := v.LineY(at); !on || y != yEdit {
		t.Errorf("after leaving edit mode line %d is at y %v (on screen %v); want %v, where it was", at+1, y, on, yEdit)
	}
}

// TestLeavingEditModeAsksBeforeDiscarding: Esc Esc after typing asks
// before the edit is thrown away; Esc keeps editing, with the text as it
// was; Enter discards. With nothing changed, Esc Esc just leaves.
func TestLeavingEditModeAsksBeforeDiscarding(t *testing.T) {
	h := newHarness(t)
	h.write("a.txt", "one\ntwo\n")
	p := h.propose("claude-code", "s", engine.FormatWrite, "a.txt", "one\nTWO\n")
	h.win.Select(p.ID)
	v := h.win.View()
	h.press('e')
	h.pressKey(fyne.KeyEscape)
	h.pressKey(fyne.KeyEscape)
	if h.EditMode() || h.Dialog().Open() {
		t.Fatalf("nothing changed: Esc Esc left editing %v, asked %q; want it to leave at once", h.EditMode(), h.Dialog().Text())
	}
	h.press('e')
	h.typed(v.Editor(), "my ")
	h.pressKey(fyne.KeyEscape) // leave the editor
	h.pressKey(fyne.KeyEscape) // leave edit mode: asks
	if !h.EditMode() || !h.Dialog().Open() {
		t.Fatalf("after typing, Esc Esc: editing %v, asked %v; want the question, the edit kept", h.EditMode(), h.Dialog().Open())
	}
	h.pressKey(fyne.KeyEscape) // keep editing
	if !h.EditMode() || h.Dialog().Open() || !strings.Contains(v.EditedText(), "my ") || h.win.Win.Canvas().Focused() != v.Editor() {
		t.Fatalf("Esc on the question: editing %v, text %q, editor focused %v; want the edit kept, the keyboard in it", h.EditMode(), v.EditedText(), h.win.Win.Canvas().Focused() == v.Editor())
	}
	h.pressKey(fyne.KeyEscape)
	h.press('e') // e leaves edit mode too: asks as well
	if !h.Dialog().Open() {
		t.Fatal("e after typing left edit mode without asking")
	}
	h.pressKey(fyne.KeyReturn) // discard
	if h.EditMode() || h.Dialog().Open() {
		t.Errorf("Enter on the question: editing %v, asked %v; want the edit gone", h.EditMode(), h.Dialog().Open())
	}
	h.press('a')
	if o := h.outcome(p.ID); o.Status != decision.Approved || h.read("a.txt") != "one\nTWO\n" {
		t.Errorf("after discarding, a: %s, file %q; want the proposal as sent", o.Status, h.read("a.txt"))
	}
}

// TestCancelEditKeepsTheCurrentHunk: after Esc Esc the change the person
// was at is the current one again: the counter names it and j goes to the
// next (real window, 20,000 lines: the counter said "hunk 1 of 15" with
// hunk 8 on screen).
func TestCancelEditKeepsTheCurrentHunk(t *testing.T) {
	h := newHarness(t)
	var old, prop strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&old, "line %d\n", i)
		if i%50 == 25 { // 60 changes
			fmt.Fprintf(&prop, "changed %d\n", i)
		} else {
			fmt.Fprintf(&prop, "line %d\n", i)
		}
	}
	h.write("big.txt", old.String())
	p := h.propose("claude-code", "s", engine.FormatWrite, "big.txt", prop.String())
	h.win.Select(p.ID)
	v := h.win.View()
	for range 40 {
		h.press('j')
	}
	if !strings.HasPrefix(h.Diff().Counter(), "hunk 41 of 60") {
		t.Fatalf("counter %q after 40 j; want hunk 41 of 60", h.Diff().Counter())
	}
	h.press('e')
	h.pressKey(fyne.KeyEscape)
	h.pressKey(fyne.KeyEscape)
	if v.Editor() != nil || h.EditMode() {
		t.Fatal("Esc Esc did not leave edit mode")
	}
	if k := v.Nav().CurrentHunk(); k != 40 {
		t.Errorf("current hunk %d after leaving edit mode; want 40, the one the person was at", k)
	}
	if !strings.HasPrefix(h.Diff().Counter(), "hunk 41 of 60") {
		t.Errorf("counter %q after leaving edit mode; want hunk 41 of 60", h.Diff().Counter())
	}
	h.press('j')
	if _, on := v.LineY(41*50 + 25); !on || v.Nav().CurrentHunk() != 41 {
		t.Errorf("j after leaving edit mode: current hunk %d, line %d on screen %v; want hunk 42 there", v.Nav().CurrentHunk(), 41*50+26, on)
	}
}

// TestLeavingEditModeKeepsOpenedFolds: a region the person opened with }
// stays open after e, Esc Esc (it closed again: QA in the real window).
func TestLeavingEditModeKeepsOpenedFolds(t *testing.T) {
	h := newHarness(t)
	var old, prop strings.Builder
	for i := range 400 {
		fmt.Fprintf(&old, "line %d\n", i)
		if i == 100 || i == 300 {
			fmt.Fprintf(&prop, "changed %d\n", i)
		} else {
			fmt.Fprintf(&prop, "line %d\n", i)
		}
	}
	h.write("f.txt", old.String())
	p := h.propose("claude-code", "s", engine.FormatWrite, "f.txt", prop.String())
	h.win.Select(p.ID)
	v := h.win.View()
	h.press('j')
	folds := v.Folds().Count()
	for range 10 { // 20 lines each: the 193 between the changes, all
		h.press('}')
	}
	opened := v.Folds().Count()
	if opened != folds-1 {
		t.Fatalf("} ten times: %d folds, from %d; want the region between the changes open", opened, folds)
	}
	h.press('e')
	h.pressKey(fyne.KeyEscape)
	h.pressKey(fyne.KeyEscape)
	if h.EditMode() {
		t.Fatal("Esc Esc did not leave edit mode")
	}
	if got := v.Folds().Count(); got != opened {
		t.Errorf("after e, Esc Esc: %d folds; want %d, as the person left them", got, opened)
	}
}
