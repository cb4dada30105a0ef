"""CUDA anchors for the toolbox cases (issue 49: reduce- and scan-by-key, unique, run-length encode,
histogram, arg-max, top-k, sorted search), timed beside the bench in the same device call.

The data are the bench's kind (not its bits):
  runs      u32 keys in runs of random length 1..31 (mean 16), values f32 integers in [-8, 8]
  samples   u32 uniform over [0, 2^32) for bincount (as int64, torch's only form) and f32 uniform
            in [0, 1) for histc
  keys      f32 uniform in [0, 1) for top-k and arg-max
  sorted    2^k sorted u32, needles uniform over the same range

  copy                         torch y.copy_(x) of n 4-byte elements: the ratio's baseline (read n, write n)
  torch.unique_consecutive     keys -> unique keys and counts (return_counts=True)
  reduce-by-key                unique_consecutive(return_counts) then segment_reduce(values, 'sum', lengths)
  torch.histc 256 / 65536      f32 samples, bins over [0, 1)
  torch.bincount 256           int64 samples in [0, 256)
  torch.topk k                 f32 keys, k in 1, 32, 1024, largest, sorted
  torch.argmax                 f32 keys
  torch.searchsorted           n needles into n sorted keys (u32 widened to int64: torch has no uint32 search)

Timing: CUDA events, the median of 20 runs after 3 warm-ups. Each result is checked once (unique
and counts against a CPU-free closed form: the counts sum to n and the keys are increasing; histc
sums to n; topk against sort; argmax against max; searchsorted against a shifted comparison), and the
line says "ok".

Usage on the lent GPU: python3 apps/bench/cuda/toolbox.py [log2 n ...]   (default 20 24 28)
Prints one JSON object per line: {"what": "env", ...} once, then
  {"library": "torch", "what", "n", "bytes", "ms", "gbps", "x_copy", "ok"}
where "bytes" is the bytes the operation must move at least (read the input, write the output) and
"x_copy" its GB/s over the copy's at the same n.
"""
import sys

import torch

# The same timing as the operator anchors: CUDA events, the median of 20 runs after 3 warm-ups.
from operators import emit, median_ms_cuda as median_ms  # noqa: E402 (beside this file)


def line(what, n, nbytes, ms, copy_gbps, ok, **extra):
    gbps = nbytes / ms / 1e6
    emit({"library": "torch", "what": what, "n": n, "bytes": nbytes, "ms": ms, "gbps": gbps,
          "x_copy": gbps / copy_gbps, "ok": bool(ok), **extra})


def run_keys(n, g):
    """u32 keys (as int64: torch's unique) in runs of length 1..31, increasing."""
    lengths = torch.randint(1, 32, (n // 8 + 2,), device="cuda", generator=g)
    starts = torch.zeros(n, dtype=torch.int64, device="cuda")
    ends = torch.cumsum(lengths, 0)
    ends = ends[ends < n]
    starts[ends] = 1
    return torch.cumsum(starts, 0)


def sizes_line(n, g):
    x = torch.empty(n, dtype=torch.float32, device="cuda").uniform_()
    y = torch.empty_like(x)
    ms = median_ms(lambda: y.copy_(x))
    copy = 2 * n * 4 / ms / 1e6
    emit({"library": "torch", "what": "copy", "n": n, "bytes": 2 * n * 4, "ms": ms, "gbps": copy, "ok": bool(torch.equal(x, y))})
    del y
    held = {}

    # Runs: unique_consecutive with counts, and reduce-by-key through segment_reduce.
    keys = run_keys(n, g)
    values = torch.randint(-8, 9, (n,), device="cuda", generator=g).to(torch.float32)

    def unique():
        held["u"] = torch.unique_consecutive(keys, return_counts=True)

    ms = median_ms(unique)
    u, counts = held["u"]
    runs = u.numel()
    ok = int(counts.sum()) == n and bool((u[1:] > u[:-1]).all())
    # u32 keys: read n keys, write runs keys and runs counts.
    line("torch.unique_consecutive", n, 4 * n + 8 * runs, ms, copy, ok, runs=runs)

    def by_key():
        uu, cc = torch.unique_consecutive(keys, return_counts=True)
        held["r"] = torch.segment_reduce(values, "sum", lengths=cc)

    ms = median_ms(by_key)
    ok = abs(float(held["r"].sum()) - float(values.sum())) < 1e-3 * max(1.0, float(values.abs().sum()))
    line("reduce-by-key (unique_consecutive + segment_reduce sum)", n, 8 * n + 8 * runs, ms, copy, ok, runs=runs)
    del keys, values, held["u"], held["r"], u, counts

    # Histograms.
    for bins in (256, 65536):
        def histc(bins=bins):
            held["h"] = torch.histc(x, bins=bins, min=0.0, max=1.0)

        ms = median_ms(histc)
        line(f"torch.histc {bins}", n, 4 * n, ms, copy, int(held["h"].sum()) == n, bins=bins)
    s = torch.randint(0, 256, (n,), device="cuda", generator=g)

    def bincount():
        held["h"] = torch.bincount(s, minlength=256)

    ms = median_ms(bincount)
    line("torch.bincount 256 (int64 samples)", n, 4 * n, ms, copy, int(held["h"].sum()) == n, bins=256)
    del s, held["h"]

    # Top-k and arg-max of f32 keys.
    for k in (1, 32, 1024):
        if k > n:
            continue

        def topk(k=k):
            held["t"] = torch.topk(x, k, largest=True, sorted=True)

        ms = median_ms(topk)
        top = held["t"].values
        ok = bool(torch.equal(top, torch.sort(x, descending=True).values[:k]))
        line(f"torch.topk k={k}", n, 4 * n, ms, copy, ok, k=k)

    def argmax():
        held["a"] = torch.argmax(x)

    ms = median_ms(argmax)
    i = int(held["a"])
    line("torch.argmax f32", n, 4 * n, ms, copy, bool(x[i] == x.max()))

    # Sorted search: n needles into n sorted keys.
    sorted_keys = torch.sort(torch.randint(0, 2**32, (n,), device="cuda", generator=g)).values
    needles = torch.randint(0, 2**32, (n,), device="cuda", generator=g)

    def search():
        held["s"] = torch.searchsorted(sorted_keys, needles)

    ms = median_ms(search)
    r = held["s"]
    below = torch.where(r > 0, sorted_keys[(r - 1).clamp(min=0)] < needles, torch.ones_like(needles, dtype=torch.bool))
    above = torch.where(r < n, sorted_keys[r.clamp(max=n - 1)] >= needles, torch.ones_like(needles, dtype=torch.bool))
    line("torch.searchsorted", n, 4 * n + 4 * n + 4 * n, ms, copy, bool(below.all() and above.all()))
    held.clear()
    del x, sorted_keys, needles, r, below, above
    torch.cuda.empty_cache()


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [20, 24, 28]
    emit({"what": "env", "torch": torch.__version__, "device": torch.cuda.get_device_name(0)})
    g = torch.Generator(device="cuda")
    g.manual_seed(49)
    for log2 in sizes:
        sizes_line(2**log2, g)


if __name__ == "__main__":
    main()
