#!/usr/bin/env bash
# wasm-bindgen-test suites (tests/wasm_*.rs) against the running sandbox, in Node and in
# headless Chromium, and in Node again with the lockfile moved to the crate's declared minimum
# versions (scripts/test-wasm-minimums.sh); then scripts/test-rust-consumer.sh (a Rust crate depending on this one)
# and scripts/test-leptos-example.sh (the Leptos example in Chromium).
# Run through scripts/with-sandbox.sh, which exports SANDBOX_URL etc.; the suites read them
# at compile time (option_env!), so they are rebuilt per sandbox port.
# `--features npm`: the suites test the npm build's configuration (tests/wasm_alloc.rs: its
# global allocator, talc, which only that feature sets).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
: "${SANDBOX_URL:?run through scripts/with-sandbox.sh}"
suites=()
for f in tests/wasm_*.rs; do [ -e "$f" ] && suites+=(--test "$(basename "$f" .rs)"); done
[ ${#suites[@]} -gt 0 ] || { echo "test-wasm: no tests/wasm_*.rs suites" >&2; exit 1; }
# --lib: the npm binding's own tests (src/js/tests.rs: every operation through the exports).
suites+=(--lib)

echo "== wasm-bindgen-test in Node"
WASM_BINDGEN_TEST_TIMEOUT=60 cargo test --target wasm32-unknown-unknown --features npm "${suites[@]}"

echo "== the binding's own tests in the server build (--features server), in Node"
WASM_BINDGEN_TEST_TIMEOUT=60 cargo test --target wasm32-unknown-unknown --features server --lib

echo "== the crate at its declared minimum versions (wasm-bindgen and its family, tsify), in Node"
scripts/test-wasm-minimums.sh

echo "== wasm-bindgen-test in headless Chromium"
CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}" WASM_BINDGEN_USE_BROWSER=1 \
  WASM_BINDGEN_TEST_WEBDRIVER_JSON="$PWD/tests/webdriver.json" \
  WASM_BINDGEN_TEST_TIMEOUT=60 cargo test --target wasm32-unknown-unknown --features npm "${suites[@]}"

echo "== Rust consumer: a crate depending on settlement-wasm gets no npm layer"
scripts/test-rust-consumer.sh

echo "== Leptos example: a Leptos 0.8 app over the Rust API, in Chromium against the sandbox"
scripts/test-leptos-example.sh
