//! Linear algebra over Z_K, the integers modulo K, for 2 ≤ K ≤ 255.
//!
//! This is the bottom layer beside [`gf2`](crate::gf2): it knows nothing
//! about boards. A board of K states is solved by a linear system over Z_K,
//! and Z_K is a field only when K is prime. For a composite K, elimination
//! that divides by any nonzero entry is wrong (over Z_4, 2 has no inverse),
//! and the solutions need not form a free module (the quiet patterns of the
//! 4×4 board over Z_4 are 64 = 2^6 elements, not a power of 4). So the
//! algebra works one prime power q = p^e of K at a time, over the local ring
//! Z_q, where every element is a unit times a power of p and a pivot of the
//! smallest p-valuation divides everything left; the Chinese remainder
//! theorem then joins the parts (Z_K ≅ Z_q₁ × Z_q₂ × …).
//!
//! - [`Modulus`]: K, checked once, with its arithmetic and its prime powers;
//! - [`ZkMatrix`]: a dense matrix of residues, one byte per entry;
//! - [`ZkFactors`]: a matrix factored once, then solving many right-hand
//!   sides, with the kernel as a direct sum of cyclic parts and the
//!   certificates of unsolvability (the left kernel).
//!
//! # Example
//! ```
//! use lightsout::zk::{Modulus, ZkFactors, ZkMatrix};
//!
//! // Over Z_4, 2·x = 2 has the solutions x = 1 and x = 3 (x = 0 solves it
//! // mod 2 but does not lift), and 2·x = 0 has the kernel {0, 2}.
//! let k = Modulus::new(4)?;
//! let a = ZkMatrix::from_fn(1, 1, |_, _| 2);
//! let f = ZkFactors::new(&a, k);
//! let x = f.solve(&[2]).expect("solvable");
//! assert_eq!(a.mul_vec(&x, k), vec![2]);
//! assert_eq!(f.kernel(), &[(vec![2], 2)]);
//! // 2·x = 1 has no solution, and y = 2 proves it: y·A = 0, y·b = 2 ≠ 0.
//! assert_eq!(f.obstruction(&[1]), Some(vec![2]));
//! # Ok::<(), lightsout::Error>(())
//! ```

mod count;
mod factor;
mod local;
mod matrix;
mod rows;

pub(crate) use count::product_decimal;
pub use factor::{ENTRY_PASSES_PER_SECOND, ZkFactors};
pub use matrix::ZkMatrix;
pub(crate) use rows::Barrett;

use crate::error::Error;

/// The number of states K, checked to be in 2..=255, with arithmetic mod K.
///
/// Residues are `u8` in `0..K`; the operations take reduced arguments and
/// return reduced results.
///
/// # Example
/// ```
/// use lightsout::zk::Modulus;
///
/// let k = Modulus::new(12)?;
/// assert_eq!((k.get(), k.is_prime()), (12, false));
/// assert_eq!(k.prime_powers(), vec![(2, 2, 4), (3, 1, 3)]);
/// assert_eq!((k.add(7, 9), k.sub(3, 5), k.neg(1), k.mul(5, 7)), (4, 10, 11, 11));
/// assert_eq!((k.inverse(5), k.inverse(4)), (Some(5), None));
/// assert!(Modulus::new(256).is_err() && Modulus::new(1).is_err());
/// # Ok::<(), lightsout::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Modulus {
    k: u8,
}

impl Modulus {
    /// The two-state game's modulus.
    pub const TWO: Modulus = Modulus { k: 2 };

    /// K, refused unless it is 2 to 255.
    ///
    /// # Errors
    /// [`Error::BadInput`] for 0, 1 and anything above 255.
    pub fn new(k: u32) -> Result<Modulus, Error> {
        match u8::try_from(k) {
            Ok(k) if k >= 2 => Ok(Modulus { k }),
            _ => Err(Error::BadInput(format!("the number of states is 2 to 255, got {k}"))),
        }
    }

    /// K.
    pub fn get(self) -> u8 {
        self.k
    }

    /// Whether K is prime, so that Z_K is a field.
    pub fn is_prime(self) -> bool {
        self.prime_powers().len() == 1 && self.prime_powers()[0].1 == 1
    }

    /// The prime powers of K, ascending: `(p, e, p^e)` with K = Π p^e.
    pub fn prime_powers(self) -> Vec<(u8, u32, u8)> {
        let mut rest = self.k;
        let mut out = Vec::new();
        let mut p = 2u8;
        while rest > 1 {
            if u16::from(p) * u16::from(p) > u16::from(rest) {
                // What is left has no factor up to its square root: prime.
                p = rest;
            }
            if rest.is_multiple_of(p) {
                let (mut e, mut q) = (0, 1u8);
                while rest.is_multiple_of(p) {
                    rest /= p;
                    e += 1;
                    q *= p;
                }
                out.push((p, e, q));
            }
            p += 1;
        }
        out
    }

    /// `a + b` mod K.
    pub fn add(self, a: u8, b: u8) -> u8 {
        ((u16::from(a) + u16::from(b)) % u16::from(self.k)) as u8
    }

    /// `a − b` mod K.
    pub fn sub(self, a: u8, b: u8) -> u8 {
        ((u16::from(a) + u16::from(self.k) - u16::from(b)) % u16::from(self.k)) as u8
    }

    /// `−a` mod K.
    pub fn neg(self, a: u8) -> u8 {
        self.sub(0, a)
    }

    /// `a · b` mod K.
    pub fn mul(self, a: u8, b: u8) -> u8 {
        ((u16::from(a) * u16::from(b)) % u16::from(self.k)) as u8
    }

    /// Any integer reduced mod K.
    pub fn reduce(self, a: u64) -> u8 {
        (a % u64::from(self.k)) as u8
    }

    /// The inverse of `a` mod K, if `a` is a unit (coprime to K).
    pub fn inverse(self, a: u8) -> Option<u8> {
        inverse_mod(a, self.k)
    }
}

/// `a⁻¹ mod m` by the extended Euclidean algorithm, if gcd(a, m) = 1.
pub(crate) fn inverse_mod(a: u8, m: u8) -> Option<u8> {
    let (mut r0, mut r1) = (i32::from(m), i32::from(a) % i32::from(m));
    let (mut s0, mut s1) = (0i32, 1i32);
    while r1 != 0 {
        let t = r0 / r1;
        (r0, r1) = (r1, r0 - t * r1);
        (s0, s1) = (s1, s0 - t * s1);
    }
    // r0 = gcd(a, m) = s0·a (mod m).
    (r0 == 1).then(|| s0.rem_euclid(i32::from(m)) as u8)
}

impl std::fmt::Display for Modulus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moduli_are_checked_and_factored() {
        for k in [0, 1, 256, 1000, u32::MAX] {
            let err = Modulus::new(k).unwrap_err();
            assert_eq!(err, Error::BadInput(format!("the number of states is 2 to 255, got {k}")));
        }
        for k in 2..=255u32 {
            let m = Modulus::new(k).unwrap();
            let powers = m.prime_powers();
            assert_eq!(powers.iter().map(|&(_, _, q)| u32::from(q)).product::<u32>(), k);
            for &(p, e, q) in &powers {
                assert!((2..p).all(|d| p % d != 0), "{p} is not prime");
                assert_eq!(u32::from(p).pow(e), u32::from(q));
            }
            let prime = (2..k).all(|d| k % d != 0);
            assert_eq!(m.is_prime(), prime, "{k}");
            for a in 0..m.get() {
                let unit = (1..m.get()).any(|b| m.mul(a, b) == 1);
                assert_eq!(m.inverse(a).map(|b| m.mul(a, b)), unit.then_some(1), "{a} mod {k}");
                assert_eq!(m.add(a, m.neg(a)), 0);
            }
        }
    }
}
