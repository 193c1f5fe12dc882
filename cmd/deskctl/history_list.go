package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/journal"
)

var historyListCmd = &command{
	name:  "list",
	usage: "[flags]",
	short: "the timeline, newest first: every write, restore and decision",
	long: `The timeline, newest first: every write, restore and decision, a page at a time.
  D     approved | approved-edited | partial | rejected | withdrawn | failed | stale | restore
  T     RFC 3339 (2026-11-22T09:00:00Z), a date (2026-11-22), or an age (2h, 3d, 1w)
  GLOB  a path or pattern, relative to the current directory; * crosses directories`,
	flags: func(fl *flag.FlagSet) runFunc {
		var o listOptions
		journalPath := journalFlag(fl)
		fl.StringVar(&o.f.Agent, "agent", "", "only this agent's entries")
		fl.StringVar(&o.f.Session, "session", "", "only this session's entries")
		fl.StringVar(&o.file, "file", "", "only entries touching `GLOB`")
		fl.StringVar(&o.since, "since", "", "only entries at or after `T`")
		fl.StringVar(&o.until, "until", "", "only entries before `T`")
		fl.StringVar(&o.f.Decision, "decision", "", "only entries with decision `D`")
		fl.IntVar(&o.f.Limit, "limit", 50, "entries per page")
		fl.StringVar(&o.f.Cursor, "page", "", "the page `CURSOR` a previous list printed")
		fl.BoolVar(&o.json, "json", false, "print the entries as JSON")
		return func(ctx context.Context, x *invocation) int {
			o.journal = *journalPath
			return historyList(ctx, x, o)
		}
	},
}

// listOptions are the flags of deskctl history list.
type listOptions struct {
	f                           journal.Filter // but File, Since and Until: from file, since, until
	journal, file, since, until string
	json                        bool
}

// historyList implements `deskctl history list`.
func historyList(ctx context.Context, x *invocation, o listOptions) int {
	if len(x.args) != 0 {
		return x.usageError("unexpected argument %q; filters are flags, e.g. --file %s", x.args[0], x.args[0])
	}
	f := o.f
	now := time.Now()
	for _, t := range []struct {
		in  string
		out *time.Time
	}{{o.since, &f.Since}, {o.until, &f.Until}} {
		if t.in == "" {
			continue
		}
		var err error
		if *t.out, err = parseSince(t.in, now); err != nil {
			return x.usageError("%v", err)
		}
	}
	if o.file != "" {
		abs, err := filepath.Abs(o.file)
		if err != nil {
			return x.fail(err)
		}
		f.File = abs
	}
	j, err := openHistoryJournal(ctx, o.journal)
	if err != nil {
		return x.fail(err)
	}
	defer j.Close()
	page, err := j.History(ctx, f)
	if err != nil {
		return x.fail(err)
	}
	if o.json {
		writeJSON(x.stdout, historyPageJSON(page))
		return 0
	}
	if len(page.Entries) == 0 {
		fmt.Fprintln(x.stdout, "no history matches")
		return 0
	}
	for _, e := range page.Entries {
		fmt.Fprintln(x.stdout, historyLine(e))
	}
	if page.Next != "" {
		fmt.Fprintf(x.stdout, "… more: add --page %s\n", page.Next)
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
	who := review.Printable(e.Agent)
	if e.Session != "" {
		who += "/" + review.Printable(e.Session)
	}
	line := fmt.Sprintf("%-7s %s  %-24s %-18s %s", e.Ref, e.Time.Local().Format("2006-01-02 15:04:05"),
		who, what, strings.Join(files, ", "))
	if e.Feedback != "" {
		line += "  — " + review.PrintableText(oneLine(e.Feedback))
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
	ID           string           `json:"id"`
	Kind         string           `json:"kind"`
	Time         time.Time        `json:"time"`
	Agent        string           `json:"agent"`
	Session      string           `json:"session"`
	ProposalID   string           `json:"proposalId,omitempty"`
	Decision     decision.Verdict `json:"decision,omitempty"`
	Feedback     string           `json:"feedback,omitempty"`
	RestoredFrom int64            `json:"restoredFrom,omitempty"`
	Note         string           `json:"note,omitempty"`
	State        string           `json:"state,omitempty"`
	Files        []string         `json:"files"`
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
