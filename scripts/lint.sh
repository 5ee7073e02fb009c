#!/usr/bin/env bash
# The `lint` layer of `make test`: rustfmt and clippy (native, and wasm32 without a feature,
# with the npm feature, with each per-client npm feature and with the server feature), each a
# check that passes or fails; the counts are printed as `# pass N` and `# fail N` lines, which scripts/test.sh adds up.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
pass=0; fail=0
check() { # check NAME command...
  local name=$1; shift
  echo "== $name"
  if "$@"; then pass=$((pass + 1)); echo "ok: $name"; else fail=$((fail + 1)); echo "FAILED: $name"; fi
}
check "cargo fmt --check" cargo fmt --all --check
check "clippy (native, all targets)" cargo clippy --quiet --workspace --all-targets -- -D warnings
check "clippy (native, typescript and reqwest features)" cargo clippy --quiet -p settlement-wasm --all-targets --features typescript,reqwest -- -D warnings
check "clippy (native, server feature)" cargo clippy --quiet -p settlement-wasm --all-targets --features server -- -D warnings
check "clippy (wasm32, library)" cargo clippy --quiet -p settlement-wasm --lib --target wasm32-unknown-unknown -- -D warnings
check "clippy (wasm32, npm feature)" cargo clippy --quiet -p settlement-wasm --lib --target wasm32-unknown-unknown --features npm -- -D warnings
check "clippy (wasm32, npm-bot feature)" cargo clippy --quiet -p settlement-wasm --lib --target wasm32-unknown-unknown --features npm-bot -- -D warnings
check "clippy (wasm32, npm-merchant feature)" cargo clippy --quiet -p settlement-wasm --lib --target wasm32-unknown-unknown --features npm-merchant -- -D warnings
check "clippy (wasm32, server feature)" cargo clippy --quiet -p settlement-wasm --lib --target wasm32-unknown-unknown --features server -- -D warnings
# The sandbox's core as the testing package builds it (wasm32, no HTTP server, the fake's binding).
check "clippy (wasm32, sandbox core with the fake)" cargo clippy --quiet -p settlement-sandbox --lib --target wasm32-unknown-unknown --no-default-features --features fake -- -D warnings
# The wasm suites read the sandbox's URL and keys at compile time: placeholders here.
check "clippy (wasm32, test suites)" env SANDBOX_URL=http://127.0.0.1:9 AGENT_KEY=SBX-SECK_lint \
  AGENT2_KEY=SBX-SECK_lint AGENT3_KEY=SBX-SECK_lint MERCHANT_PUBLIC_KEY=SBX-PUBK_lint \
  MERCHANT_SECRET_KEY=SBX-SECK_lint \
  cargo clippy --quiet -p settlement-wasm --tests --target wasm32-unknown-unknown --features npm -- -D warnings
echo "# pass $pass"
echo "# fail $fail"
[ "$fail" = 0 ]
