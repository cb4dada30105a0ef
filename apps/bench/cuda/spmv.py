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
HiSparse's locally structured families are not rebuilt here: the bench makes them on the host with
@scan/spmv and `node apps/bench/dist/matrix-export.js <matrix> <case-seed> <dir>` writes its very
arrays (A, and hisparse-add's perturbed B) for this script to load (needs node and the built bench,
`pnpm --filter @scan/bench build`; the case seed is the bench's --seed, default 1: CASE_SEED):
  stencil27-S  27-point stencil of an S x S x S grid (26 and -1)
  geometric-N  random geometric graph, N points in the unit square in Morton order, ~12 per row
  rmat-N       undirected R-MAT (Graph500 a, b, c, d; edge factor 16), A + A^T of the draw

With --add (cuSPARSE csrgeam; slow), B made untimed:
  A+2A          A + B with B = 2A
  A+B           A + B with B = A's entries moved by round(N(0, 10^2)) in row and column, clamped,
                duplicates summed (HiSparse's workload): the exported B for the host-made families,
                else the same definition drawn here with CuPy
  AT+BT         A^T + B^T, the transposes (csr2csc of A and of B) made inside the timing
  AT+BT pre     A^T + B^T, the transposes made before timing (csrgeam only)

Usage on the lent GPU: python3 apps/bench/cuda/spmv.py [--add] [matrix ...]
(default poisson2d-2048 biased-1M biased-16M powerlaw-4M uniform-4M banded-4M stencil27-100 geometric-1M
rmat-2^20; BENCH_SEED=N for a bench run with --seed N).
Prints one JSON object per line: {"matrix", "rows", "cols", "nnz", "op", "ms", "gflops", "gbps"} —
the median of 25 runs after 5 warm-ups (CUDA events); GFLOP/s = 2·nnz·k / t, GB/s over the bench's
bytes model 8·nnz + 4·k·(len x + len y). A product whose result differs from an f64 product by
more than 1e-4·(|A|·|x|) prints an "error" line instead (a wrong anchor is worse than none).
Earlier anchors on the lent H100 (ms, Ax / ATx): Poisson 2048² 0.198 / 0.264; biased 1M 0.099 /
0.127; biased 16M 0.397 / 0.406; power-law 4M 0.724 / 1.028; uniform 4M 0.733 / 1.060.
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

import cupy as cp
import cupyx.scipy.sparse as cpx

RUNS = 25
WARMUP = 5
SPMM_COLUMNS = 8
DEFAULT = ["poisson2d-2048", "biased-1M", "biased-16M", "powerlaw-4M", "uniform-4M", "banded-4M", "stencil27-100", "geometric-1M", "rmat-2^20"]
RMAT = (0.57, 0.19, 0.19)
PER_ROW = 16
BAND = 4
SIGMA = 10
CASE_SEED = int(os.environ.get("BENCH_SEED", "1"))  # the bench's --seed (default 1)
HOST_FAMILIES = ("stencil27", "geometric", "rmat")
_HERE = os.path.dirname(os.path.abspath(__file__))
EXPORTER = os.path.join(_HERE, "..", "dist", "matrix-export.js")
CSR_MAGIC = 0x52534331
EXPORTED_B = {}  # matrix name -> the bench's perturbed B of the host-made families


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


def read_csr_file(path):
    """A CSR file of matrix-export.js: u32 header [magic, rows, cols, nnz], rowPtr, colIdx (u32), values (f32)."""
    raw = np.fromfile(path, dtype=np.uint32)
    magic, rows, cols, nnz = (int(v) for v in raw[:4])
    if magic != CSR_MAGIC:
        raise ValueError(f"{path}: not a CSR file of matrix-export.js")
    ptr = raw[4 : 5 + rows]
    idx = raw[5 + rows : 5 + rows + nnz]
    val = raw[5 + rows + nnz : 5 + rows + 2 * nnz].view(np.float32)
    return cpx.csr_matrix((cp.asarray(val), cp.asarray(idx.astype(np.int32)), cp.asarray(ptr.astype(np.int32))), shape=(rows, cols))


def exported(name):
    """The bench's own A (and B, kept in EXPORTED_B) of a host-made family, through matrix-export.js."""
    if not os.path.exists(EXPORTER):
        raise RuntimeError(f"{EXPORTER} is missing: build the bench first (pnpm --filter @scan/bench build)")
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([os.environ.get("NODE", "node"), EXPORTER, name, str(CASE_SEED), tmp], check=True, stdout=subprocess.DEVNULL)
        a = read_csr_file(os.path.join(tmp, f"{name}.A.csr"))
        EXPORTED_B[name] = read_csr_file(os.path.join(tmp, f"{name}.B.csr"))
    return a


def build(name, seed=1):
    family, _, size = name.rpartition("-")
    if family in HOST_FAMILIES:
        parse_size(size)
        return exported(name)
    if family not in FAMILIES:
        raise ValueError(f"unknown matrix {name!r}: expected <family>-<size>, family one of {', '.join([*FAMILIES, *HOST_FAMILIES])}")
    return FAMILIES[family](parse_size(size), cp.random.RandomState(seed))


def perturbed(a, seed=3):
    """HiSparse's B: each entry of A moved by round(N(0, SIGMA^2)) in row and column independently,
    clamped to the matrix, duplicates summed (the definition of @scan/spmv's perturbedMatrix; draws
    from CuPy). JS's Math.round rounds halves up: floor(x + 0.5) here too."""
    rng = cp.random.RandomState(seed)
    coo = a.tocoo()
    rows, cols = a.shape
    dr = cp.floor(rng.normal(0, SIGMA, coo.nnz) + 0.5).astype(cp.int64)
    dc = cp.floor(rng.normal(0, SIGMA, coo.nnz) + 0.5).astype(cp.int64)
    r = cp.clip(coo.row.astype(cp.int64) + dr, 0, rows - 1)
    c = cp.clip(coo.col.astype(cp.int64) + dc, 0, cols - 1)
    return csr_from_coo(r, c, coo.data.astype(cp.float32), a.shape)


def operand_b(name, a):
    """B of A + B: the bench's exported B for a host-made family, else the perturbation drawn here."""
    b = EXPORTED_B.pop(name, None)
    return b if b is not None else perturbed(a)


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
        add_anchors(name, a, a64)
    EXPORTED_B.pop(name, None)
    del a, a64, at, x, xt, X, Y
    cp.get_default_memory_pool().free_all_blocks()


def add_anchors(name, a, a64):
    """cuSPARSE csrgeam (the HiSparse issues' anchors): A + 2A, A + B, and A^T + B^T with the
    transposes (csr2csc) timed and made before timing. Each C is checked by its product with a random
    vector against the f64 sum of the operands' products (1e-4·(|A| + |B|)·|x|)."""
    rows, cols = a.shape
    rng = cp.random.RandomState(5)
    x = rng.uniform(-1, 1, cols, dtype=cp.float32)
    xt = rng.uniform(-1, 1, rows, dtype=cp.float32)
    b2 = a * 2  # untimed
    b = operand_b(name, a)
    b64 = b.astype(cp.float64)
    at, bt = a.T.tocsr(), b.T.tocsr()  # untimed transposes (csr2csc) for "AT+BT pre"
    magnitude = abs(a64) + abs(b64)
    ops = (
        ("A+2A", lambda: a + b2, a64 * 3, abs(a64) * 3, x),
        ("A+B", lambda: a + b, a64 + b64, magnitude, x),
        ("AT+BT", lambda: a.T.tocsr() + b.T.tocsr(), (a64 + b64).T.tocsr(), magnitude.T.tocsr(), xt),
        ("AT+BT pre", lambda: at + bt, (a64 + b64).T.tocsr(), magnitude.T.tocsr(), xt),
    )
    for op, fn, exact, size, vec in ops:
        c = fn()
        c.sum_duplicates()
        v64 = vec.astype(cp.float64)
        bound = 1e-4 * (size @ cp.abs(v64)) + 1e-30
        bad = int((cp.abs((c @ vec).astype(cp.float64) - exact @ v64) > bound).sum())
        if bad:
            print(json.dumps({"matrix": name, "op": op, "error": f"{bad} outputs of C·x differ from the f64 sum"}), flush=True)
            continue
        emit(name, a, op, median_ms(fn), nnz_b=int(b2.nnz if op == "A+2A" else b.nnz), nnz_c=int(c.nnz))
        del c
    del b2, b, b64, at, bt, magnitude


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
