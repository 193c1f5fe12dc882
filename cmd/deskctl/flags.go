package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review/deskrpc"
)

// The flags several commands take, each defined once. (serve's desk flags
// come from startup.Options.AddFlags, shared with the diffdesk window.)

// socketFlag defines --socket, the running desk's socket.
func socketFlag(fl *flag.FlagSet) *string {
	return fl.String("socket", deskrpc.DefaultSocketPath(),
		"the desk's socket `PATH`: $DIFFDESK_SOCKET, else $XDG_RUNTIME_DIR/diffdesk/desk.sock")
}

// journalFlag defines --journal, the journal database; "" is the default
// path (see openHistoryJournal).
func journalFlag(fl *flag.FlagSet) *string {
	return fl.String("journal", "", "the journal database `FILE` (default $XDG_DATA_HOME/diffdesk/journal.db)")
}

// editFlags defines --format and --edit: the edit's format and the file
// its payload is read from ("" = standard input).
func editFlags(fl *flag.FlagSet) (format, editFile *string) {
	format = fl.String("format", "", "the edit's format `F`: write, search-replace, edit, multi-edit, smart-edit, patch")
	editFile = fl.String("edit", "", "read the edit payload from `EDITFILE` instead of standard input")
	return format, editFile
}

// parseFlags parses fl from args, allowing flags after positional arguments.
func parseFlags(fl *flag.FlagSet, args []string) error {
	var positional []string
	for {
		if err := fl.Parse(args); err != nil {
			return err
		}
		args = fl.Args()
		if len(args) == 0 {
			break
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
	return fl.Parse(append([]string{"--"}, positional...))
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return fmt.Sprint(*l) }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// formatError is the usage error for a --format that is no format, with
// the one it was probably meant to be; "" for a known format (or none).
func formatError(format string) string {
	if format == "" {
		return ""
	}
	names := make([]string, len(engine.Formats))
	best, bestD := "", 3
	for i, f := range engine.Formats {
		if string(f) == format {
			return ""
		}
		names[i] = string(f)
		if d := editDistance(format, string(f)); d < bestD {
			best, bestD = string(f), d
		}
	}
	msg := fmt.Sprintf("unknown --format %q: it is one of %s", format, strings.Join(names, ", "))
	if best != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", best)
	}
	return msg
}

// editDistance is the Levenshtein distance of a and b (short words).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
