//! Solvers: from a board and a target to the fewest presses.
//!
//! [`Solver`] factors a puzzle once (by [`Dense`] elimination or by light
//! [`Chase`]), then answers any number of boards of that shape: a particular
//! solution, minimised over the quiet patterns by [`minimize`], and re-applied
//! to the board before it is returned. [`bfs`] is the independent reference
//! the algebra is checked against.

mod answer;
pub mod bfs;
mod chase;
mod dense;
mod game;
pub mod limits;
mod long;
pub mod minimal;
pub mod slices;
mod spec;
pub mod states;
mod word;

pub use answer::{
    Answer, Board, FixedSpaceSearch, FoundBy, Method, Outcome, Solution, Start, SymmetricSearch, Target,
};
pub use chase::{Chase, MAX_STREAMED_NULLITY};
pub use dense::Dense;
pub use game::{Game, KernelSize, Limits, TargetOf};
pub use long::{LongSearch, Reachable, Settled};
pub use minimal::Incumbent;
pub use minimal::{
    Anytime, Budget, Coset, Layout, MAX_EXHAUSTIVE_NULLITY, Progress, SearchState, Step, improve, minimize,
    minimize_with_progress, search_blocks,
};
use minimal::{ExactEngine, Search, cross_coset_for_problem, improve_with_symmetry};
pub use slices::{Best, Mask, MergeError, Shard, Slice, SliceKind, Sliced, WorkCurve, check_coverage, merge};
pub use spec::{AskedTarget, GameSpec, Made};
use word::WordSystem;

use std::borrow::Cow;

use crate::error::{Error, ShapeOf};
use crate::model::{Grid, Puzzle};

/// Default cap on the nullity whose 2^d solutions are all visited: 2^36
/// members are about 6 s at the 1.2·10^10 members/s measured on two cores
/// here (bench `table_bits`, 39×39), less for a symmetric board.
pub const DEFAULT_MAX_NULLITY: usize = 36;

/// The memory a front lets a game and its input plan for unless told
/// otherwise: 1 GiB, the command line's `--max-memory` and Python's
/// `max_memory`. (A [`GameSpec`] sets no limit unless asked; the server
/// has its own, smaller one.)
pub const DEFAULT_MAX_MEMORY: u64 = 1 << 30;

enum System {
    Dense(Dense),
    Chase(Chase),
}

/// A puzzle factored once, ready to solve many boards of its shape.
///
/// # Example
/// ```
/// use lightsout::{parse_boards, Game, Method, Puzzle, Solver, Target};
///
/// let board = &parse_boards(b"bwwb\nbbwb\nbwwb\nbwww\n", "sample", None, None)?[0];
/// let solver = Solver::new(&Puzzle::new(4, 4)?, Method::Auto, 32)?;
/// let answer = solver.solve(board, Target::EITHER)?;
/// let (target, best) = answer.best().expect("the POJ sample is solvable");
/// assert_eq!((target, best.presses.count_ones()), (&Target::White, 4));
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
    max_nullity: usize,
    progress: Option<Box<Progress>>,
    /// The same system in machine words, for boards of at most 64 cells
    /// whose coset the Gray-code walk searches (`word.rs`).
    word: Option<WordSystem>,
}

impl Solver {
    /// Factors `puzzle` with `method`. Null spaces of dimension up to
    /// `max_nullity` are searched exhaustively for the minimum.
    ///
    /// # Errors
    /// [`Error::Unsupported`] when `method` is `Chase` and the puzzle is not
    /// the classic rule on the plane.
    pub fn new(puzzle: &Puzzle, method: Method, max_nullity: usize) -> Result<Self, Error> {
        Self::with_memory_limit(puzzle, method, max_nullity, u64::MAX)
    }

    /// As [`new`](Self::new), but first estimates the memory the work needs
    /// (see `solve::limits`) and refuses it with [`Error::Memory`] when it is over
    /// `max_memory` bytes: before factoring, from the size, and again for
    /// the quiet patterns once the nullity is known.
    ///
    /// # Errors
    /// As [`new`](Self::new), and [`Error::Memory`].
    pub fn with_memory_limit(
        puzzle: &Puzzle,
        method: Method,
        max_nullity: usize,
        max_memory: u64,
    ) -> Result<Self, Error> {
        let chase = method.chases(puzzle)?;
        let size = format!("solving a {}x{} board", puzzle.rows(), puzzle.cols());
        let solve_bytes = limits::solve_bytes(puzzle, !chase);
        limits::check(solve_bytes, max_memory, &size)?;
        let system =
            if chase { System::Chase(Chase::new(puzzle)) } else { System::Dense(Dense::new(puzzle)) };
        let nullity = match &system {
            System::Dense(d) => d.nullity(),
            System::Chase(c) => c.nullity(),
        };
        let mut with_quiet = solve_bytes.saturating_add(limits::quiet_bytes(puzzle, nullity));
        // A null space that the exact search will walk by branch and bound:
        // its buffers too.
        if ExactEngine::branches_within(nullity, max_nullity) {
            with_quiet = with_quiet.saturating_add(limits::branch_bytes(puzzle, nullity));
        }
        // Chasing keeps its null space compact (d first rows) and chases a
        // pattern when it is asked for, so a null space too large to hold
        // is no reason to refuse the board; elimination has no such form.
        let hold_quiet = with_quiet <= max_memory;
        if !chase {
            limits::check(with_quiet, max_memory, &format!("{size} with its {nullity} quiet patterns"))?;
        }
        let (quiet, obstructions) = match &system {
            System::Dense(d) => (d.quiet_patterns(), d.obstructions()),
            // Chasing serves only the classic rule, whose flip matrix is
            // symmetric: the left null space is the null space.
            System::Chase(c) if hold_quiet => (c.quiet_patterns(), None),
            System::Chase(_) => (Vec::new(), None),
        };
        let mut solver = Solver {
            puzzle: puzzle.clone(),
            system,
            nullity,
            quiet,
            obstructions,
            max_nullity,
            progress: None,
            word: None,
        };
        if solver.holds_quiet_patterns() && ExactEngine::for_nullity(nullity) == ExactEngine::Walk {
            let particular = |rhs: &Grid| solver.particular(rhs).ok().flatten();
            solver.word = WordSystem::new(puzzle, &solver.quiet, particular);
        }
        Ok(solver)
    }

    /// Reports the progress of long minimisations (null spaces of dimension
    /// of 12 and more, searched by blocks) to `progress`, as a [`Step`]:
    /// blocks done of blocks, and the expected work of both.
    pub fn set_progress(&mut self, progress: Box<Progress>) {
        self.progress = Some(progress);
    }

    /// The largest null space searched exhaustively (its dimension).
    pub fn max_nullity(&self) -> usize {
        self.max_nullity
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
    pub fn quiet_pattern(&self, i: usize) -> Cow<'_, Grid> {
        assert!(i < self.nullity, "quiet pattern {i} of {}", self.nullity);
        match (&self.system, self.quiet.get(i)) {
            (_, Some(q)) => Cow::Borrowed(q),
            (System::Chase(c), None) => Cow::Owned(c.quiet_pattern(i)),
            (System::Dense(d), None) => Cow::Owned(d.quiet_patterns().swap_remove(i)),
        }
    }

    /// A basis of the patterns `y` with `yᵀ·A = 0`; a board reaches a target
    /// iff the cells it must flip are orthogonal to each (for a symmetric
    /// flip matrix, these are the quiet patterns).
    pub fn obstructions(&self) -> &[Grid] {
        self.obstructions.as_deref().unwrap_or(&self.quiet)
    }

    /// A press set turning `board` into `target` and the coset around it
    /// that a long search walks (masks over
    /// [`quiet_patterns`](Self::quiet_patterns), the basis adapted to the
    /// board's symmetries inside the [`Coset`]), or `None` when `target`
    /// cannot be reached.
    ///
    /// # Errors
    /// As [`solve`](Self::solve); [`Error::Limit`] when the quiet patterns
    /// are not held (see [`holds_quiet_patterns`](Self::holds_quiet_patterns)).
    pub fn coset(&self, board: &Grid, target: &Target) -> Result<Option<(Grid, Coset)>, Error> {
        if !self.holds_quiet_patterns() {
            return Err(Error::Limit(format!(
                "the {} quiet patterns of this {}x{} board are not held, so no coset can be walked",
                self.nullity,
                self.puzzle.rows(),
                self.puzzle.cols()
            )));
        }
        let Some(rhs) = self.reachable_rhs(board, target)? else {
            return Ok(None);
        };
        let Some(x) = self.particular(&rhs)? else {
            return Ok(None);
        };
        let coset = Coset::for_problem(&self.puzzle, &rhs, &x, &self.quiet);
        Ok(Some((x, coset)))
    }

    /// As [`coset`](Self::coset), in the cross basis of branch and bound
    /// (folded by the problem's symmetries; see [`cross_coset_for_problem`]).
    ///
    /// # Errors
    /// As [`coset`](Self::coset).
    pub fn cross_coset(&self, board: &Grid, target: &Target) -> Result<Option<(Grid, Coset)>, Error> {
        let Some((x, _)) = self.coset(board, target)? else {
            return Ok(None);
        };
        let Some(rhs) = self.reachable_rhs(board, target)? else {
            return Ok(None);
        };
        let cross = cross_coset_for_problem(&self.puzzle, &rhs, &x, &self.quiet)
            .ok_or_else(|| Error::Internal("the quiet patterns are not independent".into()))?;
        Ok(Some((x, cross)))
    }

    /// Member `mask` of `coset` (the coset [`coset`](Self::coset) gave
    /// with `particular`), re-applied to `board` and accepted only if it
    /// reaches `target`. The coset reads the mask in its own basis, so a
    /// mask from a symmetric search gives the member it names.
    ///
    /// # Errors
    /// [`Error::Internal`] if the press set fails its re-check.
    pub fn member(
        &self,
        board: &Grid,
        target: &Target,
        particular: &Grid,
        coset: &Coset,
        mask: Mask,
    ) -> Result<Grid, Error> {
        let presses = coset.member(particular, &self.quiet, mask);
        self.check(board, &presses, target)?;
        Ok(presses)
    }

    /// `board + target`, the cells the presses must flip, unless an
    /// obstruction shows that no press set does.
    fn reachable_rhs(&self, board: &Grid, target: &Target) -> Result<Option<Grid>, Error> {
        self.check_shapes(board, target)?;
        if self.holds_quiet_patterns() && self.obstruction_in_basis(board, target)?.is_some() {
            return Ok(None);
        }
        Ok(Some(target.right_hand_side(board)))
    }

    /// Refuses a grid of another shape than the puzzle's.
    fn check_shape(&self, grid: &Grid, of: ShapeOf) -> Result<(), Error> {
        let expected = (self.puzzle.rows(), self.puzzle.cols());
        let found = (grid.nrows(), grid.ncols());
        if found != expected {
            return Err(Error::Shape { of, found, expected });
        }
        Ok(())
    }

    /// Refuses a board, or a target board, of another shape than the puzzle's.
    fn check_shapes(&self, board: &Grid, target: &Target) -> Result<(), Error> {
        self.check_shape(board, ShapeOf::Board)?;
        match target {
            Target::Board(goal) => self.check_shape(goal, ShapeOf::Target),
            Target::White | Target::Black => Ok(()),
        }
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

    /// A lighter press set among the solutions that the symmetries of the
    /// problem (board to `target`) fix, starting from `start`, a press set
    /// that reaches `target` and is kept unless something strictly lighter
    /// is found (`start_found_by` says how it was found): the strong
    /// answer past the exhaustive budget (79×79 all black: 2629 presses in
    /// about 3 s, where a local search gives 2877). `None` when the problem
    /// has no symmetry to use, or is too large for it. The press set is
    /// re-checked; it is proven minimal only when it meets its lower bound.
    ///
    /// # Errors
    /// As [`check`](Self::check), and [`Error::Limit`] when the quiet
    /// patterns are not held (see [`holds_quiet_patterns`](Self::holds_quiet_patterns)).
    ///
    /// # Example
    /// ```
    /// use lightsout::{Game, Grid, Method, Puzzle, Solver, Target};
    /// use lightsout::solve::Start;
    ///
    /// // 9x9 all black (nullity 8): the symmetric solutions hold the minimum.
    /// let solver = Solver::new(&Puzzle::new(9, 9).unwrap(), Method::Auto, 8).unwrap();
    /// let board = Grid::ones(9, 9);
    /// let start = solver.particular_to(&board, &Target::White).unwrap().unwrap();
    /// let found = solver.improve_symmetric(&board, &Target::White, start, Start::Particular).unwrap().unwrap();
    /// let minimum = solver.solve_for(&board, &Target::White).unwrap().unwrap();
    /// assert!(found.presses.count_ones() >= minimum.presses.count_ones());
    /// assert!(found.lower_bound <= minimum.presses.count_ones() as u64);
    /// ```
    pub fn improve_symmetric(
        &self,
        board: &Grid,
        target: &Target,
        start: Grid,
        start_found_by: Start,
    ) -> Result<Option<Incumbent>, Error> {
        if !self.holds_quiet_patterns() {
            return Err(Error::Limit("the quiet patterns of this board are not held".into()));
        }
        self.check(board, &start, target)?;
        let rhs = target.right_hand_side(board);
        let found = improve_with_symmetry(&self.puzzle, &rhs, &self.quiet, start, start_found_by);
        if let Some(found) = &found {
            self.check(board, &found.presses, target)?;
        }
        Ok(found)
    }

    /// The first pattern that proves `target` unreachable from `board`, if
    /// any: `board + target` is not orthogonal to it, so no press set can
    /// flip exactly those cells. `None` means the target is reachable.
    ///
    /// # Errors
    /// [`Error::Shape`] if the board's shape, or a target board's, is not
    /// the puzzle's.
    fn obstruction_in_basis(&self, board: &Grid, target: &Target) -> Result<Option<Cow<'_, Grid>>, Error> {
        self.check_shapes(board, target)?;
        let blocks = |y: &Grid| match target {
            // (board + all ones) · y = board · y + weight(y).
            Target::White | Target::Black => {
                y.dot(board) ^ (*target == Target::Black && y.count_ones() % 2 == 1)
            }
            Target::Board(goal) => y.dot(board) ^ y.dot(goal),
        };
        if !self.holds_quiet_patterns() {
            // Patterns chased one at a time (a chasing solver's left null
            // space is its null space): memory of one board, not d.
            return Ok((0..self.nullity).map(|i| self.quiet_pattern(i)).find(|y| blocks(y)));
        }
        Ok(self.obstructions().iter().find(|y| blocks(y)).map(Cow::Borrowed))
    }

    /// The board of at most 64 cells as a word, when its coset is walked
    /// whole: the word path answers it.
    fn word_system(&self) -> Option<&WordSystem> {
        self.word.as_ref().filter(|w| w.nullity() <= self.max_nullity)
    }

    /// [`Game::solve_for_within`] for a board of at most 64 cells whose
    /// coset is walked whole, the board given as a word (`cells`): the same
    /// answer in words, re-checked press by press.
    fn solve_in_words(
        &self,
        word: &WordSystem,
        cells: u64,
        target: &Target,
    ) -> Result<Option<Solution>, Error> {
        Ok(self.lightest_in_words(word, cells, target)?.map(|presses| word.solution(presses)))
    }

    /// The lightest press set of [`solve_in_words`](Self::solve_in_words)
    /// as a word, re-checked (a word, not a solution, comes back: moving
    /// the larger value cost the classic stream a tenth of its time).
    fn lightest_in_words(
        &self,
        word: &WordSystem,
        cells: u64,
        target: &Target,
    ) -> Result<Option<u64>, Error> {
        let goal = match target {
            Target::White => 0,
            Target::Black => word.all_cells(),
            Target::Board(goal) => {
                self.check_shape(goal, ShapeOf::Target)?;
                word::to_word(goal)
            }
        };
        let Some(particular) = word.particular(cells ^ goal) else {
            return Ok(None);
        };
        let presses = word.lightest(particular);
        if word.apply(cells, presses) != goal {
            let (rows, cols) = (self.puzzle.rows(), self.puzzle.cols());
            return Err(Error::Internal(format!(
                "a {rows}x{cols} press set failed its re-check against the board"
            )));
        }
        Ok(Some(presses))
    }
}

impl Game for Solver {
    type Board = Grid;

    fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    fn kernel(&self) -> KernelSize {
        let d = self.nullity;
        KernelSize {
            size: crate::zk::product_decimal(std::iter::repeat_n(2, d)),
            log2: d as f64,
            nullity: Some(d),
        }
    }

    /// The minimum as the nullity calls for: a Gray-code walk below
    /// nullity 12, the transform engine or branch and bound (from
    /// nullity 48) up to the solver's `max_nullity`, a local search and the
    /// solutions the problem's symmetries fix beyond it (a time limit then
    /// goes whole to the local search). An exhaustive search stopped by
    /// `limits` answers the best of its part and of a local search.
    fn solve_for_within(
        &self,
        board: &Grid,
        target: &Target,
        limits: &Limits,
    ) -> Result<Option<Solution>, Error> {
        if let Some(word) = self.word_system() {
            self.check_shape(board, ShapeOf::Board)?;
            return self.solve_in_words(word, word::to_word(board), target);
        }
        let Some(rhs) = self.reachable_rhs(board, target)? else {
            return Ok(None);
        };
        let Some(particular) = self.particular(&rhs)? else {
            return Ok(None);
        };
        let solution = if self.holds_quiet_patterns() {
            let progress: &Progress = self.progress.as_deref().unwrap_or(&|_| {});
            let stopped = limits.stopped_from_now();
            let max_nullity = self.max_nullity;
            let search = Search { max_nullity, progress, stopped: &stopped, time_limit: limits.time_limit };
            let found = minimal::minimize_problem(&self.puzzle, &rhs, &particular, &self.quiet, &search);
            let (presses, proven_minimal, lower_bound) = (found.presses, found.proven, found.lower_bound);
            Solution { presses, proven_minimal, lower_bound, found_by: found.found_by }
        } else {
            // Too many patterns to hold, let alone to search: the press set
            // found, proven only when it is empty.
            Solution::bounded(particular, 0, FoundBy::Search)
        };
        self.check(board, &solution.presses, target)?;
        Ok(Some(solution))
    }

    /// Each target as [`solve_for_within`](Self::solve_for_within) solves
    /// it; a board of at most 64 cells whose coset is walked whole is read
    /// into a word once for all its targets (every board of the classic
    /// 4×4 stream).
    fn solve_within(&self, board: &Grid, targets: &[Target], limits: &Limits) -> Result<Answer, Error> {
        let Some(word) = self.word_system() else {
            return game::solve_each(self, board, targets, limits);
        };
        self.check_shape(board, ShapeOf::Board)?;
        let cells = word::to_word(board);
        let mut outcomes = Vec::with_capacity(targets.len());
        for target in targets {
            let lightest = self.lightest_in_words(word, cells, target)?;
            outcomes.push(Outcome { target: target.clone(), solution: lightest.map(|p| word.solution(p)) });
        }
        Ok(Answer { outcomes })
    }

    /// A press set turning `board` into `target` (not yet the lightest), or
    /// `None` when `target` cannot be reached: the coset that a long search
    /// then walks with [`quiet_patterns`](Solver::quiet_patterns).
    fn particular_to(&self, board: &Grid, target: &Target) -> Result<Option<Grid>, Error> {
        match self.reachable_rhs(board, target)? {
            Some(rhs) => self.particular(&rhs),
            None => Ok(None),
        }
    }

    /// The first pattern of [`obstructions`](Solver::obstructions) that
    /// proves `target` unreachable from `board`: `board + target` is not
    /// orthogonal to it, so no press set can flip exactly those cells.
    fn obstruction(&self, board: &Grid, target: &Target) -> Result<Option<Grid>, Error> {
        Ok(self.obstruction_in_basis(board, target)?.map(Cow::into_owned))
    }

    /// Presses `presses` on `board` and insists on reaching `target`: the
    /// one re-check every reported press set goes through, so a wrong press
    /// set is an error, never an answer.
    ///
    /// # Errors
    /// [`Error::Shape`] if a grid's shape is not the puzzle's;
    /// [`Error::Internal`] if `presses` does not turn `board` into `target`.
    fn check(&self, board: &Grid, presses: &Grid, target: &Target) -> Result<(), Error> {
        self.check_shapes(board, target)?;
        self.check_shape(presses, ShapeOf::Presses)?;
        let reached = self.puzzle.apply(board, presses);
        let done = match target {
            Target::White => reached.is_zero(),
            Target::Black => reached.count_ones() == self.puzzle.cells(),
            Target::Board(goal) => reached == *goal,
        };
        if done {
            return Ok(());
        }
        Err(Error::Internal(format!(
            "a {}x{} press set failed its re-check against the board",
            self.puzzle.rows(),
            self.puzzle.cols()
        )))
    }
}
