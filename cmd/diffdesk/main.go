// Command diffdesk is DiffDesk's desktop app: the review desk, its native
// socket, and the window where a person decides what agents may write.
package main

import (
	"fmt"
	"os"

	"github.com/diffdesk/diffdesk/internal/version"
	"github.com/diffdesk/diffdesk/ui"
)

func main() {
	if len(os.Args) == 2 && (os.Args[1] == "--version" || os.Args[1] == "-version") {
		fmt.Println(version.Line("diffdesk"))
		return
	}
	if old, new, path, ok := compareArgs(os.Args[1:]); ok {
		os.Exit(compare(old, new, labelOf(path, os.Getenv), os.Stdout, os.Stderr, func(a, b ui.CompareSide, note string) int {
			if err := ui.CheckDisplay(os.Getenv); err != nil {
				fmt.Fprintf(os.Stderr, "diffdesk: %v\n", err)
				return 1
			}
			return ui.CompareMain(a, b, note)
		}))
	}
	profileFromEnv()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
