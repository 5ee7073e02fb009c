#!/usr/bin/env bash
# The long soak of the hostile-value cases (not part of `make test`, which runs 3,000 repetitions): in one Node
# process and in one Chromium page, STRESS_REPS (default 100,000) repetitions of each failing
# case of tests/js/hostile.mjs, then the whole hostile corpus, then a normal call against the
# sandbox must succeed. Prints the wasm memory and JS heap before and after.
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
echo "stress: ok"
