"""`lightsout.hardest`: the most presses a solvable board needs, checked by
re-solving the board it returns, against every board where they can all be
solved (solve_many), against OEIS A079873, and against the command line."""

import pathlib
import pickle

import networkx as nx
import numpy as np
import pytest

import lightsout
from conftest import ROOT, apply, text


def every_board(rows, cols, states=2):
    """All states**(rows*cols) boards of a size, as one 3-D array."""
    cells = rows * cols
    n = np.arange(states**cells)
    digits = (n[:, None] // states ** np.arange(cells)) % states
    return digits.astype(np.uint8).reshape(-1, rows, cols)


def a079873():
    """The 5×5 distribution as tests/data holds it (with a(7) = 467104)."""
    table = ROOT / "tests" / "data" / "classic_5x5_distribution.txt"
    rows = [line.split() for line in table.read_text().splitlines() if line and not line.startswith("#")]
    return {int(k): int(n) for k, n in rows}


def certified(h, target, **puzzle):
    """The board `h` returns needs exactly `h.lower` presses, by `solve`,
    and its press set `h.presses` is that many presses and reaches the target."""
    s = lightsout.solve(h.board, target=target, **puzzle)
    assert s.proven_minimal and s.presses == h.lower, (h, s)
    assert int(h.presses.sum()) == h.lower
    if "graph" not in puzzle:
        states = puzzle.get("states", 2)
        reached = apply(h.board, h.presses, puzzle.get("rule", "plus"), puzzle.get("torus", False), states)
        assert len(np.unique(reached)) == 1
        if target not in ("any", "either"):
            assert (reached == {"white": 0, "black": 1}.get(target, target)).all()


def test_4x4_needs_seven_presses_to_white_and_six_to_either_colour():
    white = lightsout.hardest(4, 4)
    assert (white.lower, white.upper, white.exact, white.how) == (7, 7, True, "search")
    assert white == lightsout.hardest(4, 4, target="white") == lightsout.hardest(4, 4, target=0)
    certified(white, "white")
    either = lightsout.hardest(4, 4, target="any")
    assert (either.lower, either.upper, either.exact) == (6, 6, True)
    assert either == lightsout.hardest(4, 4, target="either")
    certified(either, "any")
    assert white.board.shape == white.presses.shape == (4, 4) and white.board.dtype == np.uint8
    assert white.vertices is None and white.distribution is None and not white.stopped


def test_5x5_distribution_is_a079873():
    h = lightsout.hardest(5, 5, distribution=True)
    assert h.distribution == a079873()
    assert h.distribution[7] == 467104
    assert list(h.distribution) == sorted(h.distribution)
    assert (h.lower, h.upper, h.boards_at_most, h.solvable_boards) == (15, 15, 7350, 2**23)
    assert sum(h.distribution.values()) == h.solvable_boards
    certified(h, "white")


@pytest.mark.parametrize("rows,cols,puzzle,targets", [
    (4, 4, {}, ["white", "black", "any"]),
    (3, 4, {"torus": True}, ["white", "black", "any"]),
    (4, 3, {"rule": "neighbours"}, ["white", "black", "any"]),
    (3, 3, {"rule": "king"}, ["white", "any"]),
    (3, 3, {"states": 3}, [0, 1, 2, "any"]),
    (2, 3, {"states": 4}, [0, 3, "any"]),
])
def test_the_distribution_counts_every_board(rows, cols, puzzle, targets):
    # Fast == naive: every board of the size solved one by one, and the
    # boards that reach the target counted by their fewest presses.
    boards = every_board(rows, cols, puzzle.get("states", 2))
    for target in targets:
        h = lightsout.hardest(rows, cols, target=target, distribution=True, **puzzle)
        presses, _ = lightsout.solve_many(boards, target=target, arrays=True, **puzzle)
        counts = np.bincount(presses[presses >= 0])
        naive = {w: int(n) for w, n in enumerate(counts) if n}
        assert h.distribution == naive, (rows, cols, puzzle, target)
        assert h.exact and h.upper == max(naive) and h.boards_at_most == naive[max(naive)]
        assert h.solvable_boards == int((presses >= 0).sum())
        certified(h, target, **puzzle)


def test_k_states():
    h = lightsout.hardest(3, 3, states=3)
    assert (h.lower, h.upper, h.exact) == (18, 18, True)
    assert h.board.max() <= 2 and h.presses.max() <= 2
    certified(h, 0, states=3)
    # As solve and every front of `hardest`: colour words are for two states.
    with pytest.raises(ValueError, match=r"'white' is a two-state word; with 3 states give a state 0 to 2 or any"):
        lightsout.hardest(3, 3, states=3, target="white")
    assert lightsout.hardest(3, 3, states=3, target="1") == lightsout.hardest(3, 3, states=3, target=1)


def test_graphs_keep_their_vertices():
    h = lightsout.hardest(graph="petersen")
    assert h.exact and h.lower == 3 and h.board.shape == h.presses.shape == (10,)
    assert h.vertices == list(range(10))
    certified(h, "white", graph="petersen")
    G = nx.relabel_nodes(nx.petersen_graph(), {v: f"v{v}" for v in range(10)})
    labelled = lightsout.hardest(graph=G)
    assert labelled.vertices == [f"v{v}" for v in range(10)]
    assert labelled.lower == h.lower and labelled != h  # the labels differ
    certified(labelled, "white", graph=G)
    three = lightsout.hardest(graph="cycle:5", states=3, target="any", distribution=True)
    assert sum(three.distribution.values()) == three.solvable_boards
    certified(three, "any", graph="cycle:5", states=3)


def test_pickles_and_compares_equal():
    def roundtrip(value):
        return pickle.loads(pickle.dumps(value))

    cases = [
        lightsout.hardest(5, 5, distribution=True),
        lightsout.hardest(4, 4, target="any"),
        lightsout.hardest(3, 3, states=3),
        lightsout.hardest(graph=nx.relabel_nodes(nx.cycle_graph(4), {0: "a", 1: "b", 2: "c", 3: "d"})),
        lightsout.hardest(9, 9, time_limit=0.05),
        lightsout.hardest(41, 41),  # closed form
    ]
    for h in cases:
        back = roundtrip(h)
        assert back == h and repr(back) == repr(h)
        assert back.distribution == h.distribution and back.vertices == h.vertices
        assert (back.board == h.board).all() and (back.presses == h.presses).all()
        assert (back.how, back.stopped, back.solvable_boards) == (h.how, h.stopped, h.solvable_boards)
        assert back.stop == h.stop
    assert cases[-1].how == "closed form" and cases[-1].lower == 1191  # wmboyles' table
    assert cases[0] != cases[1] and cases[0] != "a result"
    assert repr(cases[0]) == "Hardest(lower=15, upper=15, exact=True, how='search')"
    with pytest.raises(TypeError):
        hash(cases[0])


def test_counts_past_2_64_are_exact_ints():
    h = lightsout.hardest(17, 17, distribution=True)
    assert (h.lower, h.upper, h.exact) == (199, 199, True)
    assert h.solvable_boards == 2 ** (17 * 17 - 2)
    assert sum(h.distribution.values()) == h.solvable_boards
    assert h.distribution[0] == 1 and h.distribution[1] == 289 and h.distribution[199] == h.boards_at_most
    certified(h, "white")


def test_a_time_limit_gives_bounds():
    h = lightsout.hardest(9, 9, time_limit=0.05)
    assert h.stopped and h.how == "bounds" and not h.exact
    assert h.lower is not None and h.lower <= h.upper
    assert h.stop == "interrupted"
    assert repr(h).endswith("how='bounds', stop='interrupted')")
    certified(h, "white")
    assert h.boards_at_most is None
    # A limit a Duration holds, however long, runs as no limit at all.
    assert lightsout.hardest(4, 4, time_limit=1e18) == lightsout.hardest(4, 4)


def refused(match, **kwargs):
    with pytest.raises(ValueError, match=match) as info:
        lightsout.hardest(**kwargs)
    assert "\n" not in str(info.value) and "--" not in str(info.value)
    assert not isinstance(info.value, lightsout.LimitError)


def test_bad_arguments_are_value_errors_that_name_them():
    refused(r"target: expected 0 or white, 1 or black, or any, not 'grey'", rows=4, cols=4, target="grey")
    refused(r"the target state is 0 to 1, got 2", rows=4, cols=4, target=2)
    refused(r"target: state 2 is not a state of this puzzle: give 0 or white, 1 or black, or any", rows=4, cols=4, target="2")
    refused(r"the target state is 0 to 2, got -1", rows=3, cols=3, states=3, target=-1)
    refused(r"the target state is 0 to 2, got 3", rows=3, cols=3, states=3, target=3)
    refused(r"the target state is 0 to 1, got 100000000000000000000000", rows=4, cols=4, target=10**23)
    refused(r"target: state 300 is not a state of this puzzle", rows=4, cols=4, target="300")
    refused(r"target: expected a state number or any, not bool", rows=4, cols=4, target=True)
    refused(r"target: expected a state number or any, not list", rows=4, cols=4, target=["bw"])
    refused(r"time_limit is a positive number of seconds, got -1", rows=4, cols=4, time_limit=-1)
    refused(r"time_limit is at most 1.8e19 seconds, got 1e300", rows=4, cols=4, time_limit=1e300)
    refused(r"time_limit is a positive number of seconds, got NaN", rows=4, cols=4, time_limit=float("nan"))
    refused(r"max_memory is a number of bytes", rows=4, cols=4, max_memory=-1)
    refused(r"a board of 0 rows is outside", rows=0, cols=4)
    refused(r"give rows and cols", rows=4)
    refused(r"give either rows and cols or graph, not both", rows=4, cols=4, graph="petersen")
    refused(r"rule: expected plus", rows=4, cols=4, rule="cross")
    refused(r"number of states is 2 to 255, got 1", rows=4, cols=4, states=1)
    with pytest.raises(TypeError):
        lightsout.hardest("4", 4)


def test_a_distribution_past_the_work_budget_is_a_limit_error():
    with pytest.raises(lightsout.LimitError, match=r"past the work budget .*without distribution=True"):
        lightsout.hardest(9, 9, distribution=True)


@pytest.mark.parametrize("args,kwargs", [
    (["-r", "4", "-c", "4"], {"rows": 4, "cols": 4}),
    (["-r", "4", "-c", "4", "-t", "any"], {"rows": 4, "cols": 4, "target": "any"}),
    (["-r", "6", "-c", "5", "--torus", "-t", "black"], {"rows": 6, "cols": 5, "torus": True, "target": "black"}),
    (["-r", "3", "-c", "3", "--states", "3", "-t", "2"], {"rows": 3, "cols": 3, "states": 3, "target": 2}),
    (["--graph", "petersen"], {"graph": "petersen"}),
    (["-r", "41", "-c", "41"], {"rows": 41, "cols": 41}),
    (["-r", "64", "-c", "64"], {"rows": 64, "cols": 64}),
    (["-r", "17", "-c", "17", "--distribution"], {"rows": 17, "cols": 17, "distribution": True}),
])
def test_agrees_with_the_cli(cli, args, kwargs):
    [answer] = cli(["hardest", *args])
    h = lightsout.hardest(**kwargs)
    most = answer["most_presses"]
    assert (h.lower, h.upper, h.exact, h.how, h.stopped, h.stop) == (
        most["lower"], most["upper"], most["exact"], most["how"], most["stopped"], most["stop"]
    )
    assert h.solvable_boards == int(answer["solvable_boards"])
    assert h.boards_at_most == (None if most["boards"] is None else int(most["boards"]))
    if answer.get("states", 2) == 2:
        board = text(np.atleast_2d(h.board)).splitlines()
    else:
        board = ["".join(str(v) for v in row) for row in np.atleast_2d(h.board)]
    assert board == most["board"]
    distribution = {d["presses"]: int(d["boards"]) for d in answer.get("distribution", [])} or None
    assert h.distribution == distribution


def test_max_work_is_the_clis_counted_budget(cli):
    # The same count as `--max-work`: the same bounds as the command line,
    # twice the same (a count, not a clock), and 5×5 over Z_3's distribution
    # (2.5e10 weighings) refused under 1e10 and answered by default.
    small = lightsout.hardest(16, 16, max_work=2**31)
    assert (small.lower, small.upper, small.exact, small.how) == (124, 125, False, "bounds")
    assert small == lightsout.hardest(16, 16, max_work=2**31)
    [answer] = cli(["hardest", "-r", "16", "-c", "16", "--max-work", str(2**31)])
    assert (answer["most_presses"]["lower"], answer["most_presses"]["upper"]) == (124, 125)
    with pytest.raises(lightsout.LimitError, match="past the work budget"):
        lightsout.hardest(5, 5, states=3, distribution=True, max_work=10**10)
    h = lightsout.hardest(5, 5, states=3, distribution=True)
    assert sum(h.distribution.values()) == h.solvable_boards
    for bad in (0, -1, 2**64):
        with pytest.raises(ValueError, match="max_work"):
            lightsout.hardest(4, 4, max_work=bad)


@pytest.mark.parametrize("kwargs,stop", [
    # 16x16 on a small budget: no bound moves for 1/32 of it (the stall).
    ({"rows": 16, "cols": 16, "max_work": 10**9}, "stalled"),
    # 61x61, nullity 40: no exact method applies, only the bounds.
    ({"rows": 61, "cols": 61}, "budget"),
    ({"rows": 16, "cols": 16, "time_limit": 0.2}, "interrupted"),
    ({"rows": 5, "cols": 5}, None),
])
def test_stop_says_why_the_bounds_were_left_apart(cli, kwargs, stop):
    h = lightsout.hardest(**kwargs)
    assert h.stop == stop and h.exact == (stop is None) and h.stopped == (stop == "interrupted")
    assert (f"stop='{stop}'" in repr(h)) == (stop is not None)
    assert pickle.loads(pickle.dumps(h)).stop == stop
    if stop != "interrupted":  # the CLI's JSON says the same
        args = ["-r", str(kwargs["rows"]), "-c", str(kwargs["cols"])]
        if "max_work" in kwargs:
            args += ["--max-work", str(kwargs["max_work"])]
        [answer] = cli(["hardest", *args])
        assert answer["most_presses"]["stop"] == stop
