#!/usr/bin/env bash
# Builds and runs the benchmark runner (apps/bench) on this machine's adapter (the GPU, or
# SwiftShader without one); arguments go to its CLI. Setup messages go to stderr, so stdout is the
# benchmark's own. On the lent H100/H200 use ../shared/gpu/README.md instead (no registry there).
# Usage: bash scripts/bench.sh [bench CLI arguments...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

bash scripts/setup.sh
# "@scan/bench..." builds the workspace packages the bench imports first, then the bench.
pnpm --filter "@scan/bench..." build >&2
exec node apps/bench/dist/cli.js "$@"
