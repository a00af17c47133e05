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

use crate::gf2::{BitVector, Bits, Poly, words, zeros};
use crate::model::{Grid, Puzzle};

mod stream;

pub use stream::MAX_STREAMED_NULLITY;

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
/// use lightsout::{Grid, Puzzle};
/// use lightsout::solve::Chase;
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
