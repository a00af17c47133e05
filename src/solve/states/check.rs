//! The re-check every K-state answer goes through: a press set applied
//! to the board (press lists, or the plus rule row by row), and the
//! grids and targets it is given refused when out of shape or range.

use super::{StateSolver, StateTarget, chase};
use crate::error::{Error, ShapeOf};
use crate::model::StateGrid;
use crate::zk::{Barrett, Modulus};

impl StateSolver {
    /// Whether `y·A = 0`: every press changes `y·cells` by a multiple of K.
    pub(super) fn is_invariant(&self, y: &StateGrid) -> bool {
        let k = self.states;
        match &self.reach {
            Some(reach) => reach.starts.windows(2).all(|w| {
                let sum: u64 =
                    reach.cells[w[0]..w[1]].iter().map(|&c| u64::from(y.cells()[c as usize])).sum();
                k.reduce(sum) == 0
            }),
            // The plus rule's matrix is symmetric: y·A = A·y, the board y
            // presses on an empty board.
            None => plus_apply(&StateGrid::zeros(y.nrows(), y.ncols()), y, k).is_zero(),
        }
    }

    /// The board reached from `board` by pressing each cell as many times
    /// as `presses` says: every cell gains, mod K, the presses that reach it.
    ///
    /// # Errors
    /// [`Error::Shape`] if a grid is not of the puzzle's shape;
    /// [`Error::BadInput`] for a state or press count of K or more.
    pub fn apply(&self, board: &StateGrid, presses: &StateGrid) -> Result<StateGrid, Error> {
        self.check_grid(board, ShapeOf::Board)?;
        self.check_grid(presses, ShapeOf::Presses)?;
        let k = self.states;
        Ok(match &self.reach {
            Some(reach) => {
                let mut sums: Vec<u32> = board.cells().iter().map(|&s| u32::from(s)).collect();
                for (j, &x) in presses.cells().iter().enumerate().filter(|&(_, &x)| x != 0) {
                    for &c in &reach.cells[reach.starts[j]..reach.starts[j + 1]] {
                        sums[c as usize] = (sums[c as usize] + u32::from(x)) % u32::from(k.get());
                    }
                }
                let cells = sums.into_iter().map(|s| s as u8).collect();
                StateGrid::from_cells(board.nrows(), board.ncols(), cells).unwrap_or_else(|| board.clone())
            }
            None => plus_apply(board, presses, k),
        })
    }

    /// Presses `presses` on `board` and insists on reaching `target`: the
    /// one re-check every press set goes through before it is returned.
    ///
    /// # Errors
    /// As [`apply`](Self::apply); [`Error::Internal`] if `presses` does not
    /// turn `board` into `target`.
    pub(super) fn recheck(
        &self,
        board: &StateGrid,
        presses: &StateGrid,
        target: &StateTarget,
    ) -> Result<(), Error> {
        let goal = self.goal(target)?;
        let reached = self.apply(board, presses)?;
        if reached.cells() == goal.as_slice() {
            return Ok(());
        }
        Err(self.failed("a press set"))
    }

    pub(super) fn failed(&self, what: &str) -> Error {
        Error::Internal(format!(
            "{what} for a {}x{} board of {} states failed its re-check",
            self.puzzle.rows(),
            self.puzzle.cols(),
            self.states
        ))
    }

    /// Refuses a grid of another shape than the puzzle's, or with a state
    /// of K or more.
    pub(super) fn check_grid(&self, grid: &StateGrid, of: ShapeOf) -> Result<(), Error> {
        let expected = (self.puzzle.rows(), self.puzzle.cols());
        let found = (grid.nrows(), grid.ncols());
        if found != expected {
            return Err(Error::Shape { of, found, expected });
        }
        let k = self.states.get();
        if let Some(i) = grid.cells().iter().position(|&s| s >= k) {
            let (r, c) = (i / grid.ncols(), i % grid.ncols());
            let what = match of {
                ShapeOf::Presses => "press count",
                ShapeOf::Board | ShapeOf::Target => "state",
            };
            return Err(Error::BadInput(format!(
                "the {} has a {what} of {} at row {}, column {}, but the states are 0 to {}",
                of.name(),
                grid.cells()[i],
                r + 1,
                c + 1,
                k - 1
            )));
        }
        Ok(())
    }

    /// The target's cells, checked.
    pub(super) fn goal(&self, target: &StateTarget) -> Result<Vec<u8>, Error> {
        match target {
            StateTarget::Uniform(s) if *s < self.states.get() => Ok(vec![*s; self.puzzle.cells()]),
            StateTarget::Uniform(s) => {
                Err(Error::BadInput(format!("the target state is 0 to {}, got {s}", self.states.get() - 1)))
            }
            StateTarget::Board(goal) => {
                self.check_grid(goal, ShapeOf::Target)?;
                Ok(goal.cells().to_vec())
            }
        }
    }

    /// `target − board` mod K: what the presses must add to each cell.
    pub(super) fn rhs(&self, board: &StateGrid, target: &StateTarget) -> Result<StateGrid, Error> {
        self.check_grid(board, ShapeOf::Board)?;
        let goal = self.goal(target)?;
        let k = self.states;
        let cells = goal.iter().zip(board.cells()).map(|(&t, &b)| k.sub(t, b)).collect();
        StateGrid::from_cells(board.nrows(), board.ncols(), cells).ok_or_else(|| self.failed("a board"))
    }
}

/// The plus rule on the plane, row by row: each cell gains its own presses
/// and its four neighbours', mod K.
fn plus_apply(board: &StateGrid, presses: &StateGrid, k: Modulus) -> StateGrid {
    let (rows, cols) = (board.nrows(), board.ncols());
    let barrett = Barrett::new(k.get());
    let mut out = board.clone();
    // At most six values below K ≤ 255 per cell: within u16.
    let mut sum = vec![0u16; cols];
    for r in 0..rows {
        sum.fill(0);
        chase::add_row(&mut sum, board.row(r));
        chase::add_spread(&mut sum, presses.row(r));
        if r > 0 {
            chase::add_row(&mut sum, presses.row(r - 1));
        }
        if r + 1 < rows {
            chase::add_row(&mut sum, presses.row(r + 1));
        }
        for (o, &s) in out.cells_mut()[r * cols..(r + 1) * cols].iter_mut().zip(&sum) {
            *o = barrett.reduce(s) as u8;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Puzzle, Rule};
    use crate::solve::Method;

    #[test]
    fn plus_apply_matches_the_press_lists() {
        let puzzle = Puzzle::new(4, 5).unwrap();
        let k = Modulus::new(7).unwrap();
        let dense =
            StateSolver::new(&puzzle.clone().with_rule(Rule::plus()), k, Method::Dense, 8, u64::MAX).unwrap();
        let board = StateGrid::from_fn(4, 5, |r, c| ((r * 5 + c) % 7) as u8);
        let presses = StateGrid::from_fn(4, 5, |r, c| ((r * 3 + c * c) % 7) as u8);
        assert_eq!(dense.apply(&board, &presses).unwrap(), plus_apply(&board, &presses, k));
    }
}
