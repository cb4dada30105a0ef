#!/usr/bin/env bash
# Checks what each published package would look like to its users, after `pnpm build`: publint
# (package.json fields, `exports` against the files in dist) and Are the Types Wrong (every entry
# point, `.`, `./cpu`, `./node`, `./kit`, resolves to its types under Node 16+ ESM and bundlers).
# The packages are ESM-only, so attw runs with the esm-only profile (no CommonJS, no node10).
# Usage: bash scripts/check-packages.sh      (exit status non-zero when a package has a problem)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
status=0
for dir in "$root"/packages/*/; do
  name=$(node -p "require('$dir/package.json').name")
  # A private package is not published yet (e.g. @scan/hisparse before its GPU path): nothing to check.
  if [ "$(node -p "require('$dir/package.json').private === true")" = true ]; then echo "== $name: private, skipped"; continue; fi
  echo "== $name"
  (cd "$dir" && pnpm exec publint --strict) || status=1
  (cd "$dir" && pnpm exec attw --pack . --profile esm-only --format table-flipped) || status=1
done
exit $status
