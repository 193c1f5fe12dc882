# Conveniences over scripts/ (which need only bash).
.PHONY: run test bench
run:
	scripts/run
test:
	scripts/test
bench:
	scripts/bench
