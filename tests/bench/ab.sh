#!/usr/bin/env bash
# A/B timing of the package under change (pkg/, built by scripts/build-pkg.sh) against a
# baseline package directory (AB_BASE, default target/pkg-base: a copy of an earlier pkg/),
# in one page, interleaved with plain fetch (tests/bench/page/micro.js runAB).
#   tests/bench/ab.sh        (MICRO_REPEAT, MICRO_ROUNDS, MICRO_GROUP as for micro.mjs)
set -euo pipefail
cd "$(dirname "$0")/../.."
base="${AB_BASE:-target/pkg-base}"
root="$PWD/target/ab-root"
rm -rf "$root" && mkdir -p "$root/www"
cp tests/bench/page/* "$root/www/"
mkdir -p "$root/www/vendor" && cp -R "$base" "$root/www/base"
node_modules/.bin/esbuild --bundle --format=esm --minify --log-level=warning \
  --outfile="$root/www/vendor/graphql-request.js" node_modules/graphql-request/build/entrypoints/main.js
ln -s "$PWD/pkg" "$root/pkg"
here="$PWD"
# The release sandbox of the main checkout when there is one (it builds it otherwise).
sandbox="${SANDBOX_SCRIPT:-scripts/with-sandbox.sh}"
MICRO_AB=1 "$sandbox" --release --static-root "$root" -- bash -c "cd '$here' && node tests/bench/micro.mjs"
