//! Solving a K-state puzzle by elimination of its whole press matrix over
//! Z_K: one unknown per press, any rule, topology or graph.

use crate::model::StateGrid;
use crate::zk::{Modulus, ZkFactors, ZkMatrix};

/// The press matrix of a puzzle over Z_K, factored once.
///
/// Column j of the matrix adds 1 to each cell that press j reaches (the
/// puzzle's `press_lists`), so it serves every puzzle; it has one row and
/// one column per cell, n² bytes, and is the method for small boards and
/// for everything light chasing cannot serve.
///
/// # Complexity
/// Factoring: O(n³) for n cells (about n³/3 steps in vector lanes per prime
/// power of K), n² bytes per prime power; a band of width w (a grid rule
/// on the plane, w ≈ 2C) costs about n·w². Each solve: O(n²).
///
/// # Example
/// ```
/// use lightsout::zk::Modulus;
/// use lightsout::{Puzzle, Rule, StateGrid};
/// use lightsout::solve::states::StateDense;
///
/// // The king's rule on 2x2 presses every cell: a press adds 1 to all four.
/// let puzzle = Puzzle::new(2, 2)?.with_rule(Rule::king());
/// let dense = StateDense::new(2, 2, &puzzle.press_lists(), Modulus::new(4)?);
/// assert!(dense.particular(&StateGrid::filled(2, 2, 3)).is_some());
/// assert!(dense.particular(&StateGrid::from_fn(2, 2, |r, _| r as u8)).is_none());
/// assert_eq!(dense.factors().kernel_size(), "64");
/// # Ok::<(), lightsout::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct StateDense {
    rows: usize,
    cols: usize,
    factors: ZkFactors,
}

impl StateDense {
    /// Builds the press matrix from `press_lists` (press j reaches the cells
    /// listed) of a `rows × cols` puzzle and factors it over `states`.
    pub fn new(rows: usize, cols: usize, press_lists: &[Vec<usize>], states: Modulus) -> StateDense {
        Self::new_within(rows, cols, press_lists, states, &|| false).unwrap_or_else(|| unreachable!())
    }

    /// [`new`](Self::new), its elimination stopped once `stop` says so
    /// (asked every few milliseconds, see [`ZkFactors::new_within`]):
    /// `None` then.
    pub fn new_within(
        rows: usize,
        cols: usize,
        press_lists: &[Vec<usize>],
        states: Modulus,
        stop: &dyn Fn() -> bool,
    ) -> Option<StateDense> {
        let n = rows * cols;
        let mut a = ZkMatrix::zeros(n, n);
        for (j, cells) in press_lists.iter().enumerate() {
            for &i in cells {
                // A list names a cell once; counting keeps a repeated one right.
                a.set(i, j, states.add(a.get(i, j), 1));
            }
        }
        Some(StateDense { rows, cols, factors: ZkFactors::new_within(&a, states, stop)? })
    }

    /// Bytes held for `cells` cells: the matrix and its factors.
    pub fn bytes(cells: usize, states: Modulus) -> u64 {
        let n = cells as u64;
        n.saturating_mul(n).saturating_add(ZkFactors::bytes(cells, cells, states))
    }

    /// The factored press matrix.
    pub fn factors(&self) -> &ZkFactors {
        &self.factors
    }

    fn grid(&self, cells: Vec<u8>) -> StateGrid {
        // The factors have one entry per cell.
        StateGrid::from_cells(self.rows, self.cols, cells).unwrap_or_else(|| StateGrid::zeros(0, 0))
    }

    /// The press set turning a board into its target, for
    /// `rhs = target − board`, if any.
    pub fn particular(&self, rhs: &StateGrid) -> Option<StateGrid> {
        self.factors.solve(rhs.cells()).map(|x| self.grid(x))
    }

    /// Generators of the quiet patterns with their orders, as a direct sum.
    pub fn quiet_patterns(&self) -> Vec<(StateGrid, u32)> {
        self.factors.kernel().iter().map(|(g, order)| (self.grid(g.clone()), *order)).collect()
    }

    /// A pattern `y` with `yᵀ·A = 0` and `y·rhs ≠ 0`, if `rhs` cannot be
    /// reached.
    pub fn obstruction(&self, rhs: &StateGrid) -> Option<StateGrid> {
        self.factors.obstruction(rhs.cells()).map(|y| self.grid(y))
    }
}
