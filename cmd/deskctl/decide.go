package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/deskrpc"
)

var decideCmd = &command{
	name:  "decide",
	usage: "ID approve|reject [flags] | --changeset KEY approve|reject",
	short: "decide a waiting proposal as a reviewer, with a reason and line comments",
	long: `Decide proposal ID (see deskctl status) as a reviewer: approve writes it as proposed, reject
writes nothing. The agent reads the reason (--feedback) and each comment with the lines it is on.

A comment is PATH:SIDE:LINE[-END]:TEXT, e.g. --comment 'src/app.go:new:12-14:use the helper'.
PATH is a file of the proposal, absolute or relative to its workspace root; SIDE is old (the file
before the proposal) or new (the proposal as the agent sent it); lines count from 1; TEXT is the
rest, colons and all. --comments FILE reads more as a JSON array of
{"path","side","line","endLine","text"} ("-": standard input).

With --changeset KEY (deskctl status --json names each proposal's changeset: the proposals of
one agent session and turn) it approves, or rejects with the one --feedback, every waiting
proposal of the changeset, each on its own, and prints each one's status; an approval leaves
stale and streaming proposals waiting, and says so.

It prints what the agent reads (--json: the outcome); for a proposal from an IDE door, which
tells the agent only the verdict and the final text, it says so on stderr. Exit status: 0
decided, 1 error (a bad comment names itself, and nothing is decided), 2 usage.`,
	flags: func(fl *flag.FlagSet) runFunc {
		var o decideOptions
		o.socket = socketFlag(fl)
		fl.StringVar(&o.feedback, "feedback", "", "the reason or note `TEXT` the agent reads")
		fl.Var(&o.comments, "comment", "a comment on lines: `PATH:SIDE:LINE[-END]:TEXT` (repeatable)")
		fl.StringVar(&o.commentsFile, "comments", "", "read comments as a JSON array from `FILE` (- for standard input)")
		fl.BoolVar(&o.json, "json", false, "print the outcome as JSON (a file's finalContent only where it is not what the agent proposed)")
		fl.BoolVar(&o.finalContent, "final-content", false, "with --json: every file's finalContent, also where it is exactly what the agent proposed")
		fl.StringVar(&o.changeset, "changeset", "", "decide every waiting proposal of changeset `KEY` (approve or reject only)")
		return func(ctx context.Context, x *invocation) int { return runDecide(ctx, x, o) }
	},
}

// decideOptions are the flags of deskctl decide.
type decideOptions struct {
	socket       *string
	feedback     string
	comments     stringList
	commentsFile string
	json         bool
	finalContent bool
	changeset    string
}

// final is the finalContent param --final-content asks for.
func (o decideOptions) final() string {
	if o.finalContent {
		return finalAll
	}
	return finalChanged
}

// runDecide implements `deskctl decide ID approve|reject`.
func runDecide(ctx context.Context, x *invocation, o decideOptions) int {
	if o.changeset != "" {
		return runDecideChangeset(ctx, x, o)
	}
	if len(x.args) != 2 || x.args[1] != "approve" && x.args[1] != "reject" {
		return x.usageError("want a proposal ID and approve or reject")
	}
	comments, err := readComments(o.comments, o.commentsFile, x.stdin)
	if err != nil {
		return x.usageError("%v", err)
	}
	cl, err := dialReviewer(ctx, *o.socket)
	if err != nil {
		return x.fail(err)
	}
	defer cl.Close()
	door, _ := cl.Get(ctx, x.args[0], "") // an unknown id is decide's to report
	var res proposeResult
	params := map[string]any{"id": x.args[0], "decision": x.args[1], "feedback": o.feedback, "comments": comments, "finalContent": o.final()}
	if err := cl.Call(ctx, "decide", params, &res); err != nil {
		return x.fail(err)
	}
	if res.Outcome == nil {
		return x.fail(fmt.Errorf("the desk answered without an outcome (state %s)", res.State))
	}
	if o.json {
		writeJSON(x.stdout, res.Outcome)
	} else {
		io.WriteString(x.stdout, review.PrintableText(res.Text)) // feedback and failures quote others' text
	}
	if door.VerdictOnly {
		fmt.Fprintf(x.stderr, "deskctl: %s proposed this through its IDE door, which tells it only the verdict and the final text: it does not read the text above; the reason and comments are kept in the history\n", door.Agent)
	}
	return 0
}

// commentFlag is --comment's PATH:SIDE:LINE[-END]:TEXT; the path is the
// shortest prefix followed by a side and lines, so TEXT may hold colons.
var commentFlag = regexp.MustCompile(`(?s)^(.+?):(old|new):([0-9]+)(?:-([0-9]+))?:(.*)$`)

// readComments gathers the comments of --comment flags and of the
// --comments JSON file ("-": stdin).
func readComments(flags []string, file string, stdin io.Reader) ([]decision.Comment, error) {
	var out []decision.Comment
	if file != "" {
		var b []byte
		var err error
		if file == "-" {
			b, err = io.ReadAll(stdin)
		} else {
			b, err = os.ReadFile(file)
		}
		if err != nil {
			return nil, fmt.Errorf("--comments: %w", err)
		}
		if err := json.Unmarshal(b, &out); err != nil {
			return nil, fmt.Errorf("--comments %s: not a JSON array of {\"path\",\"side\",\"line\",\"endLine\",\"text\"}: %v", file, err)
		}
	}
	for _, f := range flags {
		m := commentFlag.FindStringSubmatch(f)
		if m == nil {
			return nil, fmt.Errorf("--comment %q: want PATH:SIDE:LINE[-END]:TEXT, SIDE old or new, e.g. src/app.go:new:12-14:use the helper", f)
		}
		c := decision.Comment{Path: m[1], Side: decision.Side(m[2]), Text: m[5]}
		c.Line, _ = strconv.Atoi(m[3])
		if m[4] != "" {
			c.EndLine, _ = strconv.Atoi(m[4])
		}
		out = append(out, c)
	}
	return out, nil
}

// runDecideChangeset implements `deskctl decide --changeset KEY approve|reject`.
func runDecideChangeset(ctx context.Context, x *invocation, o decideOptions) int {
	if len(x.args) != 1 || x.args[0] != "approve" && x.args[0] != "reject" {
		return x.usageError("with --changeset, want approve or reject (and no proposal ID)")
	}
	if len(o.comments) > 0 || o.commentsFile != "" {
		return x.usageError("comments are on lines of one proposal: decide it on its own (deskctl decide ID …)")
	}
	cl, err := dialReviewer(ctx, *o.socket)
	if err != nil {
		return x.fail(err)
	}
	defer cl.Close()
	var res review.ChangesetResult
	params := map[string]any{"changeset": o.changeset, "decision": x.args[0], "feedback": o.feedback, "finalContent": o.final()}
	if err := cl.Call(ctx, "decideChangeset", params, &res); err != nil {
		return x.fail(err)
	}
	if o.json {
		writeJSON(x.stdout, res)
		return 0
	}
	for _, oc := range res.Decided {
		fmt.Fprintf(x.stdout, "%s  %s\n", oc.ID, oc.Status)
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(x.stdout, "%s  left waiting: %s\n", s.ID, review.PrintableText(s.Reason))
	}
	if len(res.Decided)+len(res.Skipped) == 0 {
		fmt.Fprintf(x.stdout, "Nothing in changeset %s waits for a decision.\n", o.changeset)
	}
	return 0
}

// dialReviewer connects to the desk at socket as a reviewer.
func dialReviewer(ctx context.Context, socket string) (*deskrpc.Client, error) {
	cl, err := deskrpc.Dial(socket)
	if err != nil {
		return nil, err
	}
	if err := cl.Call(ctx, "hello", map[string]any{"protocol": deskrpc.ProtocolVersion, "agent": "deskctl", "role": "reviewer"}, nil); err != nil {
		cl.Close()
		return nil, err
	}
	return cl, nil
}
