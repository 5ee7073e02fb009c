#!/usr/bin/env bash
# `make screenshots`: the demo dashboard at desktop (1280x900, full page) and phone
# (390x844, first screen at 2x) width, against a fresh sandbox, in Debian's Chromium through
# playwright-core. Writes target/screenshots/demo-{desktop,phone,phone-full}.png and copies
# docs/demo-desktop.png and docs/demo-phone.png. Builds pkg/ first if it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
[ -f pkg/index.js ] || scripts/build-pkg.sh
[ -d node_modules/playwright-core ] || { echo "screenshots: node_modules/playwright-core missing; run scripts/setup.sh" >&2; exit 1; }
mkdir -p target/screenshots docs
scripts/with-sandbox.sh -- node tests/e2e/screenshots.mjs
