# Shared set-up for DiffDesk's scripts: find Go, install missing packages.
# Sourced, not run.

export PATH="$PATH:/usr/local/go/bin:$HOME/go/bin"
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

# need_go stops with a clear message when no Go toolchain new enough is on PATH.
need_go() {
	if ! command -v go >/dev/null 2>&1; then
		echo "DiffDesk needs Go 1.26 or newer: install it from the Go website into /usr/local/go, then run this again." >&2
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
