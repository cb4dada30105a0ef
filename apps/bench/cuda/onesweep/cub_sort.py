#!/usr/bin/env python3
"""Times the vendor sorts beside the CUDA port (onesweep.cu), on the same GPU, same sizes.

- cupy.sort (ndarray.sort, in place): u32 keys only. CuPy sorts through Thrust, which calls CUB's
  DeviceRadixSort (onesweep: DeviceRadixSortHistogramKernel, DeviceRadixSortExclusiveSumKernel,
  DeviceRadixSortOnesweepKernel x4 at these sizes).
- cupy.argsort: u32 keys -> int64 permutation (Thrust stable sort_by_key of (key, int64 index)).
- torch.sort(stable=True): key-value. Torch has no uint32 sort on older versions, so the keys are
  the u32 keys with the sign bit flipped, viewed as int32 (same order); it returns the sorted keys
  and int64 indices (8-byte values, not the port's 4-byte ones). With a torch that sorts uint32,
  that is timed too ("torch.sort-u32").

Timing: CUDA events around the sort only, the input restored before each run (untimed), after a
warm-up, back to back (the GPU drops clocks when idle). The median of --reps runs is reported, as
a table and as JSON lines (lines starting with '{'), the same form as onesweep.cu's.

--profile: one cupy.sort (or with --pairs one cupy.argsort) at the first size and nothing else,
for `ncu --kernel-name regex:DeviceRadixSort` (see run.sh).
"""
import argparse
import json
import statistics
import sys

import numpy as np


def keys_u32(n, seed):
    return np.random.default_rng(seed).integers(0, 2**32, size=n, dtype=np.uint32)


def time_cuda(run, restore, start_event, end_event, sync, reps, warmup):
    for _ in range(warmup):
        restore()
        run()
    times = []
    pairs = []
    for _ in range(reps):
        restore()
        a, b = start_event(), end_event()
        a.record()
        run()
        b.record()
        pairs.append((a, b))
    sync()
    for a, b in pairs:
        times.append(a.elapsed(b))
    return statistics.median(times), min(times)


def emit(impl, values, n, reps, ms, min_ms, check, note=""):
    rec = {"impl": impl, "values": values, "n": n, "reps": reps, "ms": round(ms, 5), "min_ms": round(min_ms, 5),
           "gkeys_per_s": round(n / ms / 1e6, 4), "check": check}
    if note:
        rec["note"] = note
    print(f"{impl:18} {'yes' if values else 'no':6} {n:11d} {ms:9.4f} {n / ms / 1e6:9.3f} {check:6}", flush=True)
    print(json.dumps(rec), flush=True)


def bench_cupy(n, args, host):
    import cupy as cp

    class Ev:
        def __init__(self):
            self.e = cp.cuda.Event()

        def record(self):
            self.e.record()

        def elapsed(self, other):
            return cp.cuda.get_elapsed_time(self.e, other.e)

    src = cp.asarray(host)
    work = cp.empty_like(src)

    def restore():
        work[...] = src

    ms, mn = time_cuda(lambda: work.sort(), restore, Ev, Ev, cp.cuda.Device().synchronize, args.reps, args.warmup)
    check = "-"
    if args.check:
        restore()
        work.sort()
        check = "ok" if bool(cp.all(work[1:] >= work[:-1])) and int(work.astype(cp.uint64).sum()) == int(
            src.astype(cp.uint64).sum()) else "FAIL"
    emit("cupy.sort", False, n, args.reps, ms, mn, check)

    out = {}

    def argsort():
        out["p"] = cp.argsort(work)

    ms, mn = time_cuda(argsort, restore, Ev, Ev, cp.cuda.Device().synchronize, args.reps, args.warmup)
    check = "-"
    if args.check:
        restore()
        argsort()
        s = work[out["p"]]
        check = "ok" if bool(cp.all(s[1:] >= s[:-1])) else "FAIL"
    emit("cupy.argsort", True, n, args.reps, ms, mn, check, "u32 keys -> int64 permutation (keys not written)")
    del src, work, out
    cp.get_default_memory_pool().free_all_blocks()


def bench_torch(n, args, host):
    import torch

    class Ev:
        def __init__(self):
            self.e = torch.cuda.Event(enable_timing=True)

        def record(self):
            self.e.record()

        def elapsed(self, other):
            return self.e.elapsed_time(other.e)

    flipped = (host ^ np.uint32(0x80000000)).view(np.int32)
    src = torch.from_numpy(flipped).cuda()
    work = torch.empty_like(src)
    res = {}

    def restore():
        work.copy_(src)

    def run():
        res["r"] = torch.sort(work, stable=True)

    ms, mn = time_cuda(run, restore, Ev, Ev, torch.cuda.synchronize, args.reps, args.warmup)
    check = "-"
    if args.check:
        restore()
        run()
        v, i = res["r"]
        check = "ok" if bool((v[1:] >= v[:-1]).all()) and bool((work[i] == v).all()) else "FAIL"
    emit("torch.sort", True, n, args.reps, ms, mn, check,
         f"torch {torch.__version__}: int32 keys (u32 with sign bit flipped) + int64 indices, stable")
    del src, work
    res.clear()
    # A torch that sorts uint32 directly (2.3+ has the dtype; sort support varies).
    try:
        src = torch.from_numpy(host.view(np.int32)).cuda().view(torch.uint32)
        work = torch.empty_like(src)

        def restore_u():
            work.copy_(src)

        def run_u():
            res["r"] = torch.sort(work, stable=True)

        run_u()
        ms, mn = time_cuda(run_u, restore_u, Ev, Ev, torch.cuda.synchronize, args.reps, args.warmup)
        emit("torch.sort-u32", True, n, args.reps, ms, mn, "-", f"torch {torch.__version__}: uint32 keys + int64 indices")
        del src, work
    except Exception as e:  # noqa: BLE001 - any failure means: not supported here
        print(f"# torch.sort on uint32 not available: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}",
              file=sys.stderr)
    res.clear()
    torch.cuda.empty_cache()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--log2n", default="20,24,28", help="comma-separated log2 sizes")
    ap.add_argument("--n", default="", help="comma-separated explicit sizes (added to --log2n)")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--no-torch", action="store_true")
    ap.add_argument("--no-cupy", action="store_true")
    ap.add_argument("--profile", action="store_true", help="one cupy sort at the first size, for ncu")
    ap.add_argument("--pairs", action="store_true", help="with --profile: cupy.argsort instead of cupy.sort")
    args = ap.parse_args()
    sizes = [1 << int(s) for s in args.log2n.split(",") if s] + [int(s) for s in args.n.split(",") if s]

    if args.profile:
        import cupy as cp
        src = cp.asarray(keys_u32(sizes[0], args.seed))
        cp.cuda.Device().synchronize()
        if args.pairs:
            cp.argsort(src)
        else:
            src.sort()
        cp.cuda.Device().synchronize()
        return

    print(f"{'impl':18} {'values':6} {'n':>11} {'ms':>9} {'Gkeys/s':>9} check", flush=True)
    for n in sizes:
        host = keys_u32(n, args.seed)
        if not args.no_cupy:
            try:
                bench_cupy(n, args, host)
            except Exception as e:  # noqa: BLE001 - report and go on with torch
                print(f"# cupy failed at n={n}: {type(e).__name__}: {e}", file=sys.stderr)
        if not args.no_torch:
            try:
                bench_torch(n, args, host)
            except Exception as e:  # noqa: BLE001
                print(f"# torch failed at n={n}: {type(e).__name__}: {e}", file=sys.stderr)


if __name__ == "__main__":
    main()
