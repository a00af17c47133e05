//! Light chasing over Z_K: the classic plus rule on the plane, K states.
//!
//! Cell (i, j) receives the presses of itself and its four neighbours, so
//! row i of the board reaches its target exactly when the presses of row
//! i+1 are `x_(i+1) = rhs_i − T·x_i − x_(i−1)`, with `T` the tridiagonal
//! "self, left and right" matrix and `rhs = target − board`. The first row
//! `p` fixes everything; the board is solved when the row this forces below
//! the last, `x_R`, is zero. `x_R = M·p + z`, with `z` the row forced by
//! chasing with an empty first row and `M = f_R(T)` (f₀ = 1, f₁ = −x,
//! f_(k+1) = −x·f_k − f_(k−1)), so the R·C unknowns come down to the C×C
//! system `M·p = −z`, which [`ZkFactors`] solves over Z_K.
//!
//! `M` commutes with `T`, and `T·e_j = e_(j−1) + e_j + e_(j+1)`, so its
//! columns follow from the first: `M·e_(j+1) = (T − I)·M·e_j − M·e_(j−1)`.
//! The first column is one chase of the unit first row `e_0`: `M` costs
//! O(R·C + C²), not the O(R·C²) of chasing every unit vector.

use crate::error::Error;
use crate::model::StateGrid;
use crate::zk::{Barrett, Modulus, ZkFactors, ZkMatrix};

/// The first-row system of a classic plane puzzle over Z_K, factored once.
///
/// Works in the orientation whose rows are the shorter side, so the system
/// is min(R, C) square; boards are transposed in and answers out.
///
/// # Complexity
/// Setup: O(R·C + C²) to build `M`, O(C³) to factor it (in vector lanes).
/// Each solve: two chases, O(R·C), and O(C²) for the first row. Each quiet
/// pattern: one chase.
///
/// # Example
/// ```
/// use lightsout::zk::Modulus;
/// use lightsout::StateGrid;
/// use lightsout::solve::states::StateChase;
///
/// // 5x5 over Z_3: three independent quiet patterns (3^3 of them).
/// let chase = StateChase::new(5, 5, Modulus::new(3)?);
/// assert_eq!(chase.factors().kernel_size(), "27");
/// // What the presses must add to each cell: 1 everywhere.
/// let presses = chase.particular(&StateGrid::filled(5, 5, 1))?.expect("solvable");
/// assert_eq!(presses.nrows(), 5);
/// # Ok::<(), lightsout::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct StateChase {
    rows: usize,
    cols: usize,
    transposed: bool,
    states: Modulus,
    factors: ZkFactors,
}

impl StateChase {
    /// Builds and factors the first-row system of a `rows × cols` classic
    /// plane puzzle of `states` states.
    pub fn new(rows: usize, cols: usize, states: Modulus) -> StateChase {
        let transposed = rows < cols;
        let (rows, cols) = if transposed { (cols, rows) } else { (rows, cols) };
        let factors = ZkFactors::new(&first_row_matrix(rows, cols, states), states);
        StateChase { rows, cols, transposed, states, factors }
    }

    /// Bytes held for a `rows × cols` puzzle: `M` and its factors.
    pub fn bytes(rows: usize, cols: usize, states: Modulus) -> u64 {
        let c = rows.min(cols);
        ((c * c) as u64).saturating_add(ZkFactors::bytes(c, c, states))
    }

    /// The factored first-row system.
    pub fn factors(&self) -> &ZkFactors {
        &self.factors
    }

    /// Chases `first` towards `rhs` (`None`: zero) in the working
    /// orientation.
    fn chase(&self, rhs: Option<&[u8]>, first: &[u8]) -> (Vec<u8>, Vec<u8>) {
        chase(self.rows, self.cols, self.states, rhs, first)
    }

    /// `grid` (R×C in the puzzle's orientation) in the working orientation.
    fn orient_in(&self, grid: &StateGrid) -> Vec<u8> {
        if !self.transposed {
            return grid.cells().to_vec();
        }
        transpose(grid.cells(), self.cols, self.rows)
    }

    /// Working-orientation cells as a grid of the puzzle's orientation.
    fn orient_out(&self, cells: Vec<u8>) -> StateGrid {
        let (r, c) = (self.rows, self.cols);
        let grid = if self.transposed {
            StateGrid::from_cells(c, r, transpose(&cells, r, c))
        } else {
            StateGrid::from_cells(r, c, cells)
        };
        // The shapes agree by construction.
        grid.unwrap_or_else(|| StateGrid::zeros(0, 0))
    }

    /// The press set (multiplicities mod K) turning a board into its
    /// target, for `rhs = target − board`, if any.
    ///
    /// # Errors
    /// [`Error::Internal`] if the first row solved the system but the chase
    /// left the board unsolved.
    pub fn particular(&self, rhs: &StateGrid) -> Result<Option<StateGrid>, Error> {
        let rhs = self.orient_in(rhs);
        let (_, leftover) = self.chase(Some(&rhs), &vec![0u8; self.cols]);
        let wanted: Vec<u8> = leftover.iter().map(|&z| self.states.neg(z)).collect();
        let Some(first) = self.factors.solve(&wanted) else {
            return Ok(None);
        };
        let (presses, last) = self.chase(Some(&rhs), &first);
        if last.iter().any(|&z| z != 0) {
            return Err(Error::Internal(format!(
                "a {}x{} first row solved its system but not the board",
                self.rows, self.cols
            )));
        }
        Ok(Some(self.orient_out(presses)))
    }

    /// Generators of the quiet patterns with their orders, as a direct sum:
    /// each is the chase of a generator of the first-row kernel.
    pub fn quiet_patterns(&self) -> Vec<(StateGrid, u32)> {
        self.factors
            .kernel()
            .iter()
            .map(|(first, order)| (self.orient_out(self.chase(None, first).0), *order))
            .collect()
    }

    /// A pattern `y` with `yᵀ·A = 0` and `y·rhs ≠ 0`, if `rhs` cannot be
    /// flipped by any press set.
    ///
    /// The first-row system gives `y'` with `y'ᵀ·M = 0` and `y'·z ≠ 0`;
    /// `M` is symmetric, so `y'` is the first row of a quiet pattern `Y`,
    /// and summing the chase by parts gives `Y·rhs = Y_(R−1)·z`. The board
    /// upside down is the same puzzle, so `Y` upside down is quiet too, with
    /// last row `y'`: it is the certificate.
    pub fn obstruction(&self, rhs: &StateGrid) -> Option<StateGrid> {
        let rhs = self.orient_in(rhs);
        let (_, leftover) = self.chase(Some(&rhs), &vec![0u8; self.cols]);
        let first = self.factors.obstruction(&leftover)?;
        let (quiet, _) = self.chase(None, &first);
        let c = self.cols;
        let flipped: Vec<u8> = quiet.chunks_exact(c).rev().flatten().copied().collect();
        Some(self.orient_out(flipped))
    }
}

/// The transpose of an `rows × cols` array of cells.
fn transpose(cells: &[u8], rows: usize, cols: usize) -> Vec<u8> {
    let mut out = vec![0u8; cells.len()];
    for r in 0..rows {
        for c in 0..cols {
            out[c * rows + r] = cells[r * cols + c];
        }
    }
    out
}

/// `M = f_R(T)`: column j is the row forced below the last by the
/// first row `e_j` on an empty `rows × c` board.
///
/// `M` is a polynomial in the symmetric `T`, so it is symmetric, and its
/// rows follow the columns' recurrence: each row is written in place from
/// the two before it, with no second copy of the matrix.
fn first_row_matrix(rows: usize, c: usize, states: Modulus) -> ZkMatrix {
    let k = states.get();
    let mut unit = vec![0u8; c];
    unit[0] = 1;
    let (_, first) = chase(rows, c, states, None, &unit);
    let mut m = ZkMatrix::zeros(c, c);
    m.row_mut(0).copy_from_slice(&first);
    let barrett = Barrett::new(k);
    let mut sum = vec![0u16; c];
    for j in 1..c {
        // Row j = (T − I)·row (j−1) − row (j−2).
        sum.fill(u16::from(k));
        let before = m.row(j - 1);
        add_row(&mut sum[1..], &before[..c - 1]);
        add_row(&mut sum[..c - 1], &before[1..]);
        let next: Vec<u8> = match j {
            1 => sum.iter().map(|&s| barrett.reduce(s) as u8).collect(),
            _ => {
                sum.iter().zip(m.row(j - 2)).map(|(&s, &b)| barrett.reduce(s - u16::from(b)) as u8).collect()
            }
        };
        m.row_mut(j).copy_from_slice(&next);
    }
    m
}

/// Chases `first` down the board towards `rhs` (`None`: zero) on an
/// `r × c` board: every press row (r·c) and the row forced below the
/// last.
fn chase(r: usize, c: usize, states: Modulus, rhs: Option<&[u8]>, first: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let k = u16::from(states.get());
    let barrett = Barrett::new(states.get());
    let mut x = vec![0u8; (r + 1) * c];
    x[..c].copy_from_slice(first);
    let mut taken = vec![0u16; c];
    for i in 0..r {
        let (done, below) = x.split_at_mut((i + 1) * c);
        taken.fill(0);
        add_spread(&mut taken, &done[i * c..]);
        if i > 0 {
            add_row(&mut taken, &done[(i - 1) * c..i * c]);
        }
        // next = target − (left + cur + right + up), kept positive by 4K.
        let next = &mut below[..c];
        match rhs {
            Some(rhs) => {
                for ((n, &t), &g) in next.iter_mut().zip(&taken).zip(&rhs[i * c..(i + 1) * c]) {
                    *n = barrett.reduce(u16::from(g) + 4 * k - t) as u8;
                }
            }
            None => {
                for (n, &t) in next.iter_mut().zip(&taken) {
                    *n = barrett.reduce(4 * k - t) as u8;
                }
            }
        }
    }
    let last = x.split_off(r * c);
    (x, last)
}

/// `acc[j] += row[j]`.
pub(super) fn add_row(acc: &mut [u16], row: &[u8]) {
    for (a, &x) in acc.iter_mut().zip(row) {
        *a += u16::from(x);
    }
}

/// `acc[j] += row[j − 1] + row[j] + row[j + 1]` (what the plus presses of
/// `row` add to their own row), in three passes the compiler vectorises.
pub(super) fn add_spread(acc: &mut [u16], row: &[u8]) {
    add_row(acc, row);
    if row.len() > 1 {
        let n = row.len();
        add_row(&mut acc[1..], &row[..n - 1]);
        add_row(&mut acc[..n - 1], &row[1..]);
    }
}
