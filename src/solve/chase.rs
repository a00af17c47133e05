//! Solving the classic plane puzzle by light chasing.
//!
//! Once the first row of presses is fixed, every other row is forced: the
//! presses of row i+1 are exactly the lights row i still shows. So the R·C
//! unknowns reduce to the C presses of the first row, and the lights left on
//! the last row are an affine function `K·p + r₀` of them. Solving the C×C
//! system `K·p = r₀` and chasing once more gives the whole press grid.

#[cfg(test)]
use crate::gf2::BitVector;
use std::borrow::Cow;

use crate::gf2::{BitMatrix, Echelon, words, zeros};
use crate::model::{Grid, Puzzle};

/// The first-row system of a classic plane puzzle, factored once.
///
/// Works on the orientation whose rows are the shorter side, so the system
/// is `min(R, C)` square; boards are transposed in and answers out.
///
/// # Complexity
/// Building `K`: O(R·C² / 64) word operations (C the shorter side); factoring
/// it O(C³ / 64). Each solve: two chases, O(R·C / 64), plus O(C² / 64).
///
/// # Example
/// ```
/// use lightsout::{Chase, Grid, Puzzle};
///
/// let puzzle = Puzzle::new(5, 5)?;
/// let chase = Chase::new(&puzzle);
/// assert_eq!(chase.nullity(), 2);
/// let board = Grid::ones(5, 5);
/// let presses = chase.particular(&board).expect("all-black 5x5 is solvable");
/// assert!(puzzle.apply(&board, &presses).is_zero());
/// # Ok::<(), lightsout::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Chase {
    rows: usize,
    cols: usize,
    transposed: bool,
    first_row: Echelon,
}

impl Chase {
    /// Builds and factors the first-row system of `puzzle`.
    ///
    /// # Panics
    /// If the puzzle is not the classic rule on the plane.
    pub fn new(puzzle: &Puzzle) -> Self {
        assert!(puzzle.is_classic(), "light chasing needs the classic rule on the plane");
        let transposed = puzzle.rows() < puzzle.cols();
        let (rows, cols) =
            if transposed { (puzzle.cols(), puzzle.rows()) } else { (puzzle.rows(), puzzle.cols()) };
        Chase { rows, cols, transposed, first_row: Echelon::new(&chase_matrix(rows, cols)) }
    }

    /// Dimension of the null space: that of the first-row system.
    pub fn nullity(&self) -> usize {
        self.first_row.nullity()
    }

    /// Some press set that flips exactly the cells set in `rhs`, if any.
    pub fn particular(&self, rhs: &Grid) -> Option<Grid> {
        let rhs = self.orient(rhs);
        let mut r0 = zeros(self.cols);
        self.residual(&rhs, r0.as_raw_mut_slice());
        let p = self.first_row.solve(&r0)?;
        let (presses, _) = self.chase(Some(&rhs), p.as_raw_slice());
        Some(self.orient(&presses).into_owned())
    }

    /// A basis of the quiet patterns: the chases of the first-row kernel.
    pub fn quiet_patterns(&self) -> Vec<Grid> {
        self.first_row
            .null_space()
            .iter()
            .map(|p| self.orient(&self.chase(None, p.as_raw_slice()).0).into_owned())
            .collect()
    }

    /// Converts between the caller's orientation and the working one.
    fn orient<'a>(&self, grid: &'a Grid) -> Cow<'a, Grid> {
        if self.transposed { Cow::Owned(grid.transpose()) } else { Cow::Borrowed(grid) }
    }

    /// The lights `rhs` leaves on the last row when the first row is not
    /// pressed: the chase with only three rows of memory.
    fn residual(&self, rhs: &Grid, lights: &mut [u64]) {
        let stride = lights.len();
        let mut above = vec![0u64; stride];
        let mut current = vec![0u64; stride];
        for i in 0..self.rows {
            words::spread_row(&current, lights, self.cols);
            words::xor_into(lights, &above);
            words::xor_into(lights, rhs.row(i));
            // The next row presses exactly the lights still on.
            std::mem::swap(&mut above, &mut current);
            current.copy_from_slice(lights);
        }
    }

    /// Presses `first` on row 0, then chases row by row: row i+1 presses the
    /// lights left in row i of `rhs` (or of an empty board). Returns the press
    /// grid and the lights left on the last row.
    fn chase(&self, rhs: Option<&Grid>, first: &[u64]) -> (Grid, Vec<u64>) {
        let mut presses = Grid::zeros(self.rows, self.cols);
        presses.row_mut(0).copy_from_slice(first);
        let mut lights = vec![0u64; presses.stride()];
        for i in 0..self.rows {
            words::spread_row(presses.row(i), &mut lights, self.cols);
            if i > 0 {
                words::xor_into(&mut lights, presses.row(i - 1));
            }
            if let Some(rhs) = rhs {
                words::xor_into(&mut lights, rhs.row(i));
            }
            if i + 1 < self.rows {
                presses.row_mut(i + 1).copy_from_slice(&lights);
            }
        }
        (presses, lights)
    }
}

/// The linear part `K` of the last-row lights as a function of the first-row
/// presses: `M₀ = I`, `M₋₁ = 0`, `M_(i+1) = T·M_i + M_(i−1)`, `K = M_R`, with
/// `T` the tridiagonal "cell and both sides" matrix. Row k of `M_i` says which
/// first-row presses cell k of press row i depends on.
fn chase_matrix(rows: usize, cols: usize) -> BitMatrix {
    let mut previous = BitMatrix::zeros(cols, cols);
    let mut current = BitMatrix::identity(cols);
    for _ in 0..rows {
        let mut next = previous;
        for k in 0..cols {
            let row = next.row_mut(k);
            words::xor_into(row, current.row(k));
            if k > 0 {
                words::xor_into(row, current.row(k - 1));
            }
            if k + 1 < cols {
                words::xor_into(row, current.row(k + 1));
            }
        }
        previous = current;
        current = next;
    }
    current
}

/// `K · v` via the chase, for tests that check `K` against its definition.
#[cfg(test)]
fn residual_of(rows: usize, cols: usize, first: &BitVector) -> BitVector {
    let chase = Chase { rows, cols, transposed: false, first_row: Echelon::new(&BitMatrix::zeros(1, 1)) };
    let (_, residual) = chase.chase(None, first.as_raw_slice());
    let mut r = zeros(cols);
    r.as_raw_mut_slice().copy_from_slice(&residual);
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chase_matrix_matches_chasing_unit_rows() {
        for (rows, cols) in [(1, 1), (4, 4), (5, 3), (7, 65), (3, 130)] {
            let k = chase_matrix(rows, cols);
            for j in 0..cols {
                let mut e = zeros(cols);
                e.set(j, true);
                let column: BitVector = (0..cols).map(|i| k.get(i, j)).collect();
                assert_eq!(residual_of(rows, cols, &e), column, "{rows}x{cols} column {j}");
            }
        }
    }
}
