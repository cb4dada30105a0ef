#!/usr/bin/env bash
# Installs the packages as a user would, after `pnpm build`: packs every package (`pnpm pack`
# rewrites the workspace ranges), installs the tarballs with `webgpu` into a fresh npm project outside
# the workspace, typechecks scripts/install-check/example.ts with tsc — strict, no @webgpu/types in
# its tsconfig, declaration files checked too (no skipLibCheck) — and runs it in Node on the adapter
# Dawn finds (SwiftShader when there is no GPU), each result compared with the CPU reference.
# Usage: bash scripts/check-install.sh      (exit status non-zero on any failure)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tarballs" "$work/app"
for dir in "$root"/packages/*/; do
  # Private packages are not published, so users cannot install them: leave them out.
  if [ "$(node -p "require('$dir/package.json').private === true")" = true ]; then continue; fi
  (cd "$dir" && pnpm pack --pack-destination "$work/tarballs" >/dev/null)
done
ls "$work/tarballs"
cp "$root/scripts/install-check/example.ts" "$root/scripts/install-check/tsconfig.json" "$work/app/"
cd "$work/app"
cat > package.json <<'JSON'
{ "name": "scan-install-check", "private": true, "type": "module" }
JSON
# The versions the workspace itself uses, so the check does not drift with new releases.
webgpu=$(node -p "require('$root/packages/core/package.json').devDependencies.webgpu")
typescript=$(node -p "require('$root/package.json').devDependencies.typescript")
types_node=$(node -p "require('$root/package.json').devDependencies['@types/node']")
npm install --no-audit --no-fund --loglevel=error "$work"/tarballs/*.tgz "webgpu@$webgpu" "typescript@$typescript" "@types/node@$types_node"
npx tsc -p tsconfig.json
node out/example.js
