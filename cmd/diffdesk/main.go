// Command diffdesk is DiffDesk's desktop app: the review desk, its native
// socket, and the window where a person decides what agents may write.
package main

import (
	"os"

	"github.com/diffdesk/diffdesk/ui"
)

func main() { os.Exit(ui.Main(os.Args[1:], os.Stdout, os.Stderr)) }
