#!/usr/bin/env bash
# Idempotent set-up: every tool the build and the tests need. Takes seconds when all is present.
# Usage: scripts/setup.sh [--no-browser]
set -euo pipefail
cd "$(dirname "$0")/.."

# The wasm-bindgen CLI must be the version of the wasm-bindgen crate in Cargo.lock (Cargo.toml
# only has a caret requirement): the `version` of its `[[package]]` entry.
[ -f Cargo.lock ] || { echo "setup: Cargo.lock missing (the wasm-bindgen version is read from it)" >&2; exit 1; }
WASM_BINDGEN_VERSION="$(awk '
  /^\[\[package\]\]/ { name = "" }
  /^name = / { name = $3 }
  /^version = / && name == "\"wasm-bindgen\"" { v = $3; gsub(/"/, "", v); print v }
' Cargo.lock)"
case "$WASM_BINDGEN_VERSION" in
  "") echo "setup: no [[package]] wasm-bindgen with a version in Cargo.lock" >&2; exit 1 ;;
  *[!0-9.]*) echo "setup: Cargo.lock has more than one wasm-bindgen (or an unexpected version): $(echo $WASM_BINDGEN_VERSION)" >&2; exit 1 ;;
esac
want_browser=1
[ "${1:-}" = "--no-browser" ] && want_browser=0

log() { printf '[setup] %s\n' "$*"; }

export PATH="$HOME/.cargo/bin:$PATH"

# 1. wasm32 target
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# 2. wasm-bindgen CLI of exactly the locked version (not --locked: its lockfile wants a
#    crate version this registry lacks).
have="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)"
if [ "$have" != "$WASM_BINDGEN_VERSION" ]; then
  log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (was: ${have:-none}); takes a few minutes"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

# 2b. the wasm-bindgen CLI of the crate's declared minimum (Cargo.toml's `wasm-bindgen`
#     requirement), in a repo-local root: scripts/test-wasm-minimums.sh runs the wasm tests with
#     the lockfile moved to that minimum, and the test runner must match it. Not --locked (as above).
WASM_BINDGEN_MIN="$(awk -F'"' '$1 == "wasm-bindgen = " { print $2; exit }' Cargo.toml)"
min_root="target/tools/wasm-bindgen-$WASM_BINDGEN_MIN"
if [ "$("$min_root/bin/wasm-bindgen-test-runner" --version 2>/dev/null | awk '{print $2}')" != "$WASM_BINDGEN_MIN" ]; then
  log "installing wasm-bindgen-cli $WASM_BINDGEN_MIN (the declared minimum) into $min_root; takes a few minutes"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_MIN" --root "$min_root" --force
fi

# 3. npm dev dependencies (binaryen's wasm-opt, typescript, playwright-core; express and hono for
#    the JS layer's run of the README's proxy routes) from the lockfile
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi

# 3b. the consumers layer's pinned tools (Vite, webpack, esbuild, Rollup, TypeScript 5 and the
#     newest major, @types/node) from their own lockfile (scripts/test-consumers.sh)
if [ ! -d tests/consumers/node_modules ] || [ tests/consumers/package-lock.json -nt tests/consumers/node_modules/.package-lock.json ]; then
  log "npm ci (tests/consumers)"
  (cd tests/consumers && npm ci --no-audit --no-fund --loglevel=error)
fi
# 3c. the consumers layer's runtimes and frameworks (Node 22 for them, Bun, Deno, wrangler with
#     workerd, Next.js with React) from their own lockfile; binaries from the npm registry.
d=tests/consumers/runtimes
if [ ! -d $d/node_modules ] || [ $d/package-lock.json -nt $d/node_modules/.package-lock.json ]; then
  log "npm ci ($d)"
  (cd $d && npm ci --no-audit --no-fund --loglevel=error)
fi
# 3d. the testing package's examples' tools (Vitest, Jest, jsdom, React Testing Library, and
#     Vitest's browser mode: @vitest/browser with playwright, driving the system's Chromium, so
#     no browser is downloaded), from their own lockfile (tests/consumers/testing.test.mjs)
d=tests/consumers/testing
if [ ! -d $d/node_modules ] || [ $d/package-lock.json -nt $d/node_modules/.package-lock.json ]; then
  log "npm ci ($d)"
  (cd $d && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
fi
d=tests/consumers/types-node-latest   # the newest @types/node, apart from the runtime's major
if [ ! -d $d/node_modules ] || [ $d/package-lock.json -nt $d/node_modules/.package-lock.json ]; then
  log "npm ci ($d)"
  (cd $d && npm ci --no-audit --no-fund --loglevel=error)
fi

# 4. Chromium + ChromeDriver from Debian (browser tests, Playwright)
if [ "$want_browser" = 1 ] && { ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; }; then
  log "installing chromium and chromium-driver (apt)"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
fi
log "ok: $(wasm-bindgen --version), wasm-opt $(node_modules/.bin/wasm-opt --version 2>/dev/null | awk '{print $3}')${want_browser:+, $(chromium --version 2>/dev/null || true)}"
