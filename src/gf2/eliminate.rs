//! Gaussian elimination that keeps each row to the words it spans.

use bitvec::view::BitView;

use super::{BitMatrix, BitVector, words, zeros};

/// A row during elimination: the words from `start` on that can be non-zero.
///
/// Its own container rather than a `BitVector`: the span moves and shrinks
/// as leading and trailing words clear, and the XOR of two spans is the
/// word kernel ([`words::xor`]), several times faster than bitvec's `^=`.
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
        let start = lo / 64;
        let mut words = vec![0u64; hi / 64 - start + 1];
        let bits = words.view_bits_mut::<bitvec::order::Lsb0>();
        for &c in columns {
            let old = bits[c - start * 64];
            bits.set(c - start * 64, !old);
        }
        // A column listed twice cancels: its words may have cleared.
        let mut row = Row { start, words };
        row.trim();
        row
    }

    /// Drops the zero words at both ends, so that the first one is in the
    /// first word (what [`lead`](Self::lead) relies on).
    fn trim(&mut self) {
        let leading = self.words.iter().take_while(|&&w| w == 0).count();
        let trailing = self.words[leading..].iter().rev().take_while(|&&w| w == 0).count();
        self.words.truncate(self.words.len() - trailing);
        self.words.drain(..leading);
        self.start += leading;
    }

    /// Column of the first one, or `None` for a zero row. Rows are kept
    /// trimmed, so the first one is in the first word.
    fn lead(&self) -> Option<usize> {
        let first = *self.words.first()?;
        Some(self.start * 64 + first.trailing_zeros() as usize)
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
        words::xor(&mut self.words[offset..], &other.words);
        self.trim();
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
/// The unknowns and the equations can be the entries of matrices read row
/// by row ([`from_matrix_rows`](Self::from_matrix_rows)), as a board's
/// cells are: [`solve_matrix`](Self::solve_matrix) takes and returns
/// matrices, copied a row at a time to and from the row-major order the
/// factoring uses (it keeps spans as short as the band; in the matrices'
/// word-aligned storage they would stretch 64/C times on narrow boards).
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
    /// Shape of a right-hand side: one entry per equation.
    equations: (usize, usize),
    /// Shape of a solution: one entry per unknown.
    unknowns: (usize, usize),
    /// Pivot rows in increasing pivot column: (column, original row, row),
    /// as entry indices read row by row.
    pivots: Vec<(usize, usize, Row)>,
    /// Row operations in order: `row[dst] ^= row[src]` (original rows).
    operations: Vec<(u32, u32)>,
    /// Original rows that became zero: a right-hand side must end up zero
    /// there too.
    zero_rows: Vec<usize>,
}

impl Echelon {
    /// Factors a dense matrix.
    pub fn new(a: &BitMatrix) -> Self {
        let rows: Vec<Vec<usize>> = (0..a.nrows()).map(|r| a.row(r).iter_ones().collect()).collect();
        Self::from_rows(a.ncols(), &rows)
    }

    /// Factors a matrix given as the column indices of the ones of each row
    /// (the natural form of a sparse flip matrix).
    ///
    /// # Panics
    /// If a column index is `ncols` or more, or there are 2^32 rows or more.
    pub fn from_rows(ncols: usize, rows: &[Vec<usize>]) -> Self {
        Self::factor((1, rows.len()), (1, ncols), rows)
    }

    /// Factors a square system whose unknowns and equations are both the
    /// entries of `shape.0 × shape.1` matrices read row by row: row `i`
    /// lists the unknowns in equation `i`, entry `i` being (`i / shape.1`,
    /// `i % shape.1`). Solve it with [`solve_matrix`](Self::solve_matrix).
    ///
    /// # Panics
    /// If `rows.len()` is not `shape.0 · shape.1`, an index is out of
    /// range, or the matrices hold 2^32 bits or more.
    ///
    /// # Example
    /// ```
    /// use lightsout::gf2::{BitMatrix, Echelon};
    ///
    /// // On a 1×3 strip, each unknown toggles itself and its right neighbour.
    /// let e = Echelon::from_matrix_rows((1, 3), &[vec![0], vec![0, 1], vec![1, 2]]);
    /// let b = BitMatrix::from_fn(1, 3, |_, c| c == 2);
    /// let x = e.solve_matrix(&b).expect("invertible");
    /// assert_eq!(x, BitMatrix::from_fn(1, 3, |_, c| c == 2));
    /// ```
    pub fn from_matrix_rows(shape: (usize, usize), rows: &[Vec<usize>]) -> Self {
        assert_eq!(rows.len(), shape.0 * shape.1, "one row per entry");
        Self::factor(shape, shape, rows)
    }

    /// Factors on entry indices (row-major), so that a row's span is as
    /// short as the band.
    fn factor(equations: (usize, usize), unknowns: (usize, usize), rows: &[Vec<usize>]) -> Self {
        let ncols = unknowns.0 * unknowns.1;
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
        Echelon { equations, unknowns, pivots, operations, zero_rows }
    }

    /// Rank of the factored matrix.
    pub fn rank(&self) -> usize {
        self.pivots.len()
    }

    /// Dimension of the null space: columns minus rank.
    pub fn nullity(&self) -> usize {
        self.unknowns.0 * self.unknowns.1 - self.rank()
    }

    /// A solution of `A · x = b`, or `None` when the system is inconsistent.
    ///
    /// # Panics
    /// If `b.len()` is not the number of rows of `A`.
    pub fn solve(&self, b: &BitVector) -> Option<BitVector> {
        let (rows, cols) = self.equations;
        assert_eq!(b.len(), rows * cols, "right-hand side length mismatch");
        let mut rhs = b.clone();
        for &(src, dst) in &self.operations {
            if rhs[src as usize] {
                let old = rhs[dst as usize];
                rhs.set(dst as usize, !old);
            }
        }
        if self.zero_rows.iter().any(|&r| rhs[r]) {
            return None;
        }
        Some(self.back_substitute(|row| rhs[row], None))
    }

    /// A solution of `A · x = b` with `b` and `x` matrices of the shapes the
    /// system was factored for (`1 × n` for [`new`](Self::new) and
    /// [`from_rows`](Self::from_rows)), or `None` when it is inconsistent.
    /// The matrices are read and written a row at a time, O(R·C/64) words.
    ///
    /// # Panics
    /// If `b` has another shape.
    pub fn solve_matrix(&self, b: &BitMatrix) -> Option<BitMatrix> {
        assert_eq!((b.nrows(), b.ncols()), self.equations, "right-hand side shape mismatch");
        let x = self.solve(&b.to_vector())?;
        Some(BitMatrix::from_vector(self.unknowns.0, self.unknowns.1, &x))
    }

    /// A basis of the null space `{x : A · x = 0}`: one vector per free
    /// column, with that column set and the pivot variables it forces.
    pub fn null_space(&self) -> Vec<BitVector> {
        let mut is_pivot = zeros(self.unknowns.0 * self.unknowns.1);
        for p in &self.pivots {
            is_pivot.set(p.0, true);
        }
        is_pivot.iter_zeros().map(|free| self.back_substitute(|_| false, Some(free))).collect()
    }

    /// [`null_space`](Self::null_space) as matrices of the solutions' shape.
    pub fn null_space_matrices(&self) -> Vec<BitMatrix> {
        let (rows, cols) = self.unknowns;
        self.null_space().iter().map(|q| BitMatrix::from_vector(rows, cols, q)).collect()
    }

    /// Solves the echelon system from the last pivot up: with right-hand
    /// side `rhs(original row)` and the free variable `free` (if any) set.
    fn back_substitute(&self, rhs: impl Fn(usize) -> bool, free: Option<usize>) -> BitVector {
        let len = self.unknowns.0 * self.unknowns.1;
        // Whole words: a row's span may end in the last word's padding.
        let mut x = zeros(len.div_ceil(64) * 64);
        if let Some(f) = free {
            x.set(f, true);
        }
        for (col, row_index, row) in self.pivots.iter().rev() {
            // x[col] is still 0, so the dot product sees only later columns.
            if rhs(*row_index) ^ row.dot(x.as_raw_slice()) {
                x.set(*col, true);
            }
        }
        x.truncate(len);
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by review: a column listed twice cancelled but left a zero
    /// word at the front of its row, so its lead read 64 past the word (a
    /// wrong answer, or a panic past the last column).
    #[test]
    fn regression_a_column_listed_twice_cancels() {
        let e = Echelon::from_rows(66, &[vec![0, 0, 65]]);
        let mut b = zeros(1);
        b.set(0, true);
        let x = e.solve(&b).expect("consistent");
        assert_eq!(x.iter_ones().collect::<Vec<_>>(), vec![65]);
        assert_eq!(Echelon::from_rows(3, &[vec![1, 1]]).rank(), 0);
    }

    /// The same system factored on flat vectors and on matrices whose rows
    /// end mid-word: the same rank, and every answer rebuilds its
    /// right-hand side through `A` (the flat route is the reference).
    #[test]
    fn matrix_rows_agree_with_flat_rows_across_word_boundaries() {
        for (rows, cols) in [(1, 1), (2, 3), (3, 63), (2, 64), (3, 65), (2, 129)] {
            let n = rows * cols;
            // Each unknown meets its neighbours along the row-major order
            // and the one a row below: a banded system like a flip matrix.
            let lists: Vec<Vec<usize>> = (0..n)
                .map(|i| {
                    [i, i + 1, i + cols].into_iter().filter(|&j| j < n && (j * 7 + i) % 5 != 1).collect()
                })
                .collect();
            let a = BitMatrix::from_fn(n, n, |r, c| lists[r].contains(&c));
            let (flat, shaped) =
                (Echelon::from_rows(n, &lists), Echelon::from_matrix_rows((rows, cols), &lists));
            assert_eq!((shaped.rank(), shaped.nullity()), (flat.rank(), flat.nullity()), "{rows}x{cols}");
            for seed in 0..8u64 {
                let b = BitMatrix::from_fn(rows, cols, |r, c| {
                    (seed ^ (r * cols + c) as u64).count_ones().is_multiple_of(3)
                });
                let x = shaped.solve_matrix(&b);
                assert_eq!(x.is_some(), flat.solve(&b.to_vector()).is_some(), "{rows}x{cols} seed {seed}");
                if let Some(x) = x {
                    assert_eq!(a.mul_vec(&x.to_vector()), b.to_vector(), "{rows}x{cols} seed {seed}");
                }
            }
            assert_eq!(shaped.null_space_matrices().len(), shaped.nullity());
            for q in shaped.null_space_matrices() {
                assert!(a.mul_vec(&q.to_vector()).not_any(), "{rows}x{cols}");
            }
        }
    }
}
