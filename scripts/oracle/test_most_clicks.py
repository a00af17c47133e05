"""Most Clicks (`lightsout hardest`) against an integer program.

The most presses any solvable board of a size needs, to all 0 (white), is
max over press vectors x of min over kernel members m of Σ_i ((x_i + m_i) mod p):
the board A x needs the lightest member of its coset. OR-Tools CP-SAT
maximises that minimum directly over x (each cell one-hot over its p values),
with the kernel's members from galois (nothing here reads the Rust code).

Where CP-SAT proves its optimum, the CLI must say the same value, proven.
Where the CLI reports bounds (9x9, nullity 8) the two must be consistent:
CP-SAT's best board can be no harder than the CLI's upper bound, and its
proven ceiling no lower than the CLI's lower bound. The board the CLI prints
is checked too: solvable, and its fewest presses, by enumerating its coset,
are the lower bound it claims.
"""

import networkx as nx
import numpy as np
import pytest
from ortools.sat.python import cp_model

import oracle_lib as L


def most_clicks_cp_sat(a: np.ndarray, p: int, seconds: float):
    """(status, best value found, proven ceiling) of max_x min_m weight."""
    n = a.shape[0]
    members = L.span_members(L.kernel_basis_gf(a, p), p)
    model = cp_model.CpModel()
    one_hot = [[model.new_bool_var(f"x{i}={v}") for v in range(p)] for i in range(n)]
    for cell in one_hot:
        model.add_exactly_one(cell)
    least = model.new_int_var(0, n * (p - 1), "least")
    for m in members:
        weight = sum(((v + int(m[i])) % p) * one_hot[i][v] for i in range(n) for v in range(p))
        model.add(weight >= least)
    model.maximize(least)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = 2
    solver.parameters.random_seed = 1
    status = solver.solve(model)
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE), solver.status_name(status)
    return status == cp_model.OPTIMAL, int(solver.value(least)), int(solver.best_objective_bound)


def board_cells(rows) -> list[int]:
    """A board of the JSON: `b`/`w` rows for two states, digits otherwise."""
    out = []
    for row in rows:
        if isinstance(row, str):
            out.extend(1 if ch == "b" else 0 if ch == "w" else int(ch) for ch in row)
        else:
            out.extend(int(x) for x in row)
    return out


def check_board(a: np.ndarray, p: int, hardest: dict):
    """The printed board needs exactly `lower` presses to all 0."""
    most = hardest["most_presses"]
    b = np.array(board_cells(most["board"]), dtype=np.int64)
    x0 = L.solve_gf(a, (-b) % p, p)
    assert x0 is not None, "the hardest board cannot reach 0"
    basis = L.kernel_basis_gf(a, p)
    (least,) = L.min_presses_enumerated([x0], basis, p)
    assert least == most["lower"], (least, most)


def grid(rows, cols, p, torus=False, rule="plus"):
    args = ["-r", rows, "-c", cols, "--rule", rule] + (["--torus"] if torus else [])
    if p > 2:
        args += ["--states", p, "-t", 0]
    return L.grid_matrix(rows, cols, rule, torus), args


def graph(tmp_path, name, g, p):
    g = nx.convert_node_labels_to_integers(g, ordering="sorted")
    n = g.number_of_nodes()
    edges = sorted((min(u, v), max(u, v)) for u, v in g.edges())
    path = tmp_path / f"{name}.edges"
    path.write_text(L.edge_list_text(n, edges))
    args = ["--graph", path] + (["--states", p, "-t", 0] if p > 2 else [])
    return L.graph_matrix(n, edges), args


CASES = [
    # (name, p, rows, cols, torus, rule, whether the CLI proves it by default)
    ("4x4", 2, 4, 4, False, "plus", True),
    ("5x5", 2, 5, 5, False, "plus", True),
    ("11x11", 2, 11, 11, False, "plus", True),
    ("5x5 torus", 2, 5, 5, True, "plus", True),
    ("6x6 neighbours", 2, 6, 6, False, "neighbours", True),
    ("4x4 mod 3", 3, 4, 4, False, "plus", True),
    ("3x3 torus mod 3", 3, 3, 3, True, "plus", True),
    ("4x4 mod 5", 5, 4, 4, False, "plus", True),
    # A079875's size: the exact tally needs 2.5e10 weighings, which the
    # default budget (2^37, since issue 34) admits: 24, exact.
    ("5x5 mod 3", 3, 5, 5, False, "plus", True),
]


@pytest.mark.parametrize("name,p,rows,cols,torus,rule,exact", CASES, ids=[c[0] for c in CASES])
def test_sizes_agree_with_cp_sat(name, p, rows, cols, torus, rule, exact):
    a, args = grid(rows, cols, p, torus, rule)
    (hardest,) = L.run_json(["hardest", *args])
    optimal, value, _ = most_clicks_cp_sat(a, p, 120)
    assert optimal, f"{name}: CP-SAT did not prove its optimum ({value})"
    most = hardest["most_presses"]
    assert most["lower"] <= value <= most["upper"], (name, most, value)
    assert most["exact"] == exact, (name, most)
    if exact:
        assert most["lower"] == most["upper"] == value, (name, most, value)
    check_board(a, p, hardest)


@pytest.mark.parametrize("p", [2, 3])
def test_graphs_agree_with_cp_sat(tmp_path, p):
    for name, g in [("petersen", nx.petersen_graph()), ("cube", nx.hypercube_graph(3))]:
        a, args = graph(tmp_path, name, g, p)
        (hardest,) = L.run_json(["hardest", *args])
        optimal, value, _ = most_clicks_cp_sat(a, p, 60)
        assert optimal, f"{name} mod {p}: CP-SAT did not prove its optimum ({value})"
        most = hardest["most_presses"]
        assert most["exact"] and most["lower"] == most["upper"] == value, (name, p, most, value)
        check_board(a, p, hardest)


def test_bounds_of_9x9_are_consistent_with_cp_sat():
    """Nullity 8: the CLI's bounds (37 to 38 today) and CP-SAT's must overlap."""
    a, args = grid(9, 9, 2)
    (hardest,) = L.run_json(["hardest", *args])
    most = hardest["most_presses"]
    _, value, ceiling = most_clicks_cp_sat(a, 2, 20)
    assert value <= most["upper"], (value, most)
    assert most["lower"] <= ceiling, (ceiling, most)
    check_board(a, 2, hardest)
