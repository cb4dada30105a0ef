#!/usr/bin/env bash
# Prepares this checkout on a Debian/Ubuntu machine, GPU or not: Chromium (its headless WebGPU runs
# the GPU tests, and its SwiftShader Vulkan serves Dawn in Node when there is no GPU), pnpm at the
# version package.json pins, and the workspace's dependencies. Idempotent: a second run only checks.
# Messages go to stderr, so `scripts/bench.sh` keeps stdout for the benchmark's own output.
# Usage: bash scripts/setup.sh      (as root, or with sudo; needs Node.js >= 20.19 on PATH)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

say() { echo "setup: $*" >&2; }
# Root runs apt-get itself; anyone else goes through sudo when there is one.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    say "need root for: $* (run as root or install sudo)"; exit 1
  fi
}

# 1. Node.js. Debian 12's own nodejs is 18, too old for the tools (engines: >=20.19), so it is not
#    installed from here; say what to do instead.
if ! command -v node >/dev/null; then
  say "Node.js is missing: install Node.js >= 20.19 (https://nodejs.org or NodeSource's Debian packages), then rerun"; exit 1
fi
if ! node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)'; then
  say "Node.js $(node --version) is too old: install Node.js >= 20.19, then rerun"; exit 1
fi
say "node $(node --version)"

# 2. Chromium from the distribution (also brings /usr/lib/chromium/vk_swiftshader_icd.json and
#    libvulkan.so.1, which @scan/core/node uses when the machine has no GPU). About 110 MB to
#    download; the install takes a minute or two on a fresh machine.
if [ -x /usr/bin/chromium ]; then
  say "chromium present: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
else
  say "installing chromium: apt-get update && apt-get install -y chromium"
  start=$SECONDS
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update </dev/null >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium </dev/null >&2
  say "chromium installed in $((SECONDS - start)) s"
fi

# 3. pnpm at the version of package.json's "packageManager" (through npm: corepack may be
#    missing, disabled or unable to download in CI).
want=$(node -p 'require("./package.json").packageManager.replace(/^pnpm@/, "").split("+")[0]')
have=$(pnpm --version 2>/dev/null || true)
if [ "$have" = "$want" ]; then
  say "pnpm $have present"
else
  say "installing pnpm@$want (found: ${have:-none}): npm install -g pnpm@$want"
  # npm's global folder may be the user's own (nvm); root is needed only when it is not.
  if [ -w "$(npm prefix -g)" ]; then npm install -g "pnpm@$want" </dev/null >&2; else as_root npm install -g "pnpm@$want" </dev/null >&2; fi
  hash -r
fi

# 4. Dependencies, exactly as locked. confirmModulesPurge=false: never stop at a prompt with no TTY.
say "pnpm install --frozen-lockfile"
pnpm install --frozen-lockfile --config.confirmModulesPurge=false </dev/null >&2
say "ready"
