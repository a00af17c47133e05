//! Factored puzzles, kept between calls, and the searches that use them.
//!
//! A `solve` call on a 4×4 board is a few microseconds of algebra; factoring
//! the puzzle again on every call would cost more than the answer. So the
//! solvers of small puzzles are kept in a process-wide cache, keyed by
//! everything that shapes them, and `solve_many` factors once per size.

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};
use std::time::Duration;

use lightsout::Solution;
use lightsout::solve::{Board as _, GameSpec, Limits, TargetOf};
use pyo3::prelude::*;

use crate::convert::to_py;
use crate::game::{PyGame, Reached};
use crate::stop::Stop;

/// A puzzle factored once, with what every call asks of it first.
pub struct Factored<G> {
    pub game: G,
    /// The nullity as the solution reports it: `None` for a composite K.
    pub nullity: Option<usize>,
    /// Whether one board's search may be long ([`lightsout::solve::Made::searches_long`]).
    pub long: bool,
}

/// Most cells of a puzzle whose solver is cached between calls (a 256×256
/// board's chasing solver holds a few rows per quiet pattern).
const CACHED_CELLS: usize = 1 << 16;

/// Most solvers cached; past it the cache starts over.
const CACHED_SOLVERS: usize = 32;

/// The cached solvers, each a `Factored<G>` of the game its key's number of
/// states picks (so a key always finds the type it was stored with).
type Cache = HashMap<GameSpec, Arc<dyn Any + Send + Sync>>;

static CACHE: LazyLock<Mutex<Cache>> = LazyLock::new(|| Mutex::new(HashMap::new()));

/// The game of `spec`, from the cache or made now (and cached when small):
/// the library's [`GameSpec`] says everything that makes one factored
/// puzzle differ from another, and its defaults are the command line's.
///
/// # Errors
/// The library's, as Python exceptions: a memory estimate over `max_memory`
/// is a `LimitError`.
pub fn engine<G: PyGame>(spec: &GameSpec) -> PyResult<Arc<Factored<G>>> {
    let key = spec.clone();
    let cached = CACHE.lock().ok().and_then(|c| c.get(&key).cloned());
    if let Some(found) = cached.and_then(|f| f.downcast::<Factored<G>>().ok()) {
        return Ok(found);
    }
    let game = G::make(spec).map_err(to_py)?;
    let made = Arc::new(Factored { nullity: game.kernel().nullity, long: game.searches_long(), game });
    if spec.puzzle.cells() <= CACHED_CELLS
        && let Ok(mut cache) = CACHE.lock()
    {
        if cache.len() >= CACHED_SOLVERS {
            cache.clear();
        }
        cache.insert(key, Arc::clone(&made) as Arc<dyn Any + Send + Sync>);
    }
    Ok(made)
}

/// One board's answer, held without Python objects (so that a batch is
/// solved with the interpreter released).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub rows: usize,
    pub cols: usize,
    /// The lightest answer: the target it reaches, and the library's own
    /// solution with its press set as cell values, so that a field added
    /// to `Solution` is held, compared and pickled here with no edit.
    /// Boxed: every Python answer holds a `Found`, most of a stream's
    /// without a best, and a solution inline made each 4x4 answer of
    /// `solve_many` an eighth slower.
    pub best: Option<Box<(Reached, Solution<Vec<u8>>)>>,
    pub nullity: Option<usize>,
}

impl Found {
    /// The presses of the best press set (each cell pressed as many times
    /// as its value says), `None` when no target can be reached.
    pub fn presses(&self) -> Option<u64> {
        self.best.as_deref().map(|(_, s)| press_count(&s.presses))
    }
}

/// The presses of a press set given as cell values: their sum (a
/// two-state press set's cells are 0 or 1).
pub fn press_count(cells: &[u8]) -> u64 {
    cells.iter().map(|&c| u64::from(c)).sum()
}

/// How one call searches, beyond the budget its solver was made with.
#[derive(Clone, Copy)]
pub struct Opts {
    pub time_limit: Option<Duration>,
}

/// Solves `board` for each of `targets` and keeps the lightest answer, as
/// `Answer::best` does (the first asked on a tie): the library's own
/// search ([`Game::solve_within`]), which ends within a batch of blocks
/// once `stop` is set or the time limit passes. An abandoned call unwinds
/// (see [`Stop::check`]) (its answer, no longer proven, must not be returned).
pub fn solve_board<G: PyGame>(
    factored: &Factored<G>,
    board: &G::Board,
    targets: &[TargetOf<G>],
    opts: Opts,
    stop: &Stop,
) -> PyResult<Found> {
    let limits = Limits { stop: Some(stop.flag()), time_limit: opts.time_limit };
    let game = &factored.game;
    let (rows, cols) = (game.puzzle().rows(), game.puzzle().cols());
    let answer = game.solve_within(board, targets, &limits).map_err(to_py);
    stop.check();
    let best =
        answer?.best().map(|(target, s)| Box::new((G::reached(target), s.map_presses(|p| p.cell_values()))));
    Ok(Found { rows, cols, best, nullity: factored.nullity })
}
