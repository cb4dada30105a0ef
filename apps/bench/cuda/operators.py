"""CUDA anchors for the user-defined operator cases (operator-scan, operator-reduce), timed beside the
bench in the same device call.

The data are the bench's kind (not its bits): affine pairs (a, b) with a = ±1 and b an integer in
[-8, 8] (every composition stays an exact float32 integer), vec4 rows of integers in [-8, 8], and
float32 integers for the max/argmax anchors with about 8 copies of the largest value (ties).

  copy                          torch y.copy_(x) of the same record bytes (4, 8, 16 bytes x n): the
                                ratio's baseline, read n records and write n records
  jax.associative_scan affine   lax.associative_scan of x -> a*x + b composed in array order,
                                combine((a1, b1), (a2, b2)) = (a1*a2, b1*a2 + b2), over two float32
                                arrays a and b (JAX's natural structure-of-arrays form); inclusive,
                                forward and backward (reverse=True; the argument order of fn for a
                                reversed scan is probed on a small array and recorded as fn_order)
                                -> operator-scan vec2<f32> affine incl fwd / bwd
  jax.associative_scan vec4     lax.associative_scan(jnp.add, x, axis=0) of an (n, 4) float32 array
  jnp.cumsum vec4               jnp.cumsum(x, axis=0) of the same array
                                -> operator-scan vec4<f32> add incl fwd
  torch.cumsum vec4             torch.cumsum(x, dim=0) of an (n, 4) float32 tensor (CUB)
                                -> operator-scan vec4<f32> add incl fwd
  torch.cummax f32              torch.cummax(x, dim=0) of n float32: running max values plus int64
                                indices (no bench case computes this scan; its bytes count the
                                indices it writes: n*4 read, n*4 + n*8 written)
  torch.argmax f32              torch.argmax(x) of n float32 (first index of the largest value)
                                -> operator-reduce {value,index} argmax (ours reads 8-byte records:
                                compare times; the bytes models differ)

Timing: torch with CUDA events, the median of 20 runs after 3 warm-ups. JAX with time.perf_counter
around a jitted call and jax.block_until_ready (20 runs after 3 warm-ups, median): JAX timings
INCLUDE the Python dispatch of the call and the wait for the result (a few to tens of microseconds,
which matters at 2^20 and not at 2^26), unlike the CUDA events of the torch lines and the timestamps
of the bench. Every result is checked once after timing (scans against closed forms computed another
way, exact; argmax and cummax against max) and the line says "ok": true or false.

Usage on the lent GPU: python3 apps/bench/cuda/operators.py [log2 n ...]   (default 20 24 26)
Prints one JSON object per line:
  {"what": "env", "torch", "jax", "device"}                                    once
  {"library", "what", "n", "record_bytes", "bytes", "ms", "gbps"}             copies ("what": "copy")
  {"library", "what", "case", "n", "record_bytes", "bytes", "ms", "gbps", "x_copy", "timer", "ok"}
where "case" is the bench series the line stands against (null for cummax), "bytes" the bench's
model (scan: 2*n*record_bytes, reduce: n*record_bytes; cummax as above), "gbps" bytes / ms / 1e6,
"x_copy" gbps / the copy's gbps at the same n and record bytes, "timer" "cuda-events" or
"wall-clock" (JAX). When a library is missing or cannot run on the GPU, a line
{"library", "error"} says so and the others still run (jax absent: the torch lines alone; torch
absent or without CUDA: the JAX lines, with x_copy null). The exit status is 1 when neither ran.
"""
import json
import os
import statistics
import sys
import time

# JAX would otherwise take 75% of the GPU's memory at its first use, and torch runs in this process too.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

try:
    import torch  # noqa: E402
except ImportError:  # the JAX lines still run, without a copy to divide by
    torch = None

RUNS = 20
WARMUP = 3
# About n / TIE_SHARE distinct max/argmax values: the largest appears about 8 times (ties).
TIE_SHARE = 8


def emit(obj):
    print(json.dumps(obj), flush=True)


def median_ms_cuda(fn, runs=RUNS, warmup=WARMUP):
    """Median of `runs` CUDA-event timings of fn() after `warmup` untimed calls."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def median_ms_wall(fn, block, runs=RUNS, warmup=WARMUP):
    """Median wall-clock time of block(fn()) (dispatch + run + wait) after `warmup` untimed calls."""
    for _ in range(warmup):
        block(fn())
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        block(fn())
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def line(library, what, case, n, record_bytes, nbytes, ms, copy_gbps, timer, ok, **extra):
    gbps = nbytes / ms / 1e6 if ms > 0 else None
    emit(
        {
            "library": library,
            "what": what,
            "case": case,
            "n": n,
            "record_bytes": record_bytes,
            "bytes": nbytes,
            "ms": ms,
            "gbps": gbps,
            "x_copy": gbps / copy_gbps if gbps and copy_gbps else None,
            "timer": timer,
            "ok": bool(ok),
            **extra,
        }
    )


def torch_copies(n):
    """The copy of n records of 4, 8 and 16 bytes; returns {record_bytes: GB/s}."""
    gbps = {}
    for record_bytes in (4, 8, 16):
        x = torch.empty(n * record_bytes // 4, dtype=torch.float32, device="cuda").uniform_()
        y = torch.empty_like(x)
        ms = median_ms_cuda(lambda: y.copy_(x))
        ok = torch.equal(x, y)
        nbytes = 2 * n * record_bytes
        gbps[record_bytes] = nbytes / ms / 1e6
        emit({"library": "torch", "what": "copy", "n": n, "record_bytes": record_bytes, "bytes": nbytes, "ms": ms,
              "gbps": gbps[record_bytes], "ok": bool(ok)})
        del x, y
    return gbps


def torch_lines(n, copy_gbps, g):
    # vec4 add: (n, 4) float32 integers in [-8, 8], inclusive scan down the rows.
    x = torch.randint(-8, 9, (n, 4), device="cuda", generator=g).to(torch.float32)
    holder = {}

    def cumsum():
        holder["r"] = torch.cumsum(x, dim=0)

    # torch.cumsum down the rows of an (n, 4) tensor takes seconds at 2^24 (a strided scan; H200,
    # 2026-12-06: 2.29 s at 2^24): one timed run, no warm-ups, when a first run is that slow.
    slow = median_ms_cuda(cumsum, runs=1, warmup=0) > 50
    ms = median_ms_cuda(cumsum, runs=1, warmup=0) if slow else median_ms_cuda(cumsum)
    ok = torch.equal(holder["r"].to(torch.float64), torch.cumsum(x.to(torch.float64), dim=0))
    line("torch", "torch.cumsum vec4", "operator-scan vec4<f32> add incl fwd", n, 16, 2 * n * 16, ms, copy_gbps[16], "cuda-events", ok)
    del x, holder["r"]

    # max / argmax: float32 integers in [0, m), m about n/8: the largest appears about 8 times.
    m = max(2, min(2**24, n // TIE_SHARE))
    v = torch.randint(0, m, (n,), device="cuda", generator=g).to(torch.float32)

    def cummax():
        holder["r"] = torch.cummax(v, dim=0)

    ms = median_ms_cuda(cummax)
    values, indices = holder["r"]
    ok = bool(values[-1] == v.max()) and bool((values[1:] >= values[:-1]).all()) and bool((v[indices] == values).all())
    # Read n f32, write n f32 values and n int64 indices.
    line("torch", "torch.cummax f32", None, n, 4, n * 4 + n * 4 + n * 8, ms, copy_gbps[4], "cuda-events", ok)
    del values, indices, holder["r"]

    def argmax():
        holder["r"] = torch.argmax(v)

    ms = median_ms_cuda(argmax)
    i = int(holder["r"])
    top = v.max()
    ok = bool(v[i] == top) and bool((v[:i] < top).all())
    line("torch", "torch.argmax f32", "operator-reduce {value,index} argmax", n, 4, n * 4, ms, copy_gbps[4], "cuda-events", ok)
    del v, holder["r"]
    torch.cuda.empty_cache()


def load_jax():
    """jax, jnp and lax on a GPU backend, or None after printing why not."""
    try:
        import jax
        import jax.numpy as jnp
        from jax import lax
    except Exception as e:  # noqa: BLE001 (a broken install is as good as none here)
        emit({"library": "jax", "error": f"jax is not available: {type(e).__name__}: {e}"})
        return None
    try:
        platform = jax.devices()[0].platform
    except Exception as e:  # noqa: BLE001
        emit({"library": "jax", "error": f"jax has no usable device: {type(e).__name__}: {e}"})
        return None
    if platform != "gpu":
        emit({"library": "jax", "error": f"jax runs on {platform}, not a GPU (install jax[cuda12]): no JAX lines"})
        return None
    return jax, jnp, lax


def affine_combine(p, q):
    """p then q: x -> q.a * (p.a * x + p.b) + q.b."""
    return p[0] * q[0], p[1] * q[0] + q[1]


def affine_reference(jnp, a, b, backward):
    """The inclusive affine scan in closed form (a = ±1, so a product's inverse is itself), exact."""
    if not backward:
        prefix = jnp.cumprod(a)
        return prefix, prefix * jnp.cumsum(b * prefix)
    # out[i] = x_i ⊕ … ⊕ x_(n-1): A_i = a_i…a_(n-1), B_i = Σ_(k≥i) b_k a_(k+1)…a_(n-1) = Σ_(k≥i) b_k a_k S_k.
    suffix = jnp.flip(jnp.cumprod(jnp.flip(a)))
    return suffix, jnp.flip(jnp.cumsum(jnp.flip(b * a * suffix)))


def reverse_fn_order(jax, jnp, lax):
    """The fn that makes lax.associative_scan(reverse=True) combine in array order (earlier element first)."""
    a = jnp.array([1.0, -1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0], dtype=jnp.float32)
    b = jnp.array([3.0, -2.0, 5.0, 7.0, -8.0, 1.0, 4.0, 0.0], dtype=jnp.float32)
    want = affine_reference(jnp, a, b, True)
    swapped = lambda p, q: affine_combine(q, p)  # noqa: E731
    for name, fn in (("array", affine_combine), ("swapped", swapped)):
        got = lax.associative_scan(fn, (a, b), reverse=True)
        if all(bool(jnp.array_equal(g_, w_)) for g_, w_ in zip(got, want)):
            return name, fn
    return None, None


def jax_lines(n, copy_gbps, mods, seed):
    jax, jnp, lax = mods
    block = jax.block_until_ready
    key_a, key_b, key_x = jax.random.split(jax.random.PRNGKey(seed), 3)
    a = jnp.where(jax.random.bernoulli(key_a, 0.5, (n,)), -1.0, 1.0).astype(jnp.float32)
    b = jax.random.randint(key_b, (n,), -8, 9).astype(jnp.float32)
    block((a, b))

    forward = jax.jit(lambda a, b: lax.associative_scan(affine_combine, (a, b)))
    ms = median_ms_wall(lambda: forward(a, b), block)
    got = forward(a, b)
    want = affine_reference(jnp, a, b, False)
    ok = all(bool(jnp.array_equal(g_, w_)) for g_, w_ in zip(got, want))
    line("jax", "jax.associative_scan affine fwd", "operator-scan vec2<f32> affine incl fwd", n, 8, 2 * n * 8, ms, copy_gbps[8], "wall-clock", ok)
    del got, want

    order, fn = reverse_fn_order(jax, jnp, lax)
    if fn is None:
        emit({"library": "jax", "what": "jax.associative_scan affine bwd", "n": n,
              "error": "neither argument order of fn gives the array-order backward scan on the probe"})
    else:
        backward = jax.jit(lambda a, b: lax.associative_scan(fn, (a, b), reverse=True))
        ms = median_ms_wall(lambda: backward(a, b), block)
        got = backward(a, b)
        want = affine_reference(jnp, a, b, True)
        ok = all(bool(jnp.array_equal(g_, w_)) for g_, w_ in zip(got, want))
        line("jax", "jax.associative_scan affine bwd", "operator-scan vec2<f32> affine incl bwd", n, 8, 2 * n * 8, ms, copy_gbps[8],
             "wall-clock", ok, fn_order=order)
        del got, want
    del a, b

    x = jax.random.randint(key_x, (n, 4), -8, 9).astype(jnp.float32)
    block(x)
    # The reference: cumsum in int32 (exact), converted.
    want = jnp.cumsum(x.astype(jnp.int32), axis=0).astype(jnp.float32)
    for what, f in (
        ("jax.associative_scan vec4", jax.jit(lambda x: lax.associative_scan(jnp.add, x, axis=0))),
        ("jnp.cumsum vec4", jax.jit(lambda x: jnp.cumsum(x, axis=0))),
    ):
        ms = median_ms_wall(lambda: f(x), block)
        ok = bool(jnp.array_equal(f(x), want))
        line("jax", what, "operator-scan vec4<f32> add incl fwd", n, 16, 2 * n * 16, ms, copy_gbps[16], "wall-clock", ok)
    del x, want


def version_of(package):
    try:
        import importlib.metadata as md

        return md.version(package)
    except Exception:  # noqa: BLE001
        return None


def main():
    sizes = [1 << int(s) for s in sys.argv[1:]] or [1 << 20, 1 << 24, 1 << 26]
    has_torch = torch is not None and torch.cuda.is_available()
    device = torch.cuda.get_device_name(0) if has_torch else None
    emit({"what": "env", "torch": version_of("torch"), "jax": version_of("jax"), "device": device})
    copies = {n: {4: None, 8: None, 16: None} for n in sizes}
    if has_torch:
        g = torch.Generator(device="cuda").manual_seed(1)
        for n in sizes:
            copies[n] = torch_copies(n)
            torch_lines(n, copies[n], g)
        # JAX after torch, with torch's cached blocks given back.
        torch.cuda.empty_cache()
    else:
        why = "torch is not installed" if torch is None else "torch sees no CUDA device"
        emit({"library": "torch", "error": f"{why}: no torch lines and no copy, so the JAX lines have no x_copy"})
    mods = load_jax()
    if mods is not None:
        for n in sizes:
            try:
                jax_lines(n, copies[n], mods, seed=1)
            except Exception as e:  # noqa: BLE001 (one size failing, e.g. out of memory, leaves the others)
                emit({"library": "jax", "n": n, "error": f"{type(e).__name__}: {e}"})
    return 0 if has_torch or mods is not None else 1


if __name__ == "__main__":
    sys.exit(main())
