# Shared set-up for DiffDesk's scripts: find Go, install missing packages.
# Sourced, not run.

export PATH="$PATH:/usr/local/go/bin:$HOME/go/bin"
export GOFLAGS="${GOFLAGS:--buildvcs=false}"

# need_go stops with a clear message when no Go toolchain new enough is on PATH.
need_go() {
	if ! command -v go >/dev/null 2>&1; then
		echo "DiffDesk needs Go 1.26 or newer: install it from the Go website into /usr/local/go, then run this again." >&2
		exit 1
	fi
}

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
