package journal

import (
	"context"
	"fmt"
	"time"
)

// Agent is an agent the journal has seen, for history's agent and
// session filters.
type Agent struct {
	Agent    string
	Sessions []string  // newest first
	LastSeen time.Time // when any of its sessions was last seen
}

// Agents returns every agent the journal has seen with its
// sessions, the most recently seen first.
func (j *Journal) Agents(ctx context.Context) ([]Agent, error) {
	rows, err := j.db.QueryContext(ctx, `SELECT agent, session, last_seen FROM sessions
		ORDER BY max(last_seen) OVER (PARTITION BY agent) DESC, agent, last_seen DESC`)
	if err != nil {
		return nil, fmt.Errorf("journal %s: read agents: %w", j.path, err)
	}
	defer rows.Close()
	var out []Agent
	for rows.Next() {
		var agent, session string
		var seen int64
		if err := rows.Scan(&agent, &session, &seen); err != nil {
			return nil, fmt.Errorf("journal %s: read agents: %w", j.path, err)
		}
		if len(out) == 0 || out[len(out)-1].Agent != agent {
			out = append(out, Agent{Agent: agent, LastSeen: time.Unix(0, seen)})
		}
		out[len(out)-1].Sessions = append(out[len(out)-1].Sessions, session)
	}
	return out, rows.Err()
}
