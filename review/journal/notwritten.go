package journal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/diffdesk/diffdesk/review/decision"
)

// ErrNoAgentApproval is wrapped by NotWritten's refusal: the proposal's
// latest decision is not an approval its agent was to write itself.
var ErrNoAgentApproval = errors.New("no approval the agent writes itself")

// NotWritten records that the approval of proposal id, which its agent was
// to write itself (the desk wrote nothing: the decision has no
// checkpoint), did not reach the disk: the decision's verdict becomes
// Failed, its feedback why (the caller's words, which keep the person's
// note), and the proposal's status failed. The history then says what happened, not
// "approved". A proposal whose latest decision is not such an approval is
// refused with an error wrapping ErrNoAgentApproval.
func (j *Journal) NotWritten(ctx context.Context, id, why string) error {
	return j.write(ctx, "record that the approval of "+id+" was not written", func(tx *sql.Tx) error {
		var dec int64
		var verdict string
		err := tx.QueryRow(`SELECT id, decision FROM decisions WHERE proposal_id = ? ORDER BY id DESC LIMIT 1`, id).Scan(&dec, &verdict)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("proposal %s has no decision: %w", id, ErrNoAgentApproval)
		}
		if err != nil {
			return err
		}
		if !decision.Verdict(verdict).Wrote() {
			return fmt.Errorf("proposal %s ended %s: %w", id, verdict, ErrNoAgentApproval)
		}
		var written bool
		if err := tx.QueryRow(`SELECT EXISTS (SELECT 1 FROM checkpoints WHERE decision_id = ?)`, dec).Scan(&written); err != nil {
			return err
		}
		if written {
			return fmt.Errorf("proposal %s was written by the desk: %w", id, ErrNoAgentApproval)
		}
		if _, err := tx.Exec(`UPDATE decisions SET decision = ?, feedback = ? WHERE id = ?`, decision.Failed, why, dec); err != nil {
			return err
		}
		return setProposalStatus(tx, id, string(decision.Failed), why)
	})
}
