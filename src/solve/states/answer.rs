//! What a K-state solve answers: targets, solutions and outcomes.

use crate::model::StateGrid;
use crate::zk::Modulus;

/// What a board of K states should become.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum StateTarget {
    /// Every cell in this state.
    Uniform(u8),
    /// This board (of the puzzle's shape).
    Board(StateGrid),
}

impl StateTarget {
    /// Every uniform state `0..K`, for whichever takes the fewest presses:
    /// the default goal of the K-state game.
    pub fn any(states: Modulus) -> Vec<StateTarget> {
        (0..states.get()).map(StateTarget::Uniform).collect()
    }
}

/// The lightest press set found for one target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateSolution {
    /// How many times each cell is pressed (0 to K−1), re-checked against
    /// the board; [`StateGrid::total`] is the number of presses.
    pub presses: StateGrid,
    /// Whether no press set with fewer presses exists.
    pub proven_minimal: bool,
    /// No press set reaches the target with fewer presses than this (the
    /// total itself when proven minimal).
    pub lower_bound: u64,
}

/// One target's result: its lightest press set, or `None` when the target
/// cannot be reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateOutcome {
    /// The target asked for.
    pub target: StateTarget,
    /// Its solution, `None` when unreachable.
    pub solution: Option<StateSolution>,
}

/// A board's answer: one outcome per target asked for, in the order asked.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct StateAnswer {
    /// The outcomes, in the order of the targets asked.
    pub outcomes: Vec<StateOutcome>,
}

impl StateAnswer {
    /// The outcome for `target`, if it was asked for.
    pub fn get(&self, target: &StateTarget) -> Option<&StateOutcome> {
        self.outcomes.iter().find(|o| o.target == *target)
    }

    /// The reachable target needing the fewest presses (the first asked on
    /// a tie).
    pub fn best(&self) -> Option<(&StateTarget, &StateSolution)> {
        self.outcomes
            .iter()
            .filter_map(|o| Some((&o.target, o.solution.as_ref()?)))
            .min_by_key(|(_, s)| s.presses.total())
    }
}
