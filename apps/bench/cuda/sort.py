"""CUDA anchors for the sort cases, timed beside the bench in the same device call.

Every line sorts n random 32-bit keys already on the GPU (the same unsorted keys in every run):
where the library sorts in place, the unsorted keys are copied back before each run, outside the
timed region, as the bench does (its `prepare` step).

  copy                      y.copy_(x): 4-byte keys read and written once (the bench's ×copy baseline)
  cupy_sort_u32             cupy.sort(x) of uint32 keys: CUB radix sort, keys only, into a new array
                            (includes CuPy's copy of the input; the DESIGN.md anchor)
  cupy_sort_u32_inplace     x.sort() of uint32 keys in place (CUB keys only), restored untimed
  cupy_sort_f32             cupy.sort of finite float32 keys (CUB keys only)
  torch_sort_i32            torch.sort of int32 keys: sorted keys plus int64 indices
  torch_sort_u32            torch.sort of torch.uint32 keys (where this torch supports it)
  torch_sort_f32            torch.sort of finite float32 keys, sorted keys plus int64 indices
  torch_sort_i32_stable     torch.sort(stable=True) of int32 keys with the int64 indices it returns:
                            a stable key–value sort whose values are the original indices (the
                            anchor of sort-pairs, though its values are 8 bytes, ours 4)
  segmented_cupy_sort_i64   a segmented sort as one sort of 64-bit keys (segment id << 32 | u32 key),
                            CUB keys only; segments random with mean 1024 like the bench's
                            segmented-sort case; the composite keys are built untimed
  segmented_torch_sort_i64  the same composite keys through torch.sort (keys plus int64 indices)

Usage on the lent GPU: python3 apps/bench/cuda/sort.py [log2 n ...]   (default 20 24 28)
Prints one JSON object per line: {"what", "n", "ms", "gkeys_s", "x_copy"} — the median of 20 runs
after 3 warm-ups (CUDA events), billions of keys per second, and the bench's ×copy (its bytes model,
9·n·4 for keys, 17·n·4 for pairs, plus n/8 head bits for the segmented sort, over the time, divided
by the copy's GB/s at the same n). A line with "error" says why a variant could not run.
"""
import json
import sys

import torch

try:
    import cupy as cp
except ImportError:  # the anchors that need CuPy say so and the others still run
    cp = None

RUNS = 20
WARMUP = 3
SEGMENT_MEAN = 1024


def median_ms(fn, setup=None, runs=RUNS, warmup=WARMUP):
    """Median time of fn() over `runs` runs after `warmup`; setup() runs before each, untimed."""
    for _ in range(warmup):
        if setup is not None:
            setup()
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        if setup is not None:
            setup()
        # Both libraries work on the legacy default stream here; synchronizing first keeps
        # the untimed setup out of the events whichever library queued it.
        sync()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        sync()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


def sync():
    torch.cuda.synchronize()
    if cp is not None:
        cp.cuda.Device().synchronize()


def random_bits(n, generator):
    """n random 32-bit words as int32 (every bit pattern possible)."""
    return torch.randint(-(2**31), 2**31, (n,), dtype=torch.int32, device="cuda", generator=generator)


def finite_f32(bits):
    """The words as float32, with an all-ones exponent (inf/NaN) made finite (top exponent bit cleared)."""
    special = (bits & 0x7F800000) == 0x7F800000
    return torch.where(special, bits ^ 0x40000000, bits).view(torch.float32)


def emit(what, n, ms, copy_ms=None, model_bytes=None, **extra):
    line = {"what": what, "n": n, "ms": ms, "gkeys_s": n / ms / 1e6 if ms > 0 else None}
    if copy_ms and model_bytes and ms > 0:
        line["x_copy"] = (model_bytes / ms) / (2 * 4 * n / copy_ms)
    line.update(extra)
    print(json.dumps(line), flush=True)


def fail(what, n, error):
    print(json.dumps({"what": what, "n": n, "error": f"{type(error).__name__}: {error}"}), flush=True)


def run_size(log2n):
    n = 1 << log2n
    keys_model = 9 * 4 * n
    pairs_model = 17 * 4 * n
    segmented_model = keys_model + 4 * ((n + 31) // 32)
    g = torch.Generator(device="cuda").manual_seed(1)
    x = random_bits(n, g)
    work = torch.empty_like(x)

    copy_ms = median_ms(lambda: work.copy_(x))
    emit("copy", n, copy_ms)

    def restore():
        work.copy_(x)

    # CuPy (CUB radix sort through Thrust), keys only.
    if cp is None:
        fail("cupy_sort_u32", n, ImportError("cupy is not installed"))
    else:
        xu = cp.from_dlpack(x).view(cp.uint32)
        wu = cp.from_dlpack(work).view(cp.uint32)
        emit("cupy_sort_u32", n, median_ms(lambda: cp.sort(xu)), copy_ms, keys_model)
        emit("cupy_sort_u32_inplace", n, median_ms(lambda: wu.sort(), setup=restore), copy_ms, keys_model)
        check_sorted("cupy_sort_u32_inplace", n, wu[1:] >= wu[:-1])
        xf = cp.from_dlpack(finite_f32(x))
        emit("cupy_sort_f32", n, median_ms(lambda: cp.sort(xf)), copy_ms, keys_model)
        del xu, wu, xf

    # torch.sort: keys plus int64 indices.
    emit("torch_sort_i32", n, median_ms(lambda: torch.sort(x)), copy_ms, keys_model)
    try:
        xu32 = x.view(torch.uint32)
        emit("torch_sort_u32", n, median_ms(lambda: torch.sort(xu32)), copy_ms, keys_model)
    except (AttributeError, RuntimeError, TypeError) as error:
        fail("torch_sort_u32", n, error)
    xf32 = finite_f32(x)
    emit("torch_sort_f32", n, median_ms(lambda: torch.sort(xf32)), copy_ms, keys_model)
    del xf32
    emit("torch_sort_i32_stable", n, median_ms(lambda: torch.sort(x, stable=True)), copy_ms, pairs_model)
    values, indices = torch.sort(x, stable=True)
    check_sorted("torch_sort_i32_stable", n, bool(torch.equal(x[indices], values)) and bool((values[1:] >= values[:-1]).all()))
    del values, indices
    torch.cuda.empty_cache()

    # Segmented sort as one sort of (segment id << 32 | key) in 64 bits; segments geometric, mean 1024.
    heads = torch.rand(n, device="cuda", generator=g) < 1.0 / SEGMENT_MEAN
    heads[0] = True
    segment = torch.cumsum(heads, 0, dtype=torch.int64) - 1
    segments = int(segment[-1]) + 1
    del heads
    composite = (segment << 32) | (x.to(torch.int64) & 0xFFFFFFFF)
    del segment
    if cp is None:
        fail("segmented_cupy_sort_i64", n, ImportError("cupy is not installed"))
    else:
        c64 = cp.from_dlpack(composite)
        emit("segmented_cupy_sort_i64", n, median_ms(lambda: cp.sort(c64)), copy_ms, segmented_model, segments=segments)
        del c64
    emit("segmented_torch_sort_i64", n, median_ms(lambda: torch.sort(composite)), copy_ms, segmented_model, segments=segments)
    del composite, x, work
    torch.cuda.empty_cache()
    if cp is not None:
        cp.get_default_memory_pool().free_all_blocks()


def check_sorted(what, n, ok):
    """A wrong anchor is worse than none: say so on its own line."""
    if cp is not None and not isinstance(ok, bool):
        ok = bool(ok.all())
    if not ok:
        print(json.dumps({"what": what, "n": n, "error": "result not sorted"}), flush=True)


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [20, 24, 28]
    print(json.dumps({"device": torch.cuda.get_device_name(), "torch": torch.__version__, "cupy": cp.__version__ if cp else None}), flush=True)
    for log2n in sizes:
        run_size(log2n)


if __name__ == "__main__":
    main()
