package ui

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/diffdesk/diffdesk/engine"
)

// TestLook renders the main window with a few proposals to PNGs in
// $DIFFDESK_LOOK (skipped when unset): a quick headless look while
// developing. The real screenshots come from Xvfb (scripts/screenshots).
func TestLook(t *testing.T) {
	dir := os.Getenv("DIFFDESK_LOOK")
	if dir == "" {
		t.Skip("set DIFFDESK_LOOK=DIR to render the window to DIR")
	}
	for _, v := range []struct {
		name    string
		variant fyne.ThemeVariant
	}{{"light", theme.VariantLight}, {"dark", theme.VariantDark}} {
		h := newHarness(t)
		fyne.CurrentApp().Settings().SetTheme(NewVariantTheme(v.variant))
		h.write("main.go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n")
		h.propose("claude-code", "add-logging", engine.FormatWrite, "log.go", "package main\n\nimport \"log\"\n\nfunc logf(f string, a ...any) { log.Printf(f, a...) }\n")
		h.propose("claude-code", "add-logging", engine.FormatSearchReplace, "main.go", srBlock("\tfmt.Println(\"hello\")\n", "\tfmt.Println(\"hello, world\")\n\tlogf(\"started\")\n"))
		h.win.Select(h.win.queue.ids()[0])
		h.settle()
		img := h.win.Win.Canvas().Capture()
		f, err := os.Create(filepath.Join(dir, v.name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		png.Encode(f, img)
		f.Close()
	}
}
