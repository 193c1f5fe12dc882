package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// helpWidth is the width help is wrapped at, in columns (runes).
const helpWidth = 100

// writeHelp prints the help of c, called path: its usage line, what it
// does, and its commands or its flags.
func writeHelp(w io.Writer, path string, c *command) {
	fmt.Fprintf(w, "usage: %s %s\n\n", path, c.usage)
	if c.long != "" {
		fmt.Fprintln(w, c.long)
	} else {
		fmt.Fprintln(w, c.short)
	}
	if c.subs != nil {
		fmt.Fprintln(w, "\nCommands:")
		width := 0
		for _, s := range c.subs {
			width = max(width, len(s.name))
		}
		for _, s := range c.subs {
			fmt.Fprintf(w, "  %-*s  %s\n", width, s.name, s.short)
		}
		fmt.Fprintf(w, "\nRun '%s help COMMAND' or '%s COMMAND --help' for a command's flags.\n", path, path)
		return
	}
	fl := flag.NewFlagSet(path, flag.ContinueOnError)
	c.flags(fl)
	writeFlags(w, fl)
}

// writeFlags lists the flags of fl, in name order, one a paragraph: the
// flag and its value's placeholder, then its description and default,
// aligned and wrapped at helpWidth.
func writeFlags(w io.Writer, fl *flag.FlagSet) {
	var names, descs []string
	width := 0
	fl.VisitAll(func(f *flag.Flag) {
		name, desc := flagHelp(f)
		names, descs = append(names, name), append(descs, desc)
		width = max(width, len(name))
	})
	if len(names) == 0 {
		return
	}
	fmt.Fprintln(w, "\nFlags:")
	for i, name := range names {
		indent := 2 + width + 2
		fmt.Fprintf(w, "  %-*s  %s\n", width, name, wrap(descs[i], helpWidth-indent, strings.Repeat(" ", indent)))
	}
}

// flagHelp returns how help shows f: "--name PLACEHOLDER" (one dash for a
// one-letter name, no placeholder for a bool) and its description with the
// default, if not the zero value. The placeholder is the description's
// back-quoted word, else N for a number, else the name in capitals.
func flagHelp(f *flag.Flag) (name, desc string) {
	placeholder, desc := flag.UnquoteUsage(f)
	switch placeholder {
	case "int", "uint":
		placeholder = "N"
	case "string", "value", "float", "duration":
		placeholder = strings.ToUpper(f.Name)
	}
	name = "--" + f.Name
	if len(f.Name) == 1 {
		name = "-" + f.Name
	}
	if placeholder != "" {
		name += " " + placeholder
	}
	switch f.DefValue {
	case "", "0", "false", "[]":
	default:
		desc += " (default " + f.DefValue + ")"
	}
	return name, desc
}

// wrap breaks s into lines of at most width runes at spaces, starting
// each line after the first with indent.
func wrap(s string, width int, indent string) string {
	var b strings.Builder
	n := 0 // runes on the current line
	for i, word := range strings.Fields(s) {
		l := len([]rune(word))
		switch {
		case i == 0:
		case n+1+l > width:
			b.WriteString("\n" + indent)
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(word)
		n += l
	}
	return b.String()
}
