//! The one protocol above the two engines: a [`Game`] is a puzzle factored
//! once over its ring (GF(2) on bits for [`Solver`](crate::Solver), Z_K on
//! bytes for [`StateSolver`](crate::StateSolver)) that answers boards of
//! its kind. The engines below stay concrete (a word of bits and a
//! mixed-radix walk are different arithmetic); what a front asks of
//! either is asked here, once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::answer::{Answer, Board, Outcome, Solution};
use crate::error::Error;
use crate::model::Puzzle;

/// What a board of game `G` may be asked to become.
pub type TargetOf<G> = <<G as Game>::Board as Board>::Target;

/// What may cut a solve short: a flag another thread sets (on Ctrl-C,
/// say), and a time limit. A solve cut short still answers: the lightest
/// press set found, re-checked like every answer, proven minimal only if
/// it meets its lower bound.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits<'a> {
    /// Stop once this is set.
    pub stop: Option<&'a AtomicBool>,
    /// Stop once this much time has passed.
    pub time_limit: Option<Duration>,
}

impl<'a> Limits<'a> {
    /// No limit: the search runs to its end.
    pub const NONE: Limits<'static> = Limits { stop: None, time_limit: None };

    /// A closure that says whether to stop now (the flag is set or the
    /// time, counted from `started`, is up).
    pub fn stopped(&self, started: Instant) -> impl Fn() -> bool + Sync + 'a {
        let deadline = self.time_limit.and_then(|t| started.checked_add(t));
        self.stopped_at(deadline)
    }

    /// [`stopped`](Self::stopped) from now, reading the clock only when
    /// there is a time limit (a board of a stream of thousands pays no
    /// clock read).
    pub fn stopped_from_now(&self) -> impl Fn() -> bool + Sync + 'a {
        let deadline = self.time_limit.and_then(|t| Instant::now().checked_add(t));
        self.stopped_at(deadline)
    }

    fn stopped_at(&self, deadline: Option<Instant>) -> impl Fn() -> bool + Sync + 'a {
        let stop = self.stop;
        move || {
            stop.is_some_and(|s| s.load(Ordering::Relaxed)) || deadline.is_some_and(|d| Instant::now() >= d)
        }
    }

    /// Runs `work` with one flag that turns true when the stop flag is set
    /// or the time limit passes, for engines that watch a flag only.
    pub fn as_flag<T>(&self, work: impl FnOnce(&AtomicBool) -> T) -> T {
        if self.time_limit.is_none() {
            let flag = AtomicBool::new(false);
            return work(self.stop.unwrap_or(&flag));
        }
        watched(&self.stopped(Instant::now()), work)
    }
}

/// Runs `work` with a flag that turns true once `stopped` says so, looked
/// at every 10 ms beside it: for engines that watch a flag only (branch
/// and bound, inside its blocks), under a stop that is a closure.
pub(crate) fn watched<T>(stopped: &(dyn Fn() -> bool + Sync), work: impl FnOnce(&AtomicBool) -> T) -> T {
    // Set already when the time is up (a limit of zero, what is left to
    // the last of many targets): the work sees it at once, not after the
    // watcher's first look.
    let flag = AtomicBool::new(stopped());
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let watcher = scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                if stopped() {
                    flag.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::park_timeout(Duration::from_millis(10));
            }
        });
        let value = work(&flag);
        done.store(true, Ordering::Relaxed);
        watcher.thread().unpark();
        value
    })
}

/// The size of a game's kernel (its quiet patterns): exact, in decimal,
/// and as a dimension where the ring is a field.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelSize {
    /// How many quiet patterns there are, in decimal.
    pub size: String,
    /// `log2` of that.
    pub log2: f64,
    /// Their dimension, where the ring is a field (two states, or K prime).
    pub nullity: Option<usize>,
}

/// A puzzle factored once over its ring, ready to answer boards of its
/// kind: the protocol [`Solver`](crate::Solver) (two states, on bits) and
/// [`StateSolver`](crate::StateSolver) (K states) both implement.
///
/// # Example
/// ```
/// use lightsout::{Board, Game, Grid, Method, Puzzle, Solver, StateGrid, StateSolver, StateTarget, Target};
/// use lightsout::zk::Modulus;
///
/// // The fewest presses to the first target, whatever the game.
/// fn fewest<G: Game>(game: &G, board: &G::Board, target: lightsout::solve::TargetOf<G>) -> Option<u64> {
///     let solution = game.solve_for(board, &target).ok()??;
///     Some(solution.presses.presses())
/// }
///
/// let puzzle = Puzzle::new(3, 3)?;
/// let two = Solver::new(&puzzle, Method::Auto, 32)?;
/// assert_eq!(fewest(&two, &Grid::ones(3, 3), Target::White), Some(5));
/// let three = StateSolver::new(&puzzle, Modulus::new(3)?, Method::Auto, 20, 1 << 30)?;
/// assert!(fewest(&three, &StateGrid::filled(3, 3, 1), StateTarget::Uniform(0)).is_some());
/// # Ok::<(), lightsout::Error>(())
/// ```
pub trait Game {
    /// The boards it answers, and its press sets.
    type Board: Board;

    /// The puzzle it answers.
    fn puzzle(&self) -> &Puzzle;

    /// How many quiet patterns there are (press sets that change nothing).
    fn kernel(&self) -> KernelSize;

    /// The fewest presses turning `board` into `target` that the search
    /// finds within `limits`, or `None` when `target` cannot be reached.
    ///
    /// # Errors
    /// [`Error::Shape`] if the board's shape, or a target board's, is not
    /// the puzzle's; [`Error::BadInput`] for a state out of range;
    /// [`Error::Internal`] if a press set fails its re-check.
    fn solve_for_within(
        &self,
        board: &Self::Board,
        target: &TargetOf<Self>,
        limits: &Limits,
    ) -> Result<Option<Solution<Self::Board>>, Error>;

    /// A press set turning `board` into `target` (not yet the lightest),
    /// re-checked, or `None` when `target` cannot be reached.
    ///
    /// # Errors
    /// As [`solve_for_within`](Self::solve_for_within).
    fn particular_to(
        &self,
        board: &Self::Board,
        target: &TargetOf<Self>,
    ) -> Result<Option<Self::Board>, Error>;

    /// A pattern proving that `board` cannot reach `target` (its weighted
    /// sum changes under no press, and differs between the two), or `None`
    /// when the target is reachable.
    ///
    /// # Errors
    /// As [`solve_for_within`](Self::solve_for_within).
    fn obstruction(&self, board: &Self::Board, target: &TargetOf<Self>)
    -> Result<Option<Self::Board>, Error>;

    /// Presses `presses` on `board` and insists on reaching `target`: the
    /// re-check every reported press set goes through.
    ///
    /// # Errors
    /// [`Error::Shape`] for a grid of another shape; [`Error::Internal`]
    /// if `presses` does not turn `board` into `target`.
    fn check(&self, board: &Self::Board, presses: &Self::Board, target: &TargetOf<Self>)
    -> Result<(), Error>;

    /// [`solve_for_within`](Self::solve_for_within) with no limit.
    ///
    /// # Errors
    /// As [`solve_for_within`](Self::solve_for_within).
    fn solve_for(
        &self,
        board: &Self::Board,
        target: &TargetOf<Self>,
    ) -> Result<Option<Solution<Self::Board>>, Error> {
        self.solve_for_within(board, target, &Limits::NONE)
    }

    /// Solves `board` for each of `targets` within `limits` (the time
    /// limit is for the whole call: each target gets what is left of it).
    ///
    /// # Errors
    /// As [`solve_for_within`](Self::solve_for_within).
    fn solve_within(
        &self,
        board: &Self::Board,
        targets: &[TargetOf<Self>],
        limits: &Limits,
    ) -> Result<Answer<Self::Board>, Error> {
        solve_each(self, board, targets, limits)
    }

    /// Solves `board` for each of `targets` ([`Target::EITHER`](crate::Target::EITHER)
    /// asks for both colours, [`StateTarget::any`](crate::StateTarget::any)
    /// for every uniform state), each to its end.
    ///
    /// # Errors
    /// As [`solve_for_within`](Self::solve_for_within).
    fn solve(&self, board: &Self::Board, targets: &[TargetOf<Self>]) -> Result<Answer<Self::Board>, Error> {
        self.solve_within(board, targets, &Limits::NONE)
    }
}

/// [`Game::solve_within`] as most games do it: each target by
/// [`Game::solve_for_within`], the time limit for the whole call.
pub(crate) fn solve_each<G: Game + ?Sized>(
    game: &G,
    board: &G::Board,
    targets: &[TargetOf<G>],
    limits: &Limits,
) -> Result<Answer<G::Board>, Error> {
    // The clock is read only for a time limit: a stream of thousands
    // of boards pays no clock read per board.
    let started = limits.time_limit.map(|_| Instant::now());
    let outcomes = targets
        .iter()
        .map(|target| {
            let left = limits.time_limit.zip(started).map(|(t, s)| t.saturating_sub(s.elapsed()));
            let limits = Limits { time_limit: left, ..*limits };
            Ok(Outcome { target: target.clone(), solution: game.solve_for_within(board, target, &limits)? })
        })
        .collect::<Result<_, Error>>()?;
    Ok(Answer { outcomes })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::StateGrid;
    use crate::solve::FoundBy;
    use crate::solve::states::{StateSolver, StateTarget};
    use crate::zk::Modulus;

    /// Regression: the flag was set by a watcher thread on its first look,
    /// so work given no time left (the last of many targets, on the
    /// server) started its search before seeing it.
    #[test]
    fn regression_a_flag_for_no_time_left_is_set_from_the_start() {
        let none_left = Limits { stop: None, time_limit: Some(Duration::ZERO) };
        assert!(none_left.as_flag(|flag| flag.load(Ordering::Relaxed)));
        let stop = AtomicBool::new(true);
        assert!(Limits { stop: Some(&stop), time_limit: None }.as_flag(|flag| flag.load(Ordering::Relaxed)));
        let plenty = Limits { stop: None, time_limit: Some(Duration::from_secs(3600)) };
        assert!(!plenty.as_flag(|flag| flag.load(Ordering::Relaxed)));
    }

    /// Regression: a solve past nullity 48 (branch and bound) looked at its
    /// limits only between batches of blocks, which may take minutes each
    /// (79x79: a batch ran past 700 s under a limit of 2 s). A stop set
    /// from the start now drops the first block in flight: no member is
    /// searched, and the answer is the local search's, re-checked.
    #[test]
    fn regression_branch_and_bound_stops_inside_its_first_block() {
        let puzzle = Puzzle::new(79, 79).unwrap();
        let solver = crate::Solver::new(&puzzle, crate::Method::Auto, 64).unwrap();
        assert_eq!(solver.nullity(), 64, "79x79 is no longer branch and bound's: test another size");
        // Solvable to white: the board some presses make from white.
        let presses = crate::Generate::Random { seed: 1, density: 0.5 }.board(79, 79);
        let board = puzzle.apply(&crate::Grid::zeros(79, 79), &presses);
        let stop = AtomicBool::new(true);
        let limits = Limits { stop: Some(&stop), time_limit: None };
        let answer = solver.solve_within(&board, &[crate::Target::White], &limits).unwrap();
        let solution = answer.outcomes[0].solution.as_ref().expect("white is reachable");
        assert!(!solution.proven_minimal);
        assert!(
            matches!(solution.found_by, FoundBy::Stopped { members_searched: 0, .. }),
            "{:?}",
            solution.found_by
        );
    }

    /// Targets whose turn comes after the time is up answer the algebra's
    /// press set, re-checked and marked not searched; the unreachable stay
    /// unreachable.
    #[test]
    fn targets_after_the_time_is_up_answer_unsearched() {
        // 3x3 over Z_3 reaches every uniform state from every board.
        let puzzle = Puzzle::new(3, 3).unwrap();
        let k = Modulus::new(3).unwrap();
        let solver = StateSolver::new(&puzzle, k, crate::Method::Auto, 20, u64::MAX).unwrap();
        let board = StateGrid::from_fn(3, 3, |r, c| ((r * 2 + c) % 3) as u8);
        let limits = Limits { stop: None, time_limit: Some(Duration::ZERO) };
        let stopped = solver.solve_within(&board, &StateTarget::any(k), &limits).unwrap();
        let whole = solver.solve(&board, &StateTarget::any(k)).unwrap();
        assert!(
            stopped.outcomes.iter().any(|o| o.solution.is_some()),
            "no target is reachable: test another board"
        );
        for (cut, full) in stopped.outcomes.iter().zip(&whole.outcomes) {
            assert_eq!(cut.solution.is_some(), full.solution.is_some());
            if let (Some(presses), Some(fewest)) = (&cut.solution, &full.solution) {
                assert_eq!(presses.found_by, FoundBy::NotSearched);
                assert!(presses.presses.total() >= fewest.presses.total());
                solver.check(&board, &presses.presses, &cut.target).unwrap();
            }
        }
    }
}
