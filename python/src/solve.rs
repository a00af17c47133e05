//! `solve`, `solve_many` and `check`, and the objects they return.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use lightsout::Puzzle;
use lightsout::picture::Scene;
use lightsout::solve::{Board as _, GameSpec, MAX_EXHAUSTIVE_NULLITY, TargetOf};
use lightsout::zk::Modulus;
use numpy::{PyArray1, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple, PyType};
use rayon::prelude::*;

use crate::convert::{Cells, Goal, Int, Layout, Spec, array_cells, bad, read_board, read_target, to_py};
use crate::engine::{Factored, Found, Opts, engine, press_count, solve_board};
use crate::game::{Play, PyGame, Reached, with_game};
use crate::picture::{self, Format};
use crate::stop::{Stop, check_signals, run_interruptible};

/// The memory a call may plan for unless told otherwise: the library's
/// default for every front, 1 GiB.
pub use lightsout::solve::DEFAULT_MAX_MEMORY as DEFAULT_MEMORY;

/// Boards a batch solves between two checks for Ctrl-C.
const BATCH: usize = 1 << 13;

/// The best press set found for a board.
///
/// ``presses`` is the number of presses (``None`` when no target can be
/// reached), ``press_grid`` how many times to press each cell (a numpy
/// ``uint8`` array, rows × cols; on a graph a vector over the vertices, in
/// the order of ``vertices``), ``target`` what it reaches (``"white"``,
/// ``"black"``, a state number for K > 2 states, or ``"target"`` for a given
/// board), ``proven_minimal`` whether no press set is lighter,
/// ``lower_bound`` a bound no press set goes below when not proven (else
/// ``None``), and ``nullity`` the dimension of the quiet patterns (``None``
/// for a composite K). Solutions compare equal when all of that is (and
/// the board), and pickle. In a notebook a solution shows as a picture,
/// the board with a red dot on each press (``_repr_svg_``, ``_repr_png_``).
///
/// >>> s = lightsout.solve(["bwwb", "bbwb", "bwwb", "bwww"])
/// >>> (s.presses, s.target, s.proven_minimal, s.lower_bound, s.nullity)
/// (4, 'white', True, None, 4)
/// >>> int(s.press_grid.sum())
/// 4
#[pyclass(frozen, module = "lightsout")]
pub struct Solution {
    found: Found,
    layout: Layout,
    /// The board solved, one state a byte (for its picture).
    board: Vec<u8>,
}

#[pymethods]
impl Solution {
    /// Number of presses of the best press set, ``None`` when impossible.
    #[getter]
    fn presses(&self) -> Option<u64> {
        self.found.presses()
    }

    /// Whether a target can be reached at all.
    #[getter]
    fn solvable(&self) -> bool {
        self.found.best.is_some()
    }

    /// Whether no press set with fewer presses exists.
    #[getter]
    fn proven_minimal(&self) -> bool {
        self.solution().is_some_and(|s| s.proven_minimal)
    }

    /// How many times to press each cell: ``uint8``, rows × cols, or over
    /// the vertices on a graph (a new array on each access); ``None`` when
    /// impossible.
    #[getter]
    fn press_grid<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.solution().map(|s| self.layout.array(py, &s.presses)).transpose()
    }

    /// The target reached: ``"white"``, ``"black"``, a state number, or
    /// ``"target"``; ``None`` when impossible.
    #[getter]
    fn target<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.found.best.as_deref().map(|(target, _)| reached(py, target)).transpose()
    }

    /// Dimension of the quiet patterns (``None`` for a composite number of
    /// states, where they need not form a vector space).
    #[getter]
    fn nullity(&self) -> Option<usize> {
        self.found.nullity
    }

    /// When not proven minimal: no press set has fewer presses than this.
    #[getter]
    fn lower_bound(&self) -> Option<u64> {
        self.solution().filter(|s| !s.proven_minimal).map(|s| s.lower_bound)
    }

    /// On a graph, its vertices in the order of ``press_grid`` (a networkx
    /// graph's own labels, else 0 to n − 1); ``None`` on a grid.
    #[getter]
    fn vertices<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        self.layout.vertices(py)
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, Self>) -> PyResult<bool> {
        let other = other.get();
        Ok(self.found == other.found && self.board == other.board && self.layout.same(py, &other.layout)?)
    }

    /// The pickle's state: the layout, the board, the nullity, and the
    /// best's target with the library's `Solution` in its serde form (JSON
    /// text), its press set beside it as bytes (one a cell: half the size
    /// of the JSON's list).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyTuple>,))> {
        let (py, me) = (slf.py(), slf.get());
        let best = match me.found.best.as_deref() {
            None => None,
            Some((target, s)) => {
                let fields = serde_json::to_string(&s.map_presses(|_| ()))
                    .map_err(|e| bad(format!("cannot pickle this solution: {e}")))?;
                Some((reached(py, target)?, fields, PyBytes::new(py, &s.presses)))
            }
        };
        let state = (me.layout.state(py)?, best, me.found.nullity, me.board.clone()).into_pyobject(py)?;
        Ok((slf.get_type().getattr("_from_state")?, (state,)))
    }

    /// The solution a pickle holds (`__reduce__`'s state).
    #[classmethod]
    fn _from_state(_cls: &Bound<'_, PyType>, state: &Bound<'_, PyAny>) -> PyResult<Solution> {
        type Best<'py> = Option<(Bound<'py, PyAny>, String, Vec<u8>)>;
        type State<'py> = (Bound<'py, PyAny>, Best<'py>, Option<usize>, Vec<u8>);
        // A pickle of another version holds another tuple: said, not a TypeError about tuples.
        let (layout, best, nullity, board): State<'_> = state.extract().map_err(|_| {
            bad("not a pickled lightsout.Solution of this version (pickles keep within one version): solve the board again")
        })?;
        let layout = Layout::from_state(&layout)?;
        let best = match best {
            None => None,
            Some((target, fields, cells)) => {
                let fields: lightsout::Solution<()> = serde_json::from_str(&fields)
                    .map_err(|e| bad(format!("not a pickled lightsout solution: {e}")))?;
                Some(Box::new((reached_from(&target)?, fields.map_presses(|()| cells))))
            }
        };
        let found = Found { rows: layout.rows, cols: layout.cols, best, nullity };
        Ok(Solution { found, layout, board })
    }

    /// The board and its presses as an SVG picture, for a notebook (as
    /// ``lightsout solve --svg`` draws it; a graph as the graph): ``None``
    /// for K > 2 states, past the picture's graph limits (4,096 vertices),
    /// or past 16,384 shapes (cells, vertices and edges: a 128×128 board,
    /// a megabyte of SVG), where the notebook shows the PNG or the ``repr``.
    fn _repr_svg_(&self) -> Option<String> {
        picture::svg(self.scene(Format::Svg))
    }

    /// The same picture as PNG bytes: ``None`` for K > 2 states, past the
    /// graph limits or past 2**20 shapes (a 1024×1024 board).
    fn _repr_png_<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        picture::png(py, self.scene(Format::Png))
    }

    fn __repr__(&self) -> String {
        match self.found.best.as_deref() {
            None => "Solution(presses=None)".into(),
            Some((target, s)) => {
                let bound = self.lower_bound().map_or(String::new(), |b| format!(", lower_bound={b}"));
                format!(
                    "Solution(presses={}, target={}, proven_minimal={}{bound})",
                    press_count(&s.presses),
                    shown(target),
                    if s.proven_minimal { "True" } else { "False" }
                )
            }
        }
    }
}

impl Solution {
    /// The library's solution of the best target, its press set as cell
    /// values; `None` when no target can be reached.
    fn solution(&self) -> Option<&lightsout::Solution<Vec<u8>>> {
        self.found.best.as_deref().map(|(_, s)| s)
    }

    /// The picture of the board and its best press set, where one is drawn.
    fn scene(&self, format: Format) -> Option<Scene> {
        let best = self.found.best.as_deref().map(|(target, s)| (target, s.presses.as_slice()));
        picture::solution(&self.layout, &self.board, best, format)
    }
}

/// A target as Python names it: a colour word or `"target"`, or a state.
fn reached<'py>(py: Python<'py>, r: &Reached) -> PyResult<Bound<'py, PyAny>> {
    match r {
        Reached::Name(n) => Ok(PyString::new(py, n).into_any()),
        Reached::State(s) => s.into_bound_py_any(py),
    }
}

/// A target as `repr` shows it.
fn shown(r: &Reached) -> String {
    match r {
        Reached::Name(n) => format!("'{n}'"),
        Reached::State(s) => s.to_string(),
    }
}

/// The target a pickle names (as [`reached`] gave it).
fn reached_from(value: &Bound<'_, PyAny>) -> PyResult<Reached> {
    if let Ok(state) = value.extract::<u8>() {
        return Ok(Reached::State(state));
    }
    match value.extract::<String>()?.as_str() {
        "white" => Ok(Reached::Name("white")),
        "black" => Ok(Reached::Name("black")),
        "target" => Ok(Reached::Name("target")),
        other => Err(bad(format!("not a pickled lightsout target: '{other}'"))),
    }
}

/// The search budget shared by `solve` and `solve_many`.
struct Budget {
    /// `None`: the library's default (for K states, with its work limit).
    max_nullity: Option<usize>,
    max_memory: u64,
    opts: Opts,
}

impl Budget {
    /// Checks `max_nullity`, `time_limit` and `max_memory`.
    fn new(max_nullity: Option<&Int>, time_limit: Option<f64>, max_memory: &Int) -> PyResult<Budget> {
        let max_nullity = max_nullity
            .map(|d| {
                d.within(0, MAX_EXHAUSTIVE_NULLITY, |n| match n.starts_with('-') {
            true => format!("max_nullity is 0 or more, got {n}"),
            false => format!(
                "max_nullity is at most {MAX_EXHAUSTIVE_NULLITY} (the exact search's own ceiling), got {n}"
            ),
        })
            })
            .transpose()?;
        Ok(Budget {
            max_nullity,
            max_memory: memory(max_memory)?,
            opts: Opts { time_limit: seconds(time_limit)? },
        })
    }

    /// The game of `puzzle` as this budget asks for it: the library's
    /// defaults, the same as the command line's and the server's, where
    /// `max_nullity` was not given.
    fn spec(&self, puzzle: Puzzle, states: Modulus) -> GameSpec {
        GameSpec::new(puzzle, states)
            .with_max_memory(self.max_memory)
            .max_nullity_or(self.max_nullity, usize::MAX)
    }
}

/// `max_memory`: a number of bytes.
pub fn memory(max_memory: &Int) -> PyResult<u64> {
    max_memory.within(0, u64::MAX, |m| format!("max_memory is a number of bytes, 0 to 2**64 - 1, got {m}"))
}

/// `time_limit`: a positive, finite number of seconds that a `Duration`
/// holds (up to about 1.8e19).
pub fn seconds(time_limit: Option<f64>) -> PyResult<Option<Duration>> {
    let Some(t) = time_limit else {
        return Ok(None);
    };
    match Duration::try_from_secs_f64(t) {
        Ok(limit) if t > 0.0 => Ok(Some(limit)),
        _ if t > 0.0 && t.is_finite() => Err(bad(format!("time_limit is at most 1.8e19 seconds, got {t:e}"))),
        _ => Err(bad(format!("time_limit is a positive number of seconds, got {t}"))),
    }
}

/// Solves one board with the interpreter released: a long search on a
/// thread of its own, so that Ctrl-C returns at once.
fn solve_released<G: PyGame>(
    py: Python<'_>,
    factored: Arc<Factored<G>>,
    board: G::Board,
    targets: Vec<TargetOf<G>>,
    opts: Opts,
) -> PyResult<Found> {
    py.detach(move || {
        if factored.long {
            return run_interruptible(move |stop| solve_board(&factored, &board, &targets, opts, stop))?;
        }
        solve_board(&factored, &board, &targets, opts, &Stop::default())
    })
}

/// `solve`'s work, in whichever game.
struct SolveOne<'a, 'py> {
    py: Python<'py>,
    spec: &'a Spec,
    cells: &'a Cells,
    goal: Goal,
    budget: Budget,
}

impl Play for SolveOne<'_, '_> {
    type Output = Found;

    fn play<G: PyGame>(self) -> PyResult<Found> {
        let SolveOne { py, spec, cells, goal, budget } = self;
        let targets = G::targets_of(&goal.asked(), spec.states).map_err(to_py)?;
        let puzzle = spec.puzzle(cells.rows, cells.cols)?;
        let game = budget.spec(puzzle, spec.states);
        let factored = py.detach(|| engine::<G>(&game))?;
        solve_released(py, factored, cells.board(), targets, budget.opts)
    }
}

/// The fewest presses that turn ``board`` into ``target``.
///
/// ``board`` is a list of strings (``"bwwb"``: ``b``/``1``/``#`` black, ``w``/``0``/``.``
/// white; digits, or numbers separated by spaces, for K states), nested lists of
/// integers, or a 2-D numpy array. ``target`` is ``"any"`` (``"either"``: the
/// uniform board that takes the fewest presses), ``"white"`` (state 0) or
/// ``"black"`` (state 1) for two states, a state number, or a board of the
/// same shape. ``rule`` is ``"plus"``, ``"neighbours"``, ``"king"`` or a mask
/// such as ``"111/101/111"``; ``torus`` wraps the edges; ``states`` is K. With
/// ``graph`` (a name such as ``"petersen"``, a graph6 string, an edge list as
/// text, ``(n, edges)``, or a networkx graph) the board is one row of n
/// states, one per vertex (or a dict from each vertex to its state), and
/// ``rule`` is ``"plus"`` (a press adds to the vertex and its neighbours) or
/// ``"neighbours"``.
///
/// Null spaces of dimension up to ``max_nullity`` (up to 2^max_nullity
/// members for K states; by default 36) are searched exhaustively. Without
/// ``max_nullity``, as on the command line and the server, a K-state board's
/// exhaustive work over all its targets is limited to 2^26 members (about a
/// second), the lightest targets first; asking ``max_nullity`` gives every
/// target its 2^max_nullity members. Beyond, a local search
/// answers (for two states, or the best solution that the board's
/// symmetries fix where that is lighter), ``proven_minimal`` only when it
/// meets its ``lower_bound``.
/// ``time_limit`` (seconds) stops a long search and returns the best found. The search releases the GIL and stops on Ctrl-C.
///
/// Raises ``ValueError`` for bad input, ``LimitError`` when the work is over
/// ``max_memory`` bytes (default 1 GiB) or another stated limit.
///
/// >>> s = lightsout.solve(["bwwb", "bbwb", "bwwb", "bwww"])
/// >>> s.presses, s.target
/// (4, 'white')
/// >>> lightsout.solve(["bwbw", "wwww", "bbwb", "bwwb"]).presses is None
/// True
/// >>> lightsout.solve([[1, 1, 1], [1, 1, 1], [1, 1, 1]], states=3, target=0).presses
/// 5
/// >>> lightsout.solve("1111111111", graph="petersen", target="white").proven_minimal
/// True
#[pyfunction]
#[pyo3(signature = (board, *, target = None, rule = "plus", torus = false, states = Int::new(2),
    max_nullity = None, time_limit = None, graph = None,
    max_memory = Int::new(DEFAULT_MEMORY as i128)))]
#[pyo3(text_signature = "(board, *, target='any', rule='plus', torus=False, states=2, max_nullity=None, \
    time_limit=None, graph=None, max_memory=1073741824)")]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    target: Option<&Bound<'_, PyAny>>,
    rule: &str,
    torus: bool,
    states: Int,
    max_nullity: Option<Int>,
    time_limit: Option<f64>,
    graph: Option<&Bound<'_, PyAny>>,
    max_memory: Int,
) -> PyResult<Solution> {
    let spec = Spec::new(rule, torus, &states, graph)?;
    let budget = Budget::new(max_nullity.as_ref(), time_limit, &max_memory)?;
    let cells = read_board(board, &spec, "board")?;
    let any = PyString::new(py, "any").into_any();
    let goal = read_target(target.unwrap_or(&any), &spec)?;
    let found = with_game(spec.states, SolveOne { py, spec: &spec, cells: &cells, goal, budget })?;
    let layout = spec.layout(py, found.rows, found.cols);
    Ok(Solution { found, layout, board: cells.cells })
}

/// `solve_many`'s work, in whichever game.
struct SolveMany<'a, 'py> {
    py: Python<'py>,
    spec: &'a Spec,
    cells: &'a [Cells],
    goal: Goal,
    budget: Budget,
}

impl Play for SolveMany<'_, '_> {
    type Output = Vec<Found>;

    fn play<G: PyGame>(self) -> PyResult<Vec<Found>> {
        let SolveMany { py, spec, cells, goal, budget } = self;
        let targets = G::targets_of(&goal.asked(), spec.states).map_err(to_py)?;
        // One factoring per size, in the order the sizes first appear.
        let mut engines: HashMap<(usize, usize), Arc<Factored<G>>> = HashMap::new();
        for c in cells {
            if let std::collections::hash_map::Entry::Vacant(slot) = engines.entry((c.rows, c.cols)) {
                let puzzle = spec.puzzle(c.rows, c.cols)?;
                let k = spec.states;
                let game = budget.spec(puzzle.clone(), k);
                slot.insert(py.detach(|| engine::<G>(&game))?);
            }
        }
        let jobs: Vec<(Arc<Factored<G>>, G::Board)> =
            cells.iter().map(|c| (Arc::clone(&engines[&(c.rows, c.cols)]), c.board())).collect();
        py.detach(|| solve_batch(jobs, &targets, budget.opts))
    }
}

/// Solves a batch of boards with the same options as :func:`solve`,
/// factoring each size once: ``boards`` is a 3-D numpy array
/// (boards × rows × cols; on a graph boards × vertices) or a list of boards
/// in any form :func:`solve` takes (sizes may differ). Returns a list of
/// :class:`Solution`, in order; with ``arrays=True`` two numpy arrays
/// instead: the presses of each board (``int64``, −1 where no target can
/// be reached) and the stack of press grids (``uint8``, boards × rows ×
/// cols, or boards × vertices; zeros where impossible), for boards of one
/// size. Short searches run on all cores; the GIL is released and Ctrl-C
/// stops the batch.
///
/// >>> import numpy as np
/// >>> every = (np.arange(1 << 16)[:, None] >> np.arange(16) & 1).astype(np.uint8).reshape(-1, 4, 4)
/// >>> answers = lightsout.solve_many(every)
/// >>> sum(s.presses is not None for s in answers)
/// 4096
/// >>> max(s.presses for s in answers if s.presses is not None)
/// 6
/// >>> presses, grids = lightsout.solve_many(every, arrays=True)
/// >>> presses.shape, grids.shape, int((presses >= 0).sum())
/// ((65536,), (65536, 4, 4), 4096)
#[pyfunction]
#[pyo3(signature = (boards, *, target = None, rule = "plus", torus = false, states = Int::new(2),
    max_nullity = None, time_limit = None, graph = None,
    max_memory = Int::new(DEFAULT_MEMORY as i128), arrays = false))]
#[pyo3(text_signature = "(boards, *, target='any', rule='plus', torus=False, states=2, max_nullity=None, \
    time_limit=None, graph=None, max_memory=1073741824, arrays=False)")]
#[allow(clippy::too_many_arguments)]
pub fn solve_many<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    target: Option<&Bound<'py, PyAny>>,
    rule: &str,
    torus: bool,
    states: Int,
    max_nullity: Option<Int>,
    time_limit: Option<f64>,
    graph: Option<&Bound<'py, PyAny>>,
    max_memory: Int,
    arrays: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let spec = Spec::new(rule, torus, &states, graph)?;
    let budget = Budget::new(max_nullity.as_ref(), time_limit, &max_memory)?;
    let cells = read_boards(boards, &spec)?;
    if arrays && let Some(other) = cells.iter().find(|c| (c.rows, c.cols) != (cells[0].rows, cells[0].cols)) {
        return Err(bad(format!(
            "arrays=True stacks the press grids, so the boards are of one size: got {}x{} and {}x{}",
            cells[0].rows, cells[0].cols, other.rows, other.cols
        )));
    }
    let any = PyString::new(py, "any").into_any();
    let goal = read_target(target.unwrap_or(&any), &spec)?;
    let found = with_game(spec.states, SolveMany { py, spec: &spec, cells: &cells, goal, budget })?;
    if arrays {
        return stacked(py, &spec, &found);
    }
    let solutions = collector_paused(py, || {
        let solutions = found.into_iter().zip(cells).map(|(found, board)| {
            let layout = spec.layout(py, found.rows, found.cols);
            Bound::new(py, Solution { found, layout, board: board.cells })
        });
        solutions.collect::<PyResult<Vec<_>>>()
    })?;
    Ok(PyList::new(py, solutions)?.into_any())
}

/// What `make` returns, made with Python's cyclic collector paused: the
/// 65,536 answers of the classic batch, each a new object the collector
/// tracks, set off about ninety collections that found nothing (none can
/// be garbage while it is being made), a fifth of the batch's time.
fn collector_paused<T>(py: Python<'_>, make: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    /// Enables the collector again when dropped, a panic included.
    struct Paused<'py>(Option<Bound<'py, PyModule>>);
    impl Drop for Paused<'_> {
        fn drop(&mut self) {
            if let Some(gc) = &self.0 {
                let _ = gc.call_method0("enable");
            }
        }
    }
    let gc = py.import("gc")?;
    let enabled: bool = gc.call_method0("isenabled")?.extract()?;
    if enabled {
        gc.call_method0("disable")?;
    }
    let _paused = Paused(enabled.then_some(gc));
    make()
}

/// A batch's answers as two arrays: the presses (−1 where impossible) and
/// the stack of press grids.
fn stacked<'py>(py: Python<'py>, spec: &Spec, found: &[Found]) -> PyResult<Bound<'py, PyAny>> {
    let (rows, cols) = found.first().map_or((0, 0), |f| (f.rows, f.cols));
    let presses: Vec<i64> =
        found.iter().map(|f| f.presses().map_or(-1, |n| i64::try_from(n).unwrap_or(i64::MAX))).collect();
    let mut grids = Vec::with_capacity(found.len() * rows * cols);
    for f in found {
        match f.best.as_deref() {
            Some((_, s)) => grids.extend_from_slice(&s.presses),
            None => grids.resize(grids.len() + rows * cols, 0),
        }
    }
    let layout = spec.layout(py, rows, cols);
    let grids = layout.stack(py, grids, found.len())?;
    Ok((PyArray1::from_vec(py, presses), grids).into_pyobject(py)?.into_any())
}

/// Solves boards in order: short searches a batch at a time on all cores,
/// with a check for Ctrl-C between batches; long ones one at a time (each
/// search uses all cores itself, and stops on Ctrl-C between its batches).
fn solve_batch<G: PyGame>(
    jobs: Vec<(Arc<Factored<G>>, G::Board)>,
    targets: &[TargetOf<G>],
    opts: Opts,
) -> PyResult<Vec<Found>> {
    let mut found = Vec::with_capacity(jobs.len());
    let mut jobs = jobs.into_iter().peekable();
    while jobs.peek().is_some() {
        let mut batch = Vec::new();
        while let Some(job) = jobs.next_if(|(f, _)| !f.long) {
            batch.push(job);
            if batch.len() == BATCH {
                break;
            }
        }
        if batch.is_empty() {
            if let Some((factored, board)) = jobs.next() {
                // A long search cannot check for signals itself (its
                // workers are not the main thread): on a thread of its own,
                // as `solve` runs it, stopped through its flag.
                let targets = targets.to_vec();
                let answer =
                    run_interruptible(move |stop| solve_board(&factored, &board, &targets, opts, stop))?;
                found.push(answer?);
            }
        } else {
            // Signals reach only the main thread: the workers do not check.
            let answers: PyResult<Vec<Found>> = batch
                .into_par_iter()
                .map(|(factored, board)| solve_board(&factored, &board, targets, opts, &Stop::default()))
                .collect();
            found.extend(answers?);
        }
        check_signals()?;
    }
    Ok(found)
}

/// The boards of a batch: a 3-D array read in one piece (2-D on a graph),
/// or a sequence of boards read one by one.
fn read_boards(boards: &Bound<'_, PyAny>, spec: &Spec) -> PyResult<Vec<Cells>> {
    let (k, vertices) = (spec.states, spec.vertices());
    if let Ok(array) = boards.cast::<PyUntypedArray>() {
        let shape = array.shape().to_vec();
        let (n, rows, cols) = match (&shape[..], vertices) {
            (&[n, r, c], _) => (n, r, c),
            (&[n, v], Some(_)) => (n, 1, v),
            _ => {
                let want = if vertices.is_some() { "boards × vertices" } else { "boards × rows × cols" };
                return Err(bad(format!("the boards are an array of shape {want}, got shape {shape:?}")));
            }
        };
        if rows == 0 || cols == 0 {
            return Err(bad(format!("the boards are an array of shape {shape:?}, with no cells")));
        }
        if let Some(v) = vertices.filter(|&v| (rows, cols) != (1, v)) {
            return Err(bad(format!(
                "a board on a graph of {v} vertices is one row of {v} states, got {rows}x{cols}"
            )));
        }
        let all = array_cells(array.as_any(), "boards")?;
        let size = rows * cols;
        if let Some(i) = all.iter().position(|&s| s >= k.get()) {
            let (b, cell) = (i / size, i % size);
            return Err(bad(format!(
                "board {} has a state of {} at row {}, column {}, but the states are 0 to {}",
                b + 1,
                all[i],
                cell / cols + 1,
                cell % cols + 1,
                k.get() - 1
            )));
        }
        return Ok((0..n)
            .map(|b| Cells { rows, cols, cells: all[b * size..(b + 1) * size].to_vec() })
            .collect());
    }
    if boards.is_instance_of::<PyString>() {
        return Err(bad("boards is a list of boards or a 3-D array, not one string"));
    }
    let mut out = Vec::new();
    for (i, board) in
        boards.try_iter().map_err(|_| bad("boards is a list of boards or a 3-D array"))?.enumerate()
    {
        out.push(read_board(&board?, spec, &format!("board {}", i + 1))?);
    }
    Ok(out)
}

/// Whether a board can reach each target, and if not, the pattern that
/// proves it.
///
/// ``reachable`` maps each target asked (``"white"``, ``"black"``, a state
/// number, or ``"target"``) to ``True`` or ``False``; ``obstructions`` maps
/// it to ``None`` when reachable, or to a pattern ``y`` (numpy ``uint8``, of
/// the board's shape) with ``yᵀ·A = 0`` whose weighted sum over the cells
/// the target changes: no press set can. ``solvable`` says whether any
/// target asked is reachable.
///
/// >>> c = lightsout.check(["bwbw", "wwww", "bbwb", "bwwb"])
/// >>> c.solvable, c.reachable
/// (False, {'white': False, 'black': False})
/// >>> c.obstructions["white"].shape
/// (4, 4)
#[pyclass(frozen, module = "lightsout")]
pub struct Check {
    layout: Layout,
    verdicts: Vec<Verdict>,
    nullity: Option<usize>,
}

/// A target asked, and the pattern proving it unreachable (`None` when
/// reachable).
type Verdict = (Reached, Option<Vec<u8>>);

#[pymethods]
impl Check {
    /// Whether any target asked can be reached.
    #[getter]
    fn solvable(&self) -> bool {
        self.verdicts.iter().any(|(_, y)| y.is_none())
    }

    /// Each target asked, and whether it can be reached.
    #[getter]
    fn reachable<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (target, y) in &self.verdicts {
            dict.set_item(reached(py, target)?, y.is_none())?;
        }
        Ok(dict)
    }

    /// Each target asked, and ``None`` or the pattern proving it unreachable.
    #[getter]
    fn obstructions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (target, y) in &self.verdicts {
            let pattern = match y {
                None => py.None().into_bound(py),
                Some(cells) => self.layout.array(py, cells)?,
            };
            dict.set_item(reached(py, target)?, pattern)?;
        }
        Ok(dict)
    }

    /// Dimension of the quiet patterns (``None`` for a composite K).
    #[getter]
    fn nullity(&self) -> Option<usize> {
        self.nullity
    }

    /// On a graph, its vertices in the order of the patterns; else ``None``.
    #[getter]
    fn vertices<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        self.layout.vertices(py)
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, Self>) -> PyResult<bool> {
        let other = other.get();
        Ok(self.verdicts == other.verdicts
            && self.nullity == other.nullity
            && self.layout.same(py, &other.layout)?)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyTuple>,))> {
        let (py, me) = (slf.py(), slf.get());
        let verdicts = me
            .verdicts
            .iter()
            .map(|(target, y)| Ok((reached(py, target)?, y.clone())))
            .collect::<PyResult<Vec<_>>>()?;
        let state = (me.layout.state(py)?, verdicts, me.nullity).into_pyobject(py)?;
        Ok((slf.get_type().getattr("_from_state")?, (state,)))
    }

    /// The check a pickle holds (`__reduce__`'s state).
    #[classmethod]
    fn _from_state(_cls: &Bound<'_, PyType>, state: &Bound<'_, PyAny>) -> PyResult<Check> {
        type Verdicts<'py> = Vec<(Bound<'py, PyAny>, Option<Vec<u8>>)>;
        let (layout, verdicts, nullity): (Bound<'_, PyAny>, Verdicts<'_>, Option<usize>) = state.extract()?;
        let verdicts =
            verdicts.into_iter().map(|(t, y)| Ok((reached_from(&t)?, y))).collect::<PyResult<Vec<_>>>()?;
        Ok(Check { layout: Layout::from_state(&layout)?, verdicts, nullity })
    }

    fn __repr__(&self) -> String {
        let parts: Vec<String> = self
            .verdicts
            .iter()
            .map(|(t, y)| format!("{}: {}", shown(t), if y.is_none() { "True" } else { "False" }))
            .collect();
        format!("Check(reachable={{{}}})", parts.join(", "))
    }
}

/// `check`'s work, in whichever game.
struct CheckOne<'a, 'py> {
    py: Python<'py>,
    spec: &'a Spec,
    cells: Cells,
    goal: Goal,
    max_memory: u64,
}

impl Play for CheckOne<'_, '_> {
    type Output = (Vec<Verdict>, Option<usize>);

    fn play<G: PyGame>(self) -> PyResult<Self::Output> {
        let CheckOne { py, spec, cells, goal, max_memory } = self;
        let targets = G::targets_of(&goal.asked(), spec.states).map_err(to_py)?;
        let puzzle = spec.puzzle(cells.rows, cells.cols)?;
        let (k, board) = (spec.states, cells.board());
        py.detach(move || {
            let factored = engine::<G>(&GameSpec::new(puzzle, k).with_max_memory(max_memory))?;
            let verdicts = targets
                .iter()
                .map(|t| {
                    let y = factored.game.obstruction(&board, t).map_err(to_py)?;
                    Ok((G::reached(t), y.map(|y| y.cell_values())))
                })
                .collect::<PyResult<Vec<_>>>()?;
            Ok((verdicts, factored.nullity))
        })
    }
}

/// Whether ``board`` can reach ``target`` (the same arguments as
/// :func:`solve`), without solving it: a :class:`Check`.
///
/// >>> lightsout.check(["bwwb", "bbwb", "bwwb", "bwww"]).reachable
/// {'white': True, 'black': True}
#[pyfunction]
#[pyo3(signature = (board, *, target = None, rule = "plus", torus = false, states = Int::new(2), graph = None,
    max_memory = Int::new(DEFAULT_MEMORY as i128)))]
#[pyo3(text_signature = "(board, *, target='any', rule='plus', torus=False, states=2, graph=None, \
    max_memory=1073741824)")]
#[allow(clippy::too_many_arguments)]
pub fn check(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    target: Option<&Bound<'_, PyAny>>,
    rule: &str,
    torus: bool,
    states: Int,
    graph: Option<&Bound<'_, PyAny>>,
    max_memory: Int,
) -> PyResult<Check> {
    let spec = Spec::new(rule, torus, &states, graph)?;
    let max_memory = memory(&max_memory)?;
    let cells = read_board(board, &spec, "board")?;
    let any = PyString::new(py, "any").into_any();
    let goal = read_target(target.unwrap_or(&any), &spec)?;
    let layout = spec.layout(py, cells.rows, cells.cols);
    let (verdicts, nullity) = with_game(spec.states, CheckOne { py, spec: &spec, cells, goal, max_memory })?;
    Ok(Check { layout, verdicts, nullity })
}
