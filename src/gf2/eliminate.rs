//! Gaussian elimination that keeps each row to the words it spans.

use super::words::{self, BITS};
use super::{BitMatrix, BitVector, zeros};

/// A row during elimination: the words from `start` on that can be non-zero.
#[derive(Clone, Debug, Default)]
struct Row {
    start: usize,
    words: Vec<u64>,
}

impl Row {
    fn from_columns(columns: &[usize]) -> Self {
        let (Some(&lo), Some(&hi)) = (columns.iter().min(), columns.iter().max()) else {
            return Row::default();
        };
        let start = lo / BITS;
        let mut words = vec![0u64; hi / BITS - start + 1];
        for &c in columns {
            words::toggle(&mut words, c - start * BITS);
        }
        Row { start, words }
    }

    /// Column of the first one, or `None` for a zero row. Rows are kept
    /// trimmed, so the first one is in the first word.
    fn lead(&self) -> Option<usize> {
        let first = *self.words.first()?;
        Some(self.start * BITS + first.trailing_zeros() as usize)
    }

    fn end(&self) -> usize {
        self.start + self.words.len()
    }

    /// `self ^= other`, widening `self` to cover `other`'s span if needed.
    fn xor(&mut self, other: &Row) {
        if other.start < self.start || other.end() > self.end() {
            let start = self.start.min(other.start);
            let end = self.end().max(other.end());
            let mut words = vec![0u64; end - start];
            words[self.start - start..self.end() - start].copy_from_slice(&self.words);
            *self = Row { start, words };
        }
        let offset = other.start - self.start;
        words::xor_into(&mut self.words[offset..], &other.words);
        let leading = self.words.iter().take_while(|&&w| w == 0).count();
        let trailing = self.words[leading..].iter().rev().take_while(|&&w| w == 0).count();
        self.words.truncate(self.words.len() - trailing);
        self.words.drain(..leading);
        self.start += leading;
    }

    /// Parity of the ones this row shares with `x`.
    fn dot(&self, x: &[u64]) -> bool {
        words::dot(&self.words, &x[self.start..])
    }
}

/// A matrix factored once into row echelon form, ready to solve many
/// right-hand sides.
///
/// Forward elimination only, column by column, over rows bucketed by their
/// leading column: the rows to clear in column j are exactly the bucket of j,
/// so nothing scans the whole matrix. Each row keeps just the words it
/// spans, so on the banded flip matrices of Lights Out (bandwidth C) a row
/// operation costs about 2C/64 words instead of RC/64. The row operations are
/// recorded and replayed on each right-hand side, then back substitution
/// reads off a solution.
///
/// # Complexity
/// For an n×n matrix of bandwidth w: O(n·w·w/64) word operations to factor,
/// O(n·w) per solve, O(n·w/64) per null-space vector. A dense matrix costs
/// O(n³/64), as plain Gaussian elimination.
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
    nrows: usize,
    ncols: usize,
    /// Pivot rows in increasing pivot column: (column, original row, row).
    pivots: Vec<(usize, usize, Row)>,
    /// Row operations in order: `row[dst] ^= row[src]` (original indices).
    operations: Vec<(u32, u32)>,
    /// Original rows that became zero: a right-hand side must end up zero
    /// there too.
    zero_rows: Vec<usize>,
}

impl Echelon {
    /// Factors a dense matrix.
    pub fn new(a: &BitMatrix) -> Self {
        let rows: Vec<Vec<usize>> = (0..a.nrows()).map(|r| a.iter_ones_in_row(r).collect()).collect();
        Self::from_rows(a.ncols(), &rows)
    }

    /// Factors a matrix given as the column indices of the ones of each row
    /// (the natural form of a sparse flip matrix).
    ///
    /// # Panics
    /// If a column index is `ncols` or more, or there are 2^32 rows or more.
    pub fn from_rows(ncols: usize, rows: &[Vec<usize>]) -> Self {
        assert!(rows.iter().flatten().all(|&c| c < ncols), "column index out of range");
        assert!(u32::try_from(rows.len()).is_ok(), "too many rows");
        let mut work: Vec<Row> = rows.iter().map(|cols| Row::from_columns(cols)).collect();
        let mut buckets: Vec<Vec<usize>> = vec![Vec::new(); ncols];
        let mut zero_rows = Vec::new();
        for (r, row) in work.iter().enumerate() {
            match row.lead() {
                Some(lead) => buckets[lead].push(r),
                None => zero_rows.push(r),
            }
        }
        let mut pivots = Vec::new();
        let mut operations = Vec::new();
        for col in 0..ncols {
            let bucket = std::mem::take(&mut buckets[col]);
            // The shortest row makes the cheapest pivot and the least fill.
            let Some(&pivot) = bucket.iter().min_by_key(|&&r| work[r].end()) else {
                continue;
            };
            let pivot_row = std::mem::take(&mut work[pivot]);
            for &r in bucket.iter().filter(|&&r| r != pivot) {
                work[r].xor(&pivot_row);
                operations.push((pivot as u32, r as u32));
                match work[r].lead() {
                    Some(lead) => buckets[lead].push(r),
                    None => zero_rows.push(r),
                }
            }
            pivots.push((col, pivot, pivot_row));
        }
        Echelon { nrows: rows.len(), ncols, pivots, operations, zero_rows }
    }

    /// Rank of the factored matrix.
    pub fn rank(&self) -> usize {
        self.pivots.len()
    }

    /// Dimension of the null space: columns minus rank.
    pub fn nullity(&self) -> usize {
        self.ncols - self.rank()
    }

    /// A solution of `A · x = b`, or `None` when the system is inconsistent.
    ///
    /// # Panics
    /// If `b.len()` is not the number of rows of `A`.
    pub fn solve(&self, b: &BitVector) -> Option<BitVector> {
        assert_eq!(b.len(), self.nrows, "right-hand side length mismatch");
        let mut rhs = b.clone();
        let bits = rhs.as_raw_mut_slice();
        for &(src, dst) in &self.operations {
            if words::get(bits, src as usize) {
                words::toggle(bits, dst as usize);
            }
        }
        if self.zero_rows.iter().any(|&r| words::get(bits, r)) {
            return None;
        }
        Some(self.back_substitute(|row| words::get(bits, row), None))
    }

    /// A basis of the null space `{x : A · x = 0}`: one vector per free
    /// column, with that column set and the pivot variables it forces.
    pub fn null_space(&self) -> Vec<BitVector> {
        let mut is_pivot = vec![false; self.ncols];
        for p in &self.pivots {
            is_pivot[p.0] = true;
        }
        (0..self.ncols)
            .filter(|&f| !is_pivot[f])
            .map(|free| self.back_substitute(|_| false, Some(free)))
            .collect()
    }

    /// Solves the echelon system from the last pivot up: with right-hand
    /// side `rhs(original row)` and the free variable `free` (if any) set.
    fn back_substitute(&self, rhs: impl Fn(usize) -> bool, free: Option<usize>) -> BitVector {
        // One spare word so that every row's span indexes inside `x`.
        let mut x = zeros(self.ncols.div_ceil(BITS) * BITS + BITS);
        let xw = x.as_raw_mut_slice();
        if let Some(f) = free {
            words::toggle(xw, f);
        }
        for (col, row_index, row) in self.pivots.iter().rev() {
            // x[col] is still 0, so the dot product sees only later columns.
            if rhs(*row_index) ^ row.dot(xw) {
                words::toggle(xw, *col);
            }
        }
        x.truncate(self.ncols);
        x
    }
}
