# Every target is a thin call into scripts/. The two that matter on a fresh machine:
#   make demo   set up, build, start the sandbox, serve the demo, print URL and keys
#   make test   set up, build, run every test layer (native, wasm Node+Chromium, JS, e2e, consumers)
.PHONY: demo test stress setup pkg pkg-dev size bench screenshots sandbox clean

demo:
	scripts/demo.sh

test:
	scripts/test.sh

# The long soak: 100,000 repetitions of each failing case, in Node and Chromium.
stress: pkg
	scripts/stress.sh

# Idempotent installs; prints one [setup] line per install and a final "ok" line.
setup:
	scripts/setup.sh

pkg: setup
	scripts/build-pkg.sh
	scripts/build-testing-pkg.sh

pkg-dev:
	scripts/build-pkg.sh --dev
	scripts/build-testing-pkg.sh --dev

size:
	scripts/size.sh

bench: setup
	scripts/bench.sh

screenshots: setup
	scripts/screenshots.sh

sandbox:
	cargo run -p settlement-sandbox -- --port $${PORT:-8787} --ramp-port 0

clean:
	rm -rf pkg pkg-testing target tests/js/node_modules tests/consumers/node_modules tests/consumers/types-node-latest/node_modules tests/consumers/work tests/consumers/testing/node_modules tests/consumers/testing/work
