//! What a K-state solve answers: targets, solutions and outcomes.

use crate::model::StateGrid;
use crate::solve::Board;
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

impl Board for StateGrid {
    type Target = StateTarget;

    fn presses(&self) -> u64 {
        self.total()
    }

    fn shape(&self) -> (usize, usize) {
        (self.nrows(), self.ncols())
    }

    fn from_cell_values(rows: usize, cols: usize, cells: &[u8]) -> StateGrid {
        StateGrid::from_fn(rows, cols, |r, c| cells[r * cols + c])
    }

    fn cell_values(&self) -> Vec<u8> {
        self.cells().to_vec()
    }
}
