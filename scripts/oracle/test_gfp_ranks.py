"""Ranks over GF(p) against galois: grids up to 12 x 12 and the graph atlas.

galois computes the rank of the press matrix built in oracle_lib; the CLI's
`analyze --format json` must give the same `rank`, `nullity` and
`kernel_size` (p^nullity), and `table` the same nullity for every size.
"""

import subprocess

import pytest

import oracle_lib as L

SIDES = range(1, 13)


def analyze_grid(rows, cols, p, torus):
    args = ["analyze", "-r", rows, "-c", cols, "--states", p, "--max-nullity", 0]
    return L.run_json(args + (["--torus"] if torus else []))[0]


@pytest.mark.parametrize("torus", [False, True], ids=["plane", "torus"])
@pytest.mark.parametrize("p", [3, 5, 7])
def test_grid_ranks(p, torus):
    sizes = [(r, c) for r in SIDES for c in SIDES]
    expected = {(r, c): L.rank_gf(L.grid_matrix(r, c, "plus", torus), p) for r, c in sizes}
    answers = L.run_many([(r, c, p, torus) for r, c in sizes], fn=analyze_grid)
    wrong = []
    for (r, c), got in zip(sizes, answers):
        rank = expected[(r, c)]
        nullity = r * c - rank
        if (got["rank"], got["nullity"], got["kernel_size"]) != (rank, nullity, str(p**nullity)):
            wrong.append(
                ((r, c), (rank, nullity), (got["rank"], got["nullity"], got["kernel_size"]))
            )
    assert not wrong, f"GF({p}) {'torus' if torus else 'plane'}: (size, expected, got) {wrong[:10]}"

    # `table` computes the same numbers over a whole range at once.
    args = ["table", "-r", "1..12", "-c", "1..12", "--states", p, "--format", "csv"]
    lines = L.run(args + (["--torus"] if torus else [])).splitlines()
    assert lines[0] == "rows,cols,states,kernel_size_log2,nullity"
    table = {}
    for line in lines[1:]:
        r, c, k, _, nullity = line.split(",")
        assert int(k) == p
        table[(int(r), int(c))] = int(nullity)
    assert table == {(r, c): r * c - expected[(r, c)] for r, c in sizes}


def test_five_by_five_over_gf3_has_nullity_three():
    assert 25 - L.rank_gf(L.grid_matrix(5, 5), 3) == 3
    got = analyze_grid(5, 5, 3, False)
    assert (got["rank"], got["nullity"], got["kernel_size"]) == (22, 3, "27")


def analyze_graph(path, rule, k):
    args = ["analyze", "--graph", path, "--rule", rule, "--states", k, "--max-nullity", 0]
    return L.run_json(args)[0]


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("rule", ["plus", "neighbours"])
def test_atlas_ranks(atlas, rule, k):
    graphs = [g for g in atlas if g[1] > 0]
    answers = L.run_many([(path, rule, k) for _, _, _, path in graphs], fn=analyze_graph)
    wrong = []
    for (index, n, edges, _), got in zip(graphs, answers):
        rank = L.rank_gf(L.graph_matrix(n, edges, rule), k)
        if (got["rank"], got["nullity"], got["kernel_size"]) != (
            rank,
            n - rank,
            str(k ** (n - rank)),
        ):
            wrong.append(
                (index, (rank, n - rank), (got["rank"], got["nullity"], got["kernel_size"]))
            )
    assert not wrong, f"{rule} over GF({k}): (atlas index, expected, got) {wrong[:10]}"


def test_graph_without_vertices_is_refused_in_one_line(atlas):
    """Atlas graph 0 has no vertices: no board to play, so the CLI refuses it
    (exit 2, one line) rather than answer; the checks above skip it."""
    index, n, _, path = atlas[0]
    assert (index, n) == (0, 0)
    proc = subprocess.run(
        [str(L.binary()), "analyze", "--graph", str(path)], capture_output=True, text=True
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
