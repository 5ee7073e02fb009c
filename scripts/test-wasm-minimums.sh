#!/usr/bin/env bash
# The crate at the oldest wasm-bindgen it declares (Cargo.toml's minimum requirements), so a Rust
# app on an older release (a Leptos or Trunk app, its CLI pinned to match) can add it.
#
# A copy of the crate (target/min-versions/crate: Cargo.toml, Cargo.lock, src/, tests/ as they
# are now) has its lockfile moved with `cargo update -p wasm-bindgen --precise <minimum>`. The
# crates that pin wasm-bindgen exactly (js-sys, web-sys, wasm-bindgen-futures, wasm-bindgen-test,
# wasm-bindgen's own macro crates) and tsify (whose newer releases ask for a newer wasm-bindgen)
# are dropped from that lockfile first, so the resolver picks the releases that go with that
# wasm-bindgen; each of them must then be locked at exactly the minimum Cargo.toml declares (a
# declared minimum that cannot be selected fails here). Then the crate's wasm-bindgen-test
# suites (tests/wasm_*.rs and the npm binding's own --lib tests, `--features npm`) run in Node
# with the wasm-bindgen-test-runner of that version (scripts/setup.sh installs it under
# target/tools/), and the server build (`--features server`) is compiled.
# The copy builds in the main target/ (its dependencies shared with the other layers).
# Run through scripts/with-sandbox.sh (the suites read SANDBOX_URL at compile time); run by
# scripts/test-wasm.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
: "${SANDBOX_URL:?run through scripts/with-sandbox.sh}"
root="$PWD"

# The version a dependency line of Cargo.toml asks for: `name = "x.y.z"` or
# `name = { version = "x.y.z", … }`.
requirement() {
  awk -F'"' -v n="$1" '$1 == n " = " || $1 == n " = { version = " { print $2; exit }' Cargo.toml
}
# The version of `name` locked in lockfile $2.
locked() {
  awk -v n="\"$1\"" '/^\[\[package\]\]/ { name = "" } $1 == "name" { name = $3 }
    $1 == "version" && name == n { v = $3; gsub(/"/, "", v); print v }' "$2"
}

min_wb="$(requirement wasm-bindgen)"
[ -n "$min_wb" ] || { echo "test-wasm-minimums: no wasm-bindgen requirement in Cargo.toml" >&2; exit 1; }
runner="$root/target/tools/wasm-bindgen-$min_wb/bin/wasm-bindgen-test-runner"
[ "$("$runner" --version 2>/dev/null | awk '{print $2}')" = "$min_wb" ] ||
  { echo "test-wasm-minimums: $runner is not wasm-bindgen-test-runner $min_wb; run scripts/setup.sh" >&2; exit 1; }

work="$root/target/min-versions/crate"
mkdir -p "$work"
rm -rf "$work/src" "$work/tests"
# -p keeps the sources' times: an unchanged source is not rebuilt.
cp -p Cargo.toml README.md LICENSE-MIT LICENSE-APACHE "$work/"
cp -Rp src "$work/src"
mkdir -p "$work/tests"
cp -p tests/*.rs tests/webdriver.json "$work/tests/"
cp -Rp tests/wasm_support "$work/tests/"
# The workspace member (and native dev-dependency) the lockfile also resolves.
mkdir -p "$work/tests/sandbox"
cp -Rp tests/sandbox/Cargo.toml tests/sandbox/src tests/sandbox/schema "$work/tests/sandbox/"

pinned='js-sys|web-sys|wasm-bindgen-futures|wasm-bindgen-test|wasm-bindgen-test-macro|wasm-bindgen-test-shared|wasm-bindgen-macro|wasm-bindgen-macro-support|wasm-bindgen-backend|wasm-bindgen-shared|tsify|tsify-macros'
awk -v re="^\\\\[\\\\[package\\\\]\\\\]\\nname = \"($pinned)\"\\n" 'BEGIN { RS = ""; ORS = "\n\n" } $0 ~ re { next } { print }' \
  Cargo.lock > "$work/Cargo.lock"
(cd "$work" && cargo update --quiet -p wasm-bindgen --precise "$min_wb")

bad=0
for dep in wasm-bindgen js-sys web-sys wasm-bindgen-futures wasm-bindgen-test tsify; do
  want="$(requirement "$dep")"
  have="$(locked "$dep" "$work/Cargo.lock")"
  echo "  $dep: declared minimum $want, locked $have"
  [ "$want" = "$have" ] || bad=1
done
[ "$bad" = 0 ] || { echo "test-wasm-minimums: a declared minimum is not what the resolver selects at wasm-bindgen $min_wb" >&2; exit 1; }

suites=()
for f in tests/wasm_*.rs; do suites+=(--test "$(basename "$f" .rs)"); done
export CARGO_TARGET_DIR="$root/target"
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER="$runner"
echo "== the wasm-bindgen-test suites at wasm-bindgen $min_wb, in Node"
WASM_BINDGEN_TEST_TIMEOUT=60 cargo test --manifest-path "$work/Cargo.toml" --target wasm32-unknown-unknown \
  --features npm "${suites[@]}" --lib
echo "== the server build at wasm-bindgen $min_wb"
cargo build --manifest-path "$work/Cargo.toml" --target wasm32-unknown-unknown --features server --lib
