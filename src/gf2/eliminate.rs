//! Gauss–Jordan elimination to reduced row echelon form.

use super::words::{self, BITS};
use super::{BitMatrix, BitVector, zeros};

/// A matrix factored once into reduced row echelon form, ready to solve many
/// right-hand sides.
///
/// Holds the reduced matrix `R`, the invertible row transform `E` with
/// `E · A = R`, and the pivot column of each of the first `rank` rows.
/// Solving `A · x = b` is then one matrix–vector product (`E · b`), a check
/// that the rows past the rank are zero, and reading `x` off the pivots.
///
/// # Complexity
/// Factoring an `m × n` matrix costs O(m · (m + n) · min(m, n) / 64) word
/// operations; [`solve`](Self::solve) costs O(m · m / 64).
///
/// # Example
/// ```
/// use lightsout::gf2::{BitMatrix, BitVector, Echelon};
///
/// // x0 + x1 = 1, x1 + x2 = 0 over GF(2)
/// let a = BitMatrix::from_fn(2, 3, |r, c| c == r || c == r + 1);
/// let e = Echelon::new(&a);
/// assert_eq!((e.rank(), e.nullity()), (2, 1));
///
/// let mut b = BitVector::repeat(false, 2);
/// b.set(0, true);
/// let x = e.solve(&b).expect("consistent");
/// assert_eq!(a.mul_vec(&x), b);
/// for q in e.null_space() {
///     assert!(a.mul_vec(&q).not_any());
/// }
/// ```
#[derive(Clone, Debug)]
pub struct Echelon {
    reduced: BitMatrix,
    transform: BitMatrix,
    pivots: Vec<usize>,
}

impl Echelon {
    /// Factors `a`.
    pub fn new(a: &BitMatrix) -> Self {
        let mut reduced = a.clone();
        let mut transform = BitMatrix::identity(a.nrows());
        let mut pivots = Vec::new();
        let rows = a.nrows();
        for col in 0..a.ncols() {
            let rank = pivots.len();
            if rank == rows {
                break;
            }
            let (w, bit) = (col / BITS, 1u64 << (col % BITS));
            let Some(p) = (rank..rows).find(|&r| reduced.row(r)[w] & bit != 0) else {
                continue;
            };
            reduced.swap_rows(p, rank);
            transform.swap_rows(p, rank);
            // Clear the column everywhere else. In the pivot row every word
            // left of `w` is already zero, so the XOR can start at `w`.
            for r in 0..rows {
                if r != rank && reduced.row(r)[w] & bit != 0 {
                    reduced.xor_row_into(rank, r, w);
                    transform.xor_row_into(rank, r, 0);
                }
            }
            pivots.push(col);
        }
        Echelon { reduced, transform, pivots }
    }

    /// Rank of the factored matrix.
    pub fn rank(&self) -> usize {
        self.pivots.len()
    }

    /// Dimension of the null space: columns minus rank.
    pub fn nullity(&self) -> usize {
        self.reduced.ncols() - self.rank()
    }

    /// Pivot column of each of the first `rank` rows, increasing.
    pub fn pivots(&self) -> &[usize] {
        &self.pivots
    }

    /// The reduced row echelon form `R`.
    pub fn reduced(&self) -> &BitMatrix {
        &self.reduced
    }

    /// A solution of `A · x = b` (free variables set to zero), or `None`
    /// when the system is inconsistent.
    ///
    /// # Panics
    /// If `b.len()` is not the number of rows of `A`.
    pub fn solve(&self, b: &BitVector) -> Option<BitVector> {
        assert_eq!(b.len(), self.transform.ncols(), "right-hand side length mismatch");
        let bw = b.as_raw_slice();
        let rank = self.rank();
        // Rows of E past the rank span the left null space: b must be
        // orthogonal to each of them.
        if (rank..self.transform.nrows()).any(|r| words::dot(self.transform.row(r), bw)) {
            return None;
        }
        let mut x = zeros(self.reduced.ncols());
        for (r, &col) in self.pivots.iter().enumerate() {
            if words::dot(self.transform.row(r), bw) {
                x.set(col, true);
            }
        }
        Some(x)
    }

    /// A basis of the null space `{x : A · x = 0}`: one vector per free
    /// column, with that column set and the pivot variables it forces.
    pub fn null_space(&self) -> Vec<BitVector> {
        let n = self.reduced.ncols();
        let mut is_pivot = vec![false; n];
        for &p in &self.pivots {
            is_pivot[p] = true;
        }
        (0..n)
            .filter(|&f| !is_pivot[f])
            .map(|free| {
                let mut v = zeros(n);
                v.set(free, true);
                for (r, &col) in self.pivots.iter().enumerate() {
                    if self.reduced.get(r, free) {
                        v.set(col, true);
                    }
                }
                v
            })
            .collect()
    }

    /// The vectors `y` with `yᵀ · A = 0` (rows of `E` past the rank): `A · x = b`
    /// is solvable exactly when `b` is orthogonal to all of them.
    pub fn left_null_space(&self) -> Vec<BitVector> {
        (self.rank()..self.transform.nrows())
            .map(|r| {
                let mut v = zeros(self.transform.ncols());
                v.as_raw_mut_slice().copy_from_slice(self.transform.row(r));
                v
            })
            .collect()
    }
}
