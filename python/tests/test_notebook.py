"""What a notebook user expects of the results: they pickle and compare
equal, batches come back as numpy arrays, networkx graphs are taken as
they are (their labels kept), and on a graph every pattern is a vector
over the vertices."""

import json
import math
import pickle

import networkx as nx
import numpy as np
import pytest

import lightsout

POJ = ["bwwb", "bbwb", "bwwb", "bwww"]


def roundtrip(value):
    return pickle.loads(pickle.dumps(value))


def test_solutions_pickle_and_compare_equal():
    s = lightsout.solve(POJ)
    assert s == lightsout.solve(POJ) and roundtrip(s) == s
    assert repr(roundtrip(s)) == repr(s) == "Solution(presses=4, target='white', proven_minimal=True)"
    assert (roundtrip(s).press_grid == s.press_grid).all()
    assert s != lightsout.solve(POJ, target="black") and s != "a solution"
    impossible = lightsout.solve(["bwbw", "wwww", "bbwb", "bwwb"])
    assert roundtrip(impossible) == impossible and impossible != s and roundtrip(impossible).press_grid is None
    # K states (a state as the target), a given target board, a bound.
    three = lightsout.solve([[1, 1, 1], [1, 1, 1], [1, 1, 1]], states=3, target=0)
    assert roundtrip(three) == three and roundtrip(three).target == 0
    board = lightsout.solve(POJ, target=POJ)
    assert roundtrip(board).target == "target" and roundtrip(board) == board
    bounded = lightsout.solve(np.ones((19, 19), dtype=np.uint8), target="white", max_nullity=8)
    assert roundtrip(bounded) == bounded and roundtrip(bounded).lower_bound == bounded.lower_bound == 9
    # A value object: equal is not identical, and a frozen result is not a key.
    with pytest.raises(TypeError):
        hash(s)


def test_checks_and_analyses_pickle_and_compare_equal():
    c = lightsout.check(["bwbw", "wwww", "bbwb", "bwwb"])
    assert roundtrip(c) == c and repr(roundtrip(c)) == repr(c)
    assert (roundtrip(c).obstructions["white"] == c.obstructions["white"]).all()
    assert c != lightsout.check(POJ)
    for a in [lightsout.analyze(5, 5), lightsout.analyze(4, 4, states=4), lightsout.analyze(graph="petersen")]:
        back = roundtrip(a)
        assert back == a and repr(back) == repr(a)
        assert back.kernel_size == a.kernel_size and back.gcd_factors == a.gcd_factors
        assert (back.quiet_patterns == a.quiet_patterns).all() and back.quiet_orders == a.quiet_orders
        assert back.lightest_proven == a.lightest_proven
    assert lightsout.analyze(5, 5) != lightsout.analyze(5, 5, torus=True)


def test_solve_many_returns_numpy_arrays():
    rng = np.random.default_rng(3)
    boards = rng.integers(0, 2, size=(200, 5, 5), dtype=np.uint8)
    solutions = lightsout.solve_many(boards, target="white")
    presses, grids = lightsout.solve_many(boards, target="white", arrays=True)
    assert presses.dtype == np.int64 and presses.shape == (200,)
    assert grids.dtype == np.uint8 and grids.shape == (200, 5, 5)
    for s, p, g in zip(solutions, presses, grids):
        if s.presses is None:
            assert p == -1 and not g.any()
        else:
            assert p == s.presses and (g == s.press_grid).all()
    assert (presses == -1).any() and (presses >= 0).any()
    # K states, and a graph: boards × vertices.
    _, grids = lightsout.solve_many(rng.integers(0, 3, size=(10, 3, 4)), states=3, arrays=True)
    assert grids.shape == (10, 3, 4)
    presses, grids = lightsout.solve_many(np.ones((4, 10), dtype=np.uint8), graph="petersen", arrays=True)
    assert grids.shape == (4, 10) and (presses == presses[0]).all()
    with pytest.raises(ValueError, match=r"arrays=True stacks the press grids.*2x2 and 3x3"):
        lightsout.solve_many([np.zeros((2, 2), dtype=np.uint8), np.zeros((3, 3), dtype=np.uint8)], arrays=True)


def reapply(graph, board, presses, states=2):
    """The board reached on a networkx graph (plus rule), vertices in
    `graph.nodes()` order: a second route to every answer."""
    index = {v: i for i, v in enumerate(graph.nodes())}
    out = np.array(board, dtype=np.int64)
    for v, i in index.items():
        for u in [v, *graph.neighbors(v)]:
            out[index[u]] += presses[i]
    return out % states


def test_networkx_graphs_are_taken_as_they_are():
    petersen = nx.petersen_graph()
    s = lightsout.solve([1] * 10, graph=petersen, target="white")
    named = lightsout.solve([1] * 10, graph="petersen", target="white")
    assert s.presses == named.presses and s.proven_minimal and s.vertices == list(range(10))
    assert (reapply(petersen, [1] * 10, s.press_grid) == 0).all()
    assert lightsout.analyze(graph=petersen).nullity == lightsout.analyze(graph="petersen").nullity == 5
    # Labels that are not 0..n, in the order of G.nodes(), kept on the result.
    grid = nx.relabel_nodes(nx.grid_2d_graph(3, 4), lambda rc: f"r{rc[0]}c{rc[1]}")
    presses = np.random.default_rng(9).integers(0, 3, size=12)
    board = reapply(grid, np.zeros(12), presses, states=3).astype(np.uint8)  # solvable
    s = lightsout.solve(board, graph=grid, states=3, target=0)
    assert s.vertices == list(grid.nodes()) and s.press_grid.shape == (12,)
    assert (reapply(grid, board, s.press_grid, states=3) == 0).all()
    assert roundtrip(s) == s and roundtrip(s).vertices == s.vertices
    # The 3×4 grid graph is the 3×4 board, read row by row.
    assert s.presses == lightsout.solve(board.reshape(3, 4), states=3, target=0).presses
    a = lightsout.analyze(graph=grid)
    assert a.vertices == list(grid.nodes()) and a.nullity == lightsout.analyze(3, 4).nullity
    c = lightsout.check([1] + [0] * 11, graph=grid)
    assert c.vertices == list(grid.nodes())
    with pytest.raises(ValueError, match=r"graph: a directed graph"):
        lightsout.solve([1, 1], graph=nx.DiGraph([(0, 1)]))
    with pytest.raises(ValueError, match=r"self-loop"):
        lightsout.solve([1, 1], graph=nx.Graph([(0, 1), (1, 1)]))


def test_patterns_on_a_graph_are_vectors_over_the_vertices():
    cube = lightsout.analyze(graph="hypercube:4")
    assert cube.quiet_patterns.ndim == 2 and cube.quiet_patterns.shape[1] == 16
    five = lightsout.analyze(graph="cycle:6")
    assert five.quiet_patterns.shape == (2, 6) and five.lightest_quiet_pattern.shape == (6,)
    c = lightsout.check([1, 0, 0, 0, 0, 0], graph="cycle:6")
    assert all(y is None or y.shape == (6,) for y in c.obstructions.values())
    assert lightsout.solve([1, 1, 1], graph="path:3", target="white").press_grid.shape == (3,)
    # A grid keeps its rows × cols.
    assert lightsout.solve(POJ).press_grid.shape == (4, 4) and lightsout.solve(POJ).vertices is None


def test_nullity_table_gives_the_integer_nullity_for_a_prime_k():
    for p in (2, 3, 5, 7):
        table = lightsout.nullity_table(range(1, 9), range(1, 7), states=p, nullity=True)
        assert table.dtype == np.int64
        log2 = lightsout.nullity_table(range(1, 9), range(1, 7), states=p)
        np.testing.assert_allclose(table * math.log2(p), log2)
        assert table[4, 4] == lightsout.analyze(5, 5, states=p).nullity
    with pytest.raises(ValueError, match=r"nullity=True needs a prime number of states.*got 4"):
        lightsout.nullity_table([4], [4], states=4, nullity=True)


def test_a_board_on_a_graph_may_be_a_dict_of_its_vertices():
    grid = nx.relabel_nodes(nx.grid_2d_graph(2, 3), lambda rc: f"r{rc[0]}c{rc[1]}")
    listed = reapply(grid, [0] * 6, [1, 0, 0, 0, 0, 1]).tolist()  # solvable
    board = dict(zip(grid.nodes(), listed))
    s = lightsout.solve(dict(reversed(list(board.items()))), graph=grid, target="white")
    assert s == lightsout.solve(listed, graph=grid, target="white")
    assert (reapply(grid, listed, s.press_grid) == 0).all()
    # A target board too, and numbered vertices without networkx.
    assert lightsout.solve(board, graph=grid, target=board).presses == 0
    assert lightsout.solve({0: 1, 1: 1, 2: 1}, graph="path:3", target="white").presses == 1
    with pytest.raises(ValueError, match=r"the board gives no state for vertex 'r1c2'"):
        lightsout.solve({k: v for k, v in board.items() if k != "r1c2"}, graph=grid)
    with pytest.raises(ValueError, match=r"the board names 'x', which is not a vertex of the graph"):
        lightsout.solve({**board, "x": 1}, graph=grid)
    with pytest.raises(ValueError, match=r"state of 3 at vertex 'r0c0', but the states are 0 to 2"):
        lightsout.solve({**board, "r0c0": 3}, graph=grid, states=3)
    with pytest.raises(ValueError, match=r"board is a list of strings, nested lists of integers or a numpy array, not dict"):
        lightsout.solve({0: 1}, rule="plus")
    # A batch of dicts.
    assert [x.presses for x in lightsout.solve_many([board, board], graph=grid, target="white")] == [s.presses] * 2


def test_a_pickle_holds_the_library_solution_in_its_serde_form():
    # Issue 33: the state is the library's `Solution` (src/solve/answer.rs)
    # in its serde form, its press set beside it as bytes: a field added to
    # that struct is pickled with no edit here.
    s = lightsout.solve(np.ones((19, 19), dtype=np.uint8), target="white", max_nullity=8)
    (_, (target, fields, presses), nullity, _), = s.__reduce__()[1]
    assert (target, nullity) == (s.target, s.nullity)
    fields = json.loads(fields)
    assert list(fields) == ["presses", "proven_minimal", "lower_bound", "found_by"] and fields["presses"] is None
    assert (fields["proven_minimal"], fields["lower_bound"]) == (s.proven_minimal, s.lower_bound) == (False, 9)
    assert (np.frombuffer(presses, dtype=np.uint8).reshape(19, 19) == s.press_grid).all()


def test_a_pickle_of_another_version_is_refused_in_words():
    # Before issue 33 the state listed the fields themselves, in a 6-tuple.
    layout = lightsout.solve(POJ).__reduce__()[1][0][0]
    older = (layout, (4, "white", bytes(16)), True, None, 4, bytes(16))
    with pytest.raises(ValueError, match="not a pickled lightsout.Solution of this version"):
        lightsout.Solution._from_state(older)
