#!/usr/bin/env bash
# A Rust crate that depends on settlement-wasm (tests/rust-consumer: default features, its own
# #[wasm_bindgen] function and #[global_allocator]) gets a plain library: no export of the npm
# layer (feature `npm`: src/js's `Core`, `PreparedCall`, `OrderSearch` and functions) in its module or its
# wasm-bindgen JS. Builds it for wasm32 in release, runs wasm-bindgen --target nodejs, prints
# the export lists and fails on any export that is not the consumer's own function, `memory`,
# or a wasm-bindgen/linker helper. The consumer's allocator checks the other half: a second
# #[global_allocator] (the npm layer's talc) fails its build.
# Ends with node:test-style "# pass N" / "# fail N" lines (scripts/test.sh counts them).
# Usage: scripts/test-rust-consumer.sh   (run by scripts/test-wasm.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

crate=tests/rust-consumer
name=settlement_wasm_rust_consumer
own=consumer_bot_config
# Under the main target/, so a clean clone builds it once.
export CARGO_TARGET_DIR=target/rust-consumer
raw="$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/$name.wasm"
out="$CARGO_TARGET_DIR/bindgen"

fail() {
  echo "rust-consumer: FAIL: $*" >&2
  echo "# pass 0"
  echo "# fail 1"
  exit 1
}

# The consumer's Cargo.lock is the root's (the wasm-bindgen CLI has to match the locked
# wasm-bindgen crate), copied at each run (git-ignored); cargo only drops what it does not use.
cp Cargo.lock $crate/Cargo.lock
versions() { awk '/^\[\[package\]\]/ { n = "" } /^name = / { n = $3 } /^version = / && n != "" { print n, $3 }' "$1" | sort -u; }
echo "rust-consumer: cargo build --release --target wasm32-unknown-unknown ($crate, settlement-wasm with default features)"
cargo build --quiet --release --target wasm32-unknown-unknown --manifest-path $crate/Cargo.toml \
  || fail "the consumer does not build (a conflicting #[global_allocator] from settlement-wasm?)"
stale="$(comm -23 <(versions $crate/Cargo.lock | grep -v "^\"settlement-wasm-rust-consumer\" ") <(versions Cargo.lock))"
[ -z "$stale" ] || fail "the consumer resolved versions the root Cargo.lock does not have: $(echo $stale)"

rm -rf "$out"
wasm-bindgen --target nodejs --out-dir "$out" --out-name "$name" "$raw" || fail "wasm-bindgen failed"
# The glue is CommonJS (the repository's package.json says "type": "module"); wasm-bindgen's
# snippets (JavaScript of the crate, if the glue requires any) are ES modules.
echo '{ "type": "commonjs" }' >"$out/package.json"
[ ! -d "$out/snippets" ] || echo '{ "type": "module" }' >"$out/snippets/package.json"

node - "$raw" "$out/${name}_bg.wasm" "$out/$name.js" "$out/$name.d.ts" "$own" <<'EOF' || fail "see above"
const fs = require("fs");
const [raw, bg, glue, dts, own] = process.argv.slice(2);

// The consumer's own function: plain after wasm-bindgen; in the raw module with wasm-bindgen's
// hash suffix.
const isOwn = (n) => n === own || new RegExp(`^${own}_[0-9a-f]{16}$`).test(n);
// Linker and wasm-bindgen runtime globals (not wasm-bindgen's name prefixes).
const runtime = new Set(["memory", "__data_end", "__heap_base", "__abort_handler", "__instance_terminated"]);
// wasm-bindgen's exports for an exported Rust struct (class): `__wbg_<class>_free`,
// `__wbg_get_<class>_<field>`, `__wbg_set_…`; a consumer without classes has none.
const isClassHelper = (n) => /^__wbg_.+_free(_[0-9a-f]{16})?$/.test(n) || /^__wbg_[gs]et_/.test(n);

function why(n) {
  if (isOwn(n) || runtime.has(n)) return null;
  const d = /^__wbindgen_describe_(.*)$/.exec(n);
  if (d) {
    // Descriptors (raw module only): of the consumer's function, or of an import (`__wbg_…`).
    return isOwn(d[1]) || d[1].startsWith("__wbg_") ? null : `describes ${d[1]}, not the consumer's`;
  }
  if (isClassHelper(n)) return "a class's method";
  if (/^__(wbindgen|wbg|externref)_/.test(n)) return null;
  return "not the consumer's, not a wasm-bindgen helper";
}

let bad = [];
function check(what, names) {
  for (const n of names) {
    const w = why(n);
    if (w) bad.push(`${what}: ${n} (${w})`);
  }
}

const wasmExports = (file) => WebAssembly.Module.exports(new WebAssembly.Module(fs.readFileSync(file)));

// 1. The raw module rustc linked (wasm-bindgen's descriptors of js-sys/web-sys imports are
//    thousands: counted, not listed).
const rawExports = wasmExports(raw);
const importDescriptors = rawExports.filter((e) => e.name.startsWith("__wbindgen_describe___wbg_"));
console.log(`rust-consumer: exports of ${raw} (${rawExports.length}; ${importDescriptors.length} __wbindgen_describe___wbg_* import descriptors not listed):`);
for (const e of rawExports) if (!importDescriptors.includes(e)) console.log(`  ${e.kind} ${e.name}`);
check("raw module", rawExports.map((e) => e.name));

// 2. The module wasm-bindgen wrote.
const bgExports = wasmExports(bg);
console.log(`rust-consumer: exports of ${bg}:`);
for (const e of bgExports) console.log(`  ${e.kind} ${e.name}`);
check("wasm-bindgen module", bgExports.map((e) => e.name));

// 3. The generated JavaScript.
let m = {};
try {
  m = require(require("path").resolve(glue));
} catch (e) {
  bad.push(`JavaScript: ${glue} does not load: ${e.message.split("\n")[0]}`);
}
const jsExports = Object.keys(m);
console.log(`rust-consumer: exports of ${glue}: ${jsExports.join(", ")}`);
check("JavaScript", jsExports);
if (!jsExports.includes(own)) bad.push(`JavaScript: the consumer's own ${own} is missing`);

// The consumer's function runs the crate's code (BotClient::new over the global fetch).
if (typeof m[own] === "function") {
  const r = m[own]("https://api.example.com", "k");
  console.log(`rust-consumer: ${own}("https://api.example.com", "k") = ${r}`);
  if (!r.includes('"https://api.example.com/service/bot/graphql"')) bad.push(`${own} returned an unexpected value`);
}

// No TypeScript of the crate's either (its declarations need the `typescript` feature).
const decls = fs.readFileSync(dts, "utf8").split("\n").filter((l) => /^export /.test(l) && !l.includes(` ${own}(`));
console.log(`rust-consumer: ${dts} has ${decls.length} TypeScript declarations besides the consumer's own`);
for (const d of decls) bad.push(`TypeScript: ${d}`);

if (bad.length) {
  console.error("rust-consumer: exports of the npm layer (or unknown ones) reach a Rust consumer:");
  for (const b of bad) console.error(`  ${b}`);
  process.exit(1);
}
console.log("rust-consumer: ok: only the consumer's own export, memory and wasm-bindgen helpers");
EOF

echo "# pass 1"
echo "# fail 0"
