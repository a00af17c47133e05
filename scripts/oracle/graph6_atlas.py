#!/usr/bin/env python3
"""Writes the graph6 test data that tests/it/graphs.rs checks the parser against.

networkx is the independent oracle: its graph6 writer, not ours, makes these
lines, and its edge lists say what each line must decode to.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install networkx
    /tmp/venv/bin/python scripts/oracle/graph6_atlas.py

writes into tests/data/:

- atlas.g6: every graph of networkx's graph atlas (all 1,253 graphs with at
  most 7 vertices, from the empty graph on 0 vertices on), one graph6 line
  each, in atlas order (vertices 0..n-1 as networkx numbers them);
- atlas.edges: the same graphs as networkx holds them, one line each:
  the vertex count, then the edges "u v" with u < v, sorted, all on the
  line ("3 0 1 1 2" is the path on three vertices);
- graph6/random-N.g6 and graph6/random-N.edges for N = 62, 63, 64, 100, 300:
  a seeded random graph as graph6 (N <= 62 takes the one-byte vertex count,
  the others the four-byte form) and as an edge list (first line the vertex
  count, then "u v" with u < v, sorted), so the parser is compared on both
  forms of N(n). The graphs are drawn with networkx's gnm_random_graph at a
  fixed seed; re-running the script rewrites the same files.
"""

import pathlib

import networkx as nx

DATA = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data"


def graph6(graph):
    """One graph6 line without the header, as networkx writes it."""
    return nx.to_graph6_bytes(graph, nodes=sorted(graph), header=False).decode("ascii").strip()


def main():
    atlas = nx.graph_atlas_g()
    assert len(atlas) == 1253, len(atlas)
    lines = [graph6(g) for g in atlas]
    (DATA / "atlas.g6").write_text("\n".join(lines) + "\n")
    rows = []
    for g in atlas:
        edges = sorted((min(u, v), max(u, v)) for u, v in g.edges())
        rows.append(" ".join([str(g.number_of_nodes())] + [f"{u} {v}" for u, v in edges]))
    (DATA / "atlas.edges").write_text("\n".join(rows) + "\n")

    out = DATA / "graph6"
    out.mkdir(exist_ok=True)
    for n, m, seed in [(62, 400, 1), (63, 500, 2), (64, 1000, 3), (100, 1500, 4), (300, 9000, 5)]:
        g = nx.gnm_random_graph(n, m, seed=seed)
        (out / f"random-{n}.g6").write_text(graph6(g) + "\n")
        edges = sorted((min(u, v), max(u, v)) for u, v in g.edges())
        text = f"{n}\n" + "".join(f"{u} {v}\n" for u, v in edges)
        (out / f"random-{n}.edges").write_text(text)
    print(f"wrote {len(lines)} atlas graphs and 5 random graphs to {DATA}")


if __name__ == "__main__":
    main()
