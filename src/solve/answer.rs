//! What a solve is asked and what it answers: the [`Target`], the
//! [`Method`], and per target an [`Outcome`] with its [`Solution`],
//! gathered in an [`Answer`].

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

/// The best press set found for one target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The presses, re-checked against the board.
    pub presses: Grid,
    /// Whether no press set with fewer presses exists (false when the null
    /// space was too large to enumerate).
    pub proven_minimal: bool,
    /// For a press set not proven minimal, how it was found and the lower
    /// bound it is measured against ("found by an exhaustive search of the
    /// 2^32 solutions the half turn fixes; lower bound 2113"), when the
    /// search says more than its nullity does.
    pub found_by: Option<String>,
}

/// One target's result: the fewest presses found, or `None` when the
/// target cannot be reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The target asked for.
    pub target: Target,
    /// Its solution, `None` when unreachable.
    pub solution: Option<Solution>,
}

/// A board's answer: one outcome per target asked for, in the order asked.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Answer {
    /// The outcomes, in the order of the targets asked.
    pub outcomes: Vec<Outcome>,
}

impl Answer {
    /// The outcome for `target`, if it was asked for.
    pub fn get(&self, target: &Target) -> Option<&Outcome> {
        self.outcomes.iter().find(|o| o.target == *target)
    }

    /// The reachable target needing the fewest presses (the first asked on
    /// a tie).
    pub fn best(&self) -> Option<(&Target, &Solution)> {
        self.outcomes
            .iter()
            .filter_map(|o| Some((&o.target, o.solution.as_ref()?)))
            .min_by_key(|(_, s)| s.presses.count_ones())
    }
}
