"""Shared helpers: the `lightsout` binary for the agreement tests, and a plain
numpy re-application of press sets (a second route to every answer)."""

import json
import os
import pathlib
import subprocess

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def binary():
    """The command line built by `cargo build --release` at the repository
    root (or $LIGHTSOUT_BIN)."""
    path = pathlib.Path(os.environ.get("LIGHTSOUT_BIN", ROOT / "target" / "release" / "lightsout"))
    if not path.exists():
        pytest.fail(f"{path} is missing: run `cargo build --release` at the repository root first")
    return path


@pytest.fixture(scope="session")
def cli_svg(tmp_path_factory):
    """The command line's `--svg` picture: run with arguments and input,
    it returns the SVG text it wrote."""
    folder = tmp_path_factory.mktemp("svg")

    def run(args, stdin=""):
        path = folder / "picture.svg"
        done = subprocess.run(
            [str(binary()), *args, "--svg", str(path)], input=stdin, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, done.stderr
        return path.read_text()

    return run


@pytest.fixture(scope="session")
def cli():
    """The command line built by `cargo build --release` at the repository
    root (or $LIGHTSOUT_BIN): run with arguments and input, it returns the
    JSON objects it printed, one per board."""
    def run(args, stdin=""):
        done = subprocess.run(
            [str(binary()), *args, "--format", "json"],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr
        return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]

    return run


def offsets(rule):
    """The (row, column) offsets a press reaches, as the library reads `rule`."""
    masks = {"plus": "010/111/010", "neighbours": "010/101/010", "king": "111/111/111"}
    rows = masks.get(rule, rule).replace(",", "/").split("/")
    cr, cc = len(rows) // 2, len(rows[0]) // 2
    return [(r - cr, c - cc) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "1"]


def apply(board, presses, rule="plus", torus=False, states=2):
    """The board reached from `board` by pressing each cell `presses` times:
    every cell a press reaches gains 1 mod `states` (a cell reached twice
    through a narrow torus's wrap is still reached once)."""
    board = np.asarray(board, dtype=np.int64)
    presses = np.asarray(presses, dtype=np.int64)
    rows, cols = board.shape
    out = board.copy()
    for r in range(rows):
        for c in range(cols):
            if presses[r, c] == 0:
                continue
            reached = set()
            for dr, dc in offsets(rule):
                nr, nc = r + dr, c + dc
                if torus:
                    nr, nc = nr % rows, nc % cols
                if 0 <= nr < rows and 0 <= nc < cols:
                    reached.add((nr, nc))
            for nr, nc in reached:
                out[nr, nc] += presses[r, c]
    return out % states


def text(board):
    """A two-state board as the command line reads it."""
    return "\n".join("".join("b" if v else "w" for v in row) for row in board) + "\n"


def solvable(rng, rows, cols, count=None):
    """Boards that can be made white: random press sets pressed on the
    white board (a random board of nullity d is solvable once in 2^d)."""
    zero = np.zeros((rows, cols), dtype=np.uint8)
    n = 1 if count is None else count
    boards = [apply(zero, rng.integers(0, 2, size=(rows, cols))).astype(np.uint8) for _ in range(n)]
    return boards[0] if count is None else np.array(boards)
