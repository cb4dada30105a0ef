#!/usr/bin/env bash
# Installs the packages as a user would, after `pnpm build`: packs every package (`pnpm pack`
# rewrites the workspace ranges; each tarball must hold the root LICENSE and its CHANGELOG), installs the tarballs with `webgpu` into a fresh npm project outside
# the workspace, typechecks scripts/install-check/example.ts with tsc — strict, no @webgpu/types in
# its tsconfig, declaration files checked too (no skipLibCheck) — and runs it in Node on the adapter
# Dawn finds (SwiftShader when there is no GPU), each result compared with the CPU reference.
# Then it runs scripts/install-check/destroy-after-loss.ts (issue 46: a destroyed device, a call
# rejected with DEVICE_LOST, ctx.destroy(), with @scan/sort imported) in several fresh `node`
# processes, since the crash it guards against came at exit: any non-zero status or timeout fails.
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
# Every tarball carries the repository's LICENSE (each package copies it in before packing: prepack).
for tarball in "$work"/tarballs/*.tgz; do
  tar -xzOf "$tarball" package/LICENSE | cmp -s - "$root/LICENSE" || { echo "check-install: $(basename "$tarball") has no LICENSE, or another one" >&2; exit 1; }
  # ...and its changelog, with a section for the version it is (written by `pnpm changeset version`).
  version=$(tar -xzOf "$tarball" package/package.json | node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.parse(s).version))")
  # (Read whole first: `grep -q` would stop reading early, and pipefail would count tar's broken pipe.)
  changelog=$(tar -xzOf "$tarball" package/CHANGELOG.md 2>/dev/null || true)
  grep -qx "## $version" <<<"$changelog" || { echo "check-install: $(basename "$tarball") has no CHANGELOG.md with a '## $version' section" >&2; exit 1; }
done
cp "$root"/scripts/install-check/{example.ts,destroy-after-loss.ts,tsconfig.json} "$work/app/"
cd "$work/app"
cat > package.json <<'JSON'
{ "name": "scan-install-check", "private": true, "type": "module" }
JSON
# The versions the workspace itself uses, so the check does not drift with new releases.
webgpu=$(node -p "require('$root/packages/core/package.json').devDependencies.webgpu")
typescript=$(node -p "require('$root/package.json').devDependencies.typescript")
types_node=$(node -p "require('$root/package.json').devDependencies['@types/node']")
# The newer majors a user may have, side by side under aliases (their `tsc` runs from its alias).
newer_typescripts=(6.0.3 7.0.2)
aliases=()
for v in "${newer_typescripts[@]}"; do aliases+=("typescript-${v%%.*}@npm:typescript@$v"); done
npm install --no-audit --no-fund --loglevel=error "$work"/tarballs/*.tgz "webgpu@$webgpu" "typescript@$typescript" "@types/node@$types_node" "${aliases[@]}"
# A Node project's tsconfig: no DOM in its libs.
node -e "const c=require('./tsconfig.json'); c.compilerOptions.lib=['es2022']; c.compilerOptions.noEmit=true; require('fs').writeFileSync('tsconfig.node-libs.json', JSON.stringify(c))"
for tsc in node_modules/typescript/bin/tsc $(for v in "${newer_typescripts[@]}"; do echo "node_modules/typescript-${v%%.*}/bin/tsc"; done); do
  for config in tsconfig.json tsconfig.node-libs.json; do
    echo "typecheck: $("$tsc" --version), $config"
    if [ "$tsc" = node_modules/typescript/bin/tsc ] && [ "$config" = tsconfig.json ]; then "$tsc" -p "$config"; else "$tsc" -p "$config" --noEmit; fi
  done
done
node out/example.js
# Each run a process of its own: the crash came as Node exited (status 134 or 139, now and then a
# hang), after the script's last line. A clean run takes about a second on SwiftShader.
runs=5
failed=0
for run in $(seq "$runs"); do
  status=0
  timeout -k 5 30 node --expose-gc out/destroy-after-loss.js >destroy.log 2>&1 || status=$?
  if [ "$status" -eq 0 ]; then continue; fi
  case $status in
    124 | 137) why='timed out after 30 s' ;;
    134) why='aborted (SIGABRT)' ;;
    139) why='segmentation fault (SIGSEGV)' ;;
    *) why="exit status $status" ;;
  esac
  echo "check-install: destroy-after-loss.ts, run $run of $runs: $why; its output:" >&2
  sed 's/^/  | /' destroy.log >&2
  failed=$((failed + 1))
done
if [ "$failed" -gt 0 ]; then
  echo "check-install: the destroy sequence failed in $failed of $runs runs" >&2
  exit 1
fi
echo "ok  destroy sequence after a lost device: $runs of $runs runs exited cleanly"
