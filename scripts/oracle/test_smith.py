"""Kernel sizes over Z_K against the Smith normal form.

For a square integer matrix A with invariant factors d_1 | d_2 | ... over ZZ,
the kernel of A over Z_K has Π gcd(d_i, K) members (a zero factor counts as
K). Two independent routes compute it here:

- the Smith form modulo each prime power of K, written in oracle_lib
  (elimination over Z_{p^e} by smallest valuation, numpy), on the full
  press matrix, 400 x 400 and 900 x 900;
- sympy over ZZ. sympy's Smith form of the full press matrix is far too slow
  (10 x 10, a 100 x 100 matrix: 65 s; 12 x 12 did not finish in 15 min), so
  sympy gets the chase-reduced matrix of the same cokernel: F_R(T), C x C, on
  the plane (its Smith form, about a second at 30 x 30), and M^R - I,
  2C x 2C, on the torus, where sympy's Smith form again stalls (no result in
  10 min at 20 x 20) and sympy's Hermite form modulo K^(2C) of
  [M^R - I mod K | K I] gives |coker| as its determinant in 0.1 s.
  The reductions are themselves checked against sympy's Smith form of the
  full matrix on every small size first.

The CLI's `kernel_size` (an exact decimal string) must equal both.
"""

import math

import numpy as np
import pytest

import oracle_lib as L


def analyze(rows, cols, k, rule="plus", torus=False):
    args = ["analyze", "-r", rows, "-c", cols, "--states", k, "--rule", rule, "--max-nullity", 0]
    if torus:
        args.append("--torus")
    (out,) = L.run_json(args)
    return out


def sympy_kernel_plane(rows, cols, k, rule):
    return L.kernel_from_invariants(L.sympy_invariant_factors(L.chase_plane(rows, cols, rule)), k)


def sympy_kernel_torus(rows, cols, k, rule):
    """|coker of M^R - I over Z_k| as the determinant of sympy's Hermite
    form, computed modulo k^n, of the lattice im(B) + k Z^n."""
    from sympy import Matrix
    from sympy.matrices.normalforms import hermite_normal_form

    b = L.chase_torus(rows, cols, rule)
    n = b.shape[0]
    gens = Matrix(n, 2 * n, lambda i, j: int(b[i, j]) % k if j < n else (k if j - n == i else 0))
    w = hermite_normal_form(gens, D=k**n)
    assert w.shape == (n, n)
    return math.prod(int(w[i, i]) for i in range(n))


# ---- the oracles against each other first -------------------------------


def test_own_smith_form_counts_kernels_like_brute_force():
    """Fast == naive: the Smith form modulo K against trying all K^n vectors,
    on small press matrices and seeded random integer matrices."""
    rng = np.random.default_rng(14)
    cases = [L.grid_matrix(2, 2), L.grid_matrix(2, 3), L.grid_matrix(2, 2, "neighbours")]
    cases += [L.grid_matrix(2, 3, torus=True), L.grid_matrix(1, 5, "neighbours")]
    cases += [rng.integers(-6, 7, size=(n, n)) for n in (2, 3, 4, 5) for _ in range(6)]
    cases += [np.diag([2, 4, 0, 3]), np.zeros((3, 3), dtype=np.int64)]
    for a in cases:
        for k in (2, 3, 4, 6, 8, 9, 12):
            if k ** a.shape[0] > 250_000:
                continue
            assert L.kernel_size_mod(a, k) == L.kernel_size_brute(a, k), (a.tolist(), k)


def test_own_smith_form_agrees_with_sympy_on_small_boards():
    for n in range(2, 9):
        for rule in ("plus", "neighbours"):
            for torus in (False, True):
                a = L.grid_matrix(n, n, rule, torus)
                factors = L.sympy_invariant_factors(a)
                for k in (4, 8, 9, 12, 25):
                    assert L.kernel_size_mod(a, k) == L.kernel_from_invariants(factors, k), (
                        n,
                        rule,
                        torus,
                        k,
                    )


def test_chase_reductions_keep_the_invariant_factors():
    """F_R(T) (plane) and M^R - I (torus) have the full press matrix's
    invariant factors up to ones: checked on every size sympy does quickly."""

    def nontrivial(f):
        return sorted(abs(d) for d in f if abs(d) != 1)

    for rows in range(1, 9):
        for cols in range(1, 9):
            for rule in ("plus", "neighbours"):
                full = L.sympy_invariant_factors(L.grid_matrix(rows, cols, rule))
                reduced = L.sympy_invariant_factors(L.chase_plane(rows, cols, rule))
                assert nontrivial(full) == nontrivial(reduced), (rows, cols, rule)
    for rows in range(3, 8):
        for cols in range(3, 8):
            for rule in ("plus", "neighbours"):
                full = L.sympy_invariant_factors(L.grid_matrix(rows, cols, rule, torus=True))
                reduced = L.sympy_invariant_factors(L.chase_torus(rows, cols, rule))
                assert nontrivial(full) == nontrivial(reduced), (rows, cols, rule)
                for k in (4, 8, 9):
                    assert sympy_kernel_torus(rows, cols, k, rule) == L.kernel_from_invariants(
                        full, k
                    )


# ---- the CLI -------------------------------------------------------------

BIG = [
    (20, 20, "plus", False),
    (20, 20, "plus", True),
    (20, 20, "neighbours", False),
    (30, 30, "plus", False),
]


@pytest.mark.parametrize("rows,cols,rule,torus", BIG)
def test_kernel_size_of_big_boards(rows, cols, rule, torus):
    a = L.grid_matrix(rows, cols, rule, torus)
    for k in (4, 8, 9):
        mine = L.kernel_size_mod(a, k)
        if torus:
            theirs = sympy_kernel_torus(rows, cols, k, rule)
        else:
            theirs = sympy_kernel_plane(rows, cols, k, rule)
        assert mine == theirs, (rows, cols, rule, torus, k)
        cli = analyze(rows, cols, k, rule, torus)
        where = f"analyze -r {rows} -c {cols} --states {k} --rule {rule}" + (
            " --torus" if torus else ""
        )
        assert cli["kernel_size"] == str(mine), where
        assert cli["kernel_size_log2"] == pytest.approx(math.log2(mine), abs=1e-9), where
        # Z_4, Z_8, Z_9 are not fields: no rank to speak of.
        assert cli["rank"] is None and cli["nullity"] is None, where


# Sizes and K where the kernel is large, most with composite K (Chinese
# remainder over several primes) and several past 2^64, so the decimal string
# is exact where a float or a u64 would not be.
MID = [
    (12, 12, 6, "plus", False),
    (16, 16, 12, "plus", False),
    (17, 17, 36, "plus", False),
    (14, 14, 72, "neighbours", False),
    (15, 15, 100, "neighbours", False),
    (12, 12, 255, "plus", True),
    (10, 15, 48, "plus", True),
    (19, 19, 10, "plus", False),
    (24, 24, 250, "neighbours", False),
    (11, 11, 243, "plus", False),
]


@pytest.mark.parametrize("rows,cols,k,rule,torus", MID)
def test_exact_decimal_kernel_size(rows, cols, k, rule, torus):
    a = L.grid_matrix(rows, cols, rule, torus)
    mine = L.kernel_size_mod(a, k)
    if not torus:
        assert mine == sympy_kernel_plane(rows, cols, k, rule)
    cli = analyze(rows, cols, k, rule, torus)
    assert cli["kernel_size"] == str(mine), (rows, cols, k, rule, torus)
