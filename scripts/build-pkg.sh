#!/usr/bin/env bash
# Build the npm package into pkg/: four wasm32 release builds (the browser entries': the root's
# with `--features npm`, the bot entry's with `npm-bot`, the merchant entry's with
# `npm-merchant`; the server entries' with `--features server`, which adds the server-only
# exports) -> wasm-bindgen (`--target web`, each) -> wasm-opt (npm binaryen) -> the TypeScript
# shell (pkg-template/src/): type-checked and its declarations emitted by tsc, each browser
# entry bundled with its own build's glue by esbuild -> package files -> sizes.
# Usage: scripts/build-pkg.sh [--dev]   (--dev: no wasm-opt and no minification, for quick
# iterations; the sizes are printed, the budget is not enforced)
# With SETTLEMENT_WASM_TEST_HOOKS=1 the browser builds get the test hook (feature `test-hooks`:
# `forceTrapForTests`, exposed by the browser entries as globalThis[Symbol.for("settlement-wasm.test")]),
# for the browser tests of a trapped instance's replacement; such a pkg/ is never published.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

opt=1
[ "${1:-}" = "--dev" ] && opt=0
# Where the package goes: pkg/, or SETTLEMENT_PKG_OUT (the test-hook build's place,
# target/pkg-hooks, for scripts/test-e2e.sh); the sizes are checked for pkg/ only.
out="${SETTLEMENT_PKG_OUT:-pkg}"
export OUT="$out"
name=settlement_wasm
wasm_in="target/wasm32-unknown-unknown/release/$name.wasm"
wasm_opt="node_modules/.bin/wasm-opt"
esbuild=node_modules/.bin/esbuild
# Where the TypeScript shell imports the browser glue from (git-ignored; each browser entry's
# glue is staged there in turn, the root's last), and where tsc writes the shell's declarations.
glue=pkg-template/src/glue
# The server build's glue and .wasm, where the server entries (node.ts, edge.ts) import them.
glue_server=pkg-template/src/glue-server
types=target/ts-types

for t in "$esbuild" node_modules/.bin/tsc; do
  [ -x "$t" ] || { echo "build-pkg: $t missing; run scripts/setup.sh" >&2; exit 1; }
done

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
# The server-only code (feature `server`: the proxy's checks, secret-key operations) never
# enters a browser build, and each per-client entry's build has only its client's code: four
# builds of the cdylib, each copied to its own path before the next one overwrites
# target/.../$name.wasm.
# The test-hook build stages its own copies, so `make size`'s breakdown (of the named builds
# under target/pkg-wasm) always describes the published build.
stage=target/pkg-wasm
[ "${SETTLEMENT_WASM_TEST_HOOKS:-}" = 1 ] && stage=target/pkg-wasm-hooks
wasm_browser=$stage/browser/$name.wasm
wasm_bot=$stage/bot/$name.wasm
wasm_merchant=$stage/merchant/$name.wasm
wasm_server=$stage/server/$name.wasm
build_cdylib() { # build_cdylib FEATURE OUT
  mkdir -p "$(dirname "$2")"
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="${remap# }" \
    cargo rustc --quiet --lib --target wasm32-unknown-unknown --release --features "$1" --crate-type cdylib
  cp "$wasm_in" "$2"
}
hooks=""; hooks_define=false
[ "${SETTLEMENT_WASM_TEST_HOOKS:-}" = 1 ] && { hooks=",test-hooks"; hooks_define=true; }
build_cdylib "npm$hooks" "$wasm_browser"
build_cdylib "npm-bot$hooks" "$wasm_bot"
build_cdylib "npm-merchant$hooks" "$wasm_merchant"
build_cdylib server "$wasm_server"

rm -rf "$out" "$glue" "$glue_server" "$types"
mkdir -p $out/web $out/node $out/edge $out/bot $out/merchant "$glue_server"
# Each browser entry's glue goes where the shell imports it (esbuild bundles it into the
# entry's file: index.js, bot.js, merchant.js), staged in turn; its .wasm into pkg/web/. The
# server build's glue goes where the server entries import it (each bundles it); its .wasm
# into pkg/edge/ (the edge entry imports it as a module; the Node entry embeds its bytes). All
# glues are `--target web`: loading the .wasm is the entries' part, and none reads a file at
# run time.
wasm-bindgen --target web --encode-into always --out-dir "$glue_server" --out-name "$name" "$wasm_server"
mv "$glue_server/${name}_bg.wasm" $out/edge/
rm -f "$glue_server/${name}_bg.wasm.d.ts"

# stage_glue WASM FILE: the glue of the browser build WASM, staged at $glue; its .wasm moved to
# pkg/web/FILE, and the glue's URL of it pointed there (from the bundled entry at pkg/). A copy
# of that .wasm, with its function names (wasm-opt strips them), stays beside WASM as
# named_bg.wasm for the size breakdown (scripts/size.sh).
stage_glue() {
  rm -rf "$glue"
  mkdir -p "$glue"
  wasm-bindgen --target web --encode-into always --out-dir "$glue" --out-name "$name" "$1"
  cp "$glue/${name}_bg.wasm" "$(dirname "$1")/named_bg.wasm"
  mv "$glue/${name}_bg.wasm" "$out/web/$2"
  rm -f "$glue/${name}_bg.wasm.d.ts"
  # JavaScript snippets (`#[wasm_bindgen(module = ...)]`, e.g. src/transport/send.js, the Rust
  # API's transport): the npm build's glue must not need one (the shell does the I/O), and one
  # nothing requires is not shipped.
  if grep -q "from './snippets/\|from \"./snippets/" "$glue/$name.js"; then
    echo "build-pkg: the npm build's glue imports a JavaScript snippet (the TypeScript shell does the I/O)" >&2
    exit 1
  fi
  rm -rf "$glue/snippets"
  # The glue's `new URL("settlement_wasm_bg.wasm", import.meta.url)`, relative to the bundled
  # entry: the .wasm's place in the package, a form bundlers (Vite, webpack, esbuild)
  # recognise. (esbuild leaves the URL as written; wasm-bindgen can only omit it.)
  grep -q "new URL('${name}_bg.wasm', import.meta.url)" "$glue/$name.js" \
    || { echo "build-pkg: the glue's .wasm URL is not where expected (wasm-bindgen changed?)" >&2; exit 1; }
  sed -i "s|new URL('${name}_bg.wasm', import.meta.url)|new URL('./web/$2', import.meta.url)|" "$glue/$name.js"
  initsync_check "$glue/$name.js"
  # The entry makes its instance, and after a trap a fresh one from the same compiled module,
  # with the glue as a factory that keeps the async init (scripts/glue-factory.mjs --init).
  node scripts/glue-factory.mjs "$glue/$name.js" "$glue/factory.js" "$glue/factory.d.ts" --init
}

# initSync's `module instanceof WebAssembly.Module` fails for a module compiled in another
# realm (Next.js edge routes run in a vm context): the glues check the module's tag instead
# (a spoofed tag then fails in `new WebAssembly.Instance`, which checks the real brand).
# Hand-written: wasm-bindgen has no option for it; one line in each glue.
initsync_check() { # initsync_check GLUE.js
  grep -q "if (!(module instanceof WebAssembly.Module)) {" "$1" \
    || { echo "build-pkg: the glue's initSync module check is not where expected (wasm-bindgen changed?)" >&2; exit 1; }
  sed -i "s|if (!(module instanceof WebAssembly.Module)) {|if (Object.prototype.toString.call(module) !== '[object WebAssembly.Module]') {|" "$1"
}

minify=(); [ "$opt" = 1 ] && minify=(--minify)
# Whether the browser entries expose the test hook (browser.ts); false folds it away.
minify+=("--define:SETTLEMENT_WASM_TEST_HOOKS=$hooks_define")
# The per-client browser entries (bot.js, merchant.js), each bundled with its own build's glue
# (esbuild fails if an entry imports a wasm export its build lacks). The root's glue is staged
# last: tsc type-checks the shell against it, and index.js is bundled below.
for entry in bot merchant; do
  [ "$entry" = bot ] && w="$wasm_bot" || w="$wasm_merchant"
  stage_glue "$w" "${entry}_bg.wasm"
  "$esbuild" "pkg-template/src/$entry.ts" --bundle --format=esm "${minify[@]}" --log-level=warning \
    --external:./wasm-load-error.js --outfile="$out/$entry.js"
done
stage_glue "$wasm_browser" "${name}_bg.wasm"

features=(--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext
  --enable-mutable-globals --enable-reference-types --enable-multivalue)
if [ "$opt" = 1 ]; then
  for w in $out/web/*.wasm $out/edge/${name}_bg.wasm; do
    # --strip-target-features: that custom section is for linkers, not engines.
    "$wasm_opt" -Os --flatten --rereloop -Os --converge "${features[@]}" \
      --strip-debug --strip-producers --strip-target-features "$w" -o "$w.opt"
    mv "$w.opt" "$w"
  done
fi
# The Node entry embeds the optimised server .wasm (esbuild's binary loader, from here).
cp $out/edge/${name}_bg.wasm "$glue_server/"

# The server glue: no snippet either, and the same initSync check.
if grep -q "from './snippets/\|from \"./snippets/" "$glue_server/$name.js"; then
  echo "build-pkg: the npm build's glue imports a JavaScript snippet (the TypeScript shell does the I/O)" >&2
  exit 1
fi
rm -rf "$glue_server/snippets"
initsync_check "$glue_server/$name.js"
# The server entries instantiate the server build again after a trap (a fresh instance, its
# own copy of the glue's state): the glue as a factory, `createGlue()` (scripts/glue-factory.mjs).
node scripts/glue-factory.mjs "$glue_server/$name.js" "$glue_server/factory.js" "$glue_server/factory.d.ts"
# The package's declarations of the derived types (node/settlement_wasm.d.ts; see
# scripts/pkg-types.mjs): the server glue's, without wasm-bindgen's init section.
awk '/^export type InitInput = /{exit} {print}' "$glue_server/$name.d.ts" >$out/node/$name.d.ts

# The package's own files. The version comes from Cargo.toml so the two never disagree.
# wasm-bindgen writes a .gitignore and package.json into each out-dir that npm would honour.
version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n1)"
cp pkg-template/package.json pkg-template/README.md pkg-template/index.d.ts pkg-template/node.d.ts \
  pkg-template/bot.d.ts pkg-template/merchant.d.ts pkg-template/merchant-node.d.ts $out/
cp pkg-template/node/package.json $out/node/
sed -i "s/\"version\": \"0.0.0-template\"/\"version\": \"$version\"/" $out/package.json
cp LICENSE* $out/ 2>/dev/null || true

# ---- step: the TypeScript shell ---------------------------------------------------------------
# tsc --strict type-checks pkg-template/src/ against the staged glue and emits its declarations
# (no JavaScript: esbuild bundles below).
node_modules/.bin/tsc -p pkg-template/tsconfig.json

# ---- step: types and metadata (every consumer works out of the box) --------------------------
# Declarations that pass `tsc --strict` without skipLibCheck or extra libs, ESM and CJS
# (index.d.cts for `require`), the public API only: see scripts/pkg-types.mjs.
node scripts/pkg-types.mjs "$out" "$glue" "$types"
# `repository` and `homepage` come from Cargo.toml's `repository` (the one place to set it).
repository="$(sed -n 's/^repository = "\(.*\)"/\1/p' Cargo.toml | head -n1)"
[ -n "$repository" ] || { echo "build-pkg: Cargo.toml has no repository" >&2; exit 1; }
REPOSITORY="$repository" node -e '
  const fs = require("fs");
  const p = JSON.parse(fs.readFileSync(process.env.OUT + "/package.json", "utf8"));
  const out = {};
  for (const [k, v] of Object.entries(p)) {
    out[k] = v;
    if (k === "license") {
      out.repository = { type: "git", url: "git+" + process.env.REPOSITORY + ".git" };
      out.homepage = process.env.REPOSITORY + "#readme";
    }
  }
  fs.writeFileSync(process.env.OUT + "/package.json", JSON.stringify(out, null, 2) + "\n");
'
# ---- end of step: types and metadata ---------------------------------------------------------

# ---- step: bundles ---------------------------------------------------------------------------
# Browser: one JS file, the entry and the glue bundled into pkg/index.js, so a page loads
# index.js and then the .wasm (one request and one round trip fewer than entry -> glue, and one
# gzip stream). wasm-load-error.js, the diagnosis of a failed load, stays a separate file that
# index.js imports only after a failure.
"$esbuild" pkg-template/src/index.ts --bundle --format=esm "${minify[@]}" --log-level=warning \
  --external:./wasm-load-error.js --outfile=$out/index.js
"$esbuild" pkg-template/src/wasm-load-error.ts --format=esm "${minify[@]}" --log-level=warning \
  --outfile=$out/wasm-load-error.js
# Node (also Bun and Deno, through the `node` condition): CommonJS, the server glue bundled in
# and the server .wasm embedded (base64, esbuild's binary loader), instantiated on require: no
# file is read at run time, so a bundled server (Next.js, webpack, Turbopack) needs no copy of
# it. Readable. (import.meta.url, in the glue's default-path branch, is never reached.)
"$esbuild" pkg-template/src/node.ts --bundle --format=cjs --platform=node --log-level=warning \
  --target=node18 --loader:.wasm=binary --log-override:empty-import-meta=silent --outfile=$out/node/index.cjs

# Node ESM entry: re-export the CommonJS entry's names (one instance for import and require),
# by name (`export { ... } from`): Node finds them with its CommonJS lexer, and bundlers and Bun,
# which honour index.cjs's `__esModule` mark, take them from its exports object (a default
# import would give them `exports.default`, the init function).
node -e '
  const m = require(require("path").resolve(process.env.OUT, "node/index.cjs"));
  const names = Object.keys(m).filter((n) => n !== "default" && !n.startsWith("__")).sort();
  const src = "// Generated by scripts/build-pkg.sh: Node ESM entry, re-exporting index.cjs.\n" +
    "export { " + names.join(", ") + " } from \"./index.cjs\";\n" +
    "export { init as default } from \"./index.cjs\";\n";
  require("fs").writeFileSync(process.env.OUT + "/node/index.mjs", src);
'

# Edge runtimes (the `workerd` and `edge-light` conditions: Cloudflare Workers through wrangler,
# Vercel Edge, Next.js edge routes), which compile no WebAssembly from bytes: ESM importing the
# .wasm beside it as a compiled module (`?module`, which wrangler and Next.js both understand),
# instantiated on import.
"$esbuild" pkg-template/src/edge.ts --bundle --format=esm --platform=neutral --log-level=warning \
  "--external:./${name}_bg.wasm?module" --outfile=$out/edge/index.js

# The per-client entries in the server runtimes: their browser bundle's exports, from the
# server entries (pkg/bot/, pkg/merchant/; see scripts/client-entries.mjs).
node scripts/client-entries.mjs "$out"

if [ "$out" != pkg ]; then echo "build-pkg: built into $out (sizes are checked for pkg/ only)"
elif [ "$opt" = 1 ]; then scripts/size.sh; else scripts/size.sh --no-budget; fi
