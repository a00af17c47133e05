//! Dense bit matrices with word-aligned rows.

use std::fmt;

use super::{BitVector, Bits, words, zeros};

/// A dense `nrows × ncols` matrix over GF(2).
///
/// Every row starts on a word boundary (`stride` words per row), so a row
/// is a bitvec slice ([`row`](Self::row)) and, for the word kernels, a run
/// of whole words ([`words`](Self::words)). The padding bits past `ncols`
/// are always zero, which keeps popcounts and comparisons exact.
///
/// The same type holds boards, press grids and quiet patterns (one bit per
/// cell, row-major), as well as the systems the solvers eliminate.
///
/// # Example
/// ```
/// use lightsout::gf2::BitMatrix;
///
/// let mut m = BitMatrix::zeros(2, 70);
/// m.set(1, 65, true);
/// m.row_mut(0).set(3, true);
/// assert_eq!(m.row(1).iter_ones().collect::<Vec<_>>(), [65]);
/// assert_eq!(m.count_ones(), 2);
/// ```
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
        let stride = cols.div_ceil(64);
        BitMatrix { rows, cols, stride, bits: zeros(rows * stride * 64) }
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
            // ORed into the words: with bitvec's `set` per entry, the
            // symmetric search's grid motions made an all-black 128×128
            // solve 7 % slower (docs/performance.md).
            let words = m.words_mut(r);
            for c in 0..cols {
                words[c / 64] |= (f(r, c) as u64) << (c % 64);
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

    /// Index of entry (`r`, `c`) in the storage, checked.
    #[inline]
    fn index(&self, r: usize, c: usize) -> usize {
        assert!(r < self.rows && c < self.cols, "({r}, {c}) outside {}x{}", self.rows, self.cols);
        r * self.stride * 64 + c
    }

    /// Entry (`r`, `c`).
    ///
    /// # Panics
    /// If `r` or `c` is out of range.
    #[inline]
    pub fn get(&self, r: usize, c: usize) -> bool {
        self.bits[self.index(r, c)]
    }

    /// Sets entry (`r`, `c`).
    ///
    /// # Panics
    /// If `r` or `c` is out of range.
    #[inline]
    pub fn set(&mut self, r: usize, c: usize, value: bool) {
        let i = self.index(r, c);
        self.bits.set(i, value);
    }

    /// Flips entry (`r`, `c`).
    ///
    /// # Panics
    /// If `r` or `c` is out of range.
    pub fn toggle(&mut self, r: usize, c: usize) {
        let i = self.index(r, c);
        let old = self.bits[i];
        self.bits.set(i, !old);
    }

    /// Row `r`: `ncols` bits.
    #[inline]
    pub fn row(&self, r: usize) -> &Bits {
        let start = r * self.stride * 64;
        &self.bits[start..start + self.cols]
    }

    /// Row `r`, mutable: `ncols` bits (the padding stays out of reach).
    #[inline]
    pub fn row_mut(&mut self, r: usize) -> &mut Bits {
        let start = r * self.stride * 64;
        &mut self.bits[start..start + self.cols]
    }

    /// The words of row `r`, for the word kernels (padding bits are zero).
    #[inline]
    pub fn words(&self, r: usize) -> &[u64] {
        &self.bits.as_raw_slice()[r * self.stride..(r + 1) * self.stride]
    }

    /// The entries set, as row-major indices `r * ncols + c`, read word by
    /// word (one step per entry set, none per entry clear).
    pub(crate) fn ones_row_major(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.rows).flat_map(move |r| {
            self.words(r).iter().enumerate().flat_map(move |(w, &word)| {
                let first = r * self.cols + w * 64;
                std::iter::successors(Some(word), |&rest| Some(rest & rest.wrapping_sub(1)))
                    .take_while(|&rest| rest != 0)
                    .map(move |rest| first + rest.trailing_zeros() as usize)
            })
        })
    }

    /// The words of row `r`, mutable, for the crate's word kernels, which
    /// keep the padding bits zero (not public: a caller could set them).
    #[inline]
    pub(crate) fn words_mut(&mut self, r: usize) -> &mut [u64] {
        let s = self.stride;
        &mut self.bits.as_raw_mut_slice()[r * s..(r + 1) * s]
    }

    /// Number of one entries.
    #[inline]
    pub fn count_ones(&self) -> usize {
        words::count_ones(self.bits.as_raw_slice())
    }

    /// Whether every entry is zero.
    #[inline]
    pub fn is_zero(&self) -> bool {
        // The padding is zero, so the words say it; bitvec's `not_any`
        // splits the storage into its domain first, which showed in the
        // 4×4 batch (docs/performance.md).
        self.bits.as_raw_slice().iter().all(|&w| w == 0)
    }

    /// `self ^= other` (same shape).
    ///
    /// # Panics
    /// If the shapes differ.
    #[inline]
    pub fn xor_assign(&mut self, other: &BitMatrix) {
        assert_eq!((self.rows, self.cols), (other.rows, other.cols), "shape mismatch");
        words::xor(self.bits.as_raw_mut_slice(), other.bits.as_raw_slice());
    }

    /// Parity of the entries set in both: the GF(2) dot product of the two
    /// matrices read as vectors (same shape).
    ///
    /// # Panics
    /// If the shapes differ.
    #[inline]
    pub fn dot(&self, other: &BitMatrix) -> bool {
        assert_eq!((self.rows, self.cols), (other.rows, other.cols), "shape mismatch");
        words::dot(self.bits.as_raw_slice(), other.bits.as_raw_slice())
    }

    /// Complements every entry.
    pub fn not_in_place(&mut self) {
        // Word by word, then the padding back to zero: bitvec's `!` and
        // `fill` on each row showed in the 4×4 batch (docs/performance.md).
        let padding = !0u64 << (self.cols % 64);
        for r in 0..self.rows {
            let row = self.words_mut(r);
            row.iter_mut().for_each(|w| *w = !*w);
            if let Some(last) = row.last_mut()
                && padding != !0
            {
                *last &= !padding;
            }
        }
    }

    /// The transpose.
    pub fn transpose(&self) -> BitMatrix {
        let mut t = BitMatrix::zeros(self.cols, self.rows);
        for r in 0..self.rows {
            for c in self.row(r).iter_ones() {
                t.set(c, r, true);
            }
        }
        t
    }

    /// `self · v` for a vector of length `ncols`.
    ///
    /// # Panics
    /// If `v.len() != ncols`.
    pub fn mul_vec(&self, v: &BitVector) -> BitVector {
        assert_eq!(v.len(), self.cols, "vector length mismatch");
        (0..self.rows).map(|r| words::dot(self.words(r), v.as_raw_slice())).collect()
    }

    /// The entries read row by row into one vector of `nrows · ncols` bits.
    pub fn to_vector(&self) -> BitVector {
        let mut v = BitVector::with_capacity(self.rows * self.cols);
        for r in 0..self.rows {
            v.extend_from_bitslice(self.row(r));
        }
        v
    }

    /// The inverse of [`to_vector`](Self::to_vector).
    ///
    /// # Panics
    /// If `v.len() != rows · cols`.
    pub fn from_vector(rows: usize, cols: usize, v: &Bits) -> Self {
        assert_eq!(v.len(), rows * cols, "vector length mismatch");
        let mut m = Self::zeros(rows, cols);
        for r in 0..rows {
            m.row_mut(r).copy_from_bitslice(&v[r * cols..(r + 1) * cols]);
        }
        m
    }
}

/// Rows of `0`/`1`, one per line.
impl fmt::Debug for BitMatrix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "BitMatrix {}x{}", self.rows, self.cols)?;
        for r in 0..self.rows {
            let line: String = self.row(r).iter().map(|bit| if *bit { '1' } else { '0' }).collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ones_row_major_lists_the_entries_set_in_order() {
        for (r, c) in [(1, 1), (3, 70), (2, 128), (5, 129), (4, 3)] {
            let m = BitMatrix::from_fn(r, c, |i, j| (i * 7 + j * 3) % 5 == 0 || j == c - 1);
            let expected: Vec<usize> = (0..r * c).filter(|&cell| m.get(cell / c, cell % c)).collect();
            assert_eq!(m.ones_row_major().collect::<Vec<_>>(), expected, "{r}x{c}");
        }
        assert_eq!(BitMatrix::zeros(3, 70).ones_row_major().count(), 0);
    }

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
            assert!(!x.dot(&m));
            assert_eq!(m.dot(&ones), m.count_ones() % 2 == 1);
            let flat = m.to_vector();
            for i in 0..r * c {
                assert_eq!(flat[i], m.get(i / c, i % c));
            }
        }
    }
}
