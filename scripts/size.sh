#!/usr/bin/env bash
# Print raw and gzip (-9) sizes of the built package, then each browser entry's total and where
# its .wasm's bytes go.
# - The browser entries (what a page loads: the entry's JavaScript, with its wasm-bindgen glue
#   bundled in, and its .wasm): the root (`settlement-wasm`: index.js + web/settlement_wasm_bg.wasm),
#   `settlement-wasm/bot` (bot.js + web/bot_bg.wasm) and `settlement-wasm/merchant` (merchant.js +
#   web/merchant_bg.wasm). The release build fails when an entry is over its budget;
#   `--no-budget`, for the unoptimised `build-pkg.sh --dev`, only prints.
# - wasm-load-error.js is loaded only after a failed init(), so it is listed apart; the Node
#   build (the server build, `--features server`) has no budget.
# - The breakdown: each entry's .wasm by crate and by module, from the copy with function names
#   build-pkg.sh keeps (target/pkg-wasm/<entry>/named_bg.wasm: wasm-bindgen's output before
#   wasm-opt; raw bytes, so shares rather than gzip figures); scripts/wasm-breakdown.mjs.
#   `--no-breakdown` prints the totals only.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d pkg/web ] || { echo "size: pkg/ is not built; run 'make pkg'" >&2; exit 1; }
enforce=1
breakdown=1
for a in "$@"; do
  case "$a" in
    --no-budget) enforce=0 ;;
    --no-breakdown) breakdown=0 ;;
    *) echo "usage: scripts/size.sh [--no-budget] [--no-breakdown]" >&2; exit 2 ;;
  esac
done

# entry, its JavaScript, its .wasm, its build's directory under target/pkg-wasm, budget (KB, gzip),
# and the goal where the budget is not it yet (KB; see the README's size table). The per-client
# budgets are the measured sizes rounded up to a whole KB (bot 54,807 B, merchant 52,208 B on
# 2026-11-27, with the clients' events), so a change that adds bytes to them shows here; the
# root's is its ceiling.
entries=(
  "settlement-wasm pkg/index.js pkg/web/settlement_wasm_bg.wasm browser 64 64"
  "settlement-wasm/bot pkg/bot.js pkg/web/bot_bg.wasm bot 54 40"
  "settlement-wasm/merchant pkg/merchant.js pkg/web/merchant_bg.wasm merchant 52 36"
)

row() { local raw gz; raw=$(wc -c <"$1"); gz=$(gzip -9c "$1" | wc -c); printf '%-40s %9d B raw %8d B gzip\n' "$1" "$raw" "$gz"; }
gz() { gzip -9c "$1" | wc -c; }
echo "== package sizes"
for f in pkg/web/*.wasm pkg/index.js pkg/bot.js pkg/merchant.js pkg/wasm-load-error.js pkg/node/index.cjs; do
  [ -f "$f" ] && row "$f"
done

echo "== browser entries (the entry's JavaScript + its .wasm, gzip)"
over=()
for e in "${entries[@]}"; do
  read -r name js wasm _ budget goal <<<"$e"
  total=$(( $(gz "$wasm") + $(gz "$js") ))
  awk -v n="$name" -v t="$total" -v b="$budget" -v g="$goal" 'BEGIN {
    printf "%-26s %6d B = %5.1f KB (budget %d KB", n, t, t / 1024, b
    if (g < b) printf "; goal %d KB, %.1f KB to go", g, t / 1024 - g
    printf ")\n" }'
  [ "$total" -le $((budget * 1024)) ] || over+=("$name")
done

if [ "$breakdown" = 1 ]; then
  for e in "${entries[@]}"; do
    read -r name _ _ dir _ _ <<<"$e"
    named=target/pkg-wasm/$dir/named_bg.wasm
    if [ -f "$named" ]; then
      echo "== where $name's .wasm bytes go"
      node scripts/wasm-breakdown.mjs "$named" 10
      # src/text.rs says why: core's two-way searcher brings its panic path's formatting along.
      if grep -q "StrSearcher" "$named"; then
        echo "note: $name links core's StrSearcher (a str::find/contains/replace/split with a &str" \
          "pattern; src/text.rs has the byte versions): about 5 KB gzip with its panic path"
      fi
    fi
  done
fi

if [ "${#over[@]}" -gt 0 ]; then
  if [ "$enforce" = 1 ]; then echo "size: OVER BUDGET: ${over[*]}" >&2; exit 1; fi
  echo "size: over the budget: ${over[*]} (not enforced: an unoptimised build)"
fi
# The second package, settlement-wasm-testing (the in-process fake, scripts/build-testing-pkg.sh):
# listed apart, outside the budget; none of it is in pkg/.
if [ -f pkg-testing/index.mjs ]; then
  echo "== settlement-wasm-testing (a separate package; not in the browser build)"
  for f in pkg-testing/settlement_sandbox_bg.wasm pkg-testing/index.mjs pkg-testing/index.cjs pkg-testing/browser.js pkg-testing/workerd.js; do
    if [ -f "$f" ]; then row "$f"; fi
  done
fi
