package review_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/diffdesk/diffdesk/engine"
	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/agenttext"
	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/diffdesk/diffdesk/review/config"
	"github.com/diffdesk/diffdesk/review/decision"
	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/review/reviewtest"
	"pgregory.net/rapid"
)

// TestDeskModel drives the desk with random sequences of proposals (every
// format; the native door, a door whose agent writes its files, a stream),
// chunks, finishes, withdrawals, changes made on disk by someone else,
// decisions (approve, approve-edited, partial, reject, overwrite) from the
// window's path and from a protocol reviewer, restarts and restores, and
// checks after every step against a small reference model (deskModel):
// the disk holds only the base, what a reviewer approved (merged where
// stale, formatted where a formatter runs) or an explicit overwrite; every
// checkpoint restores what it recorded; the outcome's status and the
// sentences of the agent's text say what the model says happened.
//
// rapid generates and shrinks the sequences. CI runs modelChecks sequences
// from a fixed seed; DESKMODEL_SEED replays one seed, DESKMODEL_CHECKS and
// DESKMODEL_STEPS run more or longer ones (docs/dev.md).
func TestDeskModel(t *testing.T) {
	if testing.Short() {
		t.Skip("the model-based test takes a while")
	}
	setRapidFlag(t, "rapid.seed", "DESKMODEL_SEED", "20261128")
	setRapidFlag(t, "rapid.checks", "DESKMODEL_CHECKS", fmt.Sprint(modelChecks))
	setRapidFlag(t, "rapid.steps", "DESKMODEL_STEPS", "40")
	setRapidFlag(t, "rapid.nofailfile", "", "true")
	t.Logf("seed %s, %s sequences (replay one: DESKMODEL_SEED=N go test -run TestDeskModel ./review)",
		flag.Lookup("rapid.seed").Value, flag.Lookup("rapid.checks").Value)
	rapid.Check(t, func(rt *rapid.T) {
		m := newDeskModel(t, rt)
		defer m.close()
		rt.Repeat(m.actions())
	})
}

// setRapidFlag sets one of rapid's flags from env, else to def when the
// command line left it at rapid's default.
func setRapidFlag(t *testing.T, name, env, def string) {
	v := def
	if s := os.Getenv(env); env != "" && s != "" {
		v = s
	} else if f := flag.Lookup(name); f.Value.String() != f.DefValue {
		return
	}
	if err := flag.Set(name, v); err != nil {
		t.Fatal(err)
	}
}

// The workspace's files: a.txt and b.txt exist, c.up is formatted (to
// upper case), n.txt is missing at first.
var modelFiles = []string{"a.txt", "b.txt", "c.up", "n.txt"}

const modelConfig = `[[formatter]]
glob = "*.up"
command = ["tr", "a-z", "A-Z"]
`

type deskModel struct {
	t    *testing.T
	rt   *rapid.T
	root string
	dir  string
	cfg  config.Config
	j    *journal.Journal
	d    *review.Desk
	rev  *deskrpc.Client // a reviewer over the protocol, on the desk's socket
	stop func()          // stops serving the socket

	disk map[string]*string // rel → content; nil: missing
	open map[string]*mprop  // id → an open proposal
	cps  []mcheckpoint      // every write and restore, as recorded
	tok  int                // the last token drawn: every line is unique
}

// mprop is an open proposal as the model expects it.
type mprop struct {
	id          string
	rel         string
	base        *string
	proposed    string // the text the desk must propose
	agentWrites bool
	streaming   bool
	rest        []string // chunks not yet sent
	bom         string   // FileOutcome.BOM when approved as proposed
	editEOL     bool     // the edit's line endings were not the file's
	delete      bool     // the proposal deletes the file
}

// mcheckpoint is one file of a checkpoint as the model recorded it.
type mcheckpoint struct {
	id            int64
	rel           string
	before, after *string
}

func newDeskModel(t *testing.T, rt *rapid.T) *deskModel {
	dir, err := os.MkdirTemp("", "deskmodel")
	if err != nil {
		rt.Fatal(err)
	}
	root := filepath.Join(dir, "w")
	if err := os.Mkdir(root, 0o755); err != nil {
		rt.Fatal(err)
	}
	root, _ = filepath.EvalSymlinks(root)
	m := &deskModel{t: t, rt: rt, root: root, dir: dir, disk: map[string]*string{}, open: map[string]*mprop{}}
	if err := os.WriteFile(filepath.Join(root, config.FileName), []byte(modelConfig), 0o644); err != nil {
		rt.Fatal(err)
	}
	if m.cfg, err = config.LoadTrusting("", []string{root}, func(string, string) bool { return true }); err != nil {
		rt.Fatal(err)
	}
	for _, rel := range modelFiles[:3] {
		f := mfile{bom: rapid.Bool().Draw(rt, "bom "+rel), eol: rapid.SampledFrom([]string{"\n", "\r\n"}).Draw(rt, "eol "+rel)}
		f.lines = []string{m.token(), m.token(), m.token()}
		m.writeDisk(rel, ptr(f.String()))
	}
	m.disk["n.txt"] = nil
	m.start()
	return m
}

func (m *deskModel) start() {
	j, err := journal.Open(context.Background(), filepath.Join(m.dir, "journal.db"))
	if err != nil {
		m.rt.Fatal(err)
	}
	if _, err := j.Recover(context.Background()); err != nil {
		m.rt.Fatal(err)
	}
	d, err := review.NewDesk(review.Options{FailureText: agenttext.Failure, Roots: []string{m.root}, Config: m.cfg, Journal: j})
	if err != nil {
		m.rt.Fatal(err)
	}
	m.j, m.d = j, d
	sock := filepath.Join(m.dir, "desk.sock")
	l, err := deskrpc.Listen(sock)
	if err != nil {
		m.rt.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- deskrpc.NewServer(d).Serve(ctx, l) }()
	if m.rev, err = deskrpc.Dial(sock); err != nil {
		m.rt.Fatal(err)
	}
	if err := m.rev.Call(ctx, "hello", map[string]any{"protocol": 1, "agent": "diffdesk", "session": "window", "role": "reviewer"}, nil); err != nil {
		m.rt.Fatal(err)
	}
	m.stop = func() {
		m.rev.Close()
		cancel()
		<-served
	}
}

// stopDesk closes the reviewer's connection, the desk and the journal.
func (m *deskModel) stopDesk() {
	m.stop()
	m.d.Close()
	m.j.Close()
}

func (m *deskModel) close() {
	m.stopDesk()
	os.RemoveAll(m.dir)
}

func (m *deskModel) token() string {
	m.tok++
	return fmt.Sprintf("t%d.", m.tok) // the full stop: no token is inside another
}

func (m *deskModel) path(rel string) string { return filepath.Join(m.root, rel) }

func (p *mprop) path(m *deskModel) string { return m.path(p.rel) }

func (m *deskModel) writeDisk(rel string, content *string) {
	m.disk[rel] = content
	if content == nil {
		os.Remove(m.path(rel))
		return
	}
	if err := os.WriteFile(m.path(rel), []byte(*content), 0o644); err != nil {
		m.rt.Fatal(err)
	}
}

func (m *deskModel) actions() map[string]func(*rapid.T) {
	return map[string]func(*rapid.T){
		"propose":       m.propose,
		"chunk":         m.chunk,
		"finish":        m.finish,
		"withdraw":      m.withdraw,
		"reject-stream": m.rejectStream,
		"disk":          m.someoneElse,
		"decide":        m.decide,
		"restart":       m.restart,
		"restore":       m.restore,
		"":              m.check,
	}
}

// check is the invariant after every step: the disk is the model's, and
// the desk holds exactly the model's open proposals.
func (m *deskModel) check(rt *rapid.T) {
	for rel, want := range m.disk {
		if got := readOrNil(m.path(rel)); !eqPtr(got, want) {
			rt.Fatalf("%s on disk is %s; the model says %s", rel, show(got), show(want))
		}
	}
	var ids []string
	for _, p := range m.d.List() {
		ids = append(ids, p.ID)
	}
	for id := range m.open {
		if !slices.Contains(ids, id) {
			rt.Fatalf("proposal %s is not open at the desk (open: %v)", id, ids)
		}
	}
	if len(ids) != len(m.open) {
		rt.Fatalf("the desk has %d open proposals %v; the model %d", len(ids), ids, len(m.open))
	}
}

// propose: an agent proposes an edit of one file, by a door.
func (m *deskModel) propose(rt *rapid.T) {
	rel := rapid.SampledFrom(modelFiles).Draw(rt, "file")
	base := m.disk[rel]
	formats := []engine.Format{engine.FormatWrite}
	if base != nil {
		formats = append(formats, engine.FormatSearchReplace, engine.FormatEdit, engine.FormatMultiEdit, engine.FormatSmartEdit, engine.FormatPatch, formatDelete)
	}
	format := rapid.SampledFrom(formats).Draw(rt, "format")
	if format == formatDelete {
		m.proposeDelete(rt, rel, base)
		return
	}
	if format == engine.FormatMultiEdit && len(decodeFile(*base).lines) < 2 {
		format = engine.FormatEdit // two edits need two lines
	}
	doors := []string{"native", "agent-writes"}
	if format == engine.FormatWrite || format == engine.FormatSearchReplace {
		doors = append(doors, "stream")
	}
	door := rapid.SampledFrom(doors).Draw(rt, "door")
	p := &mprop{rel: rel, base: base, agentWrites: door == "agent-writes"}
	payload := m.edit(rt, p, format)
	req := review.Request{Agent: "model", Session: "s", Format: format, Path: rel, Payload: payload, AgentWrites: p.agentWrites, VerdictOnly: p.agentWrites}
	if door == "stream" {
		req.Stream, req.Payload = true, ""
		p.streaming, p.rest = true, splitChunks(rt, payload)
	}
	got, err := m.d.Propose(context.Background(), req)
	if err != nil {
		rt.Fatalf("propose %s %s: %v", format, rel, err)
	}
	p.id = got.ID
	m.open[p.id] = p
	if !p.streaming {
		m.checkProposed(rt, p)
	}
}

// formatDelete stands for a patch that deletes the file.
const formatDelete engine.Format = "patch (delete)"

// proposeDelete: an agent's patch deletes the file.
func (m *deskModel) proposeDelete(rt *rapid.T, rel string, base *string) {
	p := &mprop{rel: rel, base: base, delete: true}
	got, err := m.d.Propose(context.Background(), review.Request{Agent: "model", Session: "s", Format: engine.FormatPatch,
		Payload: "*** Begin Patch\n*** Delete File: " + rel + "\n*** End Patch\n"})
	if err != nil {
		rt.Fatalf("propose deleting %s: %v", rel, err)
	}
	if len(got.Files) != 1 || !got.Files[0].Delete || got.State == review.StateFailed {
		rt.Fatalf("the desk proposes %+v; the model a deletion of %s", got, rel)
	}
	p.id = got.ID
	m.open[p.id] = p
}

// edit draws an edit of p's file in format, sets what the desk must
// propose, and returns the payload.
func (m *deskModel) edit(rt *rapid.T, p *mprop, format engine.Format) string {
	if format == engine.FormatWrite {
		lines := []string{m.token(), m.token()}
		if p.base != nil && rapid.Bool().Draw(rt, "keep a line") {
			lines = append(lines, decodeFile(*p.base).lines[0])
		}
		pbom := rapid.Bool().Draw(rt, "payload bom")
		peol := rapid.SampledFrom([]string{"\n", "\r\n"}).Draw(rt, "payload eol")
		target := mfile{eol: peol, lines: lines}
		if p.base != nil {
			f := decodeFile(*p.base)
			target.bom, target.eol = f.bom, f.eol
		}
		p.proposed = target.String()
		p.editEOL = peol != target.eol
		switch {
		case pbom && !target.bom:
			p.bom = "dropped"
		case !pbom && target.bom:
			p.bom = "kept"
		}
		return mfile{bom: pbom, eol: peol, lines: lines}.String()
	}
	f := decodeFile(*p.base)
	i := rapid.IntRange(0, len(f.lines)-1).Draw(rt, "line")
	old, repl := f.lines[i], m.token()
	out := f.clone()
	out.lines[i] = repl
	var payload string
	switch format {
	case engine.FormatSearchReplace:
		payload = reviewtest.SR(old+"\n", repl+"\n")
	case engine.FormatEdit:
		payload = mustJSON(map[string]any{"old_string": old, "new_string": repl})
	case engine.FormatSmartEdit:
		payload = mustJSON(map[string]any{"old_string": old, "new_string": repl, "instruction": "rename " + old})
	case engine.FormatMultiEdit:
		k := (i + 1) % len(f.lines)
		repl2 := m.token()
		out.lines[k] = repl2
		payload = mustJSON(map[string]any{"edits": []map[string]string{{"old_string": old, "new_string": repl}, {"old_string": f.lines[k], "new_string": repl2}}})
	case engine.FormatPatch:
		payload = "*** Begin Patch\n*** Update File: " + p.rel + "\n@@\n-" + old + "\n+" + repl + "\n*** End Patch\n"
	}
	p.proposed = out.String()
	// A payload with line breaks of its own has LF endings.
	p.editEOL = f.eol != "\n" && strings.Contains(payload, "\n") && !strings.HasPrefix(payload, "{")
	return payload
}

func (m *deskModel) checkProposed(rt *rapid.T, p *mprop) {
	got, ok := m.d.Get(p.id)
	if !ok || len(got.Files) != 1 {
		rt.Fatalf("proposal %s: %+v", p.id, got)
	}
	if got.State == review.StateFailed {
		rt.Fatalf("proposal %s of %s failed: %s", p.id, p.rel, agenttext.Failure(got.Failure))
	}
	if got.Files[0].Proposed != p.proposed {
		rt.Fatalf("the desk proposes %q for %s; the model %q", got.Files[0].Proposed, p.rel, p.proposed)
	}
}

func (m *deskModel) streamingProps(rest bool) []string {
	var ids []string
	for id, p := range m.open {
		if p.streaming && (len(p.rest) > 0) == rest {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// chunk: a streaming agent sends its next chunk.
func (m *deskModel) chunk(rt *rapid.T) {
	ids := m.streamingProps(true)
	if len(ids) == 0 {
		rt.Skip("no stream to send")
	}
	p := m.open[rapid.SampledFrom(ids).Draw(rt, "stream")]
	if err := m.d.Feed(p.id, p.rest[0]); err != nil {
		rt.Fatalf("feed %s: %v", p.id, err)
	}
	p.rest = p.rest[1:]
	// A reviewer over the protocol sees the text as far as it has come,
	// never an empty proposal deleting the file.
	det, err := m.rev.Get(context.Background(), p.id, "")
	if err != nil {
		rt.Fatalf("get %s mid-stream: %v", p.id, err)
	}
	if pr := det.Files[0].Proposed; pr == nil || *pr == "" && deref(p.base) != "" {
		rt.Fatalf("get %s mid-stream: proposed %s; want the text so far", p.id, show(pr))
	}
}

// rejectStream: the person rejects a proposal while it streams; the agent
// is told what it was rejected having seen, and nothing is written.
func (m *deskModel) rejectStream(rt *rapid.T) {
	ids := append(m.streamingProps(true), m.streamingProps(false)...)
	if len(ids) == 0 {
		rt.Skip("no stream")
	}
	slices.Sort(ids)
	p := m.open[rapid.SampledFrom(ids).Draw(rt, "stream")]
	o, err := m.d.Decide(context.Background(), p.id, review.Decision{Verdict: decision.Rejected})
	if err != nil {
		rt.Fatalf("reject %s mid-stream: %v", p.id, err)
	}
	if text := agenttext.Outcome(o); o.Status != decision.Rejected || !o.Unfinished || !strings.Contains(text, "while you were still sending it") || !strings.Contains(text, "nothing was written") {
		rt.Fatalf("rejected mid-stream: status %s, unfinished %v, text %q", o.Status, o.Unfinished, text)
	}
	delete(m.open, p.id)
}

// finish: a streaming agent has sent everything.
func (m *deskModel) finish(rt *rapid.T) {
	ids := m.streamingProps(false)
	if len(ids) == 0 {
		rt.Skip("no stream to finish")
	}
	p := m.open[rapid.SampledFrom(ids).Draw(rt, "stream")]
	if _, err := m.d.Finish(context.Background(), p.id); err != nil {
		rt.Fatalf("finish %s: %v", p.id, err)
	}
	p.streaming = false
	m.checkProposed(rt, p)
	m.awaitDisk(rt, p.rel)
}

func (m *deskModel) pick(rt *rapid.T, streaming bool) *mprop {
	var ids []string
	for id, p := range m.open {
		if streaming || !p.streaming {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		rt.Skip("nothing open")
	}
	slices.Sort(ids)
	return m.open[rapid.SampledFrom(ids).Draw(rt, "proposal")]
}

// withdraw: the agent cancels.
func (m *deskModel) withdraw(rt *rapid.T) {
	p := m.pick(rt, true)
	if err := m.d.Withdraw(context.Background(), p.id, "cancelled"); err != nil {
		rt.Fatalf("withdraw %s: %v", p.id, err)
	}
	o := reviewtest.WaitOutcome(m.t, m.d, p.id)
	if o.Status != decision.Withdrawn || strings.Contains(agenttext.Outcome(o), "applied") {
		rt.Fatalf("withdrawn: status %s, text %q", o.Status, agenttext.Outcome(o))
	}
	delete(m.open, p.id)
}

// someoneElse changes a file on disk (an editor, another tool).
func (m *deskModel) someoneElse(rt *rapid.T) {
	rel := rapid.SampledFrom(modelFiles).Draw(rt, "file")
	var next mfile
	if cur := m.disk[rel]; cur == nil {
		next = mfile{eol: "\n", lines: []string{m.token(), m.token()}}
	} else {
		next = decodeFile(*cur).clone()
		if rapid.Bool().Draw(rt, "append") {
			next.lines = append(next.lines, m.token())
		} else {
			next.lines[rapid.IntRange(0, len(next.lines)-1).Draw(rt, "line")] = m.token()
		}
	}
	m.writeDisk(rel, ptr(next.String()))
	m.awaitDisk(rt, rel)
}

// awaitDisk waits until the desk has seen the disk of rel as it is (its
// open proposals of it stale, or not), as a person looking at the window
// would.
func (m *deskModel) awaitDisk(rt *rapid.T, rel string) {
	deadline := time.Now().Add(10 * time.Second)
	for id, p := range m.open {
		if p.rel != rel || p.streaming { // a stream is compared once finished
			continue
		}
		for {
			q, ok := m.d.Get(id)
			if !ok {
				rt.Fatalf("proposal %s is gone", id)
			}
			f, cur := q.Files[0], m.disk[rel]
			stale := !eqPtr(cur, p.base)
			if f.Stale() == stale && (!stale || f.Disk.SHA256 == hashOf(cur)) {
				break
			}
			if time.Now().After(deadline) {
				rt.Fatalf("the desk did not see %s change on disk (proposal %s stale %v, disk %q)", rel, id, f.Stale(), f.Disk.Content)
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
}

// restart: the desk and its journal are closed and opened again; open
// proposals end with the desk (their agents must propose again).
func (m *deskModel) restart(rt *rapid.T) {
	m.stopDesk()
	m.open = map[string]*mprop{}
	m.start()
}

// restore: a checkpoint's file goes back, through the desk, to what it
// recorded before or after the checkpoint; the restore is a checkpoint too.
func (m *deskModel) restore(rt *rapid.T) {
	if len(m.cps) == 0 {
		rt.Skip("nothing journaled")
	}
	c := rapid.SampledFrom(m.cps).Draw(rt, "checkpoint")
	target := journal.RestoreBefore
	want := c.before
	if rapid.Bool().Draw(rt, "after") {
		target, want = journal.RestoreAfter, c.after
	}
	_, res, err := m.d.Restore(context.Background(), journal.RestoreRequest{Checkpoint: c.id, Target: target, Paths: []string{m.path(c.rel)}, Force: true}, true)
	if err != nil {
		rt.Fatalf("restore of %d: %v", c.id, err)
	}
	before := m.disk[c.rel]
	m.disk[c.rel] = want
	if res.Checkpoint != 0 {
		m.cps = append(m.cps, mcheckpoint{id: res.Checkpoint, rel: c.rel, before: before, after: want})
	}
	m.check(rt)
	m.awaitDisk(rt, c.rel)
}

// expectation is what a decision must do, as the model works it out.
type expectation struct {
	err      bool // the desk must refuse
	skip     bool // the window offers no such decision here
	status   decision.Verdict
	approved string // the approved text (before the formatter)
	final    string // what the file ends up holding
	merged   bool   // a stale file's merge
	over     bool   // written over someone's change
	edited   bool   // the person's own text
	crlf     bool   // the person's edit turned an LF file CRLF
	acc, all int    // hunks of a partial
}

// decide: the person in the window, or a reviewer over the protocol,
// decides an open proposal.
func (m *deskModel) decide(rt *rapid.T) {
	p := m.pick(rt, false)
	window := rapid.Bool().Draw(rt, "window")
	verdicts := []string{"approve", "approve-edited", "partial", "reject"}
	if !window {
		verdicts = append(verdicts, "overwrite")
	}
	verdict := rapid.SampledFrom(verdicts).Draw(rt, "verdict")
	q, _ := m.d.Get(p.id)
	f := q.Files[0]
	path := f.Path
	hunks := f.Hunks()
	diskHash := f.Disk.SHA256
	if !window { // the reviewer reads what it decides over the protocol
		det, err := m.rev.Get(context.Background(), p.id, "")
		if err != nil {
			rt.Fatalf("get %s: %v", p.id, err)
		}
		wf := det.Files[0]
		diskHash = ""
		if wf.Disk != nil {
			diskHash = wf.Disk.SHA256
		}
		hunks = hunks[:0:0]
		for _, h := range wf.Hunks {
			hunks = append(hunks, engine.Hunk{ID: h.ID})
		}
	}
	cur := m.disk[p.rel]
	stale := !eqPtr(cur, p.base)
	var dec review.Decision
	var exp expectation
	merge := engine.MergeResult{Text: p.proposed}
	if stale {
		merge = engine.Merge3(deref(p.base), deref(cur), p.proposed, engine.MergeLabels{})
		dec.Overwrite = map[string]string{path: diskHash}
	}
	conflicted := len(merge.Conflicts) > 0
	if mixed(merge.Text) {
		rt.Skip("a merge of texts with different line endings: beyond the model")
	}
	switch verdict {
	case "reject":
		dec.Verdict, exp.status = decision.Rejected, decision.Rejected
		dec.Overwrite = nil
	case "approve":
		dec.Verdict, exp.status, exp.approved, exp.merged = decision.Approved, decision.Approved, merge.Text, stale
		exp.err = conflicted || stale && p.delete
		if window && stale { // ApproveMerged: the merge as the window's edit
			exp.skip = conflicted
			dec.Verdict, dec.Edited = decision.ApprovedEdited, map[string]string{path: merge.Text}
		}
	case "approve-edited":
		if conflicted || p.delete && window {
			exp.skip = true // the person resolves conflicts first; a deletion has no text to edit
			break
		}
		start := decodeFile(merge.Text)
		ed := start.clone()
		ed.lines = append(ed.lines, m.token())
		edited := ed.String()
		text := mfile{eol: "\n", lines: ed.lines}.String() // as the editor gives it
		if !start.bom && start.eol == "\n" && rapid.Bool().Draw(rt, "crlf edit") {
			ed.eol = "\r\n"
			edited, text, exp.crlf = ed.String(), ed.String(), true
		}
		dec.Verdict, dec.Edited = decision.ApprovedEdited, map[string]string{path: text}
		exp.status, exp.approved, exp.edited, exp.merged = decision.ApprovedEdited, edited, true, stale
		exp.err = p.delete
	case "partial":
		if window && stale {
			exp.skip = true // the window ticks hunks only of a file that did not change
			break
		}
		var ticked []string
		for i, h := range hunks {
			if rapid.Bool().Draw(rt, fmt.Sprintf("tick %d", i)) {
				ticked = append(ticked, h.ID)
			}
		}
		dec.Verdict, dec.Hunks = decision.Partial, map[string][]string{path: ticked}
		exp.acc, exp.all = len(ticked), len(hunks)
		text := engine.ApplyHunks(deref(p.base), p.proposed, func(id string) bool { return slices.Contains(ticked, id) })
		exp.approved, exp.merged = text, stale
		if stale {
			mm := engine.Merge3(deref(p.base), deref(cur), text, engine.MergeLabels{})
			exp.approved, exp.err = mm.Text, len(mm.Conflicts) > 0 || p.delete
		}
		switch {
		case len(ticked) == 0:
			exp = expectation{status: decision.Rejected}
		case len(ticked) == len(hunks):
			exp.status = decision.Approved
		default:
			exp.status = decision.Partial
		}
	case "overwrite":
		dec.Verdict, exp.status, exp.approved, exp.over = decision.Overwritten, decision.Overwritten, p.proposed, true
		exp.err = !stale
	}
	if exp.skip {
		rt.Skip("the window offers no such decision")
	}
	exp.final = exp.approved
	if strings.HasSuffix(p.rel, ".up") {
		exp.final = strings.ToUpper(exp.approved)
	}
	var o review.Outcome
	var text string
	var err error
	if window {
		if o, err = m.d.Decide(context.Background(), p.id, dec); err == nil {
			text = agenttext.Outcome(o)
		}
	} else {
		o, text, err = m.protocolDecide(p.id, verdict, dec)
	}
	if exp.err {
		if err == nil {
			rt.Fatalf("%s (window %v) of %s (stale %v, conflicts %d, deletion %v) succeeded: status %s, wrote %s", verdict, window, p.rel, stale, len(merge.Conflicts), p.delete, o.Status, show(readOrNil(m.path(p.rel))))
		}
		return
	}
	if err != nil {
		rt.Fatalf("%s (window %v) of %s: %v", verdict, window, p.rel, err)
	}
	delete(m.open, p.id)
	if o.Status != exp.status {
		rt.Fatalf("%s (window %v) of %s: status %s; the model says %s", verdict, window, p.rel, o.Status, exp.status)
	}
	if exp.status != decision.Rejected {
		m.wrote(rt, p, o, exp, cur)
	}
	m.checkText(rt, p, o, text, exp, stale)
}

// protocolDecide sends dec as a reviewer's decide over the socket, as
// verdict ("approve", "partial", "overwrite", …).
func (m *deskModel) protocolDecide(id, verdict string, dec review.Decision) (review.Outcome, string, error) {
	var res struct {
		Text    string         `json:"text"`
		Outcome review.Outcome `json:"outcome"`
	}
	err := m.rev.Call(context.Background(), "decide", map[string]any{"id": id, "decision": verdict,
		"edited": dec.Edited, "hunks": dec.Hunks, "overwrite": dec.Overwrite,
		"finalContent": "all"}, &res) // the model checks every final text (deskrpc's TestOutcomeCarriesFinalTextOnlyWhereItDiffers: which are sent by default)
	return res.Outcome, res.Text, err
}

// wrote checks a written decision's file, checkpoint and journal, and
// for an agent that writes its files, writes it as that agent would.
func (m *deskModel) wrote(rt *rapid.T, p *mprop, o review.Outcome, exp expectation, cur *string) {
	fo := o.Files[0]
	final := ptr(exp.final)
	if p.delete {
		final = nil
		if !fo.Deleted {
			rt.Fatalf("%s: not deleted", p.rel)
		}
	} else if fo.FinalContent != exp.final {
		rt.Fatalf("%s: final content %q; the model says %q", p.rel, fo.FinalContent, exp.final)
	}
	if p.agentWrites {
		if o.Checkpoint != 0 || fo.Written {
			rt.Fatalf("%s: the agent writes it, but the desk says written %v, checkpoint %d", p.rel, fo.Written, o.Checkpoint)
		}
		m.writeDisk(p.rel, final) // the agent writes it
		m.awaitDisk(rt, p.rel)
		return
	}
	m.disk[p.rel] = final
	cp, err := m.j.Checkpoint(context.Background(), o.Checkpoint)
	if err != nil {
		rt.Fatalf("checkpoint %d: %v", o.Checkpoint, err)
	}
	if len(cp.Files) != 1 || cp.Files[0].Before != hashOf(cur) || cp.Files[0].Final != hashOf(final) || cp.Decision != o.Status {
		rt.Fatalf("checkpoint %d: %+v; want before %s, final %s, decision %s", o.Checkpoint, cp, hashOf(cur), hashOf(final), o.Status)
	}
	m.cps = append(m.cps, mcheckpoint{id: o.Checkpoint, rel: p.rel, before: cur, after: final})
	m.awaitDisk(rt, p.rel)
}

// checkText checks the agent's text sentence by sentence against what
// the model says happened.
func (m *deskModel) checkText(rt *rapid.T, p *mprop, o review.Outcome, text string, exp expectation, stale bool) {
	if text != agenttext.Outcome(o) {
		rt.Fatalf("the agent reads %q; its outcome says %q", text, agenttext.Outcome(o))
	}
	fail := func(why string) {
		rt.Fatalf("%s (%s of %s): %s; the agent reads:\n%s", o.Status, p.id, p.rel, why, text)
	}
	has := func(s string) bool { return strings.Contains(text, s) }
	if exp.status == decision.Rejected {
		if !has("nothing was written") || has("applied") || has("saved") {
			fail("a rejection must say nothing was written")
		}
		return
	}
	fo := o.Files[0]
	if p.delete {
		if !has(p.path(m)+" was deleted") && !has("the file was deleted") {
			fail("the deletion is not said")
		}
		if exp.over != has("overwrite their change") {
			fail("an overwrite must be said, and only an overwrite")
		}
		return
	}
	asProposed := !exp.merged && !exp.over && !exp.edited && exp.status == decision.Approved && exp.final == p.proposed
	exactly := has("exactly the content you proposed")
	switch {
	case p.agentWrites:
		if has("now has") || has("has been applied") || !has("did not write") {
			fail("the desk did not write the file")
		}
	case exactly && (!asProposed || p.bom != "" || p.editEOL):
		fail(`"exactly the content you proposed" is not true`)
	case asProposed && p.bom == "" && !p.editEOL && !exactly:
		fail("the file holds exactly what was proposed")
	}
	if exp.final == p.proposed && !exp.edited && !exp.merged && fo.BOM != p.bom {
		fail(fmt.Sprintf("bom %q; the model says %q", fo.BOM, p.bom))
	}
	if fo.BOM != "" && !has("byte order mark") {
		fail("the byte order mark is not said")
	}
	if exp.over != has("overwrite their change") {
		fail("an overwrite must be said, and only an overwrite")
	}
	if exp.merged && !exp.over && !has("merged into their change") {
		fail("the merge is not said")
	}
	if !stale && has("Someone else changed") {
		fail("no one else changed the file")
	}
	if has("changes made by the person") && !exp.edited {
		fail("the person made no changes")
	}
	if exp.edited && !exp.merged && !has("changes made by the person") {
		fail("the person's changes are not said")
	}
	if exp.crlf && (fo.LineEndings == nil || !has("changed the line endings")) {
		fail("the person's change of line endings is not said")
	}
	if exp.status == decision.Partial && !has(fmt.Sprintf("accepted %d of %d hunks", exp.acc, exp.all)) {
		fail("the hunks kept are not counted")
	}
	if exp.status != decision.Partial && has("Only part") {
		fail("the whole edit was kept")
	}
	if strings.HasSuffix(p.rel, ".up") && exp.final != exp.approved && !has("reformatted automatically") {
		fail("the formatter's change is not said")
	}
}

// A file's text as the model writes it: every line ends with eol.
type mfile struct {
	bom   bool
	eol   string
	lines []string
}

func (f mfile) String() string {
	var b strings.Builder
	if f.bom {
		b.WriteString("\uFEFF")
	}
	for _, l := range f.lines {
		b.WriteString(l + f.eol)
	}
	return b.String()
}

func (f mfile) clone() mfile { f.lines = slices.Clone(f.lines); return f }

// decodeFile reads a text the model wrote (one kind of line ending).
func decodeFile(s string) mfile {
	f := mfile{eol: "\n"}
	if t, ok := strings.CutPrefix(s, "\uFEFF"); ok {
		f.bom, s = true, t
	}
	if strings.Contains(s, "\r\n") {
		f.eol = "\r\n"
	}
	f.lines = strings.Split(strings.TrimSuffix(s, f.eol), f.eol)
	return f
}

// mixed reports whether s has both CRLF and LF line endings.
func mixed(s string) bool {
	crlf := strings.Count(s, "\r\n")
	return crlf > 0 && strings.Count(s, "\n") > crlf
}

func splitChunks(rt *rapid.T, payload string) []string {
	n := rapid.IntRange(1, 3).Draw(rt, "chunks")
	var out []string
	for i := 1; i < n && len(payload) > 1; i++ {
		at := rapid.IntRange(1, len(payload)-1).Draw(rt, "cut")
		out, payload = append(out, payload[:at]), payload[at:]
	}
	return append(out, payload)
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func ptr(s string) *string { return &s }

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func eqPtr(a, b *string) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

func show(s *string) string {
	if s == nil {
		return "missing"
	}
	return fmt.Sprintf("%q", *s)
}

func hashOf(s *string) string {
	if s == nil {
		return ""
	}
	return atomicfile.Hash([]byte(*s))
}

func readOrNil(path string) *string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return ptr(string(b))
}
