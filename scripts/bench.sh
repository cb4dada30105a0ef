#!/usr/bin/env bash
# Builds and runs the benchmark runner (apps/bench) on this machine's adapter (the GPU, or
# SwiftShader without one); arguments go to its CLI. Setup messages go to stderr, so stdout is the
# benchmark's own. To run it on another machine (a GPU host, with or without Node and a package
# registry there) and bring the report back, use scripts/remote-bench.sh.
# Usage: bash scripts/bench.sh [bench CLI arguments...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

bash scripts/setup.sh
# "@scan/bench..." builds the workspace packages the bench imports first, then the bench.
pnpm --filter "@scan/bench..." build >&2
exec node apps/bench/dist/cli.js "$@"
