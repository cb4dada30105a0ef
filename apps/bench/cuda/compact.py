"""CUDA anchors for split and pack, timed beside the bench in the same device call.

pack  = torch.masked_select(x, m)        (CUB DeviceSelect::Flagged, bool mask)
split = torch.cat([x[~m], x[m]])         (two selects and a concatenation: stable, falses first)
copy  = y.copy_(x)                       (the same u32 bytes, for a copy ratio inside torch)

Usage on the lent GPU: python3 apps/bench/cuda/compact.py [log2 n] [densities...]
Prints one JSON object per line: {"what", "n", "density", "ms"} (median of 20 after 3 warm-ups).
"""
import json
import sys

import torch


def median_ms(fn, runs=20, warmup=3):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


def main():
    log2n = int(sys.argv[1]) if len(sys.argv) > 1 else 28
    densities = [float(d) for d in sys.argv[2:]] or [0.01, 0.5, 0.99]
    n = 1 << log2n
    g = torch.Generator(device="cuda").manual_seed(1)
    # u32 data: torch has no uint32 arithmetic everywhere, int32 moves the same bytes.
    x = torch.randint(0, 2**31 - 1, (n,), dtype=torch.int32, device="cuda", generator=g)
    y = torch.empty_like(x)
    print(json.dumps({"what": "copy", "n": n, "density": None, "ms": median_ms(lambda: y.copy_(x))}), flush=True)
    for d in densities:
        m = torch.rand(n, device="cuda", generator=g) < d
        kept = int(m.sum())
        print(json.dumps({"what": "masked_select", "n": n, "density": d, "kept": kept, "ms": median_ms(lambda: torch.masked_select(x, m))}), flush=True)
        print(json.dumps({"what": "cat_split", "n": n, "density": d, "ms": median_ms(lambda: torch.cat([x[~m], x[m]]))}), flush=True)
        del m
    torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
