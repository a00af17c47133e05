"""Exact minima by plain enumeration of the kernel.

On boards whose kernel over GF(p) has p^d >= 3^8 members, the fewest presses
that reach a uniform target t from board b is min Σ x over the coset
x0 + ker A, x0 any solution of A x = t - b. galois gives x0 (row reduction)
and a basis of ker A; numpy visits every member of the coset. The CLI
(default target: any, so every uniform state) must print the same `presses`
for each target, call it proven, and agree on which targets are solvable;
its press counts are re-applied to the board here as well.

Random boards are almost never solvable when the kernel is large (a board is
solvable with probability p^-d), so most boards are made from random presses
(b = A y, plus a uniform shift), and one board in each case is uniformly
random, to see both answers.
"""

import math

import networkx as nx
import numpy as np
import pytest

import oracle_lib as L


def grid_case(rows, cols, p, torus=False):
    args = ["-r", rows, "-c", cols] + (["--torus"] if torus else [])
    return L.grid_matrix(rows, cols, "plus", torus), args, cols


def graph_case(tmp_path, name, graph, p, rule):
    graph = nx.convert_node_labels_to_integers(graph, ordering="sorted")
    n = graph.number_of_nodes()
    edges = sorted((min(u, v), max(u, v)) for u, v in graph.edges())
    path = tmp_path / f"{name}.edges"
    path.write_text(L.edge_list_text(n, edges))
    return L.graph_matrix(n, edges, rule), ["--graph", path, "--rule", rule], n


def test_enumeration_agrees_with_trying_every_press_vector():
    """Fast == naive: the coset walk against all p^n press vectors, on
    boards small enough to try them all (a kernel in every case)."""
    for a, p in [
        (L.grid_matrix(2, 2), 3),
        (L.grid_matrix(2, 4, torus=True), 3),
        (L.grid_matrix(1, 5), 3),
        (L.grid_matrix(2, 3), 5),
        (L.grid_matrix(1, 5), 7),
        (L.graph_matrix(4, [(0, 1), (1, 2), (2, 3), (0, 3)], "neighbours"), 5),
    ]:
        n = a.shape[0]
        basis = L.kernel_basis_gf(a, p)
        assert basis.shape[0] > 0
        every = np.array(np.meshgrid(*[np.arange(p)] * n, indexing="ij")).reshape(n, -1)
        reached = (a @ every) % p
        rng = np.random.default_rng(n * p)
        for b in [rng.integers(0, p, n) for _ in range(4)] + [(a @ rng.integers(0, p, n)) % p]:
            for t in range(p):
                hits = np.all((reached + b[:, None]) % p == t, axis=0)
                x0 = L.solve_gf(a, (t - b) % p, p)
                assert (x0 is None) == (not hits.any())
                if x0 is not None:
                    (walked,) = L.min_presses_enumerated([x0], basis, p)
                    assert walked == int(every[:, hits].sum(axis=0).min())


# (name, p, maker): every case's nullity is asserted below, not assumed.
CASES = [
    ("plane 8x17 GF(3)", 3, 8, lambda tmp: grid_case(8, 17, 3)),
    ("plane 11x14 GF(3)", 3, 8, lambda tmp: grid_case(11, 14, 3)),
    ("plane 17x17 GF(3)", 3, 12, lambda tmp: grid_case(17, 17, 3)),
    ("torus 5x5 GF(3)", 3, 8, lambda tmp: grid_case(5, 5, 3, torus=True)),
    ("torus 6x12 GF(3)", 3, 11, lambda tmp: grid_case(6, 12, 3, torus=True)),
    ("plane 11x12 GF(5)", 5, 6, lambda tmp: grid_case(11, 12, 5)),
    ("torus 3x8 GF(7)", 7, 6, lambda tmp: grid_case(3, 8, 7, torus=True)),
    ("K9 plus GF(3)", 3, 8, lambda tmp: graph_case(tmp, "k9", nx.complete_graph(9), 3, "plus")),
    ("Q5 plus GF(3)", 3, 11, lambda tmp: graph_case(tmp, "q5", nx.hypercube_graph(5), 3, "plus")),
    (
        "K6,6 neighbours GF(3)",
        3,
        10,
        lambda tmp: graph_case(tmp, "k66", nx.complete_bipartite_graph(6, 6), 3, "neighbours"),
    ),
    (
        "3x3x3 grid neighbours GF(3)",
        3,
        9,
        lambda tmp: graph_case(tmp, "grid333", nx.grid_graph([3, 3, 3]), 3, "neighbours"),
    ),
]


@pytest.mark.parametrize("name,p,nullity,make", CASES, ids=[c[0] for c in CASES])
def test_minimum_presses_by_enumeration(tmp_path, name, p, nullity, make):
    a, where, cols = make(tmp_path)
    n = a.shape[0]
    basis = L.kernel_basis_gf(a, p)
    assert basis.shape[0] == nullity, f"{name}: nullity {basis.shape[0]}"
    assert p**nullity >= 3**8

    rng = np.random.default_rng(sum(map(ord, name)))
    boards = [rng.integers(0, p, n)]
    for _ in range(3):
        y = rng.integers(0, p, n)
        boards.append((a @ y + rng.integers(0, p)) % p)

    # One particular solution per (board, target), or None when unsolvable.
    starts = {}
    for bi, b in enumerate(boards):
        for t in range(p):
            starts[(bi, t)] = L.solve_gf(a, (t - b) % p, p)
    solvable = [key for key, x0 in starts.items() if x0 is not None]
    minima = dict(zip(solvable, L.min_presses_enumerated([starts[k] for k in solvable], basis, p)))

    # The CLI proves the minimum when its search covers the whole kernel:
    # --max-nullity is log2 of the member count, rounded up.
    bound = math.ceil(nullity * math.log2(p))
    text = "".join(L.board_text(b, cols, p) + "\n" for b in boards)
    answers = L.run_json([*where, "--states", p, "--max-nullity", bound], text)
    assert len(answers) == len(boards)
    command = " ".join(
        map(str, ["lightsout", *where, "--states", p, "--max-nullity", bound, "--format", "json"])
    )
    for bi, (b, answer) in enumerate(zip(boards, answers)):
        assert answer["nullity"] == nullity, command
        targets = {t["target"]: t for t in answer["targets"]}
        assert sorted(targets) == list(range(p)), command
        for t in range(p):
            got = targets[t]
            label = f"{name}, board {bi + 1} ({command}), target {t}"
            if starts[(bi, t)] is None:
                assert got["solvable"] is False and got["presses"] is None, label
                continue
            assert got["solvable"] is True, label
            assert (
                got["presses"] == minima[(bi, t)]
            ), f"{label}: expected {minima[(bi, t)]}, got {got['presses']}"
            assert got["proven_minimal"] is True, label
            x = L.parse_cells(got["solution"])
            assert sum(x) == got["presses"], label
            assert np.all(L.apply(a, b, x, p) == t), label
