#!/usr/bin/env bash
# A profiling variant of the browser package in target/prof-root/pkg: the same wasm32 release
# build and wasm-opt passes as scripts/build-pkg.sh, but the name section kept (-g) and the
# glue neither minified nor import-renamed, so a CPU profile names every wasm and glue
# function. Run scripts/build-pkg.sh first (this reuses its pkg/ for the other files).
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$HOME/.cargo/bin:$PATH"
name=settlement_wasm
out=target/prof-root
rm -rf "$out" && mkdir -p "$out/www" "$out/pkg/web"
cp -R pkg/. "$out/pkg/"
wasm-bindgen --target web --encode-into always --keep-debug --out-dir "$out/pkg/web" --out-name "$name" \
  "target/wasm32-unknown-unknown/release/$name.wasm"
features=(--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext
  --enable-mutable-globals --enable-reference-types --enable-multivalue)
w="$out/pkg/web/${name}_bg.wasm"
node_modules/.bin/wasm-opt -g -Os --flatten --rereloop -Os --converge "${features[@]}" "$w" -o "$w.opt"
mv "$w.opt" "$w"
# The TypeScript shell bundled with this glue: the sources copied beside it (the package
# build's staged glue in pkg-template/src/glue/ is left alone).
cp -R pkg-template/src "$out/src"
rm -rf "$out/src/glue" && mkdir -p "$out/src/glue"
mv "$out/pkg/web/$name.js" "$out/pkg/web/$name.d.ts" "$out/src/glue/"
rm -f "$out/pkg/web/${name}_bg.wasm.d.ts"
glue="$out/src/glue/$name.js"
sed -i "s|new URL('${name}_bg.wasm', import.meta.url)|new URL('./web/${name}_bg.wasm', import.meta.url)|" "$glue"
node_modules/.bin/esbuild --bundle --format=esm --log-level=warning --tsconfig=pkg-template/tsconfig.json \
  --external:./wasm-load-error.js "$out/src/index.ts" --outfile="$out/pkg/index.js"
rm -rf "$out/src"
cp tests/bench/page/* "$out/www/"
mkdir -p "$out/www/vendor"
node_modules/.bin/esbuild --bundle --format=esm --minify --log-level=warning \
  --outfile="$out/www/vendor/graphql-request.js" node_modules/graphql-request/build/entrypoints/main.js
echo "profile build in $out"
