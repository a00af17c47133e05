//! What a solve is asked and what it answers: the [`Target`], the
//! [`Method`], and per target an [`Outcome`] with its [`Solution`],
//! gathered in an [`Answer`]: one generic answer for both kinds of
//! [`Board`] (two states and K states).

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::model::{Grid, Puzzle};

/// What a board should become: all white, all black, or a given board.
///
/// POJ 1753's goal, whichever colour takes fewer presses, is the two
/// colours asked together: [`Target::EITHER`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// All pieces white side up.
    White,
    /// All pieces black side up.
    Black,
    /// This board (of the puzzle's shape).
    Board(Grid),
}

impl Target {
    /// Both colours, for the one needing fewer presses.
    pub const EITHER: &'static [Target] = &[Target::White, Target::Black];

    /// `board + target` over GF(2): the cells the presses must flip (for
    /// a board of the target's shape).
    pub fn right_hand_side(&self, board: &Grid) -> Grid {
        let mut rhs = board.clone();
        match self {
            Target::White => {}
            Target::Black => rhs.not_in_place(),
            Target::Board(goal) => rhs.xor_assign(goal),
        }
        rhs
    }

    /// `"white"`, `"black"`, or `"target"` for a given board.
    pub fn name(&self) -> &'static str {
        match self {
            Target::White => "white",
            Target::Black => "black",
            Target::Board(_) => "target",
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

impl Method {
    /// Whether this method chases lights on `puzzle` (`Auto` does where it
    /// can): the one choice both the two-state and the K-state solvers make.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for `Chase` off the classic rule on the plane.
    pub fn chases(self, puzzle: &Puzzle) -> Result<bool, Error> {
        match self {
            Method::Chase | Method::Auto if puzzle.is_classic() => Ok(true),
            Method::Dense | Method::Auto => Ok(false),
            Method::Chase => {
                Err(Error::Unsupported("light chasing needs the classic rule on the plane".into()))
            }
        }
    }
}

/// A kind of board the game is played on, whose press sets are boards of
/// the same kind: [`Grid`] (two states, one bit a cell) or
/// [`StateGrid`](crate::model::StateGrid) (K states, one byte a cell). What the generic
/// [`Solution`], [`Outcome`] and [`Answer`] need of it.
pub trait Board: Clone + std::fmt::Debug + PartialEq + Eq {
    /// What a board of this kind may be asked to become.
    type Target: Clone + std::fmt::Debug + PartialEq + Eq;

    /// The presses this press set makes: set cells for two states, the
    /// sum of the cells (each pressed that many times) for K states.
    fn presses(&self) -> u64;

    /// Rows and columns.
    fn shape(&self) -> (usize, usize);

    /// The board of `rows × cols` cells with these values, row by row, each
    /// below the game's K (two states: 1 is black, a press). What every
    /// front builds its boards from (a JSON list, a numpy array).
    ///
    /// # Panics
    /// When `cells` holds fewer than `rows × cols` values.
    fn from_cell_values(rows: usize, cols: usize, cells: &[u8]) -> Self;

    /// Its cell values, row by row: what [`from_cell_values`](Self::from_cell_values) reads.
    ///
    /// # Example
    /// ```
    /// use lightsout::solve::Board;
    /// use lightsout::{Grid, StateGrid};
    ///
    /// let grid = Grid::from_cell_values(2, 2, &[1, 0, 0, 1]);
    /// assert_eq!((grid.get(0, 0), grid.get(0, 1)), (true, false));
    /// assert_eq!(grid.cell_values(), [1, 0, 0, 1]);
    /// assert_eq!(StateGrid::from_cell_values(1, 3, &[2, 0, 1]).cell_values(), [2, 0, 1]);
    /// ```
    fn cell_values(&self) -> Vec<u8>;
}

impl Board for Grid {
    type Target = Target;

    fn presses(&self) -> u64 {
        self.count_ones() as u64
    }

    fn shape(&self) -> (usize, usize) {
        (self.nrows(), self.ncols())
    }

    fn from_cell_values(rows: usize, cols: usize, cells: &[u8]) -> Grid {
        Grid::from_fn(rows, cols, |r, c| cells[r * cols + c] == 1)
    }

    fn cell_values(&self) -> Vec<u8> {
        let cols = self.ncols();
        let mut cells = vec![0u8; self.nrows() * cols];
        for r in 0..self.nrows() {
            for c in self.row(r).iter_ones() {
                cells[r * cols + c] = 1;
            }
        }
        cells
    }
}

/// How a press set was found, in data: the fronts word it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum FoundBy {
    /// By the search the nullity calls for (an exhaustive one within the
    /// budget, a local one beyond it): nothing more to say.
    #[default]
    Search,
    /// By searching the solutions that the problem's symmetries fix, past
    /// the exhaustive budget (see [`Solver::improve_symmetric`](crate::Solver::improve_symmetric)).
    Symmetric(SymmetricSearch),
    /// By an exhaustive search stopped before its end (on a stop flag or
    /// its time limit), with a local search: the best of the two.
    Stopped {
        /// Members of the coset weighed before it stopped (a folded
        /// search counts each orbit's members).
        members_searched: u128,
        /// The symmetric solutions' search the stopped search began from
        /// (the answer past the budget), when its press set is the answer.
        start: Option<SymmetricSearch>,
        /// How long finding that start took, when it took longer than the
        /// time limit (the exhaustive search then stopped after its first
        /// batch).
        start_overran: Option<Duration>,
    },
    /// Not searched at all: the stop flag or time limit had ended the
    /// search before it began (a target after others that took the
    /// time); the press set the algebra gives, re-checked.
    NotSearched,
}

/// Where a search over the symmetric solutions started, and what beat it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SymmetricSearch {
    /// The press set it started from, kept unless something was lighter.
    pub start: Start,
    /// The subspace whose member beat the start, if one did.
    pub space: Option<FixedSpaceSearch>,
    /// Whether a local search over all solutions then improved on it.
    pub polished: bool,
}

/// The press set a search over symmetric solutions starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Start {
    /// The particular solution of the elimination.
    Particular,
    /// A local search's answer.
    LocalSearch,
    /// A descent over whole patterns (nullity past a key's 128 bits).
    Descent,
}

/// A subspace of solutions fixed by some of the problem's symmetries, as
/// it was searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FixedSpaceSearch {
    /// Searched exhaustively (or by a local search inside it).
    pub exhaustive: bool,
    /// Its dimension: it holds 2^dimension solutions.
    pub dimension: usize,
    /// The motions fixing it, a bit per motion in the order of the
    /// grid's symmetries (quarter turn, half turn, three-quarter turn,
    /// top-bottom mirror, left-right mirror, transpose, anti-transpose).
    pub motions: u8,
}

/// The best press set found for one target, for either kind of board.
///
/// The one struct of an answer that every front shows, through its serde
/// form: the command line and the server write it as each target's JSON
/// (`present::outcome_json`, with the `json` feature: `found_by` is
/// worded in notes instead), and Python holds it with its press set as cell
/// values (a `Solution<Vec<u8>>`, made by [`map_presses`](Self::map_presses))
/// and pickles it. So a field added here, once the solvers fill it in,
/// reaches all three with no more than a Python getter and its stub line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Solution<B = Grid> {
    /// The presses, re-checked against the board ([`Board::presses`]
    /// counts them).
    pub presses: B,
    /// Whether no press set with fewer presses exists (false when the
    /// null space was too large to enumerate and no bound was met).
    pub proven_minimal: bool,
    /// No press set reaches the target with fewer presses than this (the
    /// count itself when proven minimal).
    pub lower_bound: u64,
    /// How the press set was found.
    pub found_by: FoundBy,
}

impl<B> Solution<B> {
    /// The same solution with its press set in another form (its cell
    /// values for Python, its lines for the JSON). It names every field,
    /// as the constructors do and the solvers that build a `Solution`
    /// field by field (`solve_for_within`, `WordSystem::solution`, the
    /// command line's long search).
    ///
    /// # Example
    /// ```
    /// use lightsout::{Grid, Solution};
    /// use lightsout::solve::Board;
    ///
    /// let presses = Grid::from_cell_values(1, 3, &[1, 0, 1]);
    /// let kept = Solution::minimal(presses).map_presses(|p| p.cell_values());
    /// assert_eq!((kept.presses, kept.proven_minimal, kept.lower_bound), (vec![1, 0, 1], true, 2));
    /// ```
    pub fn map_presses<C>(&self, form: impl FnOnce(&B) -> C) -> Solution<C> {
        let Solution { presses, proven_minimal, lower_bound, found_by } = self;
        Solution {
            presses: form(presses),
            proven_minimal: *proven_minimal,
            lower_bound: *lower_bound,
            found_by: *found_by,
        }
    }
}

impl<B: Board> Solution<B> {
    /// A press set proven minimal by an exhaustive search.
    pub fn minimal(presses: B) -> Self {
        let lower_bound = presses.presses();
        Solution { presses, proven_minimal: true, lower_bound, found_by: FoundBy::Search }
    }

    /// A press set with a lower bound, proven minimal exactly when it
    /// meets it.
    pub fn bounded(presses: B, lower_bound: u64, found_by: FoundBy) -> Self {
        let proven_minimal = presses.presses() <= lower_bound;
        Solution { presses, proven_minimal, lower_bound, found_by }
    }
}

/// One target's result: the fewest presses found, or `None` when the
/// target cannot be reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome<B: Board = Grid> {
    /// The target asked for.
    pub target: B::Target,
    /// Its solution, `None` when unreachable.
    pub solution: Option<Solution<B>>,
}

/// A board's answer: one outcome per target asked for, in the order asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer<B: Board = Grid> {
    /// The outcomes, in the order of the targets asked.
    pub outcomes: Vec<Outcome<B>>,
}

impl<B: Board> Default for Answer<B> {
    fn default() -> Self {
        Answer { outcomes: Vec::new() }
    }
}

impl<B: Board> Answer<B> {
    /// The outcome for `target`, if it was asked for.
    pub fn get(&self, target: &B::Target) -> Option<&Outcome<B>> {
        self.outcomes.iter().find(|o| o.target == *target)
    }

    /// The reachable target needing the fewest presses (the first asked on
    /// a tie).
    pub fn best(&self) -> Option<(&B::Target, &Solution<B>)> {
        self.outcomes
            .iter()
            .filter_map(|o| Some((&o.target, o.solution.as_ref()?)))
            .min_by_key(|(_, s)| s.presses.presses())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solution not proven minimal, found by a stopped search whose
    /// count of members is past u64 (which a JSON value cannot hold, but
    /// its text can).
    fn stopped() -> Solution<Vec<u8>> {
        let symmetric = SymmetricSearch {
            start: Start::Descent,
            space: Some(FixedSpaceSearch { exhaustive: false, dimension: 40, motions: 0b101 }),
            polished: true,
        };
        let found_by = FoundBy::Stopped {
            members_searched: u128::from(u64::MAX) + 3,
            start: Some(symmetric),
            start_overran: Some(Duration::from_millis(1500)),
        };
        Solution { presses: vec![2, 0, 1, 1], proven_minimal: false, lower_bound: 3, found_by }
    }

    #[test]
    fn the_serde_form_keeps_every_field() {
        for solution in [
            stopped(),
            Solution::minimal(Grid::from_cell_values(2, 2, &[1, 0, 0, 1])).map_presses(|p| p.cell_values()),
        ] {
            let text = serde_json::to_string(&solution).unwrap();
            let back: Solution<Vec<u8>> = serde_json::from_str(&text).unwrap();
            assert_eq!(back, solution, "{text}");
        }
    }

    #[test]
    fn map_presses_keeps_the_other_fields() {
        let solution = stopped();
        let cleared = solution.map_presses(|_| ());
        assert_eq!(cleared.map_presses(|()| solution.presses.clone()), solution);
    }
}
