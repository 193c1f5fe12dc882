#!/bin/sh
# realclients-install.sh — install the pinned real agent clients DiffDesk's
# door tests drive into a cache directory (default $HOME/.cache/diffdesk-realclients).
# Prints the directory on success. Safe to rerun: a finished install is kept.
set -eu
dir=${DIFFDESK_REALCLIENTS:-${XDG_CACHE_HOME:-$HOME/.cache}/diffdesk-realclients}
pins="@google/gemini-cli-core@0.61.0 @google/gemini-cli@0.61.0 @anthropic-ai/claude-code@2.1.330 @modelcontextprotocol/inspector@2.12.0 cline@3.0.65"
stamp="$dir/.installed"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$pins" ]; then
	echo "$dir"
	exit 0
fi
mkdir -p "$dir"
cd "$dir"
[ -f package.json ] || echo '{"name":"diffdesk-realclients","private":true}' > package.json
# --ignore-scripts: claude-code's postinstall is not needed (we run the
# platform binary directly) and nothing else needs one.
npm install --no-audit --no-fund --ignore-scripts --loglevel=error $pins >&2
echo "$pins" > "$stamp"
echo "$dir"
