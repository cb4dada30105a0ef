#!/usr/bin/env python3
"""The SASS the NVIDIA Vulkan driver compiled for our WGSL, read from its shader disk cache.

No profiler sees Vulkan pipelines, but the driver keeps what it compiled when
__GL_SHADER_DISK_CACHE=1 and __GL_SHADER_DISK_CACHE_PATH=DIR are set (and
__GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1). Its .bin files are series of zstd frames; the large frames
hold one pipeline each, in a container starting b'NVDANVVMNVuc'. The machine code ends with the
usual `BRA` to itself; where it starts is found as the first 16-byte-aligned offset from which
`nvdisasm -b SM90` decodes through that end (the container's header is not documented).

Usage: python3 driver-sass.py CACHE_DIR OUT_DIR   (needs `zstd` and `nvdisasm` on PATH, or NVDISASM=...)
Writes OUT_DIR/pipeline-<n>.sass per pipeline and prints, per pipeline, its instruction count, the
highest register named and the opcodes that matter for the onesweep pass (VOTE: 8 per key ranked).
"""
import collections
import os
import re
import subprocess
import sys

NVDISASM = os.environ.get("NVDISASM", "nvdisasm")
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
BRA_SELF = bytes.fromhex("4779fc00fcffffff")  # low half of `BRA` to itself, after EXIT
OPS = ["VOTE", "R2P", "ATOMS", "BAR", "LDS", "STS", "LDG", "STG", "LDL", "STL", "SHFL", "ISETP", "LOP3", "SEL", "IMAD"]


def frames(path):
    data = open(path, "rb").read()
    starts = [m.start() for m in re.finditer(re.escape(ZSTD_MAGIC), data)]
    for i, s in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(data)
        out = subprocess.run(["zstd", "-d", "-c", "-q"], input=data[s:end], capture_output=True).stdout
        if out.startswith(b"NVDANVVMNVuc"):
            yield out


def disassemble(blob, scratch):
    ends = [m.start() + 16 for m in re.finditer(re.escape(BRA_SELF), blob)]
    if not ends:
        return None
    end = ends[-1]
    for start in range(end % 16, min(end, 8192), 16):
        open(scratch, "wb").write(blob[start:end])
        r = subprocess.run([NVDISASM, "-b", "SM90", scratch], capture_output=True, text=True)
        if r.returncode == 0:
            return r.stdout
    return None


def main():
    cache, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    n = 0
    for root, _, files in os.walk(cache):
        for f in sorted(files):
            if not f.endswith(".bin"):
                continue
            for blob in frames(os.path.join(root, f)):
                sass = disassemble(blob, os.path.join(out, "scratch.bin"))
                if sass is None:
                    continue
                lines = [l for l in sass.splitlines() if re.match(r"\s+/\*[0-9a-f]{4}\*/", l)]
                ops = collections.Counter()
                for l in lines:
                    t = re.sub(r"^\s+/\*[0-9a-f]+\*/\s+", "", l).split()
                    ops[(t[1] if t[0].startswith("@") else t[0]).split(".")[0].rstrip(";")] += 1
                top = max([int(x) for x in re.findall(r"\bR(\d+)\b", sass)] or [0])
                open(os.path.join(out, f"pipeline-{n}.sass"), "w").write(sass)
                print(f"pipeline-{n}: {len(lines)} instructions, registers up to R{top}, " + ", ".join(f"{k} {ops[k]}" for k in OPS))
                n += 1
    if os.path.exists(os.path.join(out, "scratch.bin")):
        os.remove(os.path.join(out, "scratch.bin"))


if __name__ == "__main__":
    main()
