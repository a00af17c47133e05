//! Polynomials over GF(2), bit-packed: coefficient `k` is bit `k`.

use std::fmt;

use bitvec::order::Lsb0;
use bitvec::view::BitView;

use super::{Bits, words};

/// Bits in one storage word.
const BITS: usize = 64;

/// A polynomial over GF(2), stored as words of coefficients (lowest first)
/// with no zero word at the top, so equal polynomials have equal storage.
///
/// Addition is XOR; every operation works on whole words, so a polynomial of
/// degree n costs n/64 word operations to add or shift. The words stay a
/// `Vec<u64>` rather than a `BitVector` because the arithmetic is shifts
/// across words and trimming by words; single coefficients are read through
/// bitvec ([`coefficients`](Self::coefficients)).
///
/// # Example
/// ```
/// use lightsout::gf2::Poly;
///
/// let a = Poly::from_exponents(&[3, 1, 0]);   // x³ + x + 1
/// let b = Poly::from_exponents(&[1, 0]);      // x + 1
/// let (q, r) = a.div_rem(&b);
/// assert_eq!(&(&q * &b) + &r, a);
/// let (g, s, _) = a.xgcd(&b);
/// assert_eq!(g, Poly::one());                 // x³ + x + 1 is irreducible
/// assert_eq!(&(&s * &a).rem(&b), &Poly::one());
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Poly {
    words: Vec<u64>,
}

impl Poly {
    /// The zero polynomial.
    pub fn zero() -> Self {
        Poly::default()
    }

    /// The constant 1.
    pub fn one() -> Self {
        Poly { words: vec![1] }
    }

    /// `x^k`.
    pub fn monomial(k: usize) -> Self {
        let mut p = Poly { words: vec![0; k / BITS + 1] };
        p.words[k / BITS] = 1 << (k % BITS);
        p
    }

    /// The sum of `x^e` over the exponents given (repeats cancel).
    pub fn from_exponents(exponents: &[usize]) -> Self {
        let mut p = Poly::zero();
        for &e in exponents {
            p.toggle(e);
        }
        p
    }

    /// The polynomial whose coefficients are the bits of `words`.
    pub fn from_words(words: Vec<u64>) -> Self {
        let mut p = Poly { words };
        p.normalize();
        p
    }

    /// Coefficient words, lowest first.
    pub fn as_words(&self) -> &[u64] {
        &self.words
    }

    /// The coefficients as bits, lowest first, up to the top word.
    pub fn coefficients(&self) -> &Bits {
        self.words.view_bits::<Lsb0>()
    }

    /// Whether this is the zero polynomial.
    pub fn is_zero(&self) -> bool {
        self.words.is_empty()
    }

    /// The degree, or `None` for the zero polynomial.
    pub fn degree(&self) -> Option<usize> {
        let top = *self.words.last()?;
        Some((self.words.len() - 1) * BITS + (BITS - 1 - top.leading_zeros() as usize))
    }

    /// Coefficient of `x^k`.
    pub fn coeff(&self, k: usize) -> bool {
        self.coefficients().get(k).is_some_and(|bit| *bit)
    }

    /// Flips the coefficient of `x^k`.
    pub fn toggle(&mut self, k: usize) {
        if k / BITS >= self.words.len() {
            self.words.resize(k / BITS + 1, 0);
        }
        let bits = self.words.view_bits_mut::<Lsb0>();
        let old = bits[k];
        bits.set(k, !old);
        self.normalize();
    }

    /// Number of non-zero coefficients.
    pub fn weight(&self) -> usize {
        self.coefficients().count_ones()
    }

    /// `self += other · x^shift`.
    pub fn add_shifted(&mut self, other: &Poly, shift: usize) {
        let (w, b) = (shift / BITS, shift % BITS);
        let needed = other.words.len() + w + 1;
        if self.words.len() < needed {
            self.words.resize(needed, 0);
        }
        if b == 0 {
            words::xor(&mut self.words[w..], &other.words);
        } else {
            for (i, &o) in other.words.iter().enumerate() {
                self.words[i + w] ^= o << b;
                self.words[i + w + 1] ^= o >> (BITS - b);
            }
        }
        self.normalize();
    }

    /// `self · x^shift`.
    pub fn shifted(&self, shift: usize) -> Poly {
        let mut p = Poly::zero();
        p.add_shifted(self, shift);
        p
    }

    /// Quotient and remainder of division by `divisor`.
    ///
    /// # Panics
    /// If `divisor` is zero.
    // Dividing by zero is a caller's bug, as for integers; no input reaches it
    // (the solvers divide only by the characteristic polynomial and gcds of
    // it, which are non-zero).
    #[allow(clippy::expect_used)]
    pub fn div_rem(&self, divisor: &Poly) -> (Poly, Poly) {
        let d = divisor.degree().expect("division by the zero polynomial");
        let mut quotient = Poly::zero();
        let mut rest = self.clone();
        while let Some(r) = rest.degree().filter(|&r| r >= d) {
            quotient.toggle(r - d);
            rest.add_shifted(divisor, r - d);
        }
        (quotient, rest)
    }

    /// Remainder of division by `divisor`.
    ///
    /// # Panics
    /// If `divisor` is zero.
    #[allow(clippy::expect_used)] // as in `div_rem`
    pub fn rem(&self, divisor: &Poly) -> Poly {
        let d = divisor.degree().expect("division by the zero polynomial");
        let mut rest = self.clone();
        while let Some(r) = rest.degree().filter(|&r| r >= d) {
            rest.add_shifted(divisor, r - d);
        }
        rest
    }

    /// The greatest common divisor (monic, as every non-zero polynomial
    /// over GF(2) is).
    pub fn gcd(&self, other: &Poly) -> Poly {
        // Two buffers, reduced in place: tables take millions of gcds.
        let (mut a, mut b) = (self.clone(), other.clone());
        while let Some(d) = b.degree() {
            while let Some(r) = a.degree().filter(|&r| r >= d) {
                a.add_shifted(&b, r - d);
            }
            std::mem::swap(&mut a, &mut b);
        }
        a
    }

    /// `(g, s, t)` with `g = gcd(self, other) = s·self + t·other`.
    ///
    /// # Complexity
    /// O(n² / 64) word operations for degree n: Euclid by single shifted
    /// subtractions, updating the Bézout coefficients alongside.
    pub fn xgcd(&self, other: &Poly) -> (Poly, Poly, Poly) {
        // Invariants: a = sa·self + ta·other, b = sb·self + tb·other.
        let (mut a, mut sa, mut ta) = (self.clone(), Poly::one(), Poly::zero());
        let (mut b, mut sb, mut tb) = (other.clone(), Poly::zero(), Poly::one());
        while let Some(db) = b.degree() {
            match a.degree() {
                Some(da) if da >= db => {
                    let shift = da - db;
                    a.add_shifted(&b, shift);
                    sa.add_shifted(&sb, shift);
                    ta.add_shifted(&tb, shift);
                }
                _ => {
                    std::mem::swap(&mut a, &mut b);
                    std::mem::swap(&mut sa, &mut sb);
                    std::mem::swap(&mut ta, &mut tb);
                }
            }
        }
        (a, sa, ta)
    }

    /// The coefficient of the top word and below, trimmed.
    fn normalize(&mut self) {
        while self.words.last() == Some(&0) {
            self.words.pop();
        }
    }
}

impl std::ops::Add for &Poly {
    type Output = Poly;

    fn add(self, other: &Poly) -> Poly {
        let mut p = self.clone();
        p.add_shifted(other, 0);
        p
    }
}

impl std::ops::Mul for &Poly {
    type Output = Poly;

    /// Schoolbook product: one shifted XOR per non-zero coefficient of the
    /// sparser factor.
    fn mul(self, other: &Poly) -> Poly {
        let (sparse, dense) = if self.weight() <= other.weight() { (self, other) } else { (other, self) };
        let mut product = Poly::zero();
        // The ones by words: bitvec's `iter_ones` costs 13 times this loop
        // (`bits_ones` in docs/performance.md), and a chase solve
        // multiplies once per board.
        for (k, &w) in sparse.words.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                product.add_shifted(dense, k * BITS + w.trailing_zeros() as usize);
                w &= w - 1;
            }
        }
        product
    }
}

/// Written as a sum of powers, highest first: `x^3 + x + 1`.
impl fmt::Display for Poly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(d) = self.degree() else {
            return f.write_str("0");
        };
        let terms: Vec<String> = (0..=d)
            .rev()
            .filter(|&k| self.coeff(k))
            .map(|k| match k {
                0 => "1".to_string(),
                1 => "x".to_string(),
                _ => format!("x^{k}"),
            })
            .collect();
        f.write_str(&terms.join(" + "))
    }
}

impl fmt::Debug for Poly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Poly({self})")
    }
}
