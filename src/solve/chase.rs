//! Solving the classic plane puzzle by light chasing and GF(2)[x] algebra.
//!
//! Once the first row of presses is fixed, every other row is forced: the
//! presses of row i+1 are exactly the lights row i still shows. So the R·C
//! unknowns reduce to the C presses `p` of the first row, and the lights left
//! on the last row are `K·p + r₀`, with `r₀` the residual of chasing with an
//! empty first row and `K = f_R(T)`: `T` is the C×C tridiagonal matrix (a cell
//! and its two sides) and `f₀ = 1`, `f₁ = x`, `f_(k+1) = x·f_k + f_(k−1)`.
//!
//! Instead of eliminating `K`, we use that `T` is cyclic with cyclic vector
//! `e₀` (cell 0): `φ(P) = P(T)·e₀` is an isomorphism from GF(2)[x]/(g) to
//! GF(2)^C, where `g = f_C(x+1)` is the characteristic polynomial of `T`, and
//! `φ(a·P) = a(T)·φ(P)`. So `K·p = r₀` becomes the congruence
//! `a·P ≡ Q (mod g)` with `a = f_R mod g`, `Q = φ⁻¹(r₀)`, which extended
//! Euclid solves: with `d = gcd(a, g) = s·a + t·g`, it is solvable iff
//! `d | Q`, then `P = s·(Q/d) mod g`; its kernel is the multiples of `g/d`,
//! of dimension `deg d` (the nullity). docs/math.md has the derivation.

use std::borrow::Cow;

use super::Target;
use crate::error::Error;
use crate::gf2::{BitVector, Bits, Poly, words, zeros};
use crate::model::{Grid, Puzzle, RowStream};

/// The first-row congruence of a classic plane puzzle, solved once.
///
/// Works on the orientation whose rows are the shorter side (C), so the
/// polynomials have degree below `min(R, C)`; boards are transposed in and
/// answers out.
///
/// # Complexity
/// Setup: O(R·C / 64) for `f_R mod g`, O(C² / 64) for the extended gcd and
/// for each of the `nullity` quiet patterns' first rows. Each solve: two
/// chases, O(R·C / 64), plus O(C² / 64) for the conversions between vectors
/// and polynomials.
///
/// # Example
/// ```
/// use lightsout::{Chase, Grid, Puzzle};
///
/// let puzzle = Puzzle::new(5, 5)?;
/// let chase = Chase::new(&puzzle);
/// assert_eq!(chase.nullity(), 2);
/// let board = Grid::ones(5, 5);
/// let presses = chase.particular(&board).expect("all-black 5x5 is solvable");
/// assert!(puzzle.apply(&board, &presses).is_zero());
/// # Ok::<(), lightsout::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Chase {
    rows: usize,
    cols: usize,
    transposed: bool,
    /// `g`, the characteristic polynomial of `T`.
    modulus: Poly,
    /// `d = gcd(f_R mod g, g)`; its degree is the nullity.
    gcd: Poly,
    /// `s` with `s·(f_R mod g) ≡ d (mod g)`.
    cofactor: Poly,
}

impl Chase {
    /// Sets up the first-row congruence of `puzzle`.
    ///
    /// # Panics
    /// If the puzzle is not the classic rule on the plane.
    pub fn new(puzzle: &Puzzle) -> Self {
        assert!(puzzle.is_classic(), "light chasing needs the classic rule on the plane");
        let transposed = puzzle.rows() < puzzle.cols();
        let (rows, cols) =
            if transposed { (puzzle.cols(), puzzle.rows()) } else { (puzzle.rows(), puzzle.cols()) };
        let modulus = char_poly(cols);
        let chase_poly = chase_poly_mod(rows, &modulus);
        let (gcd, cofactor, _) = chase_poly.xgcd(&modulus);
        Chase { rows, cols, transposed, modulus, gcd, cofactor }
    }

    /// Dimension of the null space: the degree of `gcd(f_R, g)`.
    pub fn nullity(&self) -> usize {
        self.gcd.degree().unwrap_or(0)
    }

    /// `gcd(f_R(x), f_C(x+1))` (R, C in working orientation): its degree is
    /// the nullity.
    pub fn gcd(&self) -> &Poly {
        &self.gcd
    }

    /// Some press set that flips exactly the cells set in `rhs`, if any.
    pub fn particular(&self, rhs: &Grid) -> Option<Grid> {
        let rhs = self.orient(rhs);
        let first = self.first_row(&self.residual(&rhs))?;
        Some(self.orient(&self.chase(Some(&rhs), &first)).into_owned())
    }

    /// The first-row presses `p` with `K·p = residual`, if any.
    fn first_row(&self, residual: &Bits) -> Option<BitVector> {
        let (quotient, rest) = self.vector_to_poly(residual).div_rem(&self.gcd);
        if !rest.is_zero() {
            return None;
        }
        Some(self.poly_to_vector(&(&self.cofactor * &quotient).rem(&self.modulus)))
    }

    /// Solves a board that arrives row by row, holding only a few rows at a
    /// time: the way to boards too large to keep in memory. Returns the
    /// fewest presses to reach `target` (`None` if it cannot be reached) and
    /// whether that is proven minimal; every press row is handed to `sink`
    /// in order, and re-applied to the board as it passes.
    ///
    /// Passes over the board: one to find the first row, one to weigh the
    /// 2^d members of the solution coset (only when the nullity `d` is
    /// positive and at most `max_nullity`, and the weighing, 2^d·R·C/64 word
    /// operations, stays within about a minute), one to chase the lightest,
    /// check it and hand it out.
    ///
    /// # Errors
    /// [`Error::Unsupported`] if the puzzle has fewer rows than columns (streamed
    /// boards are not transposed) or `max_nullity` is above
    /// [`MAX_STREAMED_NULLITY`]; [`Error::Internal`] if the re-check fails;
    /// any error of `sink`.
    ///
    /// # Complexity
    /// O((2 + 2^d) · R·C / 64) word operations, O(d · C / 64) words of memory
    /// beside the 2^d counters.
    pub fn solve_streamed(
        &self,
        board: &mut dyn RowStream,
        target: &Target,
        max_nullity: usize,
        sink: &mut dyn FnMut(&[u64]) -> Result<(), Error>,
    ) -> Result<Option<(u64, bool)>, Error> {
        if self.transposed {
            return Err(Error::Unsupported(
                "a streamed board must have at least as many rows as columns".into(),
            ));
        }
        if max_nullity > MAX_STREAMED_NULLITY {
            return Err(Error::Unsupported(format!(
                "a streamed board can enumerate a nullity of at most {MAX_STREAMED_NULLITY}"
            )));
        }
        let target_row = match target {
            Target::White => zeros(self.cols),
            Target::Black => Grid::ones(1, self.cols).row(0).to_bitvec(),
            Target::Board(_) => {
                return Err(Error::Unsupported(
                    "a streamed board is solved to a colour, not to a given board".into(),
                ));
            }
        };
        let Some(mut first) = self.streamed_first_row(board, &target_row) else {
            return Ok(None);
        };
        // Weighing costs 2^d row walks per row; past the budget the
        // particular solution is reported, not proven minimal.
        let nullity = self.nullity();
        let work = (1u64 << nullity.min(63)).saturating_mul((self.rows * self.cols / 64) as u64);
        let proven = nullity <= max_nullity && work <= STREAMED_WORK;
        if nullity > 0 && proven {
            self.lighten_streamed(board, &target_row, &mut first);
        }
        let presses = self.chase_streamed(board, &target_row, first, sink)?;
        // No presses at all cannot be beaten, whatever the nullity.
        Ok(Some((presses, proven || presses == 0)))
    }

    /// Pass 1 of a streamed solve: the first row that clears the board to
    /// `target_row`, from the residual of an empty first row (`None` if the
    /// target cannot be reached).
    fn streamed_first_row(&self, board: &mut dyn RowStream, target_row: &BitVector) -> Option<BitVector> {
        let mut chase = Stream::new(zeros(self.cols));
        let mut row = zeros(self.cols);
        board.restart();
        for _ in 0..self.rows {
            board.next_row(row.as_raw_mut_slice());
            words::xor(row.as_raw_mut_slice(), target_row.as_raw_slice());
            chase.step(row.as_raw_slice(), self.cols);
        }
        self.first_row(&chase.current)
    }

    /// Pass 2: weighs every member of the coset, a row at a time (2^d
    /// counters), and moves `first` to the lightest member's first row.
    fn lighten_streamed(&self, board: &mut dyn RowStream, target_row: &BitVector, first: &mut BitVector) {
        let nullity = self.nullity();
        let cofactor = self.modulus.div_rem(&self.gcd).0;
        let mut quiet: Vec<Stream> =
            (0..nullity).map(|i| Stream::new(self.poly_to_vector(&cofactor.shifted(i)))).collect();
        let mut chase = Stream::new(first.clone());
        let mut totals = vec![0u64; 1 << nullity];
        let (mut combination, mut row, empty) = (zeros(self.cols), zeros(self.cols), zeros(self.cols));
        board.restart();
        for _ in 0..self.rows {
            // Weigh the press rows the chases hold now, then advance them.
            combination.copy_from_bitslice(&chase.current);
            let combination = combination.as_raw_mut_slice();
            totals[0] += words::count_ones(combination) as u64;
            for step in 1usize..1 << nullity {
                let quiet_row = &quiet[step.trailing_zeros() as usize].current;
                words::xor(combination, quiet_row.as_raw_slice());
                totals[step ^ (step >> 1)] += words::count_ones(combination) as u64;
            }
            board.next_row(row.as_raw_mut_slice());
            words::xor(row.as_raw_mut_slice(), target_row.as_raw_slice());
            chase.step(row.as_raw_slice(), self.cols);
            for q in &mut quiet {
                q.step(empty.as_raw_slice(), self.cols);
            }
        }
        let best = (0..totals.len()).min_by_key(|&s| totals[s]).unwrap_or(0);
        for (i, q) in cofactor_first_rows(self, &cofactor).iter().enumerate() {
            if best >> i & 1 == 1 {
                words::xor(first.as_raw_mut_slice(), q.as_raw_slice());
            }
        }
    }

    /// Pass 3: chases `first`, re-applies every press row to the board as
    /// it goes (row i is final once row i+1 is known), hands the rows to
    /// `sink`, and returns how many presses there were.
    fn chase_streamed(
        &self,
        board: &mut dyn RowStream,
        target_row: &BitVector,
        first: BitVector,
        sink: &mut dyn FnMut(&[u64]) -> Result<(), Error>,
    ) -> Result<u64, Error> {
        let mut presses = 0u64;
        let mut chase = Stream::new(first);
        let (mut board_row, mut next_board_row) = (zeros(self.cols), zeros(self.cols));
        let (mut rhs, mut reached, empty) = (zeros(self.cols), zeros(self.cols), zeros(self.cols));
        board.restart();
        board.next_row(board_row.as_raw_mut_slice());
        for i in 0..self.rows {
            presses += chase.current.count_ones() as u64;
            sink(chase.current.as_raw_slice())?;
            rhs.copy_from_bitslice(&board_row);
            words::xor(rhs.as_raw_mut_slice(), target_row.as_raw_slice());
            chase.step(rhs.as_raw_slice(), self.cols);
            // After the step the chase holds row i's presses as `above`, the
            // row before as `lights` (its spare buffer) and row i+1's as
            // `current`: re-apply all three to board row i.
            let below = if i + 1 < self.rows { &chase.current } else { &empty };
            let out = reached.as_raw_mut_slice();
            words::spread_row(chase.above.as_raw_slice(), out, self.cols);
            words::xor(out, chase.lights.as_raw_slice());
            words::xor(out, below.as_raw_slice());
            words::xor(out, board_row.as_raw_slice());
            if reached != *target_row {
                return Err(Error::Internal(format!("streamed press row {i} failed its re-check")));
            }
            if i + 1 < self.rows {
                board.next_row(next_board_row.as_raw_mut_slice());
                std::mem::swap(&mut board_row, &mut next_board_row);
            }
        }
        Ok(presses)
    }

    /// Quiet pattern `i` of the basis that [`quiet_patterns`](Self::quiet_patterns)
    /// gives, chased on its own (memory of one board).
    pub fn quiet_pattern(&self, i: usize) -> Grid {
        let cofactor = self.modulus.div_rem(&self.gcd).0;
        let first = self.poly_to_vector(&cofactor.shifted(i));
        self.orient(&self.chase(None, &first)).into_owned()
    }

    /// A basis of the quiet patterns: the chases of the first rows
    /// `φ((g/d)·x^i)`, `i < deg d`.
    pub fn quiet_patterns(&self) -> Vec<Grid> {
        let cofactor = self.modulus.div_rem(&self.gcd).0;
        cofactor_first_rows(self, &cofactor)
            .iter()
            .map(|first| self.orient(&self.chase(None, first)).into_owned())
            .collect()
    }

    /// Converts between the caller's orientation and the working one.
    fn orient<'a>(&self, grid: &'a Grid) -> Cow<'a, Grid> {
        if self.transposed { Cow::Owned(grid.transpose()) } else { Cow::Borrowed(grid) }
    }

    /// The lights `rhs` leaves on the last row when the first row is not
    /// pressed: the chase with only three rows of memory.
    fn residual(&self, rhs: &Grid) -> BitVector {
        let mut chase = Stream::new(zeros(self.cols));
        for i in 0..self.rows {
            chase.step(rhs.words(i), self.cols);
        }
        chase.current
    }

    /// Presses `first` on row 0, then chases row by row: row i+1 presses the
    /// lights left in row i of `rhs` (or of an empty board).
    fn chase(&self, rhs: Option<&Grid>, first: &BitVector) -> Grid {
        let mut presses = Grid::zeros(self.rows, self.cols);
        presses.words_mut(0).copy_from_slice(first.as_raw_slice());
        let mut lights = zeros(self.cols);
        let lights = lights.as_raw_mut_slice();
        for i in 0..self.rows - 1 {
            words::spread_row(presses.words(i), lights, self.cols);
            if i > 0 {
                words::xor(lights, presses.words(i - 1));
            }
            if let Some(rhs) = rhs {
                words::xor(lights, rhs.words(i));
            }
            presses.words_mut(i + 1).copy_from_slice(lights);
        }
        presses
    }

    /// `φ(P) = P(T)·e₀` by Horner's rule: one `T`-step (a shift-and-XOR
    /// of the row) per coefficient.
    fn poly_to_vector(&self, p: &Poly) -> BitVector {
        let (mut v, mut next) = (zeros(self.cols), zeros(self.cols));
        for k in (0..=p.degree().unwrap_or(0)).rev() {
            words::spread_row(v.as_raw_slice(), next.as_raw_mut_slice(), self.cols);
            std::mem::swap(&mut v, &mut next);
            if p.coeff(k) {
                let old = v[0];
                v.set(0, !old);
            }
        }
        v
    }

    /// `φ⁻¹(v)`: cell k is `h_k(T)·e₀` with `h₀ = 1`, `h₁ = x + 1`,
    /// `h_(k+1) = (x+1)·h_k + h_(k−1)` (so `g = h_C`), hence
    /// `φ⁻¹(v) = Σ v_k·h_k`, summed by Clenshaw's recurrence
    /// `b_k = v_k + (x+1)·b_(k+1) + b_(k+2)`, `φ⁻¹(v) = b₀`.
    fn vector_to_poly(&self, v: &Bits) -> Poly {
        let len = self.cols.div_ceil(64) + 1;
        let (mut b1, mut b2) = (vec![0u64; len], vec![0u64; len]);
        for k in (0..self.cols).rev() {
            // b2 <- v_k + (x+1)·b1 + b2, then rotate so that b1 = b_k.
            let mut carry = 0;
            for (lo, hi) in b2.iter_mut().zip(&b1) {
                *lo ^= hi ^ (hi << 1 | carry);
                carry = hi >> 63;
            }
            if v[k] {
                b2[0] ^= 1;
            }
            std::mem::swap(&mut b1, &mut b2);
        }
        Poly::from_words(b1)
    }
}

/// Largest nullity a streamed solve enumerates (a table of 2^d counters).
pub const MAX_STREAMED_NULLITY: usize = 24;

/// Word operations a streamed solve spends weighing its coset (about a
/// minute): 2^d members times R·C/64 words.
const STREAMED_WORK: u64 = 1 << 36;

/// The first rows `φ((g/d)·x^i)` of the quiet-pattern basis.
fn cofactor_first_rows(chase: &Chase, cofactor: &Poly) -> Vec<BitVector> {
    (0..chase.nullity()).map(|i| chase.poly_to_vector(&cofactor.shifted(i))).collect()
}

/// One chase in progress: the press row above and the current one (and a
/// spare buffer, which after a step still holds the row before `above`).
///
/// A step is the chase's inner loop, so it runs on the rows' raw words
/// (`bits_spread`, `bits_xor` in docs/performance.md).
struct Stream {
    above: BitVector,
    current: BitVector,
    lights: BitVector,
}

impl Stream {
    fn new(first: BitVector) -> Self {
        let len = first.len();
        Stream { above: zeros(len), current: first, lights: zeros(len) }
    }

    /// Moves one row down: the next press row is the lights of the current
    /// row of `rhs` (its words) after the presses above, on and beside it.
    fn step(&mut self, rhs: &[u64], cols: usize) {
        let lights = self.lights.as_raw_mut_slice();
        words::spread_row(self.current.as_raw_slice(), lights, cols);
        words::xor(lights, self.above.as_raw_slice());
        words::xor(lights, rhs);
        std::mem::swap(&mut self.above, &mut self.current);
        std::mem::swap(&mut self.current, &mut self.lights);
    }
}

/// `h_C = f_C(x+1)`: the characteristic polynomial of the C×C tridiagonal
/// matrix `T = I + (path adjacency)`.
fn char_poly(cols: usize) -> Poly {
    let x1 = Poly::from_exponents(&[1, 0]);
    let (mut previous, mut current) = (Poly::one(), x1.clone());
    for _ in 1..cols {
        let mut next = &current * &x1;
        next.add_shifted(&previous, 0);
        previous = std::mem::replace(&mut current, next);
    }
    current
}

/// `f_R mod g`, by the recurrence `f_(k+1) = x·f_k + f_(k−1)` reduced as it
/// goes, so no intermediate has degree above `deg g`.
fn chase_poly_mod(rows: usize, modulus: &Poly) -> Poly {
    let top = modulus.degree().unwrap_or(0);
    let reduce = |mut p: Poly| {
        if p.degree() == Some(top) {
            p.add_shifted(modulus, 0);
        }
        p
    };
    let (mut previous, mut current) = (Poly::one(), reduce(Poly::monomial(1)));
    for _ in 1..rows {
        let mut next = current.shifted(1);
        next.add_shifted(&previous, 0);
        previous = std::mem::replace(&mut current, reduce(next));
    }
    if rows == 0 { previous } else { current }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gf2::{BitMatrix, Echelon};

    /// `K` built directly from its definition (`M₀ = I`, `M_(i+1) = T·M_i +
    /// M_(i−1)`, `K = M_R`): the naive route the polynomial one must match.
    fn chase_matrix(rows: usize, cols: usize) -> BitMatrix {
        let mut previous = BitMatrix::zeros(cols, cols);
        let mut current = BitMatrix::identity(cols);
        for _ in 0..rows {
            let mut next = previous;
            for k in 0..cols {
                let row = next.row_mut(k);
                *row ^= current.row(k);
                if k > 0 {
                    *row ^= current.row(k - 1);
                }
                if k + 1 < cols {
                    *row ^= current.row(k + 1);
                }
            }
            previous = current;
            current = next;
        }
        current
    }

    #[test]
    fn polynomial_route_matches_the_chase_matrix() {
        for (rows, cols) in [(1, 1), (4, 4), (5, 5), (7, 3), (9, 9), (17, 17), (40, 65), (70, 64), (130, 129)]
        {
            let chase = Chase::new(&Puzzle::new(rows, cols).unwrap());
            let (rows, cols) = (chase.rows, chase.cols);
            let k = chase_matrix(rows, cols);
            assert_eq!(chase.nullity(), Echelon::new(&k).nullity(), "{rows}x{cols}");
            for seed in 0..5u64 {
                let v: BitVector = (0..cols)
                    .map(|i| (seed + 3 + i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 63 == 1)
                    .collect();
                // phi is a bijection, and K acts as multiplication by f_R.
                assert_eq!(chase.poly_to_vector(&chase.vector_to_poly(&v)), v);
                let a = chase_poly_mod(rows, &chase.modulus);
                let kv = chase.poly_to_vector(&(&a * &chase.vector_to_poly(&v)).rem(&chase.modulus));
                assert_eq!(kv, k.mul_vec(&v), "{rows}x{cols}");
            }
        }
    }
}
