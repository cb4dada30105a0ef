#!/usr/bin/env bash
# The portability suite under wgpu (Firefox's WebGPU implementation), as Deno runs it: every
# package's array-level functions on host data against the CPU references (tooling/node-suite,
# src/wgpu.ts, bundled by its build). Run after `pnpm build`; scripts/test.sh runs it.
#
# wgpu runs here on Vulkan: SwiftShader's ICD from Debian's chromium when there is no GPU, and
# Chromium's Vulkan loader when the system has none (wgpu opens libvulkan.so.1 itself). Without a
# loader wgpu falls back to OpenGL on Mesa's llvmpipe, which browsers do not use for WebGPU and
# where naga's zero-initialization of workgroup memory makes kernels with large workgroup arrays
# take minutes to compile (CONTRIBUTING.md, "wgpu"); DENO_WEBGPU_BACKEND=vulkan rules that out.
# Usage: bash scripts/test-wgpu.sh [case-name-prefix | frame-loop | quick-start]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deno="$root/tooling/node-suite/node_modules/.bin/deno"
bundle="$root/tooling/node-suite/dist/wgpu.js"
[ -x "$deno" ] || { echo "test-wgpu: no deno at $deno: run scripts/setup.sh (pnpm install)" >&2; exit 1; }
[ -f "$bundle" ] || { echo "test-wgpu: no $bundle: run pnpm build first" >&2; exit 1; }
chromium_dir=/usr/lib/chromium
if [ -z "${VK_ICD_FILENAMES:-}" ] && ! ls /usr/share/vulkan/icd.d/*.json >/dev/null 2>&1 && [ -f "$chromium_dir/vk_swiftshader_icd.json" ]; then
  export VK_ICD_FILENAMES="$chromium_dir/vk_swiftshader_icd.json"
fi
if ! ldconfig -p 2>/dev/null | grep -q 'libvulkan\.so\.1 ' && [ -f "$chromium_dir/libvulkan.so.1" ]; then
  export LD_LIBRARY_PATH="$chromium_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
export DENO_WEBGPU_BACKEND=${DENO_WEBGPU_BACKEND:-vulkan}
echo "test-wgpu: $("$deno" --version | head -n1), backend $DENO_WEBGPU_BACKEND, VK_ICD_FILENAMES=${VK_ICD_FILENAMES:-(system)}"
exec "$deno" run --allow-read --allow-env --unstable-webgpu "$bundle" "$@"
