"""Boards in every form give one answer; arrays come back with their shapes
and dtypes; quiet patterns are quiet; nullity tables match one-by-one
analyses."""

import numpy as np
import pytest

import lightsout
from conftest import apply

POJ = ["bwwb", "bbwb", "bwwb", "bwww"]
POJ_ARRAY = np.array([[1, 0, 0, 1], [1, 1, 0, 1], [1, 0, 0, 1], [1, 0, 0, 0]], dtype=np.uint8)


@pytest.mark.parametrize(
    "board",
    [
        POJ,
        "\n".join(POJ),
        ["1001", "1101", "1001", "1000"],
        ["#..#", "##.#", "#..#", "#..."],
        POJ_ARRAY.tolist(),
        tuple(map(tuple, POJ_ARRAY.tolist())),
        POJ_ARRAY,
        POJ_ARRAY.astype(bool),
        POJ_ARRAY.astype(np.int64),
        POJ_ARRAY.astype(np.int8),
        POJ_ARRAY.astype(np.uint32),
        np.asfortranarray(POJ_ARRAY),
        POJ_ARRAY.T.copy().T,
        np.repeat(np.repeat(POJ_ARRAY, 2, axis=0), 2, axis=1)[::2, ::2],
    ],
)
def test_every_board_form_gives_the_same_answer(board):
    s = lightsout.solve(board)
    assert (s.presses, s.target, s.proven_minimal) == (4, "white", True)
    grid = s.press_grid
    assert grid.dtype == np.uint8 and grid.shape == (4, 4)
    assert (apply(POJ_ARRAY, grid) == 0).all()


def test_press_grid_round_trip_on_a_large_board():
    rng = np.random.default_rng(2)
    board = rng.integers(0, 2, size=(300, 200), dtype=np.uint8)
    s = lightsout.solve(board, target="white")
    if s.presses is not None:
        assert s.press_grid.shape == (300, 200) and int(s.press_grid.sum()) == s.presses
        # Pressed again on the press grid's result, the board comes back.
        assert lightsout.solve(board ^ 0, target="white").presses == s.presses


def test_a_batch_as_an_array_equals_a_batch_as_a_list():
    rng = np.random.default_rng(4)
    boards = rng.integers(0, 3, size=(50, 3, 4), dtype=np.uint8)
    from_array = lightsout.solve_many(boards, states=3)
    from_list = lightsout.solve_many(list(boards), states=3)
    mixed = lightsout.solve_many([boards[0], boards[1].tolist(), np.ones((2, 2), dtype=np.uint8)], states=3)
    assert [s.presses for s in from_array] == [s.presses for s in from_list]
    assert [s.presses for s in mixed[:2]] == [s.presses for s in from_array[:2]]
    assert mixed[2].press_grid.shape == (2, 2)


def test_quiet_patterns_are_quiet():
    for rows, cols, torus, rule, states in [(5, 5, False, "plus", 2), (4, 4, False, "plus", 4), (6, 6, True, "king", 2), (4, 5, False, "plus", 3), (9, 9, False, "plus", 2)]:
        a = lightsout.analyze(rows, cols, torus=torus, rule=rule, states=states)
        q = a.quiet_patterns
        assert q.dtype == np.uint8 and q.shape == (len(a.quiet_orders), rows, cols)
        zero = np.zeros((rows, cols), dtype=np.uint8)
        for pattern, order in zip(q, a.quiet_orders):
            assert pattern.any()
            assert (apply(zero, pattern, rule, torus, states) == 0).all()
            assert ((pattern.astype(np.int64) * order) % states == 0).all()
        assert a.kernel_size == int(np.prod([o for o in a.quiet_orders], dtype=object) if a.quiet_orders else 1)
        if states == 2:
            assert a.rank + a.nullity == rows * cols
            assert a.kernel_size == 2 ** a.nullity


def test_the_5x5_analysis():
    a = lightsout.analyze(5, 5)
    assert (a.rank, a.nullity, a.kernel_size, a.gcd) == (23, 2, 4, "x^2 + x")
    assert a.gcd_factors == [("x", 1), ("x + 1", 1)]
    assert int(a.lightest_quiet_pattern.sum()) == 12 and a.lightest_proven
    assert a.targets_interchangeable is True  # the all-black 5x5 is solvable
    assert lightsout.analyze(4, 4, states=6).nullity is None
    assert lightsout.analyze(4, 4, states=3).nullity == 2


def test_nullity_tables_match_analyses():
    table = lightsout.nullity_table(range(1, 21), range(1, 21))
    assert table.shape == (20, 20) and table.dtype == np.int64
    for r in (1, 4, 5, 9, 16, 19, 20):
        for c in (1, 4, 5, 11, 19):
            assert table[r - 1, c - 1] == lightsout.analyze(r, c).nullity
    sparse = lightsout.nullity_table([19, 5], range(4, 6))
    assert sparse.tolist() == [[table[18, 3], table[18, 4]], [table[4, 3], table[4, 4]]]
    torus = lightsout.nullity_table(range(2, 6), range(2, 6), torus=True)
    assert torus[2, 2] == lightsout.analyze(4, 4, torus=True).nullity
    k = lightsout.nullity_table(range(3, 6), range(3, 6), states=4)
    assert k.dtype == np.float64
    assert k[1, 1] == np.log2(lightsout.analyze(4, 4, states=4).kernel_size)


def test_graphs():
    petersen = lightsout.analyze(graph="petersen")
    assert petersen.nullity == 5 and petersen.quiet_patterns.shape == (5, 10)
    edges = (6, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0)])
    six = lightsout.analyze(graph=edges)
    assert six.nullity == 2  # C_n under sigma-plus: nullity 2 when 3 divides n
    s = lightsout.solve(np.ones(6, dtype=np.uint8), graph=edges, target="white")
    assert s.press_grid.shape == (6,) and s.proven_minimal
    # A graph6 string, and K states on a graph.
    assert lightsout.solve("111", graph="Bw", target=0).presses == 1
    assert lightsout.solve([1, 2, 0], graph=(3, [(0, 1), (1, 2)]), states=3, target=0).presses is not None


def test_the_press_matrix_is_what_a_press_does():
    # A mathematician's matrix (issue 32 item 7): A @ x is the change a press
    # set makes, checked against the independent `apply` and the solver.
    rng = np.random.default_rng(7)
    for rows, cols, torus, rule, states in [(4, 4, False, "plus", 2), (5, 3, True, "king", 3), (2, 2, True, "plus", 5), (3, 4, False, "010/101/010", 4)]:
        a = lightsout.press_matrix(rows, cols, torus=torus, rule=rule)
        assert a.dtype == np.uint8 and a.shape == (rows * cols, rows * cols)
        for _ in range(5):
            board = rng.integers(0, states, (rows, cols))
            presses = rng.integers(0, states, (rows, cols))
            reached = (board.ravel() + a.astype(np.int64) @ presses.ravel()) % states
            assert (reached.reshape(rows, cols) == apply(board, presses, rule, torus, states)).all()
    # The nullity is N minus the rank of A over GF(2): 5x5 has 2.
    assert lightsout.analyze(5, 5).quiet_patterns.shape[0] == 2
    a = lightsout.press_matrix(5, 5)
    q = lightsout.analyze(5, 5).quiet_patterns.reshape(2, 25)
    assert not ((a.astype(np.int64) @ q.T.astype(np.int64)) % 2).any()
    # On a graph: the vertex and its neighbours, symmetric.
    p = lightsout.press_matrix(graph="petersen")
    assert p.shape == (10, 10) and (p == p.T).all() and (p.sum(axis=0) == 4).all()
    with pytest.raises(lightsout.LimitError, match=r"the press matrix of 10000 cells needs about 100000000 bytes"):
        lightsout.press_matrix(100, 100, max_memory=1 << 20)
