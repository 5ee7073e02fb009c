#!/usr/bin/env bash
# Start the sandbox service on free ports, run a command with its URL and keys in the
# environment, then stop the sandbox by PID (also on failure or Ctrl-C).
#   scripts/with-sandbox.sh [--release] [sandbox args...] -- command [args...]
# Exports: SANDBOX_URL, SANDBOX_RAMP_URL, AGENT_KEY, AGENT2_KEY, AGENT3_KEY,
#          MERCHANT_PUBLIC_KEY, MERCHANT_SECRET_KEY, SANDBOX_PID.
set -euo pipefail
cd "$(dirname "$0")/.."
profile=debug; build_flag=()
if [ "${1:-}" = "--release" ]; then profile=release; build_flag=(--release); shift; fi
sandbox_args=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do sandbox_args+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "usage: $0 [--release] [sandbox args] -- command [args]" >&2; exit 2; }

cargo build --quiet -p settlement-sandbox "${build_flag[@]}"
bin="target/$profile/settlement-sandbox"
mkdir -p target/sandbox-logs
tmp="$(mktemp -d)"
out="$tmp/sandbox.out"
SANDBOX_PID=""
# Stop the sandbox by PID: SIGTERM, up to 5 s for it to exit, then SIGKILL. Then remove the
# temporary directory. Installed before the sandbox starts, so no exit path leaves it running.
stop() {
  if [ -n "$SANDBOX_PID" ] && kill -0 "$SANDBOX_PID" 2>/dev/null; then
    kill "$SANDBOX_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do
      kill -0 "$SANDBOX_PID" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$SANDBOX_PID" 2>/dev/null; then
      echo "with-sandbox: sandbox (pid $SANDBOX_PID) ignored SIGTERM for 5 s; sending SIGKILL" >&2
      kill -9 "$SANDBOX_PID" 2>/dev/null || true
    fi
    wait "$SANDBOX_PID" 2>/dev/null || true
  fi
  SANDBOX_PID=""
  rm -rf "$tmp"
}
trap stop EXIT
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM
"$bin" --port 0 --ramp-port 0 "${sandbox_args[@]}" >"$out" 2>target/sandbox-logs/stderr.log &
SANDBOX_PID=$!

for _ in $(seq 1 300); do
  grep -q '^SANDBOX_READY' "$out" 2>/dev/null && break
  kill -0 "$SANDBOX_PID" 2>/dev/null || { echo "sandbox exited early:" >&2; cat target/sandbox-logs/stderr.log >&2; exit 1; }
  sleep 0.1
done
grep -q '^SANDBOX_READY' "$out" || { echo "sandbox did not become ready in 30 s" >&2; exit 1; }
while IFS='=' read -r k v; do
  case "$k" in SANDBOX_URL|SANDBOX_RAMP_URL|AGENT_KEY|AGENT2_KEY|AGENT3_KEY|MERCHANT_PUBLIC_KEY|MERCHANT_SECRET_KEY) export "$k=$v" ;; esac
done <"$out"
export SANDBOX_PID
"$@"
