//! Factored puzzles, kept between calls, and the searches that use them.
//!
//! A `solve` call on a 4×4 board is a few microseconds of algebra; factoring
//! the puzzle again on every call would cost more than the answer. So the
//! solvers of small puzzles are kept in a process-wide cache, keyed by
//! everything that shapes them, and `solve_many` factors once per size.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::{Duration, Instant};

use lightsout::zk::Modulus;
use lightsout::{
    Best, Budget, Grid, MAX_EXHAUSTIVE_NULLITY, Mask, Method, Puzzle, SearchState, Shard, Solver, StateGrid,
    StateSolver, StateTarget, Target, improve,
};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::convert::to_py;

/// A puzzle factored once: the bit-packed two-state solver, or the Z_K one.
pub enum Engine {
    Two(Solver),
    Many(StateSolver),
}

impl Engine {
    /// The nullity as the solution reports it: `None` for a composite K.
    pub fn nullity(&self) -> Option<usize> {
        match self {
            Engine::Two(s) => Some(s.nullity()),
            Engine::Many(s) => s.nullity(),
        }
    }

    /// Whether solving one board may take long enough (a search of more
    /// than 2^12 members) that it should be stopped on Ctrl-C and not share
    /// the cores with other boards.
    pub fn searches_long(&self) -> bool {
        match self {
            Engine::Two(s) => s.nullity() >= 12,
            Engine::Many(s) => s.kernel_size_log2() > 12.0,
        }
    }
}

/// Everything that makes one factored puzzle differ from another.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    puzzle: Puzzle,
    states: Modulus,
    max_nullity: usize,
    max_memory: u64,
}

/// Most cells of a puzzle whose solver is cached between calls (a 256×256
/// board's chasing solver holds a few rows per quiet pattern).
const CACHED_CELLS: usize = 1 << 16;

/// Most solvers cached; past it the cache starts over.
const CACHED_SOLVERS: usize = 32;

static CACHE: LazyLock<Mutex<HashMap<Key, Arc<Engine>>>> = LazyLock::new(|| Mutex::new(HashMap::new()));

/// The factored `puzzle`, from the cache or made now (and cached when small).
///
/// # Errors
/// The library's, as Python exceptions: a memory estimate over `max_memory`
/// is a `LimitError`.
pub fn engine(
    puzzle: &Puzzle,
    states: Modulus,
    max_nullity: usize,
    max_memory: u64,
) -> PyResult<Arc<Engine>> {
    let key = Key { puzzle: puzzle.clone(), states, max_nullity, max_memory };
    if let Some(found) = CACHE.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return Ok(found);
    }
    let made = Arc::new(if states.get() == 2 {
        Engine::Two(Solver::with_memory_limit(puzzle, Method::Auto, max_nullity, max_memory).map_err(to_py)?)
    } else {
        // A coset of at most 2^max_nullity members is searched exhaustively,
        // as the two-state game searches 2^nullity.
        let log2 = u32::try_from(max_nullity).unwrap_or(u32::MAX);
        Engine::Many(StateSolver::new(puzzle, states, Method::Auto, log2, max_memory).map_err(to_py)?)
    });
    if puzzle.cells() <= CACHED_CELLS
        && let Ok(mut cache) = CACHE.lock()
    {
        if cache.len() >= CACHED_SOLVERS {
            cache.clear();
        }
        cache.insert(key, Arc::clone(&made));
    }
    Ok(made)
}

/// Which target a press set reaches.
#[derive(Clone, Debug)]
pub enum Reached {
    /// `white`, `black`, or `target` (a given board).
    Name(&'static str),
    /// A uniform state of the K-state game.
    State(u8),
}

/// One board's answer, held without Python objects (so that a batch is
/// solved with the interpreter released).
#[derive(Clone, Debug)]
pub struct Found {
    pub rows: usize,
    pub cols: usize,
    /// The best press set: its total, the target it reaches, its cells.
    pub best: Option<(u64, Reached, Vec<u8>)>,
    pub proven_minimal: bool,
    /// No press set is lighter than this, when the best is not proven.
    pub lower_bound: Option<u64>,
    pub nullity: Option<usize>,
}

/// How one call searches: its budget and whether it may stop on Ctrl-C.
#[derive(Clone, Copy)]
pub struct Opts {
    pub max_nullity: usize,
    pub time_limit: Option<Duration>,
    /// Check for signals between batches (only the main thread gets them).
    pub interruptible: bool,
}

/// Raises `KeyboardInterrupt` (or what a signal handler raised) if a
/// signal came since the last check.
pub fn check_signals() -> PyResult<()> {
    Python::attach(|py| py.check_signals())
}

/// Set when the call that started a search has returned without it (on
/// Ctrl-C): the abandoned search stops within its current batch of blocks
/// instead of running on to its end.
#[derive(Clone, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// The flag a library search watches (`StateSolver::solve_for_with_stop`).
    pub fn flag(&self) -> &AtomicBool {
        &self.0
    }

    /// Where abandoned work may end: once set, unwinds with [`Abandoned`]
    /// (`resume_unwind` runs no panic hook: nothing is printed), which
    /// [`run_interruptible`] catches where the work's thread starts.
    pub fn check(&self) {
        if self.0.load(Ordering::Relaxed) {
            panic::resume_unwind(Box::new(Abandoned));
        }
    }
}

/// The payload an abandoned search unwinds with: caught where the search
/// thread starts ([`run_interruptible`]), never shown.
struct Abandoned;

/// Solves `board` for each of `targets` and keeps the lightest answer, as
/// `Answer::best` does (the first asked on a tie). A K-state search ends
/// within a batch of blocks once `stop` is set, and the call unwinds with
/// [`Abandoned`] (its answer, no longer proven, must not be returned).
pub fn solve_board(
    engine: &Engine,
    board: Board,
    targets: &Targets,
    opts: Opts,
    started: Instant,
    stop: &Stop,
) -> PyResult<Found> {
    match (engine, board, targets) {
        (Engine::Two(solver), Board::Two(grid), Targets::Two(targets)) => {
            solve_two(solver, &grid, targets, opts, started)
        }
        (Engine::Many(solver), Board::Many(grid), Targets::Many(targets)) => {
            let (rows, cols) = (grid.nrows(), grid.ncols());
            let outcomes = targets
                .iter()
                .map(|t| {
                    let solution = solver.solve_for_with_stop(&grid, t, stop.flag()).map_err(to_py)?;
                    stop.check();
                    Ok((t, solution))
                })
                .collect::<PyResult<Vec<_>>>()?;
            // The lightest, the first asked on a tie (as `StateAnswer::best`).
            let best = outcomes
                .iter()
                .filter_map(|(t, s)| Some((*t, s.as_ref()?)))
                .min_by_key(|(_, s)| s.presses.total());
            let best = best.map(|(target, s)| {
                let reached = match target {
                    StateTarget::Uniform(state) => Reached::State(*state),
                    StateTarget::Board(_) => Reached::Name("target"),
                };
                (s.presses.total(), reached, s.presses.cells().to_vec(), s.proven_minimal, s.lower_bound)
            });
            Ok(match best {
                None => Found {
                    rows,
                    cols,
                    best: None,
                    proven_minimal: false,
                    lower_bound: None,
                    nullity: solver.nullity(),
                },
                Some((total, reached, cells, proven, bound)) => Found {
                    rows,
                    cols,
                    best: Some((total, reached, cells)),
                    proven_minimal: proven,
                    lower_bound: (!proven).then_some(bound),
                    nullity: solver.nullity(),
                },
            })
        }
        _ => Err(PyRuntimeError::new_err("internal error: a board of the wrong kind for its solver")),
    }
}

/// A board for one kind of solver.
pub enum Board {
    Two(Grid),
    Many(StateGrid),
}

/// Targets for one kind of solver.
#[derive(Clone)]
pub enum Targets {
    Two(Vec<Target>),
    Many(Vec<StateTarget>),
}

/// The two-state answer: each target minimised as `Solver::solve_for`
/// does, except that a long exhaustive search runs batch by batch
/// (`SearchState::run`), so that it can stop on Ctrl-C or at the time
/// limit, and that a local search's lower bound is kept.
fn solve_two(
    solver: &Solver,
    board: &Grid,
    targets: &[Target],
    opts: Opts,
    started: Instant,
) -> PyResult<Found> {
    let mut best: Option<(u64, &'static str, Grid, bool, u64)> = None;
    for target in targets {
        let Some((presses, proven, bound)) = solve_two_for(solver, board, target, opts, started)? else {
            continue;
        };
        let weight = presses.count_ones() as u64;
        if best.as_ref().is_none_or(|b| weight < b.0) {
            best = Some((weight, target.name(), presses, proven, bound));
        }
    }
    let (rows, cols) = (board.nrows(), board.ncols());
    let nullity = Some(solver.nullity());
    Ok(match best {
        None => Found { rows, cols, best: None, proven_minimal: false, lower_bound: None, nullity },
        Some((weight, name, presses, proven, bound)) => Found {
            rows,
            cols,
            best: Some((weight, Reached::Name(name), grid_cells(&presses))),
            proven_minimal: proven,
            lower_bound: (!proven).then_some(bound),
            nullity,
        },
    })
}

/// The cells of a two-state grid as states 0 and 1, row by row.
pub fn grid_cells(grid: &Grid) -> Vec<u8> {
    let cols = grid.ncols();
    let mut cells = vec![0u8; grid.nrows() * cols];
    for r in 0..grid.nrows() {
        for c in grid.row(r).iter_ones() {
            cells[r * cols + c] = 1;
        }
    }
    cells
}

/// One target: `(presses, proven, lower bound)`, or `None` when
/// unreachable. The same minimum `Solver::solve_for` finds: a Gray-code
/// walk below nullity 12, the exhaustive engine up to `max_nullity`, the
/// local search beyond (with `time_limit`, the whole limit goes to it, as
/// the command line's `--time-limit` does), then the solutions the
/// problem's symmetries fix ([`Solver::improve_symmetric`]).
fn solve_two_for(
    solver: &Solver,
    board: &Grid,
    target: &Target,
    opts: Opts,
    started: Instant,
) -> PyResult<Option<(Grid, bool, u64)>> {
    let d = solver.nullity();
    let quick = d < 12 && d <= opts.max_nullity;
    if quick || d > MAX_EXHAUSTIVE_NULLITY || !solver.holds_quiet_patterns() {
        // No coset to walk batch by batch: a Gray-code walk of a moment, or
        // a press set that is not minimised (proven only when empty).
        return Ok(solver.solve_for(board, target).map_err(to_py)?.map(|s| {
            let bound = if s.proven_minimal { s.presses.count_ones() as u64 } else { 0 };
            (s.presses, s.proven_minimal, bound)
        }));
    }
    let Some((particular, coset)) = solver.coset(board, target).map_err(to_py)? else {
        return Ok(None);
    };
    let (mask, proven, bound) = if d <= opts.max_nullity.min(MAX_EXHAUSTIVE_NULLITY) {
        let mut state = SearchState::new(&coset, Shard::WHOLE);
        let mut signal = None;
        state.run(&coset, false, &mut |_| {
            if opts.interruptible
                && let Err(e) = check_signals()
            {
                signal = Some(e);
                return ControlFlow::Break(());
            }
            match opts.time_limit.is_some_and(|t| started.elapsed() >= t) {
                true => ControlFlow::Break(()),
                false => ControlFlow::Continue(()),
            }
        });
        if let Some(e) = signal {
            return Err(e);
        }
        if state.is_complete() {
            let best = state.best.map_or((Mask::ZERO, 0), |b| (b.mask, b.weight));
            (best.0, true, best.1)
        } else {
            // Stopped at the time limit: the best of the part searched and
            // of a local search, proven if it meets the local bound.
            let local = improve(&coset, &Budget::default());
            let best = Best::better(state.best, Some(local.best)).unwrap_or(local.best);
            (best.mask, best.weight <= local.lower_bound, local.lower_bound)
        }
    } else {
        let budget = match opts.time_limit {
            Some(limit) => {
                Budget { descents: u64::MAX, work: u64::MAX, time_limit: Some(limit), ..Budget::default() }
            }
            None => Budget::default(),
        };
        let local = improve(&coset, &budget);
        if local.proven() {
            (local.best.mask, true, local.lower_bound)
        } else {
            // The command line's answer past the budget: the lighter of the
            // local search's and the best solution the problem's
            // symmetries fix (a few seconds at most; 79x79: 2629 presses
            // where the local search alone finds 2877).
            let presses =
                solver.member(board, target, &particular, &coset, local.best.mask).map_err(to_py)?;
            let symmetric =
                solver.improve_symmetric(board, target, presses.clone(), "a local search").map_err(to_py)?;
            let Some(found) = symmetric else {
                return Ok(Some((presses, false, local.lower_bound)));
            };
            let bound = found.lower_bound.max(local.lower_bound);
            let proven = found.presses.count_ones() as u64 <= bound;
            return Ok(Some((found.presses, proven, bound)));
        }
    };
    // `member` re-applies the press set to the board: a failure is an
    // internal error, never an answer.
    let presses = solver.member(board, target, &particular, &coset, mask).map_err(to_py)?;
    Ok(Some((presses, proven, bound)))
}

/// Runs `work` on a thread of its own and waits for it, checking for
/// signals every 50 ms: for the work that cannot check for signals itself
/// (the K-state search, an analysis, a nullity table). On Ctrl-C the call
/// raises at once and sets the work's [`Stop`]: a K-state search stops
/// within its current batch of blocks, a nullity table at its next row; an
/// analysis, which has no such stop, runs on to its end and its result is
/// dropped.
///
/// The work gets a thread pool of its own, as many threads as the global
/// one: abandoned, it would otherwise hold the global pool's threads, and
/// every later call would wait for it to end (found by the test suite: a
/// small batch after an interrupted 38x38 search over Z_3 took a minute).
/// Abandoned on its own pool, it only shares the cores until it ends.
pub fn run_interruptible<T: Send + 'static>(work: impl FnOnce(&Stop) -> T + Send + 'static) -> PyResult<T> {
    let failed = |e: String| PyRuntimeError::new_err(format!("cannot start a search thread: {e}"));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(rayon::current_num_threads())
        .thread_name(|i| format!("lightsout-search-{i}"))
        .build()
        .map_err(|e| failed(e.to_string()))?;
    let (tx, rx) = mpsc::channel();
    let stop = Stop::default();
    let stopped = stop.clone();
    std::thread::Builder::new()
        .name("lightsout-search".into())
        .spawn(move || match panic::catch_unwind(AssertUnwindSafe(|| pool.install(|| work(&stopped)))) {
            Ok(value) => {
                let _ = tx.send(value);
            }
            // Abandoned: no one waits for the answer.
            Err(payload) if payload.is::<Abandoned>() => {}
            Err(payload) => panic::resume_unwind(payload),
        })
        .map_err(|e| failed(e.to_string()))?;
    loop {
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(value) => return Ok(value),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(signal) = check_signals() {
                    stop.set();
                    return Err(signal);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "internal error: the search thread ended without an answer",
                ));
            }
        }
    }
}
