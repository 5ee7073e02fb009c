#!/usr/bin/env bash
# `make demo`: set-up, build the package, start the sandbox (which serves www/ and pkg/) and
# the demo server in front of it (scripts/demo-server.mjs: the page's origin, with the server
# proxy route POST /api/bot built with createProxyHandler), and print the URL and the demo
# keys. Ctrl-C stops both.
#   PORT=8787 (the dashboard's port, default 8787; 0 picks a free port). The sandbox itself
#   runs on a free port.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
scripts/setup.sh --no-browser
scripts/build-pkg.sh
export DEMO_PORT="${PORT:-8787}"
# --new-order-every: the demo agent receives a new pending order every 20 s (the live queue).
exec scripts/with-sandbox.sh --new-order-every 20 -- bash -c '
  echo
  echo "The sandbox service: $SANDBOX_URL (its demo keys below). Ctrl-C stops the demo."
  echo "  AGENT_KEY=$AGENT_KEY"
  echo "  MERCHANT_PUBLIC_KEY=$MERCHANT_PUBLIC_KEY"
  echo "  MERCHANT_SECRET_KEY=$MERCHANT_SECRET_KEY"
  echo "The demo agent receives a new pending order every 20 s (watch the incoming-orders queue)."
  echo "The dashboard is the demo server URL below: connect directly (the agent key in the page),"
  echo "or \"through the server proxy\" (POST /api/bot on the demo server holds the key; none in the page)."
  echo
  exec node scripts/demo-server.mjs "$DEMO_PORT"
'
