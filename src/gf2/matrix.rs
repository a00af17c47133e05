//! Dense bit matrices with word-aligned rows.

use std::fmt;

use super::words::{self, BITS};
use super::{BitVector, zeros};

/// A dense `nrows × ncols` matrix over GF(2).
///
/// Every row starts on a word boundary (`stride` words per row) so that row
/// operations are plain word loops. The padding bits past `ncols` are always
/// zero, which keeps popcounts and comparisons exact.
///
/// The same type holds boards, press grids and quiet patterns (one bit per
/// cell, row-major), as well as the systems the solvers eliminate.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct BitMatrix {
    rows: usize,
    cols: usize,
    stride: usize,
    bits: BitVector,
}

impl BitMatrix {
    /// The all-zero matrix.
    pub fn zeros(rows: usize, cols: usize) -> Self {
        let stride = words::words_for(cols);
        BitMatrix { rows, cols, stride, bits: zeros(rows * stride * BITS) }
    }

    /// The all-one matrix.
    pub fn ones(rows: usize, cols: usize) -> Self {
        let mut m = Self::zeros(rows, cols);
        m.not_in_place();
        m
    }

    /// The `n × n` identity.
    pub fn identity(n: usize) -> Self {
        Self::from_fn(n, n, |r, c| r == c)
    }

    /// Builds a matrix from a function of (row, column).
    pub fn from_fn(rows: usize, cols: usize, mut f: impl FnMut(usize, usize) -> bool) -> Self {
        let mut m = Self::zeros(rows, cols);
        for r in 0..rows {
            for c in 0..cols {
                if f(r, c) {
                    m.set(r, c, true);
                }
            }
        }
        m
    }

    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn ncols(&self) -> usize {
        self.cols
    }

    /// Words per row.
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// Entry (`r`, `c`).
    ///
    /// # Panics
    /// If `r` or `c` is out of range.
    pub fn get(&self, r: usize, c: usize) -> bool {
        assert!(r < self.rows && c < self.cols, "({r}, {c}) outside {}x{}", self.rows, self.cols);
        words::get(self.row(r), c)
    }

    /// Sets entry (`r`, `c`).
    ///
    /// # Panics
    /// If `r` or `c` is out of range.
    pub fn set(&mut self, r: usize, c: usize, value: bool) {
        assert!(r < self.rows && c < self.cols, "({r}, {c}) outside {}x{}", self.rows, self.cols);
        if words::get(self.row(r), c) != value {
            words::toggle(self.row_mut(r), c);
        }
    }

    /// Flips entry (`r`, `c`).
    ///
    /// # Panics
    /// If `r` or `c` is out of range.
    pub fn toggle(&mut self, r: usize, c: usize) {
        assert!(r < self.rows && c < self.cols, "({r}, {c}) outside {}x{}", self.rows, self.cols);
        words::toggle(self.row_mut(r), c);
    }

    /// The words of row `r` (padding bits are zero).
    #[inline]
    pub fn row(&self, r: usize) -> &[u64] {
        &self.bits.as_raw_slice()[r * self.stride..(r + 1) * self.stride]
    }

    /// The words of row `r`, mutable. Callers must keep the padding bits zero.
    #[inline]
    pub fn row_mut(&mut self, r: usize) -> &mut [u64] {
        let s = self.stride;
        &mut self.bits.as_raw_mut_slice()[r * s..(r + 1) * s]
    }

    /// All words, row after row.
    pub fn as_words(&self) -> &[u64] {
        self.bits.as_raw_slice()
    }

    /// All words, mutable. Callers must keep the padding bits zero.
    pub fn as_words_mut(&mut self) -> &mut [u64] {
        self.bits.as_raw_mut_slice()
    }

    /// Number of one entries.
    pub fn count_ones(&self) -> usize {
        words::count_ones(self.as_words())
    }

    /// Whether every entry is zero.
    pub fn is_zero(&self) -> bool {
        self.as_words().iter().all(|&w| w == 0)
    }

    /// `self ^= other` (same shape).
    ///
    /// # Panics
    /// If the shapes differ.
    pub fn xor_assign(&mut self, other: &BitMatrix) {
        assert_eq!((self.rows, self.cols), (other.rows, other.cols), "shape mismatch");
        words::xor_into(self.as_words_mut(), other.as_words());
    }

    /// Complements every entry.
    pub fn not_in_place(&mut self) {
        let (cols, stride) = (self.cols, self.stride);
        for r in 0..self.rows {
            let row = self.row_mut(r);
            row.iter_mut().for_each(|w| *w = !*w);
            if stride > 0 {
                row[stride - 1] &= words::tail_mask(cols);
            }
        }
    }

    /// The transpose.
    pub fn transpose(&self) -> BitMatrix {
        let mut t = BitMatrix::zeros(self.cols, self.rows);
        for r in 0..self.rows {
            for c in self.iter_ones_in_row(r) {
                words::toggle(t.row_mut(c), r);
            }
        }
        t
    }

    /// Column indices of the one entries of row `r`, in increasing order.
    pub fn iter_ones_in_row(&self, r: usize) -> impl Iterator<Item = usize> + '_ {
        self.row(r).iter().enumerate().flat_map(|(k, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let bit = w.trailing_zeros() as usize;
                    w &= w - 1;
                    k * BITS + bit
                })
            })
        })
    }

    /// `self · v` for a vector of length `ncols`.
    ///
    /// # Panics
    /// If `v.len() != ncols`.
    pub fn mul_vec(&self, v: &BitVector) -> BitVector {
        assert_eq!(v.len(), self.cols, "vector length mismatch");
        let mut out = zeros(self.rows);
        let vw = v.as_raw_slice();
        for r in 0..self.rows {
            if words::dot(self.row(r), vw) {
                out.set(r, true);
            }
        }
        out
    }

    /// The entries read row by row into one vector of `nrows · ncols` bits.
    pub fn to_vector(&self) -> BitVector {
        let mut v = zeros(self.rows * self.cols);
        for r in 0..self.rows {
            for c in self.iter_ones_in_row(r) {
                v.set(r * self.cols + c, true);
            }
        }
        v
    }

    /// The inverse of [`to_vector`](Self::to_vector).
    ///
    /// # Panics
    /// If `v.len() != rows · cols`.
    pub fn from_vector(rows: usize, cols: usize, v: &BitVector) -> Self {
        assert_eq!(v.len(), rows * cols, "vector length mismatch");
        let mut m = Self::zeros(rows, cols);
        for i in v.iter_ones() {
            m.toggle(i / cols, i % cols);
        }
        m
    }
}

/// Rows of `0`/`1`, one per line.
impl fmt::Debug for BitMatrix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "BitMatrix {}x{}", self.rows, self.cols)?;
        for r in 0..self.rows {
            let line: String = (0..self.cols).map(|c| if self.get(r, c) { '1' } else { '0' }).collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpose_vector_round_trips_and_padding_stays_zero() {
        for (r, c) in [(1, 1), (3, 70), (65, 2), (64, 64), (5, 129)] {
            let m = BitMatrix::from_fn(r, c, |i, j| (i * 7 + j * 3) % 5 == 0);
            assert_eq!(m.transpose().transpose(), m);
            assert_eq!(BitMatrix::from_vector(r, c, &m.to_vector()), m);
            let ones = BitMatrix::ones(r, c);
            assert_eq!(ones.count_ones(), r * c);
            let mut x = m.clone();
            x.not_in_place();
            assert_eq!(x.count_ones() + m.count_ones(), r * c);
        }
    }
}
