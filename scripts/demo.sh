#!/usr/bin/env bash
# `make demo`: set-up, build the package, start the sandbox (which also serves www/ and pkg/
# on the same origin) and print the URL and the demo keys. Ctrl-C stops it.
#   PORT=8787 (default; 0 picks a free port)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
scripts/setup.sh --no-browser
scripts/build-pkg.sh
cargo build --quiet -p settlement-sandbox
port="${PORT:-8787}"
echo
echo "Starting the sandbox service on 127.0.0.1:$port (PORT=0 picks a free port). Ctrl-C stops it."
echo "The demo dashboard is the SANDBOX_URL below; the keys are the sandbox's demo keys."
echo "The demo agent receives a new pending order every 20 s (watch the incoming-orders queue)."
echo
# --new-order-every: the demo agent receives a new pending order every 20 s (the live queue).
exec target/debug/settlement-sandbox --port "$port" --ramp-port 0 --new-order-every 20
