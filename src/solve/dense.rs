//! Solving by elimination of the full flip matrix, one unknown per cell:
//! Gaussian elimination to echelon form, then back substitution per board.
//! "Dense" as against light chasing's C×C system; the elimination itself
//! exploits the band of the flip matrix (`gf2::Echelon`).

use crate::gf2::Echelon;
use crate::model::{Grid, Puzzle};

/// The flip matrix of a puzzle, factored once.
///
/// Serves every rule and topology. The matrix has one row and one column per
/// cell, so this is the method for small boards and for rules that light
/// chasing cannot serve.
///
/// # Complexity
/// The flip matrix is banded (bandwidth about C for the plane), and the
/// elimination keeps rows to their span: factoring costs about
/// O(R·C·C²/64) word operations, each solve O(R·C·C).
#[derive(Clone, Debug)]
pub struct Dense {
    puzzle: Puzzle,
    echelon: Echelon,
}

impl Dense {
    /// Builds and factors the flip matrix of `puzzle`.
    pub fn new(puzzle: &Puzzle) -> Self {
        let echelon = Echelon::from_matrix_rows((puzzle.rows(), puzzle.cols()), &puzzle.cell_lists());
        Dense { puzzle: puzzle.clone(), echelon }
    }

    /// Dimension of the null space of the flip matrix.
    pub fn nullity(&self) -> usize {
        self.echelon.nullity()
    }

    /// Some press set that flips exactly the cells set in `rhs`, if any.
    pub fn particular(&self, rhs: &Grid) -> Option<Grid> {
        self.echelon.solve_matrix(rhs)
    }

    /// A basis of the patterns `y` with `yᵀ·A = 0`: the boards orthogonal to
    /// all of them are exactly the ones some press set flips.
    /// `None` when the flip matrix is symmetric: then they are the quiet
    /// patterns.
    pub fn obstructions(&self) -> Option<Vec<Grid>> {
        if self.puzzle.is_symmetric() {
            return None;
        }
        // The rows of Aᵀ are the press lists.
        let shape = (self.puzzle.rows(), self.puzzle.cols());
        Some(Echelon::from_matrix_rows(shape, &self.puzzle.press_lists()).null_space_matrices())
    }

    /// A basis of the quiet patterns: press sets that flip nothing.
    pub fn quiet_patterns(&self) -> Vec<Grid> {
        self.echelon.null_space_matrices()
    }
}
