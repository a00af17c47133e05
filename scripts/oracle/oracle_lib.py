"""Independent algebra for checking the `lightsout` binary from outside.

Nothing here reads or imports the Rust code: the press matrices are built
again from the rules as the README states them, and every number the CLI
prints is recomputed by a different route (sympy's Smith normal form over the
integers, a Smith form modulo prime powers written here, galois's ranks over
GF(p), plain enumeration). The tests in this folder compare the two.

Conventions, as the CLI's: cell (r, c) of an R x C board is index r*C + c; a
vertex v of a graph is index v; the press matrix A has A[cell, press] = 1 when
pressing `press` adds 1 (mod K) to `cell`, so a press-count vector x turns a
board b into b + A x (mod K). A press reaches a *set* of cells: on a torus
narrower than the rule, a cell reached by two offsets is still reached once.
"""

from __future__ import annotations

import json
import math
import os
import pathlib
import subprocess
from concurrent.futures import ThreadPoolExecutor

import numpy as np

REPO = pathlib.Path(__file__).resolve().parents[2]

# The offsets of the two rules the generalized game uses on grids.
RULES = {
    "plus": [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)],
    "neighbours": [(-1, 0), (1, 0), (0, -1), (0, 1)],
}


# --------------------------------------------------------------------------
# Running the binary
# --------------------------------------------------------------------------


def binary() -> pathlib.Path:
    """The release binary: $LIGHTSOUT, or target/release/lightsout in the repo."""
    env = os.environ.get("LIGHTSOUT")
    return pathlib.Path(env) if env else REPO / "target" / "release" / "lightsout"


def run(args, stdin: str = "") -> str:
    """Runs the CLI and returns its stdout; any other exit or stderr fails.

    Every check here is about an answer, so a refusal (exit 2) or a message on
    stderr is itself a disagreement worth seeing in full.
    """
    proc = subprocess.run(
        [str(binary()), *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0 or proc.stderr:
        raise AssertionError(
            f"lightsout {' '.join(map(str, args))} exited {proc.returncode}: {proc.stderr.strip()}"
        )
    return proc.stdout


def run_json(args, stdin: str = "") -> list[dict]:
    """Runs the CLI with --format json and parses its JSON lines."""
    out = run([*args, "--format", "json"], stdin)
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def run_many(jobs, fn=run_json, workers: int = 2):
    """Runs `fn(*job)` for every job, two processes at a time, in order.

    The CI machine has two cores, and each call is a few milliseconds, mostly
    process start-up: two threads waiting on two processes keep both busy.
    """
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(lambda job: fn(*job), jobs))


# --------------------------------------------------------------------------
# Press matrices, from the rules
# --------------------------------------------------------------------------


def grid_matrix(rows: int, cols: int, rule: str = "plus", torus: bool = False) -> np.ndarray:
    """The press matrix of an R x C grid under `rule`, plane or torus (0/1, int64)."""
    n = rows * cols
    a = np.zeros((n, n), dtype=np.int64)
    for r in range(rows):
        for c in range(cols):
            reached = set()
            for dr, dc in RULES[rule]:
                rr, cc = r + dr, c + dc
                if torus:
                    reached.add((rr % rows, cc % cols))
                elif 0 <= rr < rows and 0 <= cc < cols:
                    reached.add((rr, cc))
            for rr, cc in reached:
                a[rr * cols + cc, r * cols + c] = 1
    return a


def graph_matrix(n: int, edges, rule: str = "plus") -> np.ndarray:
    """σ⁺ (identity plus adjacency) or σ (adjacency) of a simple graph."""
    a = np.eye(n, dtype=np.int64) if rule == "plus" else np.zeros((n, n), dtype=np.int64)
    for u, v in edges:
        a[u, v] = a[v, u] = 1
    return a


def edge_list_text(n: int, edges) -> str:
    """An edge-list file as the CLI reads it: the vertex count, then `u v` lines."""
    return f"{n}\n" + "".join(f"{u} {v}\n" for u, v in edges)


def apply(a: np.ndarray, board, presses, k: int) -> np.ndarray:
    """The board reached from `board` by press counts `presses` (mod k)."""
    return (np.asarray(board, dtype=np.int64) + a @ np.asarray(presses, dtype=np.int64)) % k


# --------------------------------------------------------------------------
# Boards in and out of the CLI's text
# --------------------------------------------------------------------------


def board_text(cells, cols: int, k: int) -> str:
    """Rows of digits (K <= 10) or of numbers separated by spaces (K > 10)."""
    cells = [int(x) for x in cells]
    lines = []
    for i in range(0, len(cells), cols):
        row = cells[i : i + cols]
        lines.append("".join(map(str, row)) if k <= 10 else " ".join(map(str, row)))
    return "\n".join(lines) + "\n"


def parse_cells(rows) -> list[int]:
    """A `solution` or `pattern` of the JSON (strings of digits or lists of numbers)."""
    out = []
    for row in rows:
        if isinstance(row, str):
            out.extend(int(ch) for ch in row)
        else:
            out.extend(int(x) for x in row)
    return out


def parse_two_state(rows) -> list[int]:
    """A two-state press grid of the JSON: rows of `x` (press) and `.`."""
    return [1 if ch == "x" else 0 for row in rows for ch in row]


# --------------------------------------------------------------------------
# Kernel sizes: Smith normal form
# --------------------------------------------------------------------------


def factorize(k: int) -> list[tuple[int, int]]:
    """The prime powers of k as (p, e) pairs, by trial division."""
    out, p = [], 2
    while p * p <= k:
        if k % p == 0:
            e = 0
            while k % p == 0:
                k //= p
                e += 1
            out.append((p, e))
        p += 1
    if k > 1:
        out.append((k, 1))
    return out


def kernel_from_invariants(factors, k: int) -> int:
    """|ker A over Z_k| = Π gcd(d_i, k) over the invariant factors d_i of a
    square integer matrix, a zero factor counting as k (gcd(0, k) = k)."""
    size = 1
    for d in factors:
        size *= math.gcd(int(d), k)
    return size


def sympy_invariant_factors(a: np.ndarray) -> list[int]:
    """The invariant factors over ZZ of a square integer matrix, by sympy,
    padded with zeros to the matrix's side (sympy lists only the nonzero rank
    part for a singular matrix in some versions, all of them in others)."""
    from sympy import ZZ
    from sympy.polys.matrices import DomainMatrix
    from sympy.polys.matrices.normalforms import invariant_factors

    n = a.shape[0]
    m = DomainMatrix([[ZZ(int(x)) for x in row] for row in a], (n, n), ZZ)
    factors = [int(d) for d in invariant_factors(m)]
    return factors + [0] * (n - len(factors))


def smith_valuations(a: np.ndarray, p: int, e: int) -> list[int]:
    """The diagonal of the Smith form of `a` over the local ring Z_{p^e}, as
    p-valuations (a zero entry counts as e), one per row of a square matrix.

    Elimination by smallest valuation: every entry left is divisible by the
    pivot's power of p, so clearing the pivot's column needs no division by
    anything but a unit, and the pivot's row is then cleared by column
    operations that touch nothing else (so it is simply dropped).

    # Complexity
    O(n^3) integer operations for an n x n matrix (numpy, one rank-one
    update of the trailing block per pivot).
    """
    q = p**e
    m = np.array(a, dtype=np.int64) % q
    n_rows, n_cols = m.shape
    vals = []
    k = 0
    while k < min(n_rows, n_cols):
        sub = m[k:, k:]
        pivot = None
        power = 1
        for v in range(e):
            hits = sub % (power * p) != 0
            if hits.any():
                i, j = np.unravel_index(int(np.argmax(hits)), hits.shape)
                pivot = (k + i, k + j, v, power)
                break
            power *= p
        if pivot is None:
            break  # the trailing block is zero mod q
        i, j, v, power = pivot
        m[[k, i], :] = m[[i, k], :]
        m[:, [k, j]] = m[:, [j, k]]
        unit = int(m[k, k]) // power
        inverse = pow(unit, -1, q)
        # Below the pivot, column k holds multiples of p^v: subtract that
        # multiple of the pivot row (scaled to have p^v at the pivot).
        factor = (m[k + 1 :, k] // power) * inverse % q
        m[k + 1 :, k + 1 :] = (m[k + 1 :, k + 1 :] - np.outer(factor, m[k, k + 1 :])) % q
        m[k + 1 :, k] = 0
        vals.append(v)
        k += 1
    return vals + [e] * (n_rows - len(vals))


def kernel_size_mod(a: np.ndarray, k: int) -> int:
    """|{x in Z_k^n : A x = 0}| for a square A, by the Smith form modulo each
    prime power of k (Chinese remainder: the counts multiply)."""
    size = 1
    for p, e in factorize(k):
        size *= p ** sum(smith_valuations(a, p, e))
    return size


def kernel_size_brute(a: np.ndarray, k: int) -> int:
    """|ker A over Z_k| by trying every vector (k^n of them): the naive count."""
    n = a.shape[1]
    grid = np.array(np.meshgrid(*[np.arange(k)] * n, indexing="ij")).reshape(n, -1)
    return int(np.all((a @ grid) % k == 0, axis=0).sum())


# --------------------------------------------------------------------------
# Chasing reductions: the same cokernel on a C x C (or 2C x 2C) matrix
# --------------------------------------------------------------------------


def chase_plane(rows: int, cols: int, rule: str = "plus") -> np.ndarray:
    """F_R(T), with F_0 = I, F_1 = T, F_{j+1} = T F_j - F_{j-1}, for the plane.

    The plane's press matrix is block tridiagonal with T (a row's own part:
    the path, plus I under `plus`) on the diagonal and I beside it. Using the
    identity blocks as pivots, integer row and column operations bring it to
    diag(I, ..., I, ±F_R(T)), so both have the same invariant factors over
    ZZ (up to ones): the tests check that on small sizes against the full
    matrix before trusting it at 20 x 20 and 30 x 30, where sympy's Smith form
    of the full 400 x 400 or 900 x 900 matrix does not finish in time.
    Entries grow like 3^R: Python integers (dtype object).
    """
    t = grid_matrix(1, cols, rule).astype(object)
    prev = np.eye(cols, dtype=np.int64).astype(object)
    cur = t.copy()
    for _ in range(rows - 1):
        prev, cur = cur, t.dot(cur) - prev
    return cur


def chase_torus(rows: int, cols: int, rule: str = "plus") -> np.ndarray:
    """M^R - I for the torus (rows >= 3, cols >= 3), M = [[-T, -I], [I, 0]].

    Row r's condition is x_{r-1} + T x_r + x_{r+1} = y_r with rows read
    cyclically; the state (x_r, x_{r-1}) moves by M, and going once round
    the torus the homogeneous system closes exactly when M^R s = s. The tests
    check the invariant factors against the full matrix on small tori.
    """
    # A row's own part on the torus: the cycle on `cols` vertices (plus I
    # under `plus`); not grid_matrix(1, cols, torus=True), where the
    # vertical offsets would wrap onto the cell itself.
    t = np.eye(cols, dtype=np.int64) if rule == "plus" else np.zeros((cols, cols), dtype=np.int64)
    for c in range(cols):
        t[c, (c + 1) % cols] = t[(c + 1) % cols, c] = 1
    t = t.astype(object)
    eye = np.eye(cols, dtype=np.int64).astype(object)
    zero = np.zeros((cols, cols), dtype=np.int64).astype(object)
    m = np.block([[-t, -eye], [eye, zero]])
    power = np.eye(2 * cols, dtype=np.int64).astype(object)
    for _ in range(rows):
        power = m.dot(power)
    return power - np.eye(2 * cols, dtype=np.int64).astype(object)


# --------------------------------------------------------------------------
# GF(p): ranks, particular solutions, kernels (galois)
# --------------------------------------------------------------------------

_FIELDS = {}


def field(p: int):
    """galois's GF(p), made once (each class costs a JIT compilation)."""
    import galois

    if p not in _FIELDS:
        _FIELDS[p] = galois.GF(p)
    return _FIELDS[p]


def rank_gf(a: np.ndarray, p: int) -> int:
    """The rank of `a` over GF(p), by galois."""
    gf = field(p)
    return int(np.linalg.matrix_rank(gf(np.asarray(a) % p)))


def solve_gf(a: np.ndarray, rhs, p: int):
    """One solution x of A x = rhs over GF(p) (an int64 array), or None.

    From galois's reduced row echelon form of [A | rhs]: inconsistent when a
    pivot lands in the last column; otherwise the free variables are 0.
    """
    gf = field(p)
    n = a.shape[1]
    aug = gf(np.concatenate([np.asarray(a) % p, (np.asarray(rhs) % p)[:, None]], axis=1))
    rref = np.asarray(aug.row_reduce(), dtype=np.int64)
    x = np.zeros(n, dtype=np.int64)
    for row in rref:
        nz = np.flatnonzero(row)
        if nz.size == 0:
            continue
        if nz[0] == n:
            return None
        x[nz[0]] = row[n]
    return x


def kernel_basis_gf(a: np.ndarray, p: int) -> np.ndarray:
    """A basis of {x : A x = 0} over GF(p), one row each (int64), by galois,
    checked here (A q = 0, full rank) so a wrong basis cannot pass silently."""
    gf = field(p)
    basis = np.asarray(gf(np.asarray(a) % p).null_space(), dtype=np.int64)
    basis = basis.reshape(-1, a.shape[1])
    assert np.all((a @ basis.T) % p == 0)
    assert rank_gf(basis, p) == basis.shape[0] if basis.shape[0] else True
    return basis


def span_members(basis: np.ndarray, p: int) -> np.ndarray:
    """Every combination Σ c_i q_i (mod p) of the rows of `basis`, one row
    each (p^d rows, int16), built a basis row at a time: p shifted copies."""
    members = np.zeros((1, basis.shape[1]), dtype=np.int16)
    for q in basis.astype(np.int16):
        members = np.concatenate([(members + c * q) % p for c in range(p)])
    return members


def min_presses_enumerated(starts, basis: np.ndarray, p: int, chunk: int = 1 << 14) -> list[int]:
    """For each particular solution x0 in `starts`, min Σ (x0 + Σ c_i q_i mod p)
    over every coefficient vector c in Z_p^d: the fewest presses of that
    target, by visiting all p^d members of its solution coset (press counts
    read as 0..p-1). The kernel is split in two: every combination of the
    first basis rows is made once (at most `chunk` of them), and each
    combination of the others shifts that block; every start shares them.

    # Complexity
    O(p^d · n · len(starts)) for d basis rows of length n.
    """
    d, n = basis.shape
    starts = [np.asarray(x0, dtype=np.int16) for x0 in starts]
    low = 0
    while low < d and p ** (low + 1) <= chunk:
        low += 1
    block = span_members(basis[:low], p)
    best = [None] * len(starts)
    for shift in span_members(basis[low:], p):
        for j, x0 in enumerate(starts):
            least = int(((block + ((shift + x0) % p)) % p).sum(axis=1, dtype=np.int64).min())
            best[j] = least if best[j] is None else min(best[j], least)
    return best


def maximize_counts(model, counts, untouched: int, seconds: float):
    """Solves a leader program built in `model` (CP-SAT): the most class
    counts `counts` allow, plus the `untouched` cells. Returns whether it
    is proven optimal, the best found and CP-SAT's bound, both with the
    untouched cells."""
    from ortools.sat.python import cp_model

    model.maximize(sum(counts))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 1
    status = solver.solve(model)
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE), solver.status_name(status)
    best = untouched + int(solver.objective_value)
    ceiling = untouched + int(solver.best_objective_bound)
    return status == cp_model.OPTIMAL, best, ceiling
