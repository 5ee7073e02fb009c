#!/usr/bin/env bash
# The Leptos 0.8 example (examples/leptos: its own workspace and Cargo.lock) built for wasm32
# as a Leptos app depends on this crate, with gloo-net's `json` feature in its graph: a
# `gloo_net::Error` variant this crate does not match fails the build here. Then the page,
# served on 127.0.0.1, is checked in headless Chromium against the running sandbox: the
# agent's profile and ten orders (scripts/leptos-example-check.mjs).
# Ends with node:test-style "# pass N" / "# fail N" lines (scripts/test.sh counts them).
# Usage: scripts/with-sandbox.sh -- scripts/test-leptos-example.sh   (run by scripts/test-wasm.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
: "${SANDBOX_URL:?run through scripts/with-sandbox.sh}"

crate=examples/leptos
name=settlement-wasm-leptos-example
export CARGO_TARGET_DIR=target/leptos-example
raw="$CARGO_TARGET_DIR/wasm32-unknown-unknown/debug/$name.wasm"
out="$CARGO_TARGET_DIR/site"

fail() {
  echo "leptos-example: FAIL: $*" >&2
  echo "# pass 0"
  echo "# fail 1"
  exit 1
}

# The example's lock must use the wasm-bindgen the CLI matches (the root lock's).
locked() { awk -v n="$2" '$0 == "name = \"" n "\"" { getline; print $3 }' "$1"; }
[ "$(locked $crate/Cargo.lock wasm-bindgen)" = "$(locked Cargo.lock wasm-bindgen)" ] \
  || fail "examples/leptos/Cargo.lock's wasm-bindgen differs from the root Cargo.lock's"
features=$(cargo tree --quiet --locked --manifest-path $crate/Cargo.toml \
  --target wasm32-unknown-unknown -e features -i gloo-net 2>&1) \
  || fail "examples/leptos/Cargo.lock does not match the crate's dependencies (update it with: cargo tree --offline --manifest-path $crate/Cargo.toml): $features"
grep -q '"json"' <<<"$features" || fail "gloo-net's json feature is not enabled in the example's graph"

echo "leptos-example: cargo build --target wasm32-unknown-unknown ($crate)"
cargo build --quiet --locked --target wasm32-unknown-unknown --manifest-path $crate/Cargo.toml \
  || fail "the Leptos example does not build"
rm -rf "$out" && mkdir -p "$out"
wasm-bindgen --target web --no-typescript --out-dir "$out" --out-name app "$raw" || fail "wasm-bindgen failed"
cat >"$out/index.html" <<'HTML'
<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><link rel="icon" href="data:,"><title>settlement-wasm with Leptos</title></head>
<body><script type="module">import init from "./app.js"; init();</script></body>
</html>
HTML
node scripts/leptos-example-check.mjs "$out" || fail "see above"
echo "# pass 1"
echo "# fail 0"
