//! Solvers: from a board and a target to the fewest presses.
//!
//! [`Solver`] factors a puzzle once (by [`Dense`] elimination or by light
//! [`Chase`]), then answers any number of boards of that shape: a particular
//! solution, minimised over the quiet patterns by [`minimize`], and re-applied
//! to the board before it is returned. [`bfs`] is the independent reference
//! the algebra is checked against.

pub mod bfs;
mod chase;
mod dense;
pub mod limits;
mod minimal;

pub use chase::{Chase, MAX_STREAMED_NULLITY};
pub use dense::Dense;
pub use minimal::{
    Anytime, Best, Budget, Coset, Layout, MAX_EXHAUSTIVE_NULLITY, MergeError, Progress, SearchState, Shard,
    check_coverage, improve, merge, minimize, minimize_problem, minimize_with_progress, search_blocks,
};

use crate::error::Error;
use crate::model::{Grid, Puzzle};

/// The colour every piece should show at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// All pieces white side up.
    White,
    /// All pieces black side up.
    Black,
}

impl Target {
    /// The target board of the given shape.
    pub fn board(self, rows: usize, cols: usize) -> Grid {
        match self {
            Target::White => Grid::zeros(rows, cols),
            Target::Black => Grid::ones(rows, cols),
        }
    }

    /// `"white"` or `"black"`.
    pub fn name(self) -> &'static str {
        match self {
            Target::White => "white",
            Target::Black => "black",
        }
    }
}

/// Which targets to solve for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Only all white.
    White,
    /// Only all black.
    Black,
    /// Both, and report the better (POJ 1753's goal).
    Either,
}

impl Goal {
    /// The targets this goal asks for.
    pub fn targets(self) -> &'static [Target] {
        match self {
            Goal::White => &[Target::White],
            Goal::Black => &[Target::Black],
            Goal::Either => &[Target::White, Target::Black],
        }
    }
}

/// How to solve the linear system.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Chasing where it applies, elimination otherwise.
    Auto,
    /// Elimination of the full flip matrix.
    Dense,
    /// Light chasing (classic rule on the plane only).
    Chase,
}

/// Default cap on the nullity whose 2^d solutions are all visited: 2^36
/// members are about 10 s at the 7·10^9 members/s measured on two cores
/// here (bench `table_bits`), less for a symmetric board (62x64: 4.6 s).
pub const DEFAULT_MAX_NULLITY: usize = 36;

/// The best press set found for one target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The presses, re-checked against the board.
    pub presses: Grid,
    /// Whether no press set with fewer presses exists (false when the null
    /// space was too large to enumerate).
    pub proven_minimal: bool,
}

/// A board's answer: per target asked for, the solution or `None` when the
/// target cannot be reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// All white, when asked for.
    pub white: Option<Option<Solution>>,
    /// All black, when asked for.
    pub black: Option<Option<Solution>>,
}

impl Answer {
    /// The answer for one target: `None` if not asked, `Some(None)` if
    /// unreachable.
    pub fn get(&self, target: Target) -> Option<&Option<Solution>> {
        match target {
            Target::White => self.white.as_ref(),
            Target::Black => self.black.as_ref(),
        }
    }

    /// The reachable target needing the fewest presses (white on a tie).
    pub fn best(&self) -> Option<(Target, &Solution)> {
        [Target::White, Target::Black]
            .into_iter()
            .filter_map(|t| Some((t, self.get(t)?.as_ref()?)))
            .min_by_key(|(_, s)| s.presses.count_ones())
    }
}

enum System {
    Dense(Dense),
    Chase(Chase),
}

/// A puzzle factored once, ready to solve many boards of its shape.
///
/// # Example
/// ```
/// use lightsout::{parse_boards, Goal, Method, Puzzle, Solver, Target};
///
/// let board = &parse_boards(b"bwwb\nbbwb\nbwwb\nbwww\n", "sample", None, None)?[0];
/// let solver = Solver::new(&Puzzle::new(4, 4)?, Method::Auto, 32)?;
/// let answer = solver.solve(board, Goal::Either)?;
/// let (target, best) = answer.best().expect("the POJ sample is solvable");
/// assert_eq!((target, best.presses.count_ones()), (Target::White, 4));
/// assert_eq!(solver.nullity(), 4);
/// # Ok::<(), lightsout::Error>(())
/// ```
pub struct Solver {
    puzzle: Puzzle,
    system: System,
    nullity: usize,
    /// A basis of the quiet patterns, when it fits the memory limit (else
    /// empty: a chasing solver then chases a pattern when asked).
    quiet: Vec<Grid>,
    /// A basis of the left null space of `A` (patterns `y` with `yᵀ·A = 0`):
    /// a board can reach a target exactly when the cells it must flip are
    /// orthogonal to every one of them. `None` when `A` is symmetric: then
    /// they are the quiet patterns.
    obstructions: Option<Vec<Grid>>,
    /// Whether each obstruction has odd weight (then it also tells the two
    /// targets apart).
    obstruction_is_odd: Vec<bool>,
    max_nullity: usize,
    progress: Option<Box<Progress>>,
}

impl Solver {
    /// Factors `puzzle` with `method`. Null spaces of dimension up to
    /// `max_nullity` are searched exhaustively for the minimum.
    ///
    /// # Errors
    /// [`Error::BadInput`] when `method` is `Chase` and the puzzle is not the
    /// classic rule on the plane.
    pub fn new(puzzle: &Puzzle, method: Method, max_nullity: usize) -> Result<Self, Error> {
        Self::with_memory_limit(puzzle, method, max_nullity, u64::MAX)
    }

    /// As [`new`](Self::new), but first estimates the memory the work needs
    /// (see `solve::limits`) and refuses it with [`Error::Limit`] when it is over
    /// `max_memory` bytes: before factoring, from the size, and again for
    /// the quiet patterns once the nullity is known.
    ///
    /// # Errors
    /// As [`new`](Self::new), and [`Error::Limit`].
    pub fn with_memory_limit(
        puzzle: &Puzzle,
        method: Method,
        max_nullity: usize,
        max_memory: u64,
    ) -> Result<Self, Error> {
        let chase = match method {
            Method::Chase | Method::Auto if puzzle.is_classic() => true,
            Method::Dense | Method::Auto => false,
            Method::Chase => {
                return Err(Error::bad_input(
                    "--method chase needs the classic rule on the plane; use --method dense",
                ));
            }
        };
        let size = format!("solving a {}x{} board", puzzle.rows(), puzzle.cols());
        let hint = if chase {
            "raise --max-memory, or ask for the press count only (a generated board without --show or JSON)"
        } else if puzzle.is_classic() {
            "try --method chase"
        } else {
            "raise --max-memory"
        };
        let solve_bytes = limits::solve_bytes(puzzle, !chase);
        limits::check(solve_bytes, max_memory, &size, hint)?;
        let system =
            if chase { System::Chase(Chase::new(puzzle)) } else { System::Dense(Dense::new(puzzle)) };
        let nullity = match &system {
            System::Dense(d) => d.nullity(),
            System::Chase(c) => c.nullity(),
        };
        let with_quiet = solve_bytes.saturating_add(limits::quiet_bytes(puzzle, nullity));
        // Chasing keeps its null space compact (d first rows) and chases a
        // pattern when it is asked for, so a null space too large to hold
        // is no reason to refuse the board; elimination has no such form.
        let hold_quiet = with_quiet <= max_memory;
        if !chase {
            limits::check(
                with_quiet,
                max_memory,
                &format!("{size} with its {nullity} quiet patterns"),
                "raise --max-memory",
            )?;
        }
        let (quiet, obstructions) = match &system {
            System::Dense(d) => (d.quiet_patterns(), d.obstructions()),
            // Chasing serves only the classic rule, whose flip matrix is
            // symmetric: the left null space is the null space.
            System::Chase(c) if hold_quiet => (c.quiet_patterns(), None),
            System::Chase(_) => (Vec::new(), None),
        };
        let obstruction_is_odd =
            obstructions.as_ref().unwrap_or(&quiet).iter().map(|y| y.count_ones() % 2 == 1).collect();
        Ok(Solver {
            puzzle: puzzle.clone(),
            system,
            nullity,
            quiet,
            obstructions,
            obstruction_is_odd,
            max_nullity,
            progress: None,
        })
    }

    /// Reports the progress of long minimisations (null spaces of dimension
    /// of 12 and more, searched by blocks) to `progress`, as `(done, total)`.
    pub fn set_progress(&mut self, progress: Box<Progress>) {
        self.progress = Some(progress);
    }

    /// The puzzle this solver answers.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// Dimension of the null space of the flip matrix.
    pub fn nullity(&self) -> usize {
        self.nullity
    }

    /// A basis of the quiet patterns (press sets that flip nothing), when
    /// the solver holds it: see [`holds_quiet_patterns`](Self::holds_quiet_patterns).
    pub fn quiet_patterns(&self) -> &[Grid] {
        &self.quiet
    }

    /// Whether the basis of quiet patterns fits the memory limit and is
    /// held. A chasing solver whose `d` patterns of R·C cells would not fit
    /// keeps only their first rows: it still answers every board (a press
    /// set, not proven minimal), and [`quiet_pattern`](Self::quiet_pattern)
    /// chases any one of them.
    pub fn holds_quiet_patterns(&self) -> bool {
        self.quiet.len() == self.nullity
    }

    /// Quiet pattern `i` of the basis (`i < nullity`), held or chased now.
    ///
    /// # Panics
    /// If `i` is not below the nullity.
    pub fn quiet_pattern(&self, i: usize) -> std::borrow::Cow<'_, Grid> {
        assert!(i < self.nullity, "quiet pattern {i} of {}", self.nullity);
        match (&self.system, self.quiet.get(i)) {
            (_, Some(q)) => std::borrow::Cow::Borrowed(q),
            (System::Chase(c), None) => std::borrow::Cow::Owned(c.quiet_pattern(i)),
            (System::Dense(d), None) => std::borrow::Cow::Owned(d.quiet_patterns().swap_remove(i)),
        }
    }

    /// A basis of the patterns `y` with `yᵀ·A = 0`; a board reaches a target
    /// iff the cells it must flip are orthogonal to each (for a symmetric
    /// flip matrix, these are the quiet patterns).
    pub fn obstructions(&self) -> &[Grid] {
        self.obstructions.as_deref().unwrap_or(&self.quiet)
    }

    /// The first pattern that proves `target` unreachable from `board`, if
    /// any: `board + target` is not orthogonal to it, so no press set can flip
    /// exactly those cells. `None` means the target is reachable.
    ///
    /// # Panics
    /// If the board's shape is not the puzzle's.
    pub fn obstruction(&self, board: &Grid, target: Target) -> Option<std::borrow::Cow<'_, Grid>> {
        assert_eq!((board.nrows(), board.ncols()), (self.puzzle.rows(), self.puzzle.cols()));
        if !self.holds_quiet_patterns() {
            return self.obstruction_to(board, &target.board(self.puzzle.rows(), self.puzzle.cols()));
        }
        let flip = target == Target::Black;
        self.obstructions().iter().zip(&self.obstruction_is_odd).find_map(|(y, &y_is_odd)| {
            // (board + all ones) · y = board · y + weight(y).
            (y.dot(board) ^ (flip && y_is_odd)).then_some(std::borrow::Cow::Borrowed(y))
        })
    }

    /// The first pattern that proves `goal` unreachable from `board` (any
    /// target board of the same shape), if any.
    pub fn obstruction_to(&self, board: &Grid, goal: &Grid) -> Option<std::borrow::Cow<'_, Grid>> {
        let odd = |y: &Grid| y.dot(board) ^ y.dot(goal);
        if !self.holds_quiet_patterns() {
            // Patterns chased one at a time (a chasing solver's left null
            // space is its null space): memory of one board, not d.
            return (0..self.nullity).map(|i| self.quiet_pattern(i)).find(|y| odd(y));
        }
        self.obstructions().iter().find(|y| odd(y)).map(std::borrow::Cow::Borrowed)
    }

    /// The fewest presses turning `board` into the board `goal`, or `None`
    /// when it cannot be reached.
    ///
    /// # Errors
    /// As [`solve`](Self::solve), also when `goal` has another shape.
    pub fn solve_to(&self, board: &Grid, goal: &Grid) -> Result<Option<Solution>, Error> {
        let Some(rhs) = self.reachable_rhs(board, goal)? else {
            return Ok(None);
        };
        self.solve_rhs(board, &rhs, |reached| reached == goal)
    }

    /// `board + goal`, the cells the presses must flip, unless an
    /// obstruction shows that no press set does.
    fn reachable_rhs(&self, board: &Grid, goal: &Grid) -> Result<Option<Grid>, Error> {
        self.check_shape(board, "board")?;
        self.check_shape(goal, "target board")?;
        if self.holds_quiet_patterns() && self.obstruction_to(board, goal).is_some() {
            return Ok(None);
        }
        let mut rhs = board.clone();
        rhs.xor_assign(goal);
        Ok(Some(rhs))
    }

    fn check_shape(&self, grid: &Grid, what: &str) -> Result<(), Error> {
        let (rows, cols) = (self.puzzle.rows(), self.puzzle.cols());
        if (grid.nrows(), grid.ncols()) != (rows, cols) {
            return Err(Error::bad_input(format!(
                "{what} is {}x{} but the puzzle is {rows}x{cols}",
                grid.nrows(),
                grid.ncols()
            )));
        }
        Ok(())
    }

    /// A press set turning `board` into `goal` (not yet the lightest), or
    /// `None` when `goal` cannot be reached: the coset that a long search
    /// then walks with [`quiet_patterns`](Self::quiet_patterns).
    ///
    /// # Errors
    /// As [`solve_to`](Self::solve_to).
    pub fn particular_to(&self, board: &Grid, goal: &Grid) -> Result<Option<Grid>, Error> {
        match self.reachable_rhs(board, goal)? {
            Some(rhs) => self.particular(&rhs),
            None => Ok(None),
        }
    }

    /// `particular` plus the quiet patterns picked by `mask`, re-applied to
    /// `board` and accepted only if it reaches `goal`.
    ///
    /// # Errors
    /// [`Error::Internal`] if the press set fails its re-check.
    pub fn presses_for_mask(
        &self,
        board: &Grid,
        goal: &Grid,
        particular: &Grid,
        mask: u64,
    ) -> Result<Grid, Error> {
        let mut presses = particular.clone();
        for (j, q) in self.quiet.iter().enumerate().take(64) {
            if mask >> j & 1 == 1 {
                presses.xor_assign(q);
            }
        }
        self.verify(board, &presses, |reached| reached == goal)?;
        Ok(presses)
    }

    /// Solves `board` for every target of `goal`.
    ///
    /// # Errors
    /// [`Error::BadInput`] if the board's shape is not the puzzle's;
    /// [`Error::Internal`] if a press set fails its re-check.
    pub fn solve(&self, board: &Grid, goal: Goal) -> Result<Answer, Error> {
        let mut answer = Answer { white: None, black: None };
        for &target in goal.targets() {
            let solution = self.solve_for(board, target)?;
            match target {
                Target::White => answer.white = Some(solution),
                Target::Black => answer.black = Some(solution),
            }
        }
        Ok(answer)
    }

    /// The fewest presses turning `board` into `target`, or `None` when the
    /// target cannot be reached.
    ///
    /// # Errors
    /// As [`solve`](Self::solve).
    pub fn solve_for(&self, board: &Grid, target: Target) -> Result<Option<Solution>, Error> {
        self.check_shape(board, "board")?;
        if self.holds_quiet_patterns() && self.obstruction(board, target).is_some() {
            return Ok(None);
        }
        // The presses must flip exactly the cells that differ from the target.
        let mut rhs = board.clone();
        if target == Target::Black {
            rhs.not_in_place();
        }
        self.solve_rhs(board, &rhs, self.reaches(target))
    }

    /// Whether a board is all `target`.
    fn reaches(&self, target: Target) -> impl Fn(&Grid) -> bool {
        let cells = self.puzzle.cells();
        move |reached: &Grid| match target {
            Target::White => reached.is_zero(),
            Target::Black => reached.count_ones() == cells,
        }
    }

    /// The lightest press set flipping exactly `rhs` (`None` if there is
    /// none), re-applied to `board` and accepted only if `reached` says the
    /// result is the target.
    fn solve_rhs(
        &self,
        board: &Grid,
        rhs: &Grid,
        reached: impl Fn(&Grid) -> bool,
    ) -> Result<Option<Solution>, Error> {
        let Some(particular) = self.particular(rhs)? else {
            return Ok(None);
        };
        let (presses, proven_minimal) = if self.holds_quiet_patterns() {
            let progress: &Progress = self.progress.as_deref().unwrap_or(&|_, _| {});
            minimize_problem(&self.puzzle, rhs, &particular, &self.quiet, self.max_nullity, progress)
        } else {
            // Too many patterns to hold, let alone to search: the press set
            // found, proven only when it is empty.
            let proven = particular.is_zero();
            (particular, proven)
        };
        self.verify(board, &presses, reached)?;
        Ok(Some(Solution { presses, proven_minimal }))
    }

    /// A press set flipping exactly `rhs`, or `None` when there is none
    /// (only possible when no obstruction was tested first).
    fn particular(&self, rhs: &Grid) -> Result<Option<Grid>, Error> {
        let found = match &self.system {
            System::Dense(d) => d.particular(rhs),
            System::Chase(c) => c.particular(rhs),
        };
        if found.is_none() && self.holds_quiet_patterns() {
            let (rows, cols) = (self.puzzle.rows(), self.puzzle.cols());
            return Err(Error::Internal(format!(
                "a {rows}x{cols} board passed the solvability test but the system has no solution"
            )));
        }
        Ok(found)
    }

    /// Re-applies `presses` to `board` and insists on reaching `target`, so a
    /// wrong press set is an error, never an answer.
    pub fn check(&self, board: &Grid, presses: &Grid, target: Target) -> Result<(), Error> {
        self.verify(board, presses, self.reaches(target))
    }

    /// Presses `presses` on `board` and insists that `reached` accepts the
    /// result: the one re-check every reported press set goes through.
    fn verify(&self, board: &Grid, presses: &Grid, reached: impl Fn(&Grid) -> bool) -> Result<(), Error> {
        if reached(&self.puzzle.apply(board, presses)) {
            return Ok(());
        }
        Err(Error::Internal(format!(
            "a {}x{} press set failed its re-check against the board",
            self.puzzle.rows(),
            self.puzzle.cols()
        )))
    }
}
