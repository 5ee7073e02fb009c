#!/usr/bin/env bash
# `make bench`: build the package, bundle graphql-request for the comparison, start a release
# sandbox that allows 1,000-row pages, and run tests/bench/bench.mjs in headless Chromium: per
# call (10 and 1,000 rows, against plain fetch + JSON.parse and graphql-request), instantiation,
# and cold start (import() to the first profile(), locally and under network emulation, with and
# without preload hints; the root entry and settlement-wasm/bot with its hints; each one's byte
# floor), in BENCH_BATCHES batches (default 3): medians and spread. Then
# tests/bench/watch.mjs: the order watch's main-thread time per poll of a 25-row page, and the
# requests it sends over 60 s while the page is hidden (0).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
scripts/build-pkg.sh
root=target/bench-root
rm -rf "$root" && mkdir -p "$root/www/vendor"
cp tests/bench/page/* "$root/www/"
ln -s "$PWD/pkg" "$root/pkg"
node_modules/.bin/esbuild --bundle --format=esm --minify --log-level=warning \
  --outfile="$root/www/vendor/graphql-request.js" node_modules/graphql-request/build/entrypoints/main.js
printf 'graphql-request bundle: %d B raw, %d B gzip\n' "$(wc -c <"$root/www/vendor/graphql-request.js")" "$(gzip -9c "$root/www/vendor/graphql-request.js" | wc -c)"
# SANDBOX_SCRIPT: another checkout's with-sandbox.sh (its release sandbox already built).
here="$PWD"
"${SANDBOX_SCRIPT:-scripts/with-sandbox.sh}" --release --static-root "$here/$root" --max-per-page 1000 -- \
  bash -c "cd '$here' && BENCH_ROOT='$root' node tests/bench/bench.mjs && node tests/bench/watch.mjs"
