#!/usr/bin/env bash
# Build the npm package into pkg/: wasm32 release build -> wasm-bindgen (web + nodejs)
# -> wasm-opt -Oz (npm binaryen) -> files from pkg-template/ -> sizes.
# Usage: scripts/build-pkg.sh [--dev]   (--dev: skip wasm-opt, for quick iterations)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

opt=1
[ "${1:-}" = "--dev" ] && opt=0
name=settlement_wasm
wasm_in="target/wasm32-unknown-unknown/release/$name.wasm"
wasm_opt="node_modules/.bin/wasm-opt"

if [ "$opt" = 1 ]; then
  [ -x "$wasm_opt" ] || { echo "build-pkg: $wasm_opt missing; run scripts/setup.sh" >&2; exit 1; }
  # Never Debian's wasm-opt 108: it corrupts current wasm-bindgen output.
  v="$("$wasm_opt" --version | awk '{print $3}')"
  [ "${v:-0}" -ge 116 ] 2>/dev/null || { echo "build-pkg: wasm-opt $v is too old (need npm binaryen >= 116)" >&2; exit 1; }
fi

# Drop the registry's absolute paths from the few panic locations the dependencies keep
# (machine-specific, and bytes in every download).
registry="${CARGO_HOME:-$HOME/.cargo}/registry/src"
remap=""
for d in "$registry"/*/; do [ -d "$d" ] && remap="$remap --remap-path-prefix=$d="; done
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="${remap# }" \
  cargo rustc --quiet --lib --target wasm32-unknown-unknown --release --features npm --crate-type cdylib

rm -rf pkg
mkdir -p pkg/web pkg/node
wasm-bindgen --target web --encode-into always --out-dir pkg/web  --out-name "$name" "$wasm_in"
wasm-bindgen --target nodejs --out-dir pkg/node --out-name "$name" "$wasm_in"

features=(--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext
  --enable-mutable-globals --enable-reference-types --enable-multivalue)
if [ "$opt" = 1 ]; then
  for w in pkg/web/${name}_bg.wasm pkg/node/${name}_bg.wasm; do
    # --strip-target-features: that custom section is for linkers, not engines.
    "$wasm_opt" -Os --flatten --rereloop -Os --converge "${features[@]}" \
      --strip-debug --strip-producers --strip-target-features "$w" -o "$w.opt"
    mv "$w.opt" "$w"
  done
fi

# Minify the browser glue (what pages download); keep the Node glue readable. First give the
# browser module's imports, exports and import module short names (wasm-bindgen's carry
# incompressible hashes, in both the .wasm and the glue): binaryen renames them in the .wasm
# and prints the mapping, which scripts/minify-imports.mjs applies to the glue. A separate
# wasm-opt run: under --converge the pass would run (and print a mapping) more than once.
if [ "$opt" = 1 ]; then
  w=pkg/web/${name}_bg.wasm
  mkdir -p target
  "$wasm_opt" "${features[@]}" --minify-imports-and-exports-and-modules "$w" -o "$w.min" \
    >target/minify-imports-map.json
  mv "$w.min" "$w"
  node scripts/minify-imports.mjs target/minify-imports-map.json "$w" pkg/web/$name.js
fi

# The package's own files. The version comes from Cargo.toml so the two never disagree.
# wasm-bindgen writes a .gitignore and package.json into each out-dir that npm would honour.
rm -f pkg/web/.gitignore pkg/node/.gitignore pkg/web/package.json pkg/node/package.json

version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n1)"
cp -R pkg-template/. pkg/
sed -i "s/\"version\": \"0.0.0-template\"/\"version\": \"$version\"/" pkg/package.json
cp LICENSE* pkg/ 2>/dev/null || true

# ---- step: types and metadata (issue 10: every consumer works out of the box) ---------------
# Declarations that pass `tsc --strict` without skipLibCheck or extra libs, ESM and CJS (one
# shared file, index.d.cts for `require`), no unreferenced .d.ts: see scripts/pkg-types.mjs.
node scripts/pkg-types.mjs pkg
# `repository` and `homepage` come from Cargo.toml's `repository` (the one place to set it).
repository="$(sed -n 's/^repository = "\(.*\)"/\1/p' Cargo.toml | head -n1)"
[ -n "$repository" ] || { echo "build-pkg: Cargo.toml has no repository" >&2; exit 1; }
REPOSITORY="$repository" node -e '
  const fs = require("fs");
  const p = JSON.parse(fs.readFileSync("pkg/package.json", "utf8"));
  const out = {};
  for (const [k, v] of Object.entries(p)) {
    out[k] = v;
    if (k === "license") {
      out.repository = { type: "git", url: "git+" + process.env.REPOSITORY + ".git" };
      out.homepage = process.env.REPOSITORY + "#readme";
    }
  }
  fs.writeFileSync("pkg/package.json", JSON.stringify(out, null, 2) + "\n");
'
# ---- end of step: types and metadata ---------------------------------------------------------

# One browser JS file: the entry and the wasm-bindgen glue bundled into pkg/index.js, so a page
# loads index.js and then the .wasm (one request and one round trip fewer than entry -> glue,
# and one gzip stream: about 0.5 KB less). The glue's `new URL("settlement_wasm_bg.wasm",
# import.meta.url)` is rewritten first to the .wasm's place relative to index.js, a form
# bundlers (Vite, webpack, esbuild) recognise. wasm-load-error.js, the diagnosis of a failed
# load, stays a separate file that index.js imports only after a failure.
glue=pkg/web/$name.js
grep -q "new URL('${name}_bg.wasm', import.meta.url)" "$glue" \
  || { echo "build-pkg: the glue's .wasm URL is not where expected (wasm-bindgen changed?)" >&2; exit 1; }
sed -i "s|new URL('${name}_bg.wasm', import.meta.url)|new URL('./web/${name}_bg.wasm', import.meta.url)|" "$glue"
minify=(); [ "$opt" = 1 ] && minify=(--minify)
node_modules/.bin/esbuild --bundle --format=esm "${minify[@]}" --log-level=warning \
  --external:./wasm-load-error.js pkg/index.js --outfile=pkg/index.bundle.js
mv pkg/index.bundle.js pkg/index.js
rm "$glue"
# The transport's JavaScript half (src/transport/send.js, a wasm-bindgen snippet, written under
# snippets/<crate-hash>/): bundled into index.js above for the browser; for Node, CommonJS at
# node/send.cjs, a fixed name the glue's `require` is pointed to.
rm -rf pkg/web/snippets
snippets="$(find pkg/node/snippets -name '*.js')"
[ "$snippets" = "$(find pkg/node/snippets -path '*/src/transport/send.js')" ] \
  || { echo "build-pkg: unexpected wasm-bindgen snippets: $snippets" >&2; exit 1; }
node_modules/.bin/esbuild --format=cjs --platform=node --log-level=warning "$snippets" --outfile=pkg/node/send.cjs
sed -i 's|require("./snippets/[^"]*/src/transport/send.js")|require("./send.cjs")|' pkg/node/$name.js
! grep -q 'require("./snippets/' pkg/node/$name.js || { echo "build-pkg: the Node glue still requires snippets/" >&2; exit 1; }
rm -rf pkg/node/snippets
# compose.js (bundled into index.js above) as CommonJS for the Node entry.
node_modules/.bin/esbuild --format=cjs --platform=node --log-level=warning pkg/compose.js --outfile=pkg/node/compose.cjs
rm pkg/compose.js
if [ "$opt" = 1 ]; then
  node_modules/.bin/esbuild --minify --format=esm --log-level=warning pkg/wasm-load-error.js --outfile=pkg/wasm-load-error.min.js
  mv pkg/wasm-load-error.min.js pkg/wasm-load-error.js
fi

# Node ESM entry: re-export the CommonJS entry's names (one instance for import and require).
node -e '
  const m = require("./pkg/node/index.cjs");
  const names = Object.keys(m).filter((n) => n !== "default" && !n.startsWith("__")).sort();
  const src = "// Generated by scripts/build-pkg.sh: Node ESM entry, re-exporting index.cjs.\n" +
    "import m from \"./index.cjs\";\n" +
    "export const { " + names.join(", ") + " } = m;\n" +
    "export default m.init;\n";
  require("fs").writeFileSync("pkg/node/index.mjs", src);
'

scripts/size.sh
