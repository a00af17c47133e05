"""The table of Most Clicks of n x n (docs/study.md), checked a second way.

Every n x n up to 128 of nullity 1 to 6 that `hardest` settles by default
is solved again here by CP-SAT on the leader program (see
test_leader_program.py), with the quiet patterns found apart from the Rust
code and from galois's kernel of the full matrix, which would not fit past
40x40: by chasing. A quiet pattern's row r + 1 is T x_r + x_{r-1} (mod 2),
so the first row decides it, and it is quiet iff the row past the last is
0: the first rows are the kernel of F_n(T) mod 2, an n x n matrix. Each
pattern is checked quiet by applying the rule to it directly.

The sizes the tool leaves bounded (nullity 8 and 10: 9x9's, 16x16's and
29x29's families) are checked for consistency only, with
LIGHTSOUT_SLOW=1: CP-SAT's best is at most the tool's upper bound and its
bound at least the tool's lower (neither may cut the other's interval).
"""

import os

import numpy as np
import pytest
from ortools.sat.python import cp_model

import oracle_lib as L


def quiet_basis(n: int) -> np.ndarray:
    """The quiet patterns of the n x n plane (plus rule), one row each."""
    t = L.grid_matrix(1, n) % 2
    prev, cur = np.zeros((n, n), dtype=np.int64), np.eye(n, dtype=np.int64)
    # cur = F_r(T) mod 2 maps the first row to row r.
    for _ in range(n):
        prev, cur = cur, (t @ cur + prev) % 2
    firsts = np.asarray(L.field(2)(cur).null_space(), dtype=np.int64).reshape(-1, n)
    patterns = []
    for first in firsts:
        rows = [np.zeros(n, dtype=np.int64), first]
        for _ in range(n - 1):
            rows.append((t @ rows[-1] + rows[-2]) % 2)
        assert not ((t @ rows[-1] + rows[-2]) % 2).any(), "the row past the last is not 0"
        pattern = np.array(rows[1:])
        assert not flipped(pattern).any(), "a chased pattern is not quiet"
        patterns.append(pattern.reshape(-1))
    return np.array(patterns, dtype=np.int64).reshape(-1, n * n)


def flipped(pattern: np.ndarray) -> np.ndarray:
    """What pressing every cell set in `pattern` flips (plus rule, plane)."""
    out = pattern.copy()
    out[1:, :] += pattern[:-1, :]
    out[:-1, :] += pattern[1:, :]
    out[:, 1:] += pattern[:, :-1]
    out[:, :-1] += pattern[:, 1:]
    return out % 2


def leader_program(basis: np.ndarray, seconds: float):
    """(proven, best, ceiling) of the leader program of this kernel."""
    d, cells = basis.shape
    weights = 1 << np.arange(d, dtype=np.int64)
    keys = weights @ basis
    untouched = int((keys == 0).sum())
    sizes = np.bincount(keys, minlength=1 << d)
    present = [k for k in range(1, 1 << d) if sizes[k]]
    model = cp_model.CpModel()
    counts = {k: model.new_int_var(0, int(sizes[k]), f"n{k}") for k in present}
    for y in range(1, 1 << d):
        # Quiet pattern y holds class k iff <k, y> = 1.
        inside = [k for k in present if bin(k & y).count("1") % 2]
        weight = sum(int(sizes[k]) for k in inside)
        model.add(2 * sum(counts[k] for k in inside) <= weight)
    return L.maximize_counts(model, list(counts.values()), untouched, seconds)


# Every n <= 128 of nullity 1 to 6 (the tool settles each by default; the
# nullity-0 sizes are n^2, every cell pressed).
SETTLED = [4, 5, 11, 14, 17, 24, 34, 35, 41, 44, 53, 54, 74, 77, 83, 94, 104, 107, 113, 114, 124]


@pytest.mark.parametrize("n", SETTLED)
def test_settled_sizes_match_cp_sat(n):
    basis = quiet_basis(n)
    (out,) = L.run_json(["hardest", "-r", n, "-c", n])
    assert out["nullity"] == basis.shape[0], (n, out["nullity"], basis.shape)
    proven, best, ceiling = leader_program(basis, 60)
    assert proven, f"CP-SAT did not settle {n}x{n}: {best}..{ceiling}"
    most = out["most_presses"]
    assert most["exact"] and most["lower"] == best, (n, most["lower"], most["upper"], best)


# The bounded sizes of nullity 8 and 10 with their families.
BOUNDED = [9, 16, 29, 49, 50, 69, 89, 109, 118]


@pytest.mark.skipif(not os.environ.get("LIGHTSOUT_SLOW"), reason="60 s of CP-SAT a size: LIGHTSOUT_SLOW=1")
@pytest.mark.parametrize("n", BOUNDED)
def test_bounded_sizes_bracket_cp_sat(n):
    basis = quiet_basis(n)
    (out,) = L.run_json(["hardest", "-r", n, "-c", n])
    most = out["most_presses"]
    proven, best, ceiling = leader_program(basis, 60)
    print(f"{n}x{n}: tool {most['lower']}..{most['upper']}, CP-SAT {best}..{ceiling} ({'optimal' if proven else 'open'})")
    assert best <= most["upper"] and most["lower"] <= ceiling, (n, most, best, ceiling)
    if proven:
        assert most["lower"] <= best <= most["upper"]
