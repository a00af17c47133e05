//! Factored puzzles, kept between calls, and the searches that use them.
//!
//! A `solve` call on a 4×4 board is a few microseconds of algebra; factoring
//! the puzzle again on every call would cost more than the answer. So the
//! solvers of small puzzles are kept in a process-wide cache, keyed by
//! everything that shapes them, and `solve_many` factors once per size.

use std::collections::HashMap;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::Duration;

use lightsout::solve::TargetOf;
use lightsout::zk::Modulus;
use lightsout::{
    Board as _, Game, Grid, Limits, Method, Puzzle, Solver, StateGrid, StateSolver, StateTarget, Target,
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

/// How one call searches, beyond the budget its solver was made with.
#[derive(Clone, Copy)]
pub struct Opts {
    pub time_limit: Option<Duration>,
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

    /// The flag a library search watches (`Limits::stop`).
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
/// `Answer::best` does (the first asked on a tie): the library's own
/// search ([`Game::solve_within`]), which ends within a batch of blocks
/// once `stop` is set or the time limit passes. An abandoned call unwinds
/// with [`Abandoned`] (its answer, no longer proven, must not be returned).
pub fn solve_board(
    engine: &Engine,
    board: Board,
    targets: &Targets,
    opts: Opts,
    stop: &Stop,
) -> PyResult<Found> {
    let limits = Limits { stop: Some(stop.flag()), time_limit: opts.time_limit };
    let nullity = engine.nullity();
    let found = match (engine, board, targets) {
        (Engine::Two(solver), Board::Two(grid), Targets::Two(targets)) => {
            found(solver, &grid, targets, &limits, nullity, grid_cells, |t| Reached::Name(t.name()))
        }
        (Engine::Many(solver), Board::Many(grid), Targets::Many(targets)) => {
            let reached = |t: &StateTarget| match t {
                StateTarget::Uniform(state) => Reached::State(*state),
                StateTarget::Board(_) => Reached::Name("target"),
            };
            found(solver, &grid, targets, &limits, nullity, |g| g.cells().to_vec(), reached)
        }
        _ => Err(PyRuntimeError::new_err("internal error: a board of the wrong kind for its solver")),
    };
    stop.check();
    found
}

/// One board's answer from either game, held without Python objects.
fn found<G: Game>(
    game: &G,
    board: &G::Board,
    targets: &[TargetOf<G>],
    limits: &Limits,
    nullity: Option<usize>,
    cells: impl Fn(&G::Board) -> Vec<u8>,
    reached: impl Fn(&TargetOf<G>) -> Reached,
) -> PyResult<Found> {
    let (rows, cols) = (game.puzzle().rows(), game.puzzle().cols());
    let answer = game.solve_within(board, targets, limits).map_err(to_py)?;
    Ok(match answer.best() {
        None => Found { rows, cols, best: None, proven_minimal: false, lower_bound: None, nullity },
        Some((target, s)) => Found {
            rows,
            cols,
            best: Some((s.presses.presses(), reached(target), cells(&s.presses))),
            proven_minimal: s.proven_minimal,
            lower_bound: (!s.proven_minimal).then_some(s.lower_bound),
            nullity,
        },
    })
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
