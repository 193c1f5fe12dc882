package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/diffdesk/diffdesk/review/journal"
)

// historyList implements `deskctl history list`.
func historyList(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl, journalPath := historyFlags("list", stderr)
	var f journal.Filter
	fl.StringVar(&f.Agent, "agent", "", "only this agent's entries")
	fl.StringVar(&f.Session, "session", "", "only this session's entries")
	file := fl.String("file", "", "only entries touching this path or pattern")
	since := fl.String("since", "", "only entries at or after this time or age")
	until := fl.String("until", "", "only entries before this time or age")
	fl.StringVar(&f.Decision, "decision", "", "only entries with this decision (or restore)")
	fl.IntVar(&f.Limit, "limit", 50, "entries per page")
	fl.StringVar(&f.Cursor, "page", "", "the page cursor a previous list printed")
	asJSON := fl.Bool("json", false, "print the entries as JSON")
	if err := parseFlags(fl, args); err != nil {
		return 2
	}
	if fl.NArg() != 0 {
		fmt.Fprintf(stderr, "deskctl history list: unexpected argument %q; filters are flags, e.g. --file %s\n", fl.Arg(0), fl.Arg(0))
		return 2
	}
	now := time.Now()
	for _, t := range []struct {
		in  string
		out *time.Time
	}{{*since, &f.Since}, {*until, &f.Until}} {
		if t.in == "" {
			continue
		}
		var err error
		if *t.out, err = parseSince(t.in, now); err != nil {
			fmt.Fprintf(stderr, "deskctl history list: %v\n", err)
			return 2
		}
	}
	if *file != "" {
		abs, err := filepath.Abs(*file)
		if err != nil {
			return historyFail(stderr, "list", err)
		}
		f.File = abs
	}
	j, err := openHistoryJournal(ctx, *journalPath)
	if err != nil {
		return historyFail(stderr, "list", err)
	}
	defer j.Close()
	page, err := j.History(ctx, f)
	if err != nil {
		return historyFail(stderr, "list", err)
	}
	if *asJSON {
		writeJSON(stdout, historyPageJSON(page))
		return 0
	}
	if len(page.Entries) == 0 {
		fmt.Fprintln(stdout, "no history matches")
		return 0
	}
	for _, e := range page.Entries {
		fmt.Fprintln(stdout, historyLine(e))
	}
	if page.Next != "" {
		fmt.Fprintf(stdout, "… more: add --page %s\n", page.Next)
	}
	return 0
}

// historyLine is one entry as list prints it: id, time, who, what, files.
func historyLine(e journal.Entry) string {
	what := string(e.Decision)
	switch {
	case e.Kind == journal.EntryRestore:
		what = fmt.Sprintf("restore ←%d", e.RestoredFrom)
	case e.State != "" && e.State != journal.WriteWritten:
		what += " (" + string(e.State) + ")"
	}
	var files []string
	for i, p := range e.Paths {
		if i == 3 {
			files = append(files, fmt.Sprintf("+%d more", len(e.Paths)-3))
			break
		}
		files = append(files, shownPath(p))
	}
	who := e.Agent
	if e.Session != "" {
		who += "/" + e.Session
	}
	line := fmt.Sprintf("%-7s %s  %-24s %-18s %s", e.Ref, e.Time.Local().Format("2006-01-02 15:04:05"),
		who, what, strings.Join(files, ", "))
	if e.Feedback != "" {
		line += "  — " + oneLine(e.Feedback)
	}
	return line
}

// oneLine shortens s to one line of at most 60 characters.
func oneLine(s string) string {
	s, _, cut := strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(s); len(r) > 60 {
		s, cut = string(r[:60]), true
	}
	if cut {
		s += "…"
	}
	return s
}

// entryJSON is a history entry as --json prints it.
type entryJSON struct {
	ID           string          `json:"id"`
	Kind         string          `json:"kind"`
	Time         time.Time       `json:"time"`
	Agent        string          `json:"agent"`
	Session      string          `json:"session"`
	ProposalID   string          `json:"proposalId,omitempty"`
	Decision     journal.Verdict `json:"decision,omitempty"`
	Feedback     string          `json:"feedback,omitempty"`
	RestoredFrom int64           `json:"restoredFrom,omitempty"`
	Note         string          `json:"note,omitempty"`
	State        string          `json:"state,omitempty"`
	Files        []string        `json:"files"`
}

func historyEntryJSON(e journal.Entry) entryJSON {
	return entryJSON{ID: string(e.Ref), Kind: e.Kind, Time: e.Time, Agent: e.Agent, Session: e.Session,
		ProposalID: e.ProposalID, Decision: e.Decision, Feedback: e.Feedback, RestoredFrom: e.RestoredFrom,
		Note: e.Note, State: string(e.State), Files: e.Paths}
}

func historyPageJSON(p journal.Page) any {
	entries := make([]entryJSON, len(p.Entries))
	for i, e := range p.Entries {
		entries[i] = historyEntryJSON(e)
	}
	return struct {
		Entries []entryJSON `json:"entries"`
		Next    string      `json:"next,omitempty"`
	}{entries, p.Next}
}
