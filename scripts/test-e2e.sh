#!/usr/bin/env bash
# Browser layer: the demo page, served by the sandbox, driven in Debian's Chromium through
# playwright-core. Screenshots go to target/screenshots/. Run through scripts/with-sandbox.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${SANDBOX_URL:?run through scripts/with-sandbox.sh}"
[ -f pkg/index.js ] || { echo "test-e2e: pkg/ is not built; run 'make pkg'" >&2; exit 1; }
mkdir -p target/screenshots
# The test-hook build (its wasm can be made to trap) for tests/e2e/trap.test.mjs, beside pkg/.
SETTLEMENT_WASM_TEST_HOOKS=1 SETTLEMENT_PKG_OUT=target/pkg-hooks scripts/build-pkg.sh --dev >/dev/null
node --test --test-reporter=spec --test-concurrency=1 tests/e2e/
