# Shared set-up for DiffDesk's scripts: find Go, install missing packages.
# Sourced, not run.

export PATH="$PATH:/usr/local/go/bin:$HOME/go/bin"
# DiffDesk builds with Go 1.27.3 (go.mod's go line). Whatever Go is
# installed (1.21 or newer) fetches that release from the Go module proxy
# the first time, like a module (about 76 MB, kept in the module cache,
# $(go env GOMODCACHE)/golang.org/toolchain), and runs it: a Go installed
# with GOTOOLCHAIN=local in its go.env ignores go.mod's go line, so the
# scripts export it. Keep this, .ci/run and go.mod's go line the same.
export GOTOOLCHAIN=go1.27.3
# Builds record the git commit they come from (--version) where git can
# read the checkout; elsewhere (a tarball, a checkout git refuses as another
# user's) go build would fail on it, so they record none.
if [ -z "${GOFLAGS:-}" ]; then
	if git status --porcelain >/dev/null 2>&1; then
		export GOFLAGS=-buildvcs=auto
	else
		export GOFLAGS=-buildvcs=false
	fi
fi

# need_go stops with a clear message when no Go is on PATH, or when the Go
# there cannot run the one GOTOOLCHAIN names (older than 1.21, or the module
# proxy out of reach); the first time, it says that it fetches that Go.
need_go() {
	if ! command -v go >/dev/null 2>&1; then
		echo "DiffDesk needs Go 1.21 or newer to start from (it then fetches $GOTOOLCHAIN by itself): install Go from the Go website into /usr/local/go, then run this again." >&2
		exit 1
	fi
	local have cache
	cache=$(GOTOOLCHAIN=local go env GOMODCACHE 2>/dev/null)/golang.org/toolchain@v0.0.1-$GOTOOLCHAIN.$(GOTOOLCHAIN=local go env GOHOSTOS 2>/dev/null)-$(GOTOOLCHAIN=local go env GOHOSTARCH 2>/dev/null)
	[ -d "$cache" ] || echo "fetching $GOTOOLCHAIN, the Go DiffDesk builds with, from the Go module proxy (about 76 MB, once)" >&2
	have=$(go env GOVERSION) || {
		echo "could not run $GOTOOLCHAIN: the Go on PATH ($(GOTOOLCHAIN=local go version 2>&1)) must be 1.21 or newer and reach the Go module proxy (GOPROXY) to fetch it; see the error above" >&2
		exit 1
	}
	if [ "$have" != "$GOTOOLCHAIN" ]; then
		echo "DiffDesk builds with $GOTOOLCHAIN, but go runs $have: the Go on PATH ($(GOTOOLCHAIN=local go version 2>&1)) is older than 1.21 and cannot fetch it; install a newer Go into /usr/local/go" >&2
		exit 1
	fi
}

# desk_packages are the Debian packages the window needs to build (Fyne's
# GL/X11 build) and to run: fonts-droid-fallback is the font Fyne falls back
# to for Chinese and Japanese text, which its bundled fonts lack (7 MB
# installed; without it such text draws as boxes and the window warns);
# dbus-x11 is dbus-launch (and, through dbus-daemon, dbus-run-session): Fyne
# and its tray use the D-Bus session bus, and where an X session has none
# they start one with dbus-launch (without it the window logs that
# dbus-launch is missing).
desk_packages=(gcc pkg-config libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev libxinerama-dev
	libxi-dev libxxf86vm-dev libwayland-dev libxkbcommon-dev fonts-droid-fallback dbus-x11)

# fyne_tools_version is the version of Fyne's packaging tool
# (fyne.io/tools/cmd/fyne) that scripts/package installs: the release whose
# go.mod requires the fyne.io/fyne/v2 of ours (scripts/package checks).
fyne_tools_version=v1.7.4

# test_packages are what the headless tests need beyond Go: the CJK font
# the diff view's real-font test draws with, shellcheck, the non-Go checker
# review/checker runs for real, and dunst, the real notification server
# scripts/notify-test runs the window against.
test_packages=(fonts-droid-fallback shellcheck dunst)

# apt_install installs the Debian packages that are not installed yet.
apt_install() {
	local missing=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	local sudo=""
	[ "$(id -u)" -ne 0 ] && sudo="sudo"
	echo "installing: ${missing[*]}" >&2
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The checkers scripts/test runs, pinned, installed once into bin/tools/
# (go_tool NAME): staticcheck, and govulncheck against the Go vulnerability
# database as the Go module golang.org/x/vulndb publishes it (its OSV
# files; vulndb_dir builds the database's index beside them, once).
staticcheck_version=v0.8.2
govulncheck_version=v1.9.0
vulndb_version=v0.0.0-20261105234957-e22db6528018

# go_tool staticcheck|govulncheck prints the path of the pinned tool,
# installing it the first time.
go_tool() {
	local pkg version
	case "$1" in
	staticcheck) pkg=honnef.co/go/tools/cmd/staticcheck version=$staticcheck_version ;;
	govulncheck) pkg=golang.org/x/vuln/cmd/govulncheck version=$govulncheck_version ;;
	*) echo "go_tool: unknown tool $1" >&2; return 1 ;;
	esac
	# Built by the Go the project builds with: a staticcheck built by an
	# older Go refuses a module whose go line is newer.
	local dir=$PWD/bin/tools/$1-$version-$GOTOOLCHAIN
	if [ ! -x "$dir/$1" ]; then
		echo "installing $pkg@$version into $dir" >&2
		GOFLAGS= GOBIN=$dir go install "$pkg@$version" >&2
	fi
	echo "$dir/$1"
}

# vulndb_dir prints a directory holding the Go vulnerability database
# (the layout govulncheck -db file:// reads) built from golang.org/x/vulndb
# at vulndb_version: its OSV entries, and the index of modules made from
# them with jq. Built once into bin/tools/.
vulndb_dir() {
	local out=$PWD/bin/tools/vulndb-$vulndb_version
	if [ ! -f "$out/index/modules.json" ]; then
		command -v jq >/dev/null || apt_install jq
		local src
		src=$(GOFLAGS= go mod download -json "golang.org/x/vulndb@$vulndb_version" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')/data/osv
		[ -d "$src" ] || { echo "vulndb_dir: no data/osv in golang.org/x/vulndb@$vulndb_version" >&2; return 1; }
		echo "building the vulnerability database's index from $src" >&2
		rm -rf "$out.tmp"
		mkdir -p "$out.tmp/ID" "$out.tmp/index"
		cp "$src"/*.json "$out.tmp/ID/"
		jq -s '{modified: (map(.modified) | max)}' "$src"/*.json >"$out.tmp/index/db.json"
		jq -s '[.[] as $v | ($v.affected // [])[] | {path: .package.name, id: $v.id, modified: $v.modified}]
			| group_by(.path) | map({path: .[0].path, vulns: (map({id, modified}) | unique_by(.id))})' "$src"/*.json >"$out.tmp/index/modules.json"
		rm -rf "$out"
		mv "$out.tmp" "$out"
	fi
	echo "$out"
}

# vulncheck [govulncheck flags…]: govulncheck on the module with the pinned
# database. It fails on any vulnerability the code reaches: in a module it
# requires (bump that module: go get MODULE@FIXED), or in the standard library
# of the Go it builds with (move to a Go release that fixes it: GOTOOLCHAIN
# here and in .ci/run, go.mod's go line, the README).
vulncheck() {
	local out
	out=$(mktemp)
	# govulncheck exits 3 when it finds anything: the findings decide.
	CGO_ENABLED=0 "$(go_tool govulncheck)" -db "file://$(vulndb_dir)" -format json "$@" ./... >"$out" || [ $? -eq 3 ] || { cat "$out" >&2; rm -f "$out"; return 1; }
	command -v jq >/dev/null || apt_install jq
	local reached='select(.finding != null) | .finding | select(.trace[0].function != null)'
	local mods std
	mods=$(jq -r "$reached"' | select(.trace[0].module != "stdlib") | "\(.osv) in \(.trace[0].module)@\(.trace[0].version), fixed in \(.fixed_version // "no release yet")"' "$out" | sort -u)
	std=$(jq -r "$reached"' | select(.trace[0].module == "stdlib") | "\(.osv) in \(.trace[0].package), fixed in go\(.fixed_version // "?" | ltrimstr("v"))"' "$out" | sort -u)
	rm -f "$out"
	if [ -n "$std" ]; then
		echo "govulncheck: the code reaches these vulnerabilities of the standard library of $(go env GOVERSION); move to a Go release that fixes them (GOTOOLCHAIN in scripts/lib.sh and .ci/run, go.mod's go line, the README):" >&2
		echo "$std" >&2
	fi
	if [ -n "$mods" ]; then
		echo "govulncheck: the code reaches these vulnerabilities in modules it requires; bump them (go get MODULE@FIXED):" >&2
		echo "$mods" >&2
	fi
	[ -z "$std$mods" ] || return 1
	echo "govulncheck: no vulnerability reached, in the standard library of $(go env GOVERSION) or in a required module"
}
