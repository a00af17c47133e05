"""Shared set-up of the oracle tests: the binary must exist before anything runs."""

import pytest

import oracle_lib


def pytest_sessionstart(session):
    path = oracle_lib.binary()
    if not path.is_file():
        raise pytest.UsageError(
            f"no lightsout binary at {path}: run `cargo build --release` or set LIGHTSOUT"
        )


@pytest.fixture(scope="session")
def atlas(tmp_path_factory):
    """Every graph of networkx's atlas (1,253, up to 7 vertices) as
    (index, vertex count, edges, edge-list file), the file written here in
    the CLI's edge-list form: the vertex count on the first line, then `u v`."""
    import networkx as nx

    folder = tmp_path_factory.mktemp("atlas")
    graphs = []
    for index, g in enumerate(nx.graph_atlas_g()):
        n = g.number_of_nodes()
        assert sorted(g) == list(range(n))
        edges = sorted((min(u, v), max(u, v)) for u, v in g.edges())
        path = folder / f"g{index}.edges"
        path.write_text(oracle_lib.edge_list_text(n, edges))
        graphs.append((index, n, edges, path))
    assert len(graphs) == 1253
    return graphs
