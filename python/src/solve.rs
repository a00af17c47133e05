//! `solve`, `solve_many` and `check`, and the objects they return.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use lightsout::solve::{DEFAULT_MAX_NULLITY, MAX_EXHAUSTIVE_NULLITY};
use lightsout::{Game, StateTarget};
use numpy::{PyArray1, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use rayon::prelude::*;

use crate::convert::{Cells, Goal, Spec, array_cells, bad, read_board, read_target, to_py};
use crate::engine::{
    Board, Engine, Found, Opts, Reached, Stop, Targets, check_signals, engine, run_interruptible,
};

/// The memory a call may plan for unless told otherwise: 1 GiB, as the
/// command line's default.
pub const DEFAULT_MEMORY: u64 = 1 << 30;

/// Boards a batch solves between two checks for Ctrl-C.
const BATCH: usize = 1 << 13;

/// The best press set found for a board.
///
/// ``presses`` is the number of presses (``None`` when no target can be
/// reached), ``press_grid`` how many times to press each cell (a numpy
/// ``uint8`` array, rows × cols; on a graph one row of vertices),
/// ``target`` what it reaches (``"white"``, ``"black"``, a state number for
/// K > 2 states, or ``"target"`` for a given board), ``proven_minimal``
/// whether no press set is lighter, ``lower_bound`` a bound no press set
/// goes below when not proven (else ``None``), and ``nullity`` the
/// dimension of the quiet patterns (``None`` for a composite K).
///
/// >>> s = lightsout.solve(["bwwb", "bbwb", "bwwb", "bwww"])
/// >>> (s.presses, s.target, s.proven_minimal, s.lower_bound, s.nullity)
/// (4, 'white', True, None, 4)
/// >>> int(s.press_grid.sum())
/// 4
#[pyclass(frozen, module = "lightsout")]
pub struct Solution {
    found: Found,
}

#[pymethods]
impl Solution {
    /// Number of presses of the best press set, ``None`` when impossible.
    #[getter]
    fn presses(&self) -> Option<u64> {
        self.found.best.as_ref().map(|b| b.0)
    }

    /// Whether a target can be reached at all.
    #[getter]
    fn solvable(&self) -> bool {
        self.found.best.is_some()
    }

    /// Whether no press set with fewer presses exists.
    #[getter]
    fn proven_minimal(&self) -> bool {
        self.found.proven_minimal
    }

    /// How many times to press each cell: ``uint8``, rows × cols (a new
    /// array on each access); ``None`` when impossible.
    #[getter]
    fn press_grid<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some((_, _, cells)) = &self.found.best else {
            return Ok(None);
        };
        let array = PyArray1::from_slice(py, cells).reshape([self.found.rows, self.found.cols])?;
        Ok(Some(array.into_any()))
    }

    /// The target reached: ``"white"``, ``"black"``, a state number, or
    /// ``"target"``; ``None`` when impossible.
    #[getter]
    fn target<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.found.best.as_ref().map(|b| reached(py, &b.1)).transpose()
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
        self.found.lower_bound
    }

    fn __repr__(&self) -> String {
        match &self.found.best {
            None => "Solution(presses=None)".into(),
            Some((presses, target, _)) => {
                let target = match target {
                    Reached::Name(n) => format!("'{n}'"),
                    Reached::State(s) => s.to_string(),
                };
                let bound = self.found.lower_bound.map_or(String::new(), |b| format!(", lower_bound={b}"));
                format!(
                    "Solution(presses={presses}, target={target}, proven_minimal={}{bound})",
                    if self.found.proven_minimal { "True" } else { "False" }
                )
            }
        }
    }
}

/// A target as Python names it: a colour word or `"target"`, or a state.
fn reached<'py>(py: Python<'py>, r: &Reached) -> PyResult<Bound<'py, PyAny>> {
    match r {
        Reached::Name(n) => Ok(PyString::new(py, n).into_any()),
        Reached::State(s) => s.into_bound_py_any(py),
    }
}

/// Checks the search options shared by `solve` and `solve_many`.
fn options(max_nullity: usize, time_limit: Option<f64>) -> PyResult<Opts> {
    if max_nullity > MAX_EXHAUSTIVE_NULLITY {
        return Err(bad(format!(
            "max_nullity is at most {MAX_EXHAUSTIVE_NULLITY} (the exact search's own ceiling), got {max_nullity}"
        )));
    }
    let time_limit = match time_limit {
        None => None,
        Some(t) if t.is_finite() && t > 0.0 => Some(Duration::from_secs_f64(t)),
        Some(t) => return Err(bad(format!("time_limit is a positive number of seconds, got {t}"))),
    };
    Ok(Opts { time_limit })
}

/// The library's board for the solver's kind.
fn board_of(cells: Cells, spec: &Spec) -> Board {
    if spec.two_states() { Board::Two(cells.grid()) } else { Board::Many(cells.state_grid()) }
}

fn targets_of(goal: Goal) -> Targets {
    match goal {
        Goal::Two(t) => Targets::Two(t),
        Goal::Many(t) => Targets::Many(t),
    }
}

/// Solves one board with the interpreter released: a long search on a
/// thread of its own, so that Ctrl-C returns at once.
fn solve_released(
    py: Python<'_>,
    engine: Arc<Engine>,
    board: Board,
    targets: Targets,
    opts: Opts,
) -> PyResult<Found> {
    py.detach(move || {
        if engine.searches_long() {
            return run_interruptible(move |stop| {
                crate::engine::solve_board(&engine, board, &targets, opts, stop)
            })?;
        }
        crate::engine::solve_board(&engine, board, &targets, opts, &Stop::default())
    })
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
/// text, or ``(n, edges)``) the board is one row of n states, one per vertex,
/// and ``rule`` is ``"plus"`` (a press adds to the vertex and its neighbours) or
/// ``"neighbours"``.
///
/// Null spaces of dimension up to ``max_nullity`` (up to 2^max_nullity
/// members for K states) are searched exhaustively; beyond, a local search
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
#[pyo3(signature = (board, *, target = None, rule = "plus", torus = false, states = 2,
    max_nullity = DEFAULT_MAX_NULLITY, time_limit = None, graph = None, max_memory = DEFAULT_MEMORY))]
#[pyo3(text_signature = "(board, *, target='any', rule='plus', torus=False, states=2, max_nullity=36, \
    time_limit=None, graph=None, max_memory=1073741824)")]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    target: Option<&Bound<'_, PyAny>>,
    rule: &str,
    torus: bool,
    states: u32,
    max_nullity: usize,
    time_limit: Option<f64>,
    graph: Option<&Bound<'_, PyAny>>,
    max_memory: u64,
) -> PyResult<Solution> {
    let spec = Spec::new(rule, torus, states, graph)?;
    let opts = options(max_nullity, time_limit)?;
    let vertices = spec.graph.as_ref().map(|g| g.vertex_count());
    let cells = read_board(board, spec.states, vertices, "board")?;
    let any = PyString::new(py, "any").into_any();
    let goal = read_target(target.unwrap_or(&any), &spec, vertices)?;
    let puzzle = spec.puzzle(cells.rows, cells.cols)?;
    let board = board_of(cells, &spec);
    let k = spec.states;
    let engine = py.detach(|| engine(&puzzle, k, max_nullity, max_memory))?;
    let found = solve_released(py, engine, board, targets_of(goal), opts)?;
    Ok(Solution { found })
}

/// Solves a batch of boards with the same options as :func:`solve`,
/// factoring each size once: ``boards`` is a 3-D numpy array
/// (boards × rows × cols; on a graph boards × vertices) or a list of boards
/// in any form :func:`solve` takes (sizes may differ). Returns a list of
/// :class:`Solution`, in order. Short searches run on all cores; the GIL is
/// released and Ctrl-C stops the batch.
///
/// >>> import numpy as np
/// >>> every = (np.arange(1 << 16)[:, None] >> np.arange(16) & 1).astype(np.uint8).reshape(-1, 4, 4)
/// >>> answers = lightsout.solve_many(every)
/// >>> sum(s.presses is not None for s in answers)
/// 4096
/// >>> max(s.presses for s in answers if s.presses is not None)
/// 6
#[pyfunction]
#[pyo3(signature = (boards, *, target = None, rule = "plus", torus = false, states = 2,
    max_nullity = DEFAULT_MAX_NULLITY, time_limit = None, graph = None, max_memory = DEFAULT_MEMORY))]
#[pyo3(text_signature = "(boards, *, target='any', rule='plus', torus=False, states=2, max_nullity=36, \
    time_limit=None, graph=None, max_memory=1073741824)")]
#[allow(clippy::too_many_arguments)]
pub fn solve_many<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    target: Option<&Bound<'py, PyAny>>,
    rule: &str,
    torus: bool,
    states: u32,
    max_nullity: usize,
    time_limit: Option<f64>,
    graph: Option<&Bound<'py, PyAny>>,
    max_memory: u64,
) -> PyResult<Bound<'py, PyList>> {
    let spec = Spec::new(rule, torus, states, graph)?;
    let opts = options(max_nullity, time_limit)?;
    let vertices = spec.graph.as_ref().map(|g| g.vertex_count());
    let cells = read_boards(boards, &spec, vertices)?;
    let any = PyString::new(py, "any").into_any();
    let targets = targets_of(read_target(target.unwrap_or(&any), &spec, vertices)?);
    // One factoring per size, in the order the sizes first appear.
    let mut engines: HashMap<(usize, usize), Arc<Engine>> = HashMap::new();
    for c in &cells {
        if let std::collections::hash_map::Entry::Vacant(slot) = engines.entry((c.rows, c.cols)) {
            let puzzle = spec.puzzle(c.rows, c.cols)?;
            let k = spec.states;
            slot.insert(py.detach(|| engine(&puzzle, k, max_nullity, max_memory))?);
        }
    }
    let jobs: Vec<(Arc<Engine>, Board)> =
        cells.into_iter().map(|c| (Arc::clone(&engines[&(c.rows, c.cols)]), board_of(c, &spec))).collect();
    let found = py.detach(|| solve_batch(jobs, &targets, opts))?;
    let solutions = found.into_iter().map(|found| Solution { found });
    PyList::new(py, solutions.map(|s| Bound::new(py, s)).collect::<PyResult<Vec<_>>>()?)
}

/// Solves boards in order: short searches a batch at a time on all cores,
/// with a check for Ctrl-C between batches; long ones one at a time (each
/// search uses all cores itself, and stops on Ctrl-C between its batches).
fn solve_batch(jobs: Vec<(Arc<Engine>, Board)>, targets: &Targets, opts: Opts) -> PyResult<Vec<Found>> {
    let mut found = Vec::with_capacity(jobs.len());
    let mut jobs = jobs.into_iter().peekable();
    while jobs.peek().is_some() {
        let mut batch = Vec::new();
        while let Some(job) = jobs.next_if(|(e, _)| !e.searches_long()) {
            batch.push(job);
            if batch.len() == BATCH {
                break;
            }
        }
        if batch.is_empty() {
            if let Some((engine, board)) = jobs.next() {
                // A long search cannot check for signals itself (its
                // workers are not the main thread): on a thread of its own,
                // as `solve` runs it, stopped through its flag.
                let targets = targets.clone();
                let answer = run_interruptible(move |stop| {
                    crate::engine::solve_board(&engine, board, &targets, opts, stop)
                })?;
                found.push(answer?);
            }
        } else {
            // Signals reach only the main thread: the workers do not check.
            let answers: PyResult<Vec<Found>> = batch
                .into_par_iter()
                .map(|(engine, board)| {
                    crate::engine::solve_board(&engine, board, targets, opts, &Stop::default())
                })
                .collect();
            found.extend(answers?);
        }
        check_signals()?;
    }
    Ok(found)
}

/// The boards of a batch: a 3-D array read in one piece (2-D on a graph),
/// or a sequence of boards read one by one.
fn read_boards(boards: &Bound<'_, PyAny>, spec: &Spec, vertices: Option<usize>) -> PyResult<Vec<Cells>> {
    let k = spec.states;
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
        out.push(read_board(&board?, k, vertices, &format!("board {}", i + 1))?);
    }
    Ok(out)
}

/// Whether a board can reach each target, and if not, the pattern that
/// proves it.
///
/// ``reachable`` maps each target asked (``"white"``, ``"black"``, a state
/// number, or ``"target"``) to ``True`` or ``False``; ``obstructions`` maps
/// it to ``None`` when reachable, or to a pattern ``y`` (numpy ``uint8``) with
/// ``yᵀ·A = 0`` whose weighted sum over the cells the target changes: no press
/// set can. ``solvable`` says whether any target asked is reachable.
///
/// >>> c = lightsout.check(["bwbw", "wwww", "bbwb", "bwwb"])
/// >>> c.solvable, c.reachable
/// (False, {'white': False, 'black': False})
/// >>> c.obstructions["white"].shape
/// (4, 4)
#[pyclass(frozen, module = "lightsout")]
pub struct Check {
    rows: usize,
    cols: usize,
    verdicts: Vec<(Reached, Option<Vec<u8>>)>,
    nullity: Option<usize>,
}

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
                Some(cells) => PyArray1::from_slice(py, cells).reshape([self.rows, self.cols])?.into_any(),
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

    fn __repr__(&self) -> String {
        let parts: Vec<String> = self
            .verdicts
            .iter()
            .map(|(t, y)| {
                let name = match t {
                    Reached::Name(n) => format!("'{n}'"),
                    Reached::State(s) => s.to_string(),
                };
                format!("{name}: {}", if y.is_none() { "True" } else { "False" })
            })
            .collect();
        format!("Check(reachable={{{}}})", parts.join(", "))
    }
}

/// Whether ``board`` can reach ``target`` (the same arguments as
/// :func:`solve`), without solving it: a :class:`Check`.
///
/// >>> lightsout.check(["bwwb", "bbwb", "bwwb", "bwww"]).reachable
/// {'white': True, 'black': True}
#[pyfunction]
#[pyo3(signature = (board, *, target = None, rule = "plus", torus = false, states = 2, graph = None,
    max_memory = DEFAULT_MEMORY))]
#[pyo3(text_signature = "(board, *, target='any', rule='plus', torus=False, states=2, graph=None, \
    max_memory=1073741824)")]
#[allow(clippy::too_many_arguments)]
pub fn check(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    target: Option<&Bound<'_, PyAny>>,
    rule: &str,
    torus: bool,
    states: u32,
    graph: Option<&Bound<'_, PyAny>>,
    max_memory: u64,
) -> PyResult<Check> {
    let spec = Spec::new(rule, torus, states, graph)?;
    let vertices = spec.graph.as_ref().map(|g| g.vertex_count());
    let cells = read_board(board, spec.states, vertices, "board")?;
    let any = PyString::new(py, "any").into_any();
    let goal = read_target(target.unwrap_or(&any), &spec, vertices)?;
    let puzzle = spec.puzzle(cells.rows, cells.cols)?;
    let (rows, cols) = (cells.rows, cells.cols);
    let board = board_of(cells, &spec);
    let k = spec.states;
    py.detach(move || {
        let engine = engine(&puzzle, k, DEFAULT_MAX_NULLITY, max_memory)?;
        let verdicts = match (&*engine, &board, goal) {
            (Engine::Two(solver), Board::Two(grid), Goal::Two(targets)) => targets
                .iter()
                .map(|t| {
                    let y = solver.obstruction(grid, t).map_err(to_py)?;
                    Ok((Reached::Name(t.name()), y.map(|y| crate::engine::grid_cells(&y))))
                })
                .collect::<PyResult<Vec<_>>>()?,
            (Engine::Many(solver), Board::Many(grid), Goal::Many(targets)) => targets
                .iter()
                .map(|t| {
                    let y = solver.obstruction(grid, t).map_err(to_py)?;
                    let name = match t {
                        StateTarget::Uniform(s) => Reached::State(*s),
                        StateTarget::Board(_) => Reached::Name("target"),
                    };
                    Ok((name, y.map(|y| y.cells().to_vec())))
                })
                .collect::<PyResult<Vec<_>>>()?,
            _ => return Err(pyo3::exceptions::PyRuntimeError::new_err("internal error: mixed kinds")),
        };
        Ok(Check { rows, cols, verdicts, nullity: engine.nullity() })
    })
}
