# Conveniences over scripts/ (which need only bash).
# make install puts diffdesk, deskctl, the desktop entry and the icon under
# PREFIX (default ~/.local); make uninstall removes exactly those.
PREFIX ?= $(HOME)/.local
.PHONY: run test bench package install uninstall
run:
	scripts/run
test:
	scripts/test
bench:
	scripts/bench
package:
	scripts/package
install:
	PREFIX="$(PREFIX)" scripts/install
uninstall:
	PREFIX="$(PREFIX)" scripts/install --uninstall
