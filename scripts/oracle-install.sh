#!/bin/sh
# oracle-install.sh — install the pinned upstream code the engine's
# differential test runs as an oracle (@google/gemini-cli-core, whose edit
# functions need no model) into a cache directory (default
# $HOME/.cache/diffdesk-oracles) and print its node_modules directory.
# Safe to rerun: a finished install is kept, and the real-client cache
# (scripts/realclients-install.sh) is used when it holds the same version.
set -eu
pin=@google/gemini-cli-core@0.61.0
version=${pin##*@}
cache=${XDG_CACHE_HOME:-$HOME/.cache}
for dir in "${DIFFDESK_ORACLES:-$cache/diffdesk-oracles}" "${DIFFDESK_REALCLIENTS:-$cache/diffdesk-realclients}"; do
	pkg=$dir/node_modules/@google/gemini-cli-core/package.json
	if [ -f "$pkg" ] && [ "$(node -p "require('$pkg').version" 2>/dev/null)" = "$version" ]; then
		echo "$dir/node_modules"
		exit 0
	fi
done
dir=${DIFFDESK_ORACLES:-$cache/diffdesk-oracles}
mkdir -p "$dir"
cd "$dir"
[ -f package.json ] || echo '{"name":"diffdesk-oracles","private":true}' > package.json
npm install --no-audit --no-fund --ignore-scripts --loglevel=error "$pin" >&2
echo "$dir/node_modules"
