#!/usr/bin/env bash
# Print raw and gzip (-9) sizes of the built package: the browser build (what a page loads:
# the .wasm and index.js, the entry with the wasm-bindgen glue bundled in; compiled without the
# server-only code) and the Node build (the server build, `--features server`).
# Budget: browser .wasm + index.js <= 64 KB gzip (the release build fails above it;
# `--no-budget`, for the unoptimised `build-pkg.sh --dev`, only prints). wasm-load-error.js is
# loaded only after a failed init(), so it is listed apart.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d pkg/web ] || { echo "size: pkg/ is not built; run 'make pkg'" >&2; exit 1; }
budget=$((64 * 1024))
enforce=1
[ "${1:-}" = "--no-budget" ] && enforce=0
row() { local raw gz; raw=$(wc -c <"$1"); gz=$(gzip -9c "$1" | wc -c); printf '%-40s %9d B raw %8d B gzip\n' "$1" "$raw" "$gz"; }
gz() { gzip -9c "$1" | wc -c; }
echo "== package sizes"
for f in pkg/web/settlement_wasm_bg.wasm pkg/index.js pkg/wasm-load-error.js pkg/node/settlement_wasm_bg.wasm pkg/node/settlement_wasm.js pkg/node/index.cjs; do
  [ -f "$f" ] && row "$f"
done
total=$(( $(gz pkg/web/settlement_wasm_bg.wasm) + $(gz pkg/index.js) ))
awk -v t="$total" 'BEGIN { printf "browser total (.wasm + index.js with the glue), gzip: %d B = %.1f KB (budget 64 KB)\n", t, t / 1024 }'
if [ "$total" -gt "$budget" ]; then
  if [ "$enforce" = 1 ]; then echo "size: OVER BUDGET" >&2; exit 1; fi
  echo "size: over the budget (not enforced: an unoptimised build)"
fi
# The second package, settlement-wasm-testing (the in-process fake, scripts/build-testing-pkg.sh):
# listed apart, outside the budget; none of it is in pkg/.
if [ -f pkg-testing/index.mjs ]; then
  echo "== settlement-wasm-testing (a separate package; not in the browser build)"
  for f in pkg-testing/index.mjs pkg-testing/index.cjs pkg-testing/workerd/index.js pkg-testing/workerd/settlement_sandbox_bg.wasm; do
    if [ -f "$f" ]; then row "$f"; fi
  done
fi
