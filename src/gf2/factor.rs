//! Factoring polynomials over GF(2) into irreducibles.
//!
//! The classic route: square-free factorisation (using that the derivative
//! of a square vanishes in characteristic 2), distinct-degree factorisation
//! (`gcd(x^(2^k) − x, f)` collects the irreducible factors of degree k), and
//! equal-degree splitting by the trace map `a + a² + … + a^(2^(k−1))`, which
//! is 0 or 1 on each factor's field, so its gcd with f splits f about half
//! the time (Cantor–Zassenhaus for characteristic 2).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::Poly;

impl Poly {
    /// The factorisation into irreducible polynomials, as (factor,
    /// multiplicity) pairs sorted by degree and then by coefficients; empty
    /// for the constants 0 and 1.
    ///
    /// # Example
    /// ```
    /// use lightsout::gf2::Poly;
    ///
    /// // x^4 + x^2 + 1 = (x^2 + x + 1)^2
    /// let f = Poly::from_exponents(&[4, 2, 0]);
    /// assert_eq!(f.factor(), vec![(Poly::from_exponents(&[2, 1, 0]), 2)]);
    /// ```
    pub fn factor(&self) -> Vec<(Poly, usize)> {
        let mut factors = Vec::new();
        if self.degree().unwrap_or(0) == 0 {
            return factors;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(0x6c69_6768_7473);
        for (square_free, multiplicity) in square_free_parts(self) {
            for (product, degree) in distinct_degree(&square_free) {
                for irreducible in equal_degree(&product, degree, &mut rng) {
                    factors.push((irreducible, multiplicity));
                }
            }
        }
        factors.sort_by(|a, b| (a.0.degree(), a.0.as_words()).cmp(&(b.0.degree(), b.0.as_words())));
        // Merge equal factors met through different square-free parts.
        let mut merged: Vec<(Poly, usize)> = Vec::new();
        for (f, m) in factors {
            match merged.last_mut() {
                Some(last) if last.0 == f => last.1 += m,
                _ => merged.push((f, m)),
            }
        }
        merged
    }

    /// The formal derivative: in characteristic 2 only odd powers survive.
    fn derivative(&self) -> Poly {
        let mut d = Poly::zero();
        for k in (1..=self.degree().unwrap_or(0)).step_by(2) {
            if self.coeff(k) {
                d.toggle(k - 1);
            }
        }
        d
    }

    /// The square root of a polynomial whose derivative is zero (only even
    /// powers): over GF(2), `Σ c_k x^(2k) = (Σ c_k x^k)²`.
    fn square_root(&self) -> Poly {
        let mut r = Poly::zero();
        for k in (0..=self.degree().unwrap_or(0)).step_by(2) {
            if self.coeff(k) {
                r.toggle(k / 2);
            }
        }
        r
    }

    /// `self² mod m`.
    fn square_mod(&self, m: &Poly) -> Poly {
        (self * self).rem(m)
    }
}

/// Square-free parts with their multiplicities: `f = Π pᵢ^mᵢ`, each `pᵢ`
/// square-free (Yun's algorithm with the characteristic-2 square root).
fn square_free_parts(f: &Poly) -> Vec<(Poly, usize)> {
    let derivative = f.derivative();
    if derivative.is_zero() {
        return square_free_parts(&f.square_root()).into_iter().map(|(p, m)| (p, 2 * m)).collect();
    }
    let mut parts = Vec::new();
    let mut c = f.gcd(&derivative);
    let mut w = f.div_rem(&c).0;
    let mut i = 1;
    while w.degree().unwrap_or(0) > 0 {
        let y = w.gcd(&c);
        let z = w.div_rem(&y).0;
        if z.degree().unwrap_or(0) > 0 {
            parts.push((z, i));
        }
        i += 1;
        c = c.div_rem(&y).0;
        w = y;
    }
    if c.degree().unwrap_or(0) > 0 {
        // What is left has a zero derivative: a square.
        parts.extend(square_free_parts(&c.square_root()).into_iter().map(|(p, m)| (p, 2 * m)));
    }
    parts
}

/// Splits a square-free `f` into products of its irreducible factors of
/// each degree.
fn distinct_degree(f: &Poly) -> Vec<(Poly, usize)> {
    let x = Poly::monomial(1);
    let mut rest = f.clone();
    let mut power = x.rem(&rest); // x^(2^k) mod rest
    let mut products = Vec::new();
    let mut k = 0;
    while rest.degree().is_some_and(|d| d >= 2 * (k + 1)) {
        k += 1;
        power = power.square_mod(&rest);
        let g = (&power + &x).gcd(&rest);
        if g.degree().unwrap_or(0) > 0 {
            rest = rest.div_rem(&g).0;
            power = power.rem(&rest);
            products.push((g, k));
        }
    }
    if let Some(d) = rest.degree().filter(|&d| d > 0) {
        products.push((rest, d));
    }
    products
}

/// The irreducible factors, all of degree `degree`, of the square-free
/// `f`.
fn equal_degree(f: &Poly, degree: usize, rng: &mut ChaCha8Rng) -> Vec<Poly> {
    let n = f.degree().unwrap_or(0);
    if n <= degree {
        return vec![f.clone()];
    }
    loop {
        let words = n.div_ceil(64);
        let a = Poly::from_words((0..words).map(|_| rng.next_u64()).collect()).rem(f);
        // The trace a + a^2 + ... + a^(2^(degree-1)) mod f.
        let (mut term, mut trace) = (a.clone(), a);
        for _ in 1..degree {
            term = term.square_mod(f);
            trace = &trace + &term;
        }
        let g = trace.gcd(f);
        if g.degree().is_some_and(|dg| dg > 0 && dg < n) {
            let mut parts = equal_degree(&g, degree, rng);
            parts.extend(equal_degree(&f.div_rem(&g).0, degree, rng));
            return parts;
        }
    }
}
