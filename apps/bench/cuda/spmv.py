"""CUDA anchors for the SpMV cases, timed beside the bench in the same device call.

Builds the bench's matrix suite (apps/bench/src/spmv-suite.ts) on the GPU with CuPy — the same
definitions, values from CuPy's generator instead of the bench's hash — and times cuSPARSE through
`cupyx.scipy.sparse` (CSR, f32):

  copy    y[...] = x over nnz u32 words: the bench's copy baseline at n = nnz (for its ×copy)
  Ax      A @ x            (cuSPARSE SpMV)
  ATx     A.T @ x          (the transposed product of the CSR arrays; A.T is made untimed)
  AX8     A @ X, X dense with 8 columns, row-major (cuSPARSE SpMM)

Matrices (names as in the bench: <family>-<size>, K = 1000, M = 1000000, or 2^k):
  poisson2d-S  5-point Laplacian of an S x S grid, 4 on the diagonal, -1 for each neighbour
  biased-N     row 0 full, every other row only its diagonal (the SpMV paper's mat1M at N = 1M)
  powerlaw-N   R-MAT, N x N, 16·N edges, a = 0.57, b = c = 0.19 (Graph500), out-of-range edges
               redrawn; duplicate edges are summed by the CSR construction (the bench keeps them as
               separate nonzeros, so its nnz is exactly 16·N and CuPy's a little lower)
  uniform-N    N x N, 16 columns per row, one uniform column in each of 16 equal strata of [0, N)
  banded-N     N x N, 4 diagonals below and 4 above, the diagonal 1 + Σ|off-diagonals| of its row
Values uniform in [-1, 1) (Poisson: 4 and -1).

  A+B     A + B with B = 2A made untimed (cuSPARSE csrgeam; only with --add: it is slow)

Usage on the lent GPU: python3 apps/bench/cuda/spmv.py [--add] [matrix ...]
(default poisson2d-2048 biased-1M biased-16M powerlaw-4M uniform-4M banded-4M).
Prints one JSON object per line: {"matrix", "rows", "cols", "nnz", "op", "ms", "gflops", "gbps"} —
the median of 25 runs after 5 warm-ups (CUDA events); GFLOP/s = 2·nnz·k / t, GB/s over the bench's
bytes model 8·nnz + 4·k·(len x + len y). A product whose result differs from an f64 product by
more than 1e-4·(|A|·|x|) prints an "error" line instead (a wrong anchor is worse than none).
Earlier anchors on the lent H100 (ms, Ax / ATx): Poisson 2048² 0.198 / 0.264; biased 1M 0.099 /
0.127; biased 16M 0.397 / 0.406; power-law 4M 0.724 / 1.028; uniform 4M 0.733 / 1.060.
"""
import json
import math
import re
import sys

import cupy as cp
import cupyx.scipy.sparse as cpx

RUNS = 25
WARMUP = 5
SPMM_COLUMNS = 8
DEFAULT = ["poisson2d-2048", "biased-1M", "biased-16M", "powerlaw-4M", "uniform-4M", "banded-4M"]
RMAT = (0.57, 0.19, 0.19)
PER_ROW = 16
BAND = 4


def parse_size(text):
    m = re.fullmatch(r"2\^(\d{1,2})", text)
    if m:
        return 2 ** int(m.group(1))
    m = re.fullmatch(r"(\d+)([KkMm]?)", text)
    if not m:
        raise ValueError(f"matrix size {text!r}: expected 2048, 64K, 4M or 2^20")
    return int(m.group(1)) * {"": 1, "k": 1000, "m": 1000000}[m.group(2).lower()]


def csr_from_coo(rows, cols, values, shape):
    a = cpx.coo_matrix((values, (rows, cols)), shape=shape).tocsr()
    a.sum_duplicates()
    a.sort_indices()
    return a


def poisson2d(s, rng):
    n = s * s
    i = cp.arange(n, dtype=cp.int64)
    x, y = i % s, i // s
    parts = [(y > 0, -s, -1.0), (x > 0, -1, -1.0), (cp.ones(n, dtype=bool), 0, 4.0), (x < s - 1, 1, -1.0), (y < s - 1, s, -1.0)]
    rows = cp.concatenate([i[m] for m, _, _ in parts])
    cols = cp.concatenate([i[m] + o for m, o, _ in parts])
    vals = cp.concatenate([cp.full(int(m.sum()), v, dtype=cp.float32) for m, _, v in parts])
    return csr_from_coo(rows, cols, vals, (n, n))


def biased(n, rng):
    rows = cp.concatenate([cp.zeros(n, dtype=cp.int64), cp.arange(1, n, dtype=cp.int64)])
    cols = cp.concatenate([cp.arange(n, dtype=cp.int64), cp.arange(1, n, dtype=cp.int64)])
    vals = rng.uniform(-1, 1, 2 * n - 1, dtype=cp.float32)
    return csr_from_coo(rows, cols, vals, (n, n))


def powerlaw(n, rng):
    a, b, c = RMAT
    edges = PER_ROW * n
    levels = max(1, math.ceil(math.log2(n)))
    row = cp.empty(edges, dtype=cp.int64)
    col = cp.empty(edges, dtype=cp.int64)
    todo = cp.arange(edges, dtype=cp.int64)
    while todo.size > 0:
        m = todo.size
        r = cp.zeros(m, dtype=cp.int64)
        k = cp.zeros(m, dtype=cp.int64)
        for _ in range(levels):
            u = rng.random_sample(m, dtype=cp.float32)
            r = 2 * r + (u >= a + b)
            k = 2 * k + (((u >= a) & (u < a + b)) | (u >= a + b + c))
        ok = (r < n) & (k < n)
        row[todo[ok]] = r[ok]
        col[todo[ok]] = k[ok]
        todo = todo[~ok]
    vals = rng.uniform(-1, 1, edges, dtype=cp.float32)
    return csr_from_coo(row, col, vals, (n, n))


def uniform(n, rng):
    k = min(PER_ROW, n)
    nnz = n * k
    j = cp.arange(nnz, dtype=cp.int64) % k
    q, rem = n // k, n % k
    lo = j * q + cp.minimum(j, rem)
    width = q + (j < rem)
    cols = lo + cp.floor(rng.random_sample(nnz, dtype=cp.float64) * width).astype(cp.int64)
    indptr = cp.arange(n + 1, dtype=cp.int64) * k
    vals = rng.uniform(-1, 1, nnz, dtype=cp.float32)
    return cpx.csr_matrix((vals, cols.astype(cp.int32), indptr.astype(cp.int32)), shape=(n, n))


def banded(n, rng):
    lower = upper = min(BAND, n - 1)
    i = cp.arange(n, dtype=cp.int64)
    rows, cols, vals = [], [], []
    for o in range(-lower, upper + 1):
        if o == 0:
            continue
        m = (i + o >= 0) & (i + o < n)
        r = i[m]
        rows.append(r)
        cols.append(r + o)
        vals.append(rng.uniform(-1, 1, int(r.size), dtype=cp.float32))
    rows, cols, vals = cp.concatenate(rows), cp.concatenate(cols), cp.concatenate(vals)
    diagonal = 1 + cp.bincount(rows, weights=cp.abs(vals).astype(cp.float64), minlength=n).astype(cp.float32)
    return csr_from_coo(cp.concatenate([rows, i]), cp.concatenate([cols, i]), cp.concatenate([vals, diagonal]), (n, n))


FAMILIES = {"poisson2d": poisson2d, "biased": biased, "powerlaw": powerlaw, "uniform": uniform, "banded": banded}


def build(name, seed=1):
    family, _, size = name.rpartition("-")
    if family not in FAMILIES:
        raise ValueError(f"unknown matrix {name!r}: expected <family>-<size>, family one of {', '.join(FAMILIES)}")
    return FAMILIES[family](parse_size(size), cp.random.RandomState(seed))


def median_ms(fn):
    for _ in range(WARMUP):
        fn()
    cp.cuda.Device().synchronize()
    times = []
    for _ in range(RUNS):
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end))
    times.sort()
    return times[len(times) // 2]


def emit(name, a, op, ms, k=1, x_len=0, y_len=0, **extra):
    line = {"matrix": name, "rows": a.shape[0], "cols": a.shape[1], "nnz": int(a.nnz), "op": op, "ms": ms}
    if op != "copy" and ms > 0:
        line["gflops"] = 2 * a.nnz * k / ms / 1e6
        line["gbps"] = (8 * a.nnz + 4 * k * (x_len + y_len)) / ms / 1e6
    elif ms > 0:
        line["gbps"] = 8 * a.nnz / ms / 1e6
    line.update(extra)
    print(json.dumps(line), flush=True)


def checked(name, op, a64, x, y):
    """True when y is within 1e-4·(|A|·|x|) + 1e-30 of the f64 product; else prints an error line."""
    x64 = x.astype(cp.float64)
    exact = a64 @ x64
    scale = abs(a64) @ cp.abs(x64)
    bad = int((cp.abs(y.astype(cp.float64) - exact) > 1e-4 * scale + 1e-30).sum())
    if bad:
        print(json.dumps({"matrix": name, "op": op, "error": f"{bad} outputs differ from the f64 product"}), flush=True)
    return bad == 0


def run(name):
    a = build(name)
    rows, cols = a.shape
    rng = cp.random.RandomState(2)
    x = rng.uniform(-1, 1, cols, dtype=cp.float32)
    xt = rng.uniform(-1, 1, rows, dtype=cp.float32)
    X = cp.ascontiguousarray(rng.uniform(-1, 1, (cols, SPMM_COLUMNS), dtype=cp.float32))
    at = a.T  # untimed; a CSC view of the same arrays, multiplied with cuSPARSE's transposed op
    words = cp.arange(a.nnz, dtype=cp.uint32)
    dst = cp.empty_like(words)
    emit(name, a, "copy", median_ms(lambda: cp.copyto(dst, words)))
    del words, dst

    a64 = a.astype(cp.float64)
    if checked(name, "Ax", a64, x, a @ x):
        emit(name, a, "Ax", median_ms(lambda: a @ x), 1, cols, rows)
    if checked(name, "ATx", a64.T, xt, at @ xt):
        emit(name, a, "ATx", median_ms(lambda: at @ xt), 1, rows, cols)
    Y = a @ X
    if all(checked(name, f"AX8[:, {j}]", a64, cp.ascontiguousarray(X[:, j]), Y[:, j]) for j in (0, SPMM_COLUMNS - 1)):
        emit(name, a, "AX8", median_ms(lambda: a @ X), SPMM_COLUMNS, cols, rows)
    if ADD:
        # A + B with B = 2A (cuSPARSE csrgeam, the HiSparse issue's anchor): C must be 3A on A's pattern.
        b = a * 2  # untimed
        c = a + b
        c.sum_duplicates()
        if c.nnz != a.nnz or bool(cp.any(cp.abs(c.data - 3 * a.data) > 1e-6 * cp.abs(3 * a.data))):
            print(json.dumps({"matrix": name, "op": "A+B", "error": "A + 2A differs from 3A"}), flush=True)
        else:
            emit(name, a, "A+B", median_ms(lambda: a + b))
        del b, c
    del a, a64, at, x, xt, X, Y
    cp.get_default_memory_pool().free_all_blocks()


ADD = False


def main():
    global ADD
    args = sys.argv[1:]
    ADD = "--add" in args
    names = [n for n in args if n != "--add"] or DEFAULT
    props = cp.cuda.runtime.getDeviceProperties(0)
    print(json.dumps({"device": props["name"].decode(), "cupy": cp.__version__, "cuda": cp.cuda.runtime.runtimeGetVersion()}), flush=True)
    for name in names:
        try:
            run(name)
        except Exception as error:  # one matrix that fails (memory, a CuPy limit) must not hide the others
            print(json.dumps({"matrix": name, "error": f"{type(error).__name__}: {error}"}), flush=True)
            cp.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
