"""Every bad input is a ValueError whose one line names it in the API's
terms; stated limits are LimitError (a RuntimeError, not a ValueError)."""

import numpy as np
import pytest

import lightsout


def refused(match, call, *args, **kwargs):
    with pytest.raises(ValueError, match=match) as info:
        call(*args, **kwargs)
    message = str(info.value)
    assert "\n" not in message and "--" not in message, message
    assert not isinstance(info.value, lightsout.LimitError)


def test_bad_boards():
    refused(r"board: invalid character 'x' at line 2, column 3", lightsout.solve, ["bwbw", "bwxw"])
    refused(r"board: line 2 has 3 cells but line 1 has 4", lightsout.solve, ["bwbw", "bwb"])
    refused(r"row 2 of the board is empty", lightsout.solve, ["bw", ""])
    refused(r"board has no rows", lightsout.solve, [])
    refused(r"row 2 of the board has 1 cells but row 1 has 2", lightsout.solve, [[0, 1], [1]])
    refused(r"state of 2 at row 1, column 2, but the states are 0 to 1", lightsout.solve, [[0, 2]])
    refused(r"state of -1 at row 1, column 1", lightsout.solve, [[-1, 0]])
    refused(r"state of 5 at row 2, column 1, but the states are 0 to 4", lightsout.solve, np.array([[0], [5]]), states=5)
    refused(r"state of 300 .* 0 to 255", lightsout.solve, np.array([[0, 300]]))
    refused(r"board: state 7 at line 1, column 2 is not below 3", lightsout.solve, ["07"], states=3)
    refused(r"1-D or 2-D array, got 3 dimensions", lightsout.solve, np.zeros((2, 2, 2), dtype=np.uint8))
    refused(r"array of integers or booleans, not of float64", lightsout.solve, np.zeros((2, 2)))
    refused(r"no cells", lightsout.solve, np.zeros((0, 3), dtype=np.uint8))
    refused(r"board is a list of strings, nested lists of integers or a numpy array, not float", lightsout.solve, 1.5)
    refused(r"board on a graph of 10 vertices is one row of 10 states, got 1x3", lightsout.solve, "101", graph="petersen")


def test_bad_options():
    refused(r"rule: expected plus, neighbours, king or a mask like 010/111/010, got 'cross'", lightsout.solve, ["bw"], rule="cross")
    refused(r"rule: a rule mask has rows of equal, odd length", lightsout.solve, ["bw"], rule="01/11")
    refused(r"number of states is 2 to 255, got 1", lightsout.solve, ["bw"], states=1)
    refused(r"number of states is 2 to 255, got 256", lightsout.analyze, 3, 3, states=256)
    refused(r"target: expected any, white, black, either, a state number or a board, got 'grey'", lightsout.solve, ["bw"], target="grey")
    refused(r"target 'white' names a colour of the two-state game; with 3 states", lightsout.solve, ["01"], states=3, target="white")
    # As the command line and the server refuse it.
    refused(r"target 'either' names a colour of the two-state game; with 3 states", lightsout.solve, ["01"], states=3, target="either")
    refused(r"target state is 0 to 1, got 2", lightsout.solve, ["bw"], target=2)
    refused(r"target state is 0 to 2, got -1", lightsout.solve, ["01"], states=3, target=-1)
    refused(r"target board is 1x1 but the board is 1x2", lightsout.solve, ["bw"], target=["b"])
    refused(r"max_nullity is at most 128", lightsout.solve, ["bw"], max_nullity=129)
    refused(r"time_limit is a positive number of seconds, got -1", lightsout.solve, ["bw"], time_limit=-1)
    refused(r"a graph has no edges to wrap", lightsout.solve, "11", graph="path:2", torus=True)
    refused(r"not the rule king", lightsout.solve, "11", graph="path:2", rule="king")
    refused(r"graph 'petersne': unknown graph 'petersne'", lightsout.solve, "11", graph="petersne")
    refused(r"graph is a name, a graph6 string, an edge list as text, a pair \(n, edges\) or a networkx graph", lightsout.solve, "11", graph=5)
    refused(r"edges in \(n, edges\) are pairs", lightsout.solve, "11", graph=(2, "x"))
    refused(r"self-loop|vertex", lightsout.solve, "11", graph=(2, [(0, 0)]))
    refused(r"a board of 0 rows is outside", lightsout.analyze, 0, 3)
    refused(r"give rows and cols", lightsout.analyze, 3)
    refused(r"give either rows and cols or graph, not both", lightsout.analyze, 3, 3, graph="petersen")
    refused(r"rows is empty", lightsout.nullity_table, [], range(1, 3))
    refused(r"cols holds 0; sizes are 1 or more", lightsout.nullity_table, range(1, 3), range(0, 3))
    refused(r"rows is a range or a sequence of sizes", lightsout.nullity_table, "abc", range(1, 3))


def test_bad_batches():
    refused(r"boards are an array of shape boards × rows × cols", lightsout.solve_many, np.zeros((4, 4), dtype=np.uint8))
    refused(r"board 2 has a state of 3 at row 1, column 2", lightsout.solve_many, np.array([[[0, 0]], [[0, 3]]]))
    refused(r"board 3: invalid character 'z'", lightsout.solve_many, [["bw"], ["wb"], ["zb"]])
    refused(r"boards is a list of boards or a 3-D array, not one string", lightsout.solve_many, "bw")
    refused(r"target board is 1x2 but the board is 2x2", lightsout.solve_many, [["bw", "wb"]], target=["bw"])


def test_limits_are_limit_errors():
    assert issubclass(lightsout.LimitError, RuntimeError) and not issubclass(lightsout.LimitError, ValueError)
    with pytest.raises(lightsout.LimitError, match=r"needs about \d+ bytes, more than the limit of 1048576"):
        lightsout.solve(np.zeros((200, 200), dtype=np.uint8), rule="king", max_memory=1 << 20)
    with pytest.raises(lightsout.LimitError, match=r"bytes, more than the limit"):
        lightsout.analyze(100, 100, states=3, rule="king", max_memory=1 << 24)
    with pytest.raises(lightsout.LimitError, match=r"word operations"):
        lightsout.nullity_table(range(1, 200), range(1, 200), torus=True)


def test_numbers_out_of_range_are_value_errors_naming_them():
    # Each numeric argument, past its range either way (and past 64 bits):
    # a ValueError that names it, never an OverflowError or a panic.
    refused(r"a board of -1 rows is outside 1..=1048576", lightsout.analyze, -1, 5)
    refused(r"a board of 0 columns is outside", lightsout.analyze, 5, 0)
    refused(r"a board of 1048577 rows is outside", lightsout.analyze, 2**20 + 1, 5)
    refused(r"a board of 1000000000000000000000000000000 columns", lightsout.analyze, 5, 10**30)
    for value in (-1, 0, 1, 256, 10**40):
        refused(rf"number of states is 2 to 255, got {value}", lightsout.solve, ["bw"], states=value)
        refused(rf"number of states is 2 to 255, got {value}", lightsout.nullity_table, [3], [3], states=value)
    refused(r"max_nullity is 0 or more, got -1", lightsout.solve, ["bw"], max_nullity=-1)
    refused(r"max_nullity is at most 128 .*got 10{30}", lightsout.solve_many, [["bw"]], max_nullity=10**30)
    refused(r"max_nullity is 0 or more, got -5", lightsout.analyze, 3, 3, max_nullity=-5)
    for call in (lightsout.solve, lightsout.check, lightsout.solve_many):
        refused(r"max_memory is a number of bytes, 0 to 2\*\*64 - 1, got -1", call, [["bw"]], max_memory=-1)
    refused(r"max_memory is a number of bytes.*got 1180591620717411303424", lightsout.analyze, 3, 3, max_memory=2**70)
    refused(r"max_memory is a number of bytes", lightsout.nullity_table, [3], [3], max_memory=-1)
    refused(r"target state is 0 to 1, got 10{30}", lightsout.solve, ["bw"], target=10**30)
    refused(r"graph: n in \(n, edges\) is a count of vertices", lightsout.solve, "11", graph=(-1, []))
    refused(r"edges in \(n, edges\) are pairs of vertex numbers", lightsout.solve, "11", graph=(2, [(0, 10**30)]))
    refused(r"board is a list of strings or of rows of integers", lightsout.solve, [[10**30, 0]])
    refused(r"state of -1 at row 1, column 1", lightsout.solve, [[-1, 0]], states=3)


def test_time_limits_out_of_range_are_value_errors():
    # From about 2e19 s a Duration overflowed: a PanicException (a
    # BaseException that `except Exception` does not catch).
    refused(r"time_limit is at most 1.8e19 seconds, got 1e300", lightsout.solve, ["bw"], time_limit=1e300)
    refused(r"time_limit is at most 1.8e19 seconds, got 2e19", lightsout.solve_many, [["bw"]], time_limit=2e19)
    for value in (float("nan"), float("inf"), float("-inf"), -1.0, 0.0):
        refused(r"time_limit is a positive number of seconds", lightsout.solve, ["bw"], time_limit=value)
    assert lightsout.solve(["bb"], target="white", time_limit=1e18).presses == 1


def test_a_huge_table_is_refused_from_its_length():
    # range(1, 10**9) was expanded before it was checked (83 s, 15.6 GB):
    # its length refuses it, before a size is read.
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    refused(r"rows holds 999999999 sizes, more than the 1048576 a table may have", lightsout.nullity_table, range(1, 10**9), range(1, 3))
    refused(r"cols holds 2999999999 sizes", lightsout.nullity_table, range(1, 3), range(1, 3 * 10**9), states=3)
    refused(r"rows holds more than 2\*\*63 sizes", lightsout.nullity_table, range(1, 10**20), range(1, 3))
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kib < 64 * 1024, f"the peak memory grew by {grown_kib} KiB"
    # The entries themselves are held against max_memory before any is computed.
    with pytest.raises(lightsout.LimitError, match=r"a table of 1000000 sizes needs about 8000000 bytes"):
        lightsout.nullity_table(range(1, 1001), range(1, 1001), states=3, max_memory=1 << 20)


class _HugeGraph:
    """A graph-like object whose nodes() or edges() would never end."""

    def __init__(self, nodes, edges):
        self._nodes, self._edges = nodes, edges

    def nodes(self):
        return self._nodes()

    def edges(self):
        return self._edges()


def test_a_huge_graph_is_refused_as_it_is_read():
    # Issue 32 item 6: nodes() of 10**9 was collected whole (MemoryError after
    # 3.5 GB and 21 s), and edges() of 10**10 aborted the interpreter. They are
    # counted as they are read: a ValueError at the limit.
    import itertools
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    endless_nodes = _HugeGraph(lambda: range(10**9), lambda: iter(()))
    refused(r"graph: more than 1048576 nodes\(\), the limit of vertices", lightsout.hardest, graph=endless_nodes)
    pairs = lambda: ((i % 10, (i + 1) % 10) for i in itertools.count())
    endless_edges = _HugeGraph(lambda: range(10), pairs)
    refused(r"graph: more than 16777216 edges\(\), the limit of edges", lightsout.analyze, graph=endless_edges)
    refused(r"graph: more than 33554432 edges in \(n, edges\)", lightsout.analyze, graph=(10, pairs()))
    refused(r"graph: 2000000 vertices is more than the limit of 1048576", lightsout.analyze, graph=(2 * 10**6, []))
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kib < 1024 * 1024, f"the peak memory grew by {grown_kib} KiB"
