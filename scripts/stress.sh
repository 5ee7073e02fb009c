#!/usr/bin/env bash
# The long soak of the hostile-value cases (not part of `make test`, which runs 3,000 repetitions): in one Node
# process and in one Chromium page, STRESS_REPS (default 100,000) repetitions of each failing
# case of tests/js/hostile.mjs, then the whole hostile corpus, then a normal call against the
# sandbox must succeed. Prints the wasm memory and JS heap before and after. Then the
# generated hostile proxy bodies: STRESS_BODIES (default 10,000) through the Node handler
# (tests/stress/proxy.mjs) and STRESS_NATIVE_BODIES (default 100,000) natively (proptest).
#   scripts/stress.sh            (starts the sandbox itself, serving this checkout's pkg/)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${SANDBOX_URL:-}" ]; then
  exec scripts/with-sandbox.sh --static-root "$PWD" -- "$0" "$@"
fi
[ -f pkg/index.js ] || { echo "stress: pkg/ is not built; run 'make pkg'" >&2; exit 1; }
export STRESS_REPS="${STRESS_REPS:-100000}"
echo "== stress: Node ($STRESS_REPS repetitions of each failing case)"
node --expose-gc tests/stress/node.mjs
echo "== stress: Chromium ($STRESS_REPS repetitions of each failing case)"
node tests/stress/browser.mjs
echo "== stress: generated hostile proxy bodies through the Node handler (${STRESS_BODIES:-10000})"
node tests/stress/proxy.mjs
echo "== stress: generated hostile proxy bodies, natively (${STRESS_NATIVE_BODIES:-100000}), release build"
# Release: the debug build takes about 20 minutes for 100,000 bodies.
SETTLEMENT_GENERATED_BODIES="${STRESS_NATIVE_BODIES:-100000}" cargo test --release --quiet -p settlement-wasm \
  --features settlement-wasm/typescript,settlement-wasm/reqwest,settlement-wasm/server --lib \
  proxy::tests::generated_hostile_bodies -- --nocapture
echo "stress: ok"
