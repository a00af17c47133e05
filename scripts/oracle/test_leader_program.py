"""Most Clicks by the leader program, solved by CP-SAT, against `hardest`.

A press set x is the lightest member of its coset iff |x ∩ q| ≤ |q|/2 for
every quiet pattern q (|x ⊕ q| = |x| + |q| − 2|x ∩ q|). That depends on x
only through n_k = |x ∩ class k|, the cells grouped by which quiet
patterns hold them (s_k cells in class k, n_0 cells in none), so

    Most Clicks = n_0 + max Σ_k n_k  s.t.  Σ_{k ⊂ q} n_k ≤ |q|/2 for every q ≠ 0,
                  0 ≤ n_k ≤ s_k.

Here the classes come from galois's kernel and CP-SAT (one worker) solves
that program; nothing reads the Rust code, whose exact method is a branch
and bound over the same counts (src/analysis/hardest/leader.rs). Where
CP-SAT proves its optimum, the CLI must print the same value, proven, and
the board it prints must need exactly that many presses (its coset
enumerated).
"""

import os

import numpy as np
import pytest
from ortools.sat.python import cp_model

import oracle_lib as L
from test_most_clicks import check_board, grid


def leader_program(a: np.ndarray, seconds: float):
    """(proven, best, ceiling) of the leader program for two states."""
    basis = L.kernel_basis_gf(a, 2)
    members = L.span_members(basis, 2)
    n = a.shape[0]
    keys = {}
    for cell in range(n):
        key = tuple(int(b[cell]) for b in basis)
        keys.setdefault(key, []).append(cell)
    untouched = len(keys.pop(tuple(0 for _ in basis), []))
    classes = list(keys.values())
    model = cp_model.CpModel()
    counts = [model.new_int_var(0, len(cells), f"n{k}") for k, cells in enumerate(classes)]
    for m in members:
        if not m.any():
            continue
        # A quiet pattern holds a class whole or not at all.
        inside = [k for k, cells in enumerate(classes) if m[cells[0]]]
        model.add(2 * sum(counts[k] for k in inside) <= int(m.sum()))
    return L.maximize_counts(model, counts, untouched, seconds)


# Nullity 4 to 8: plane 4, 5, 9 (the one of nullity 8: CP-SAT needs about
# 90 CPU-s, the CLI about 30), tori of nullity 8 (5x5, 6x6), and the
# neighbours rule.
SIZES = [
    (4, 4, False, "plus"),
    (5, 5, False, "plus"),
    (11, 11, False, "plus"),
    (5, 5, True, "plus"),
    (6, 6, True, "plus"),
    (4, 8, True, "plus"),
    (5, 5, False, "neighbours"),
    (6, 6, False, "neighbours"),
]


@pytest.mark.parametrize("rows,cols,torus,rule", SIZES)
def test_leader_program_matches_cp_sat(rows, cols, torus, rule):
    a, args = grid(rows, cols, 2, torus, rule)
    proven, best, ceiling = leader_program(a, 120)
    assert proven, f"CP-SAT did not settle {rows}x{cols}: {best}..{ceiling}"
    (out,) = L.run_json(["hardest", *args])
    most = out["most_presses"]
    assert most["exact"], (rows, cols, torus, rule, most)
    assert most["lower"] == best, (rows, cols, torus, rule, most, best)
    check_board(a, 2, out)


@pytest.mark.skipif(not os.environ.get("LIGHTSOUT_SLOW"), reason="CP-SAT needs 90 CPU-s alone: LIGHTSOUT_SLOW=1")
def test_nine_by_nine_is_37():
    a, args = grid(9, 9, 2)
    # CP-SAT's limit is wall time: 90 CPU-s alone, far longer on a loaded
    # machine (40 CPU-s in 600 s at load 12 did not settle it).
    proven, best, _ = leader_program(a, 3600)
    assert proven and best == 37
    (out,) = L.run_json(["hardest", *args])
    assert out["most_presses"]["exact"] and out["most_presses"]["lower"] == 37
    assert out["most_presses"]["upper_from"] == "leader program"
    check_board(a, 2, out)
