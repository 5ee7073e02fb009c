#!/usr/bin/env bash
# `make screenshots`: the demo dashboard at desktop (1280x900, full page) and phone
# (390x844, first screen at 2x) width, against a fresh sandbox, in Debian's Chromium through
# playwright-core. Writes target/screenshots/demo-{desktop,phone,phone-full,proxy-desktop,payments}.png
# (proxy-desktop: connected through the server proxy, scripts/demo-server.mjs; payments: its
# Payments panel after a hosted payment moved to completed by webhook) and copies
# docs/demo-desktop.png, docs/demo-phone.png, docs/demo-proxy-desktop.png and
# docs/demo-payments.png. Always rebuilds
# pkg/ first (scripts/build-pkg.sh; cheap when nothing changed), so the pictures show the
# current sources, never a stale build.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
scripts/build-pkg.sh
[ -d node_modules/playwright-core ] || { echo "screenshots: node_modules/playwright-core missing; run scripts/setup.sh" >&2; exit 1; }
mkdir -p target/screenshots docs
scripts/with-sandbox.sh -- node tests/e2e/screenshots.mjs
