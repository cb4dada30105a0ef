#!/usr/bin/env bash
# Runs every check of the repository after scripts/setup.sh (idempotent): build, the published
# packages' shape (publint, attw), a fresh project installing the packed packages (typechecked with
# tsc and run in Node), lint, typecheck, the documentation's examples (every `@example` and
# ```ts block typechecked strictly: scripts/check-examples), the documentation site (TypeDoc,
# warnings as errors) and the tests (GPU tests in headless Chromium, the Node projects on Dawn —
# the root README's example among them —, the portability suite on wgpu under Deno —
# scripts/test-wgpu.sh; SwiftShader when there is no GPU). Every step runs even
# when an earlier one failed, so one run shows everything; the exit status is non-zero when any
# step failed. The last line sums the tests' counts: "N passed, N failed".
#
# The build runs first although turbo would build dependencies for typecheck and test on its own
# (their "^build"): it also checks the packages nothing depends on, and fails in one visible place.
# Usage: bash scripts/test.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

bash scripts/setup.sh

test_log=$(mktemp)
trap 'rm -f "$test_log"' EXIT
failed_steps=()

# step NAME LOG COMMAND...: runs COMMAND, copying its output to LOG, and records a failure.
step() {
  local name=$1 log=$2
  shift 2
  echo "== $name: $*"
  local start=$SECONDS
  if "$@" 2>&1 | tee -a "$log"; then
    echo "== $name: ok ($((SECONDS - start)) s)"
  else
    echo "== $name: FAILED ($((SECONDS - start)) s)"
    failed_steps+=("$name")
  fi
}

# --continue: turbo goes on with the other packages after one fails, so all failures show at once.
step build /dev/null pnpm build --continue
step packages /dev/null bash scripts/check-packages.sh
step install /dev/null bash scripts/check-install.sh
step lint /dev/null pnpm lint
step typecheck /dev/null pnpm typecheck --continue
step examples /dev/null node scripts/check-examples/run.mjs
step docs /dev/null pnpm run docs
# `pnpm test` runs two packages' tests at a time (turbo --concurrency=2): on SwiftShader one package
# keeps about one core busy (its browser's GPU process compiles pipelines on one thread), so on CI's
# two cores a second package in its own browser takes the other (tridiag and spmv: 358 s one after
# the other, 264 s side by side, 2026-12-07).
step test "$test_log" pnpm test --continue
step wgpu "$test_log" bash scripts/test-wgpu.sh

# Sum the "Tests  3 failed | 40 passed (43)" lines of every vitest run (turbo prefixes them with
# the package and task; colours are stripped first) and the wgpu suite's "40 passed, 3 failed".
counts=$(sed 's/\x1b\[[0-9;]*[A-Za-z]//g' "$test_log" | awk '
  /^[0-9]+ passed, [0-9]+ failed$/ { p += $1; f += $3; next }
  /Tests[ \t]+[0-9]/ && !/Test Files/ {
    if (match($0, /[0-9]+ passed/)) p += substr($0, RSTART, RLENGTH - 7)
    if (match($0, /[0-9]+ failed/)) f += substr($0, RSTART, RLENGTH - 7)
  }
  END { printf "%d passed, %d failed\n", p, f }')

# Name the failed tests again at the very end: CI keeps only the tail of a run's output, and a
# failure printed 50 minutes earlier is otherwise lost (vitest's "FAIL  file > test" lines,
# the wgpu suite's "FAIL name" lines; turbo's prefixes and colours kept out).
failures=$(sed 's/\x1b\[[0-9;]*[A-Za-z]//g' "$test_log" | sed -E 's/^[^ ]+:test: //' |
  grep -E '^ *FAIL ' | sort -u | head -n 40 || true)

if [ ${#failed_steps[@]} -gt 0 ]; then
  [ -n "$failures" ] && printf 'failed tests:\n%s\n' "$failures"
  echo "failed steps: ${failed_steps[*]}"
  echo "$counts"
  exit 1
fi
echo "$counts"
