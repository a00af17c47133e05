"""Type hints of the `lightsout` module (built from Rust with PyO3)."""

from typing import Any, Iterable, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

#: A board: rows of text ("bwwb"; digits or numbers for K states), nested
#: lists of states, or a 2-D numpy array of integers or booleans. On a graph,
#: one row of n states (a string, a flat list or a 1-D array), or a dict
#: from each vertex (its networkx label, else its number) to its state.
Board = Union[str, Sequence[str], Sequence[Sequence[int]], Sequence[int], dict[Any, int], npt.NDArray[np.integer], npt.NDArray[np.bool_]]
#: "any" / "either", "white" (state 0), "black" (state 1), a state number, or a board.
TargetLike = Union[str, int, Board]
#: A graph: a name ("petersen", "cycle:7", ...), a graph6 string, an edge
#: list as text, (n, edges) with vertices 0..n, or an undirected networkx
#: graph (anything with nodes() and edges(); its labels are kept).
GraphLike = Union[str, Tuple[int, Iterable[Tuple[int, int]]], Any]

class LimitError(RuntimeError):
    """A stated limit (max_memory, the table budget) refused the work."""

class Solution:
    """The best press set found for a board (compares equal by value, pickles; draws itself in a notebook)."""

    @property
    def presses(self) -> Optional[int]: ...
    @property
    def solvable(self) -> bool: ...
    @property
    def proven_minimal(self) -> bool: ...
    @property
    def press_grid(self) -> Optional[npt.NDArray[np.uint8]]: ...
    @property
    def target(self) -> Union[str, int, None]: ...
    @property
    def nullity(self) -> Optional[int]: ...
    @property
    def lower_bound(self) -> Optional[int]: ...
    @property
    def vertices(self) -> Optional[list[Any]]: ...
    def __eq__(self, other: object) -> bool: ...
    #: The picture `lightsout solve/analyze --svg` draws (a graph as the graph); None for
    #: K > 2 states, past 4,096 vertices, or past 16,384 cells, vertices and edges in all
    #: (the notebook then shows the PNG, or the repr).
    def _repr_svg_(self) -> Optional[str]: ...
    #: The same picture as PNG bytes; None for K > 2 states, past 4,096 vertices or past 2**20 shapes.
    def _repr_png_(self) -> Optional[bytes]: ...

class Check:
    """Whether a board can reach each target, and the patterns that say why not (compares equal, pickles)."""

    @property
    def solvable(self) -> bool: ...
    @property
    def reachable(self) -> dict[Union[str, int], bool]: ...
    @property
    def obstructions(self) -> dict[Union[str, int], Optional[npt.NDArray[np.uint8]]]: ...
    @property
    def nullity(self) -> Optional[int]: ...
    @property
    def vertices(self) -> Optional[list[Any]]: ...
    def __eq__(self, other: object) -> bool: ...

class Analysis:
    """Rank, nullity, quiet patterns and the gcd polynomial of one size and rule (compares equal, pickles; draws its quiet patterns in a notebook)."""

    @property
    def kernel_size(self) -> int: ...
    @property
    def rank(self) -> Optional[int]: ...
    @property
    def nullity(self) -> Optional[int]: ...
    @property
    def quiet_patterns(self) -> Optional[npt.NDArray[np.uint8]]: ...
    @property
    def quiet_orders(self) -> list[int]: ...
    @property
    def gcd(self) -> Optional[str]: ...
    @property
    def gcd_factors(self) -> Optional[list[Tuple[str, int]]]: ...
    @property
    def lightest_quiet_pattern(self) -> Optional[npt.NDArray[np.uint8]]: ...
    @property
    def lightest_proven(self) -> Optional[bool]: ...
    @property
    def targets_interchangeable(self) -> Optional[bool]: ...
    @property
    def vertices(self) -> Optional[list[Any]]: ...
    def __eq__(self, other: object) -> bool: ...
    #: The picture `lightsout solve/analyze --svg` draws (a graph as the graph); None for
    #: K > 2 states, past 4,096 vertices, or past 16,384 cells, vertices and edges in all
    #: (the notebook then shows the PNG, or the repr).
    def _repr_svg_(self) -> Optional[str]: ...
    #: The same picture as PNG bytes; None for K > 2 states, past 4,096 vertices or past 2**20 shapes.
    def _repr_png_(self) -> Optional[bytes]: ...

class Hardest:
    """The most presses a solvable board of a size needs, proven or bounded, and a board that needs them (compares equal, pickles; draws the board in a notebook)."""

    @property
    def lower(self) -> Optional[int]: ...
    @property
    def upper(self) -> int: ...
    @property
    def exact(self) -> bool: ...
    @property
    def how(self) -> str: ...
    @property
    def board(self) -> Optional[npt.NDArray[np.uint8]]: ...
    @property
    def presses(self) -> Optional[npt.NDArray[np.uint8]]: ...
    @property
    def boards_at_most(self) -> Optional[int]: ...
    @property
    def solvable_boards(self) -> int: ...
    @property
    def distribution(self) -> Optional[dict[int, int]]: ...
    @property
    def stopped(self) -> bool: ...
    @property
    def stop(self) -> Optional[str]: ...
    @property
    def vertices(self) -> Optional[list[Any]]: ...
    def __eq__(self, other: object) -> bool: ...
    #: The picture `lightsout solve/analyze --svg` draws (a graph as the graph); None for
    #: K > 2 states, past 4,096 vertices, or past 16,384 cells, vertices and edges in all
    #: (the notebook then shows the PNG, or the repr).
    def _repr_svg_(self) -> Optional[str]: ...
    #: The same picture as PNG bytes; None for K > 2 states, past 4,096 vertices or past 2**20 shapes.
    def _repr_png_(self) -> Optional[bytes]: ...

def solve(
    board: Board,
    *,
    target: TargetLike = "any",
    rule: str = "plus",
    torus: bool = False,
    states: int = 2,
    max_nullity: Optional[int] = None,
    time_limit: Optional[float] = None,
    graph: Optional[GraphLike] = None,
    max_memory: int = 1 << 30,
) -> Solution:
    """The fewest presses that turn `board` into `target`.

    max_nullity=None is the library's default (36; with K states a board's work
    over all its targets is limited to 2^26 members, answers past it marked not
    proven minimal, as on the command line and the server); a number asks for
    2^max_nullity members per target."""

def solve_many(
    boards: Union[Iterable[Board], npt.NDArray[np.integer], npt.NDArray[np.bool_]],
    *,
    target: TargetLike = "any",
    rule: str = "plus",
    torus: bool = False,
    states: int = 2,
    max_nullity: Optional[int] = None,
    time_limit: Optional[float] = None,
    graph: Optional[GraphLike] = None,
    max_memory: int = 1 << 30,
    arrays: bool = False,
) -> Union[list[Solution], Tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]]]:
    """`solve` for a batch (a 3-D array or a list of boards), one factoring per size.

    With arrays=True: (presses, press grids), -1 presses where impossible."""

def check(
    board: Board,
    *,
    target: TargetLike = "any",
    rule: str = "plus",
    torus: bool = False,
    states: int = 2,
    graph: Optional[GraphLike] = None,
    max_memory: int = 1 << 30,
) -> Check:
    """Whether `board` can reach `target`, without solving it."""

def analyze(
    rows: Optional[int] = None,
    cols: Optional[int] = None,
    *,
    torus: bool = False,
    rule: str = "plus",
    states: int = 2,
    graph: Optional[GraphLike] = None,
    max_nullity: int | None = None,
    max_memory: int = 1 << 30,
) -> Analysis:
    """Rank, nullity, quiet patterns, gcd and lightest quiet pattern of a size (or graph)."""

def press_matrix(
    rows: Optional[int] = None,
    cols: Optional[int] = None,
    *,
    torus: bool = False,
    rule: str = "plus",
    graph: Optional[GraphLike] = None,
    max_memory: int = 1 << 30,
) -> npt.NDArray[np.uint8]:
    """The press matrix A (N x N, row-major cells): column j is what pressing cell j changes."""

def nullity_table(
    rows: Iterable[int],
    cols: Iterable[int],
    *,
    torus: bool = False,
    rule: str = "plus",
    states: int = 2,
    max_memory: int = 1 << 30,
    nullity: bool = False,
) -> Union[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """Entry [i, j]: the nullity of rows[i] x cols[j] (log2 of the kernel size for states > 2,
    unless nullity=True with a prime number of states)."""

def hardest(
    rows: Optional[int] = None,
    cols: Optional[int] = None,
    *,
    target: Union[str, int] = 0,
    torus: bool = False,
    rule: str = "plus",
    states: int = 2,
    graph: Optional[GraphLike] = None,
    distribution: bool = False,
    time_limit: Optional[float] = None,
    max_memory: int = 1 << 30,
    max_work: int = 1 << 37,
) -> Hardest:
    """The most presses a solvable board of a size (or graph) needs to reach `target`
    (0/"white", 1/"black", a state, "any"), a board that needs them, and with
    distribution=True the boards by their fewest presses. max_work is the CLI's
    --max-work: a count of member weighings, the same answer on every machine."""
