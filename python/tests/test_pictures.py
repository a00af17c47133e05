"""Results draw themselves in a notebook: `_repr_svg_` and `_repr_png_` give
the pictures that the command line's `--svg` and `--png` draw (byte for
byte: one drawing code), a graph as the graph; where the command line would
not draw, they give None and the notebook shows the text repr. An SVG of
more than 16,384 shapes is None too (the notebook keeps what it shows: a
megabyte), and the PNG is shown."""

import pickle
import struct
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import lightsout
from conftest import text

POJ = ["bwwb", "bbwb", "bwwb", "bwww"]
SVG = "{http://www.w3.org/2000/svg}"


def shapes(svg):
    """The picture parsed as XML: its size and how many of each shape."""
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    counts = {tag: len(root.findall(SVG + tag)) for tag in ("rect", "circle", "line", "text")}
    return (int(root.get("width")), int(root.get("height"))), counts


def titles(svg):
    return [t.text for t in ET.fromstring(svg).findall(SVG + "text")]


def board_lines(board):
    return "\n".join(board) + "\n" if isinstance(board[0], str) else text(board)


RNG = np.random.default_rng(32)
SOLVES = [
    (POJ, {}, []),
    (["bwbw", "wwww", "bbwb", "bwwb"], {}, []),  # impossible
    (POJ, {"target": "black"}, ["--target", "black"]),
    (RNG.integers(0, 2, size=(5, 7)), {"rule": "king", "torus": True}, ["--rule", "king", "--torus"]),
    (RNG.integers(0, 2, size=(9, 9)), {"rule": "101/010/101"}, ["--rule", "101/010/101"]),
    (RNG.integers(0, 2, size=(40, 33)), {}, []),
]


@pytest.mark.parametrize("board,kwargs,flags", SOLVES)
def test_a_solution_is_the_picture_solve_svg_draws(cli_svg, board, kwargs, flags):
    s = lightsout.solve(board, **kwargs)
    svg = s._repr_svg_()
    rows, cols = np.shape(board) if not isinstance(board[0], str) else (len(board), len(board[0]))
    # A rectangle is read with --rows (the command line takes a square otherwise).
    assert svg == cli_svg(["solve", "--rows", str(rows), *flags], board_lines(board))
    _, counts = shapes(svg)
    # A background, the grid's lines, a cell each; a red dot a press.
    assert counts["rect"] == 2 + rows * cols and counts["circle"] == (s.presses or 0)
    summary = "impossible" if s.presses is None else f"{s.presses} presses to {s.target}"
    assert titles(svg) == [f"{rows}x{cols} board, {summary}"]


def test_a_solution_to_a_target_board_is_the_picture_solve_svg_draws(cli_svg, tmp_path):
    goal = ["wbwb", "wbwb", "bwwb", "bwww"]  # POJ with the top left corner pressed
    (tmp_path / "goal.txt").write_text(board_lines(goal))
    s = lightsout.solve(POJ, target=goal)
    assert s._repr_svg_() == cli_svg(["solve", "--target", str(tmp_path / "goal.txt")], board_lines(POJ))
    assert titles(s._repr_svg_()) == ["4x4 board, 1 press to target"]


GRAPHS = ["petersen", "cube", "hypercube:4", "cycle:7", "complete:5"]


@pytest.mark.parametrize("graph", GRAPHS)
def test_a_solution_on_a_graph_is_drawn_as_the_graph(cli_svg, graph):
    n = lightsout.analyze(graph=graph).quiet_patterns.shape[1]
    board = RNG.integers(0, 2, size=n).astype(np.uint8)
    s = lightsout.solve(board, graph=graph)
    svg = s._repr_svg_()
    assert svg == cli_svg(["solve", "--graph", graph], "".join(map(str, board)) + "\n")
    _, counts = shapes(svg)
    # A disc a vertex, a smaller one on each pressed vertex.
    assert counts["circle"] == n + (s.presses or 0)
    if graph == "petersen":
        assert counts["line"] == 15 and titles(svg)[0].startswith("Petersen graph, 10 vertices, 15 edges, ")


ANALYSES = [
    ((5, 5), {}, ["-r", "5", "-c", "5"]),
    ((4, 4), {"torus": True}, ["-r", "4", "-c", "4", "--torus"]),
    ((6, 9), {"rule": "king"}, ["-r", "6", "-c", "9", "--rule", "king"]),
    ((16, 16), {}, ["-r", "16", "-c", "16"]),
    (None, {"graph": "petersen"}, ["--graph", "petersen"]),
    (None, {"graph": "cube"}, ["--graph", "cube"]),
    (None, {"graph": "hypercube:4"}, ["--graph", "hypercube:4"]),
    (None, {"graph": "complete:12"}, ["--graph", "complete:12"]),
]


@pytest.mark.parametrize("size,kwargs,flags", ANALYSES)
def test_an_analysis_is_the_picture_analyze_svg_draws(cli_svg, size, kwargs, flags):
    a = lightsout.analyze(*(size or ()), **kwargs)
    svg = a._repr_svg_()
    assert a.nullity != 1  # the command line titles one pattern "1 quiet patterns" on a grid
    assert svg == cli_svg(["analyze", *flags])
    _, counts = shapes(svg)
    # The title and a number over each panel.
    assert counts["text"] - (1 if kwargs.get("graph") == "cube" else 0) == 1 + a.nullity
    if size:
        # The background, then each panel's grid lines and cells.
        assert counts["rect"] == 1 + a.nullity * (1 + size[0] * size[1])
    else:
        assert counts["circle"] == a.nullity * a.quiet_patterns.shape[1]


def test_one_quiet_pattern_is_titled_in_the_singular():
    a = lightsout.analyze(2, 5)
    assert a.nullity == 1 and titles(a._repr_svg_())[0] == "2x5 plane, rule plus: 1 quiet pattern"


def test_a_hardest_board_is_drawn_with_its_presses():
    h = lightsout.hardest(4, 4)
    svg = h._repr_svg_()
    _, counts = shapes(svg)
    assert titles(svg)[0] == "4x4 board, one of the hardest: 7 presses to white"
    assert counts["circle"] == h.lower == int(h.presses.sum())
    # The same cells and dots as the solution of its board (below the
    # canvas, its background and the title, which differ).
    solved = lightsout.solve(h.board, target="white")._repr_svg_()
    assert svg.splitlines()[3:] == solved.splitlines()[3:]
    either = lightsout.hardest(graph="petersen", target="any")
    assert titles(either._repr_svg_())[0].endswith(f"one of the hardest: {either.lower} presses to either colour")
    bounds = lightsout.hardest(16, 16, max_work=2**31)
    assert not bounds.exact
    assert titles(bounds._repr_svg_())[0] == (
        f"16x16 board, {bounds.lower} presses to white (no board needs more than {bounds.upper})"
    )


def test_png_is_the_same_picture():
    for value in (lightsout.solve(POJ), lightsout.analyze(graph="petersen"), lightsout.hardest(3, 3)):
        png = value._repr_png_()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
        assert struct.unpack(">II", png[16:24]) == shapes(value._repr_svg_())[0]


def test_no_picture_where_the_cli_draws_none(cli_svg):
    # K states: the command line writes those boards as PGM, not pictures.
    three = [[1, 2, 0], [0, 1, 1], [2, 2, 1]]
    for value in (
        lightsout.solve(three, states=3),
        lightsout.analyze(4, 4, states=3),
        lightsout.hardest(3, 3, states=3),
    ):
        assert value._repr_svg_() is None and value._repr_png_() is None
        assert repr(value)  # the notebook shows this instead
    # Graphs past the picture's limits: vertices, and edges over all panels.
    path = lightsout.solve(np.zeros(5000, dtype=np.uint8), graph="path:5000", target="white")
    assert path.presses == 0 and path._repr_svg_() is None and path._repr_png_() is None
    many_edges = lightsout.analyze(graph="complete:82")  # 3,321 edges in 81 panels
    assert many_edges._repr_svg_() is None and many_edges._repr_png_() is None
    # The command line refuses that one too (and draws the next smaller).
    with pytest.raises(AssertionError, match=r"would be a blur"):
        cli_svg(["analyze", "--graph", "complete:82"])


def test_a_large_picture_is_a_png_only():
    def zeros(rows, cols):
        return lightsout.solve(np.zeros((rows, cols), dtype=np.uint8), target="white")

    assert zeros(128, 128)._repr_svg_() is not None
    wide = zeros(128, 129)  # 16,512 cells: about 1 MB of SVG, 2.5 kB of PNG
    assert wide._repr_svg_() is None and wide._repr_png_()[:4] == b"\x89PNG"
    assert zeros(1024, 1024)._repr_png_() is not None and zeros(1025, 1024)._repr_png_() is None
    # A graph counts its edges: complete:80's 79 quiet patterns draw 255,960 shapes.
    dense = lightsout.analyze(graph="complete:80")
    assert dense._repr_svg_() is None and dense._repr_png_() is not None


def test_the_text_repr_is_kept_and_pickles_keep_the_picture():
    s, a, h = lightsout.solve(POJ), lightsout.analyze(graph="petersen"), lightsout.hardest(4, 4)
    assert repr(s) == "Solution(presses=4, target='white', proven_minimal=True)"
    assert repr(a) == "Analysis(1x10, rank=5, nullity=5, kernel_size=2**5)"
    assert repr(h) == "Hardest(lower=7, upper=7, exact=True, how='search')"
    for value in (s, a, h, lightsout.solve("1111111111", graph="petersen")):
        back = pickle.loads(pickle.dumps(value))
        assert back == value and back._repr_svg_() == value._repr_svg_()
    # The board is part of a solution (its picture draws it): two impossible
    # boards are two solutions.
    one, other = ["bwbw", "wwww", "bbwb", "bwwb"], ["wwww", "wwww", "wwww", "bwww"]
    assert lightsout.solve(one).presses is None and lightsout.solve(other).presses is None
    assert lightsout.solve(one) != lightsout.solve(other)


def test_the_pictures_docs_python_md_shows_are_the_cli_pictures():
    # docs/python.md shows the command line's own PNGs as what a notebook displays.
    from conftest import ROOT

    img = ROOT / "docs" / "img"
    assert lightsout.solve(POJ)._repr_png_() == (img / "flip-game.png").read_bytes()
    assert lightsout.analyze(graph="petersen")._repr_png_() == (img / "cli-graph-petersen.png").read_bytes()


def test_a_batch_on_a_graph_pickles_its_graph_once():
    # Each answer holds its graph to draw it; a batch's answers share one,
    # which pickle writes once (1000 answers on hypercube:6 took 1.36 MB
    # with the 192 edges in each, 0.19 MB with them once).
    boards = np.random.default_rng(2).integers(0, 2, size=(20, 64)).astype(np.uint8)
    many = lightsout.solve_many(boards, graph="hypercube:6", target="white")
    one, two = len(pickle.dumps(many[:1])), len(pickle.dumps(many[:2]))
    assert two - one < one / 3
    back = pickle.loads(pickle.dumps(many))
    assert back == many and pickle.dumps(back) == pickle.dumps(many)
    assert [b._repr_svg_() for b in back] == [m._repr_svg_() for m in many]


def test_ipython_shows_the_picture_and_keeps_the_text():
    # What a notebook stores for a cell's value: IPython's formatter, when
    # installed (it is not a dependency: skipped without it).
    formatters = pytest.importorskip("IPython.core.formatters")
    show = formatters.DisplayFormatter().format
    for value in (lightsout.solve(POJ), lightsout.analyze(graph="petersen"), lightsout.hardest(4, 4)):
        data, _ = show(value)
        assert sorted(data) == ["image/png", "image/svg+xml", "text/plain"] and data["text/plain"] == repr(value)
    data, _ = show(lightsout.solve([[1, 2], [0, 1]], states=3))
    assert sorted(data) == ["text/plain"]
    data, _ = show(lightsout.solve(np.zeros((128, 129), dtype=np.uint8), target="white"))
    assert sorted(data) == ["image/png", "text/plain"]
