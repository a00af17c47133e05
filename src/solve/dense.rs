//! Solving by Gauss–Jordan elimination of the full flip matrix.

use crate::gf2::Echelon;
use crate::model::{Grid, Puzzle};

/// The flip matrix of a puzzle, factored once.
///
/// Serves every rule and topology. The matrix has one row and one column per
/// cell, so this is the method for small boards and for rules that light
/// chasing cannot serve.
///
/// # Complexity
/// Factoring: O((R·C)³ / 64) word operations and O((R·C)² / 8) bytes.
/// Each solve: O((R·C)² / 64).
#[derive(Clone, Debug)]
pub struct Dense {
    puzzle: Puzzle,
    echelon: Echelon,
}

impl Dense {
    /// Builds and factors the flip matrix of `puzzle`.
    pub fn new(puzzle: &Puzzle) -> Self {
        Dense { puzzle: puzzle.clone(), echelon: Echelon::new(&puzzle.flip_matrix()) }
    }

    /// Dimension of the null space of the flip matrix.
    pub fn nullity(&self) -> usize {
        self.echelon.nullity()
    }

    /// Some press set that flips exactly the cells set in `rhs`, if any.
    pub fn particular(&self, rhs: &Grid) -> Option<Grid> {
        let x = self.echelon.solve(&rhs.to_vector())?;
        Some(Grid::from_vector(self.puzzle.rows(), self.puzzle.cols(), &x))
    }

    /// A basis of the patterns `y` with `yᵀ·A = 0`: the boards orthogonal to
    /// all of them are exactly the ones some press set flips.
    pub fn obstructions(&self) -> Vec<Grid> {
        let (rows, cols) = (self.puzzle.rows(), self.puzzle.cols());
        self.echelon.left_null_space().iter().map(|y| Grid::from_vector(rows, cols, y)).collect()
    }

    /// A basis of the quiet patterns: press sets that flip nothing.
    pub fn quiet_patterns(&self) -> Vec<Grid> {
        let (rows, cols) = (self.puzzle.rows(), self.puzzle.cols());
        self.echelon.null_space().iter().map(|q| Grid::from_vector(rows, cols, q)).collect()
    }
}
