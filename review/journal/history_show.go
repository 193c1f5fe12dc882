package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/diffdesk/diffdesk/review/decision"
)

// Detail is everything the journal holds about one history entry:
// the proposal as the agent sent it, the decision, and each file at every
// stage.
type Detail struct {
	Entry
	Format  string   // the proposal's engine edit format; "" for a restore
	Payload []byte   // the edit as the agent sent it; nil for a restore
	Hunks   []string // accepted hunk ids of a partial approval
	// Comments are the person's line comments on the proposal, kept with
	// the decision; none in a journal older than comments.
	Comments []decision.Comment
	// Seen says per hunk whether the person had it on screen before
	// deciding; nil when not tracked (or a journal older than that).
	Seen []decision.HunkSeen
	// DecidedBy is who decided ("user@host", or the rule: DecidedByRule);
	// "" when no one did or the journal is older than that.
	DecidedBy string
	// DecidedByRule says DecidedBy names a rule, not a person.
	DecidedByRule bool
	Outcome       json.RawMessage // the outcome the agent was told; nil if none was recorded
	Files         []DetailFile
}

// DetailFile is one file of a history entry at each stage. Every field
// but Path, Root, Deleted and State is a blob hash (read it with
// Journal.Blob); "" means no file at that stage, or a stage this entry did
// not have (a restore has no proposal; a rejected proposal was not
// written).
type DetailFile struct {
	Path      string
	Root      string
	Base      string     // when the proposal arrived
	Proposed  string     // what the agent proposed
	Approved  string     // what the person approved: Proposed with their edits and hunk choices
	Deleted   bool       // the approved change (or restore) deletes the file
	Before    string     // on disk just before the write
	After     string     // what the desk wrote (the formatter's output when one ran)
	Formatted string     // the formatter's output; "" when none ran or it changed nothing
	Final     string     // on disk when the write settled
	State     WriteState // the write's state for this file; "" for a decision entry
}

// Detail returns the entry ref names with its files at every stage.
// An unknown ref gives an error wrapping ErrNotJournaled.
func (j *Journal) Detail(ctx context.Context, ref Ref) (Detail, error) {
	var d Detail
	d.Ref = ref
	var decisionID sql.NullInt64
	if id := ref.Checkpoint(); id != 0 {
		cp, err := j.Checkpoint(ctx, id)
		if err != nil {
			return d, err
		}
		d.Kind, d.Time, d.Agent, d.Session = cp.Kind, cp.Created, cp.Agent, cp.Session
		d.ProposalID, d.Decision, d.RestoredFrom, d.Note, d.State = cp.ProposalID, cp.Decision, cp.RestoredFrom, cp.Note, cp.State
		for _, f := range cp.Files {
			d.Paths = append(d.Paths, f.Path)
			d.Files = append(d.Files, DetailFile{Path: f.Path, Root: f.Root, Before: f.Before, After: f.After,
				Deleted: f.After == "", Formatted: f.Formatted, Final: f.Final, State: f.State})
		}
		if cp.ProposalID == "" {
			return d, nil
		}
		if err := j.db.QueryRowContext(ctx, `SELECT decision_id FROM checkpoints WHERE id = ?`, id).Scan(&decisionID); err != nil {
			return d, fmt.Errorf("journal %s: read checkpoint %d: %w", j.path, id, err)
		}
	} else {
		decisionID = sql.NullInt64{Int64: ref.Decision(), Valid: true}
		d.Kind = EntryDecision
		var t int64
		err := j.db.QueryRowContext(ctx, `SELECT d.proposal_id, d.time, p.agent, p.session FROM decisions d
			JOIN proposals p ON p.id = d.proposal_id WHERE d.id = ?`, decisionID.Int64).Scan(&d.ProposalID, &t, &d.Agent, &d.Session)
		if errors.Is(err, sql.ErrNoRows) {
			return d, fmt.Errorf("journal %s: history entry %s: %w", j.path, ref, ErrNotJournaled)
		}
		if err != nil {
			return d, fmt.Errorf("journal %s: read history entry %s: %w", j.path, ref, err)
		}
		d.Time = time.Unix(0, t)
	}
	if err := j.proposalDetail(ctx, &d, decisionID); err != nil {
		return d, err
	}
	return d, nil
}

// proposalDetail fills in d's proposal, decision and outcome, and the
// proposal's and decision's content of each file.
func (j *Journal) proposalDetail(ctx context.Context, d *Detail, decisionID sql.NullInt64) error {
	fail := func(err error) error {
		return fmt.Errorf("journal %s: read proposal %s of history entry %s: %w", j.path, d.ProposalID, d.Ref, err)
	}
	var payload sql.NullString
	if err := j.db.QueryRowContext(ctx, `SELECT format, payload FROM proposals WHERE id = ?`, d.ProposalID).Scan(&d.Format, &payload); err != nil {
		return fail(err)
	}
	if payload.Valid {
		content, err := j.Blob(ctx, payload.String)
		if err != nil {
			return err
		}
		d.Payload = content
	}
	if decisionID.Valid {
		var hunks, comments string
		var seen sql.NullString
		if err := j.db.QueryRowContext(ctx, `SELECT decision, feedback, hunks, comments, seen, decided_by, decided_by_rule FROM decisions WHERE id = ?`, decisionID.Int64).
			Scan(&d.Decision, &d.Feedback, &hunks, &comments, &seen, &d.DecidedBy, &d.DecidedByRule); err != nil {
			return fail(err)
		}
		if err := json.Unmarshal([]byte(hunks), &d.Hunks); err != nil {
			return fail(err)
		}
		if err := json.Unmarshal([]byte(comments), &d.Comments); err != nil {
			return fail(fmt.Errorf("comments: %w", err))
		}
		if seen.Valid {
			if err := json.Unmarshal([]byte(seen.String), &d.Seen); err != nil {
				return fail(fmt.Errorf("seen: %w", err))
			}
			if d.Seen == nil {
				d.Seen = []decision.HunkSeen{}
			}
		}
	}
	var outcome sql.NullString
	if err := j.db.QueryRowContext(ctx, `SELECT json FROM outcomes WHERE proposal_id = ?`, d.ProposalID).Scan(&outcome); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fail(err)
	}
	if outcome.Valid {
		d.Outcome = json.RawMessage(outcome.String)
	}
	rows, err := j.db.QueryContext(ctx, `SELECT pf.path, pf.root, coalesce(pf.base, ''), coalesce(pf.proposed, ''),
		coalesce(df.approved, ''), df.path IS NOT NULL AND df.approved IS NULL
		FROM proposal_files pf LEFT JOIN decision_files df ON df.decision_id = ? AND df.path = pf.path
		WHERE pf.proposal_id = ? ORDER BY pf.rowid`, decisionID, d.ProposalID)
	if err != nil {
		return fail(err)
	}
	defer rows.Close()
	for rows.Next() {
		var f DetailFile
		if err := rows.Scan(&f.Path, &f.Root, &f.Base, &f.Proposed, &f.Approved, &f.Deleted); err != nil {
			return fail(err)
		}
		d.mergeFile(f)
	}
	return rows.Err()
}

// mergeFile adds a proposal file's stages to d's file of the same path,
// or appends it when the entry has no such file (a decision entry).
func (d *Detail) mergeFile(f DetailFile) {
	for i := range d.Files {
		if d.Files[i].Path == f.Path {
			d.Files[i].Base, d.Files[i].Proposed, d.Files[i].Approved = f.Base, f.Proposed, f.Approved
			return
		}
	}
	d.Files = append(d.Files, f)
	d.Paths = append(d.Paths, f.Path)
}
