#!/usr/bin/env bash
# realclients.sh — the door tests against the real agent clients: installs
# the pinned npm packages (scripts/realclients-install.sh; about 5 min the
# first time, then cached) and runs test/realclients. Needs node >= 20, npm,
# tmux and Go. Extra arguments go to `go test` (e.g. -run TestClaudeIDE).
set -eu
cd "$(dirname "$0")/.."
. scripts/lib.sh
DIFFDESK_REALCLIENTS=$(scripts/realclients-install.sh)
export DIFFDESK_REALCLIENTS
exec go test -count=1 -v -timeout 30m "$@" ./test/realclients
