"""The distributions of the 4x6, 5x5 and 6x6 tori (docs/study.md), checked
by breadth-first search over the solvable boards, apart from the Rust code.

A board's fewest presses is its distance from the all-white board in the
graph whose steps are the press matrix's columns (a press set of w cells is
a walk of w steps; pressing a cell twice is no press). The solvable boards
are the column space: rank r of the N cells. A set S of r coordinates on
which the column space projects one to one (galois's pivots) names each
board by r bits, so the search keeps one byte per board (2^28 for the 6x6
torus, nullity 8) and walks the frontier as arrays of those names. The
counts by distance must be the tool's `--distribution`, row for row, and
sum to 2^r.
"""

import os

import numpy as np
import pytest

import oracle_lib as L


def distances_by_bfs(rows: int, cols: int) -> dict[int, int]:
    """Boards of the rows x cols torus (plus rule) by their fewest presses."""
    a = L.grid_matrix(rows, cols, "plus", True) % 2
    gf = L.field(2)
    # Pivot columns of the rref of A^T: coordinates on which the column
    # space (the rows of A^T) is free, so projecting to them is one to one.
    rref = np.asarray(gf(a.T.copy()).row_reduce(), dtype=np.int64)
    pivots = [int(np.flatnonzero(row)[0]) for row in rref if row.any()]
    rank = len(pivots)
    weights = (1 << np.arange(rank, dtype=np.int64))
    steps = np.unique(a[pivots, :].T @ weights)  # each column, named by its projection
    dist = np.full(1 << rank, 255, dtype=np.uint8)
    dist[0] = 0
    frontier = np.zeros(1, dtype=np.int64)
    level = 0
    while frontier.size:
        found = []
        for step in steps:
            near = frontier ^ step
            near = near[dist[near] == 255]
            dist[near] = level + 1
            found.append(near)
        frontier = np.unique(np.concatenate(found))
        level += 1
    assert (dist < 255).all(), "a board of the column space was not reached"
    counts = np.bincount(dist)
    return {d: int(n) for d, n in enumerate(counts) if n}


def tool_distribution(rows: int, cols: int) -> tuple[dict[int, int], str]:
    (out,) = L.run_json(["hardest", "-r", rows, "-c", cols, "--torus", "--distribution"])
    return {row["presses"]: int(row["boards"]) for row in out["distribution"]}, out["solvable_boards"]


@pytest.mark.parametrize(
    "rows,cols",
    [(4, 6), (5, 5), pytest.param(6, 6, marks=pytest.mark.skipif(
        not os.environ.get("LIGHTSOUT_SLOW"), reason="2^28 boards: 10 CPU-minutes, 8.4 GB: LIGHTSOUT_SLOW=1"))],
)
def test_torus_distribution_matches_bfs(rows, cols):
    expected = distances_by_bfs(rows, cols)
    counted, solvable = tool_distribution(rows, cols)
    assert sum(counted.values()) == int(solvable) == sum(expected.values())
    assert counted == expected, (rows, cols, counted, expected)
