#!/usr/bin/env bash
# Runs the benchmark (apps/bench) on another machine — typically one with the GPU you want numbers
# for — and brings its results back here. Everything goes through one command that runs a shell
# line on that machine with stdin and stdout connected (ssh by default; docker exec, kubectl exec
# or any other works too), so the machine needs no shared folder, no git and no scp.
#
# Two ways to run there:
#   default   the checkout as it is here (tracked and untracked files, not what .gitignore ignores)
#             is copied, and `scripts/bench.sh` runs there: it installs what is missing (Chromium,
#             pnpm, the dependencies; Node.js >= 20.19 must be there), builds and benchmarks.
#   --bundle  for a machine without Node.js, pnpm or a package registry: the bench is built here
#             into one file (apps/bench/dist), and sent beside the checkout with this machine's
#             `node` binary and the `webgpu` package (Dawn) for linux-x64; with --vulkan-loader also
#             Debian's Vulkan loader and the GL dispatch libraries NVIDIA's Vulkan driver links against.
#
# Results: what the run writes under $OUT there comes back to --out here: bench.json (the report the
# dashboard reads) and table.txt (the table it printed). Progress shows on stderr as it runs.
#
# Usage: bash scripts/remote-bench.sh (--host HOST | --via 'CMD') [options] [-- bench arguments]
# Run with --help for the options. Examples:
#   bash scripts/remote-bench.sh --host me@gpu-box -- --large --only copy,scan,sort
#   bash scripts/remote-bench.sh --via 'docker exec -i bench sh -c' --bundle -- --sizes 2^24
#   bash scripts/remote-bench.sh --host gpu-box --bundle --carry apps/bench/dist-luma \
#     --run 'bash apps/bench/baselines/luma/gpu-run.sh "$OUT" "$COMMIT"'
set -euo pipefail

usage() {
  sed -n '/^# Runs the benchmark/,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
  cat <<'EOF'

Options:
  --host HOST        ssh destination (user@host, or a Host of ~/.ssh/config); the same as --via 'ssh HOST'
  --via 'CMD'        a command that runs the shell line given as its last argument on the machine,
                     with stdin and stdout connected: 'ssh -p 2222 me@gpu-box',
                     'docker exec -i bench sh -c', 'kubectl exec -i bench-pod -- sh -c'
  --dir DIR          working folder there (default /tmp/scan-bench-<commit>; replaced on every run)
  --bundle           build here and send the bundle, node and Dawn (see above) instead of the checkout
  --vulkan-loader    with --bundle: also send libvulkan1 and the GL dispatch libraries (downloaded here
                     with `apt-get download`; this machine must be Debian or Ubuntu like the remote one)
  --carry PATH       with --bundle: send this built path too (repeatable), e.g. apps/bench/dist-luma
  --no-build         with --bundle: send apps/bench/dist as it is (built before with
                     `pnpm --filter "@scan/bench..." build`)
  --run 'CMD'        run CMD there (a bash line, in the copy's root) instead of the bench; $OUT is the
                     folder whose files come back, $COMMIT the commit, node is on PATH
  --env NAME=VALUE   set this variable there (repeatable), e.g. VK_DRIVER_FILES=/path/to/nvidia_icd.json
  --out DIR          where the results land here (default bench-results/remote-<date>-<commit>)
  --keep             leave the working folder there (default: removed after the results are fetched)
  --help             this text

Arguments after `--` go to the bench's command line (see `bash scripts/bench.sh --help`); --commit and
--out are added. SCAN_DAWN_TOGGLES, when set here, is passed on; otherwise the run there gets
"enable-dawn-features=allow_unsafe_apis,vulkan_enable_f16_on_nvidia disable-dawn-features=timestamp_quantization"
(f16 and subgroup matrices on NVIDIA, exact timestamps), which other adapters ignore.
EOF
}

say() { echo "remote-bench: $*" >&2; }
die() {
  say "$*"
  exit 1
}

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

via=()
dir=''
bundle=false
vulkan=false
carry=()
build=true
run=''
envs=()
out=''
keep=false
bench_args=()
while [ $# -gt 0 ]; do
  case $1 in
    --host) [ $# -ge 2 ] || die "--host needs a value"; via=(ssh "$2"); shift 2 ;;
    --via) [ $# -ge 2 ] || die "--via needs a value"; read -r -a via <<<"$2"; shift 2 ;;
    --dir) [ $# -ge 2 ] || die "--dir needs a value"; dir=$2; shift 2 ;;
    --bundle) bundle=true; shift ;;
    --vulkan-loader) vulkan=true; shift ;;
    --carry) [ $# -ge 2 ] || die "--carry needs a value"; carry+=("$2"); shift 2 ;;
    --no-build) build=false; shift ;;
    --run) [ $# -ge 2 ] || die "--run needs a value"; run=$2; shift 2 ;;
    --env)
      [ $# -ge 2 ] || die "--env needs a value"
      [[ $2 =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] || die "--env \"$2\": expected NAME=VALUE"
      envs+=("$2"); shift 2 ;;
    --out) [ $# -ge 2 ] || die "--out needs a value"; out=$2; shift 2 ;;
    --keep) keep=true; shift ;;
    --help | -h) usage; exit 0 ;;
    --) shift; bench_args=("$@"); break ;;
    *) die "unknown option \"$1\" (bench arguments go after --; see --help)" ;;
  esac
done
[ ${#via[@]} -gt 0 ] || die "say where to run: --host HOST or --via 'CMD' (see --help)"
if [ "$vulkan" = true ] || [ ${#carry[@]} -gt 0 ] || [ "$build" = false ]; then
  [ "$bundle" = true ] || die "--vulkan-loader, --carry and --no-build go with --bundle"
fi

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
# The report records the commit; say when the tree sent is not exactly that commit.
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then commit="$commit+changes"; fi
dir=${dir:-/tmp/scan-bench-${commit//+/-}}
out=${out:-bench-results/remote-$(date -u +%Y%m%dT%H%M%SZ)-${commit//+/-}}
case $dir in /*) ;; *) die "--dir \"$dir\": expected an absolute path" ;; esac

# Runs one shell line there. Each argument is quoted so that the remote shell sees it unchanged.
remote() { "${via[@]}" "$1"; }
quote() { printf '%q' "$1"; }

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# 1. What to send.
if [ "$bundle" = true ]; then
  if [ "$build" = true ]; then
    say "building the bench bundle here (pnpm --filter \"@scan/bench...\" build)"
    pnpm --filter "@scan/bench..." build >&2
  fi
  [ -f apps/bench/dist/cli.js ] || die "apps/bench/dist/cli.js is missing: build it (pnpm --filter \"@scan/bench...\" build)"
fi
# The checkout as it is (a few MB): the scripts and baselines a --run line may call come along.
say "packing the checkout (files git tracks or would track; not node_modules, dist, …)"
mkdir -p "$stage/tree"
git ls-files -z --cached --others --exclude-standard | tar --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -xf - -C "$stage/tree"
if [ "$bundle" = true ]; then
  kit="$stage/tree/.remote"
  mkdir -p "$kit/bin" "$stage/tree/node_modules/webgpu/dist"
  cp -r apps/bench/dist "$stage/tree/apps/bench/dist"
  for path in "${carry[@]}"; do
    [ -e "$path" ] || die "--carry $path: no such file or folder here (build it first)"
    mkdir -p "$stage/tree/$(dirname "$path")"
    cp -rL "$path" "$stage/tree/$path"
  done
  # This machine's node: an x86-64 Linux binary that needs only glibc and libstdc++.
  node_bin=$(readlink -f "$(command -v node)")
  cp "$node_bin" "$kit/bin/node"
  # Dawn for Node: the `webgpu` package that @scan/core/node loads, linux-x64 build only.
  webgpu=$(cd packages/core && node -p "require('path').dirname(require.resolve('webgpu/package.json'))")
  cp "$webgpu/package.json" "$webgpu/index.js" "$stage/tree/node_modules/webgpu/"
  cp -r "$webgpu/dist/linux-x64" "$stage/tree/node_modules/webgpu/dist/"
  if [ "$vulkan" = true ]; then
    say "downloading the Vulkan loader and the GL dispatch libraries (apt-get download)"
    mkdir -p "$kit/debs"
    (cd "$kit/debs" && apt-get download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 >&2) ||
      die "apt-get download failed: run \`apt-get update\` here, or leave out --vulkan-loader if the machine has libvulkan.so.1"
  fi
fi
tar -C "$stage/tree" -czf "$stage/pack.tgz" .
say "sending $(du -h "$stage/pack.tgz" | cut -f1) to $(printf '%s ' "${via[@]}")into $dir"
remote "rm -rf $(quote "$dir") && mkdir -p $(quote "$dir") && tar -xzf - -C $(quote "$dir")" <"$stage/pack.tgz"

# 2. The run there. Its environment first: what --env gives, the Dawn toggles, and in bundle mode
#    node on PATH, the Vulkan libraries sent, NVIDIA's ICD where its container runtime mounts it.
toggles=${SCAN_DAWN_TOGGLES:-"enable-dawn-features=allow_unsafe_apis,vulkan_enable_f16_on_nvidia disable-dawn-features=timestamp_quantization"}
line="set -e; cd $(quote "$dir"); export OUT=$(quote "$dir/out") COMMIT=$(quote "$commit") SCAN_DAWN_TOGGLES=$(quote "$toggles"); mkdir -p \"\$OUT\""
line+="; export XDG_RUNTIME_DIR=\${XDG_RUNTIME_DIR:-/tmp}"
for e in "${envs[@]}"; do line+="; export $(quote "$e")"; done
if [ "$bundle" = true ]; then
  line+="; export PATH=\"\$PWD/.remote/bin:\$PATH\""
  if [ "$vulkan" = true ]; then
    # Unpacked beside the run, not into /, so no root is needed; the loader finds them by LD_LIBRARY_PATH.
    line+="; for f in .remote/debs/*.deb; do dpkg-deb -x \"\$f\" .remote/sysroot; done"
    line+="; export LD_LIBRARY_PATH=\"\$PWD/.remote/sysroot/usr/lib/x86_64-linux-gnu\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}\""
  fi
  # NVIDIA's container toolkit mounts the driver's Vulkan ICD here, where the loader does not look.
  icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  line+="; if [ -z \"\${VK_DRIVER_FILES:-}\${VK_ICD_FILENAMES:-}\" ] && [ -f $icd ]; then export VK_DRIVER_FILES=$icd; fi"
  line+="; command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >&2 || true"
  bench="node apps/bench/dist/cli.js"
else
  bench="bash scripts/bench.sh"
fi
if [ -n "$run" ]; then
  line+="; bash -c $(quote "$run")"
else
  args=''
  for a in "${bench_args[@]}"; do args+=" $(quote "$a")"; done
  # The table goes to stdout (and table.txt); the progress lines to stderr, as they come.
  line+="; $bench --commit \"\$COMMIT\" --out \"\$OUT/bench.json\"$args | tee \"\$OUT/table.txt\""
fi
say "running there: ${run:-$bench ${bench_args[*]}}"
status=0
# bash there (scripts/bench.sh needs it anyway), with pipefail so that `bench | tee` fails with the bench.
remote "bash -c $(quote "set -o pipefail; $line")" || status=$?

# 3. The results, whatever the status: a failed case still leaves the others' report.
mkdir -p "$out"
remote "cd $(quote "$dir/out") 2>/dev/null && tar -czf - ." | tar -xzf - -C "$out" || say "could not fetch $dir/out"
if [ "$keep" = false ]; then remote "rm -rf $(quote "$dir")" || true; fi
say "results in $out: $(cd "$out" && ls | tr '\n' ' ')"
[ "$status" -eq 0 ] || die "the run there failed (exit status $status)"
