//! A dense matrix of residues mod K.

use super::Modulus;

/// An `nrows × ncols` matrix of small integers, one byte per entry, row by
/// row.
///
/// The matrix does not know K: the entries are read mod whatever modulus
/// the caller names (a press matrix of 0s and 1s serves every K), so
/// [`mul_vec`](Self::mul_vec) and [`ZkFactors`](super::ZkFactors) take it.
///
/// # Example
/// ```
/// use lightsout::zk::{Modulus, ZkMatrix};
///
/// let a = ZkMatrix::from_fn(2, 3, |i, j| (i + j) as u8);
/// assert_eq!((a.nrows(), a.ncols(), a.get(1, 2)), (2, 3, 3));
/// assert_eq!(a.mul_vec(&[1, 1, 1], Modulus::new(5)?), vec![3, 1]);
/// # Ok::<(), lightsout::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ZkMatrix {
    nrows: usize,
    ncols: usize,
    entries: Vec<u8>,
}

impl ZkMatrix {
    /// The zero matrix.
    pub fn zeros(nrows: usize, ncols: usize) -> ZkMatrix {
        ZkMatrix { nrows, ncols, entries: vec![0; nrows * ncols] }
    }

    /// The matrix with entry `f(i, j)` in row `i`, column `j`.
    pub fn from_fn(nrows: usize, ncols: usize, mut f: impl FnMut(usize, usize) -> u8) -> ZkMatrix {
        let mut entries = Vec::with_capacity(nrows * ncols);
        for i in 0..nrows {
            entries.extend((0..ncols).map(|j| f(i, j)));
        }
        ZkMatrix { nrows, ncols, entries }
    }

    /// A matrix from its entries row by row; `None` unless there are exactly
    /// `nrows · ncols` of them.
    pub fn from_entries(nrows: usize, ncols: usize, entries: Vec<u8>) -> Option<ZkMatrix> {
        (entries.len() == nrows * ncols).then_some(ZkMatrix { nrows, ncols, entries })
    }

    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.nrows
    }

    /// Number of columns.
    pub fn ncols(&self) -> usize {
        self.ncols
    }

    /// Entry (`i`, `j`).
    pub fn get(&self, i: usize, j: usize) -> u8 {
        self.entries[i * self.ncols + j]
    }

    /// Sets entry (`i`, `j`).
    pub fn set(&mut self, i: usize, j: usize, value: u8) {
        self.entries[i * self.ncols + j] = value;
    }

    /// Row `i`.
    pub fn row(&self, i: usize) -> &[u8] {
        &self.entries[i * self.ncols..(i + 1) * self.ncols]
    }

    /// Row `i`, to change.
    pub fn row_mut(&mut self, i: usize) -> &mut [u8] {
        &mut self.entries[i * self.ncols..(i + 1) * self.ncols]
    }

    /// The entries, row by row.
    pub fn entries(&self) -> &[u8] {
        &self.entries
    }

    /// The transpose.
    pub fn transpose(&self) -> ZkMatrix {
        ZkMatrix::from_fn(self.ncols, self.nrows, |i, j| self.get(j, i))
    }

    /// `A·x` mod K.
    ///
    /// # Panics
    /// If `x` does not have one entry per column.
    pub fn mul_vec(&self, x: &[u8], modulus: Modulus) -> Vec<u8> {
        assert_eq!(x.len(), self.ncols, "a vector of {} entries for {} columns", x.len(), self.ncols);
        (0..self.nrows).map(|i| modulus.reduce(super::rows::dot(self.row(i), x))).collect()
    }

    /// `yᵀ·A` mod K (the combination of the rows that `y` weighs).
    ///
    /// # Panics
    /// If `y` does not have one entry per row.
    pub fn vec_mul(&self, y: &[u8], modulus: Modulus) -> Vec<u8> {
        assert_eq!(y.len(), self.nrows, "a vector of {} entries for {} rows", y.len(), self.nrows);
        let mut sum = vec![0u64; self.ncols];
        for (i, &w) in y.iter().enumerate().filter(|&(_, &w)| w != 0) {
            for (s, &a) in sum.iter_mut().zip(self.row(i)) {
                *s += u64::from(w) * u64::from(a);
            }
        }
        sum.into_iter().map(|s| modulus.reduce(s)).collect()
    }
}
