#!/usr/bin/env bash
# JS layer: install the built package exactly as npm would publish it (npm pack -> extract
# into tests/js/node_modules/settlement-wasm), run the node:test suites that import it by
# name, and type-check a strict TypeScript consumer. Run through scripts/with-sandbox.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${SANDBOX_URL:?run through scripts/with-sandbox.sh}"
[ -f pkg/package.json ] || { echo "test-js: pkg/ is not built; run 'make pkg'" >&2; exit 1; }

mkdir -p target/npm
rm -f target/npm/settlement-wasm-*.tgz
tarball="$(cd pkg && npm pack --silent --pack-destination ../target/npm 2>/dev/null | tail -n1)"
dest=tests/js/node_modules/settlement-wasm
rm -rf "$dest" && mkdir -p "$dest"
tar -xzf "target/npm/$tarball" -C "$dest" --strip-components=1
echo "== installed $tarball ($(find "$dest" -type f | wc -l) files) as tests/js/node_modules/settlement-wasm"

# The second package, settlement-wasm-testing (the in-process fake), installed the same way
# (scripts/build-testing-pkg.sh builds pkg-testing/): tests/js/testing.test.mjs imports it.
[ -f pkg-testing/package.json ] || { echo "test-js: pkg-testing/ is not built; run scripts/build-testing-pkg.sh" >&2; exit 1; }
rm -f target/npm/settlement-wasm-testing-*.tgz
tarball="$(cd pkg-testing && npm pack --silent --pack-destination ../target/npm 2>/dev/null | tail -n1)"
dest=tests/js/node_modules/settlement-wasm-testing
rm -rf "$dest" && mkdir -p "$dest"
tar -xzf "target/npm/$tarball" -C "$dest" --strip-components=1
echo "== installed $tarball as tests/js/node_modules/settlement-wasm-testing"

echo "== tsc --strict on the TypeScript consumer"
node_modules/.bin/tsc -p tests/js/tsconfig.json
echo "tsc: ok"

echo "== node --test (package imported by name)"
# One file at a time: the mutation suites move sandbox orders (each resets what it moved).
node --test --test-concurrency=1 --test-reporter=spec tests/js/
