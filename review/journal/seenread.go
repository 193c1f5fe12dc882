package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// SeenOf returns decision id's seen record (HunkSeen, one per hunk), nil
// when nobody tracked what was on screen; without reading the proposal's
// texts (the History tab asks it for the entry selected). An unknown
// decision gives an error wrapping ErrNotJournaled.
func (j *Journal) SeenOf(ctx context.Context, id int64) ([]HunkSeen, error) {
	var seen sql.NullString
	err := j.db.QueryRowContext(ctx, `SELECT seen FROM decisions WHERE id = ?`, id).Scan(&seen)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("journal %s: decision %d: %w", j.path, id, ErrNotJournaled)
	}
	if err != nil {
		return nil, fmt.Errorf("journal %s: read decision %d: %w", j.path, id, err)
	}
	if !seen.Valid {
		return nil, nil
	}
	hs := []HunkSeen{}
	if err := json.Unmarshal([]byte(seen.String), &hs); err != nil {
		return nil, fmt.Errorf("journal %s: decision %d: seen: %w", j.path, id, err)
	}
	return hs, nil
}
