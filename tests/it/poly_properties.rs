//! GF(2)[x] checked by its defining identities.

use lightsout::gf2::Poly;
use proptest::prelude::*;

fn poly() -> impl Strategy<Value = Poly> {
    (0usize..300, proptest::collection::vec(any::<u64>(), 0..6)).prop_map(|(cut, mut words)| {
        // Vary the degree finely, not only by whole words.
        if let Some(last) = words.last_mut() {
            *last &= u64::MAX >> (cut % 64);
        }
        Poly::from_words(words)
    })
}

fn divides(d: &Poly, p: &Poly) -> bool {
    p.rem(d).is_zero()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn division_rebuilds(a in poly(), b in poly()) {
        prop_assume!(!b.is_zero());
        let (q, r) = a.div_rem(&b);
        prop_assert_eq!(&(&q * &b) + &r, a.clone());
        prop_assert!(r.degree() < b.degree() || r.is_zero());
        prop_assert_eq!(a.rem(&b), r);
    }

    #[test]
    fn gcd_divides_both_and_bezout_holds(a in poly(), b in poly(), c in poly()) {
        // Multiply by a common factor so the gcd is often non-trivial.
        let (a, b) = (&a * &c, &b * &c);
        let (g, s, t) = a.xgcd(&b);
        prop_assert_eq!(&(&s * &a) + &(&t * &b), g.clone());
        prop_assert_eq!(a.gcd(&b), g.clone());
        if !g.is_zero() {
            prop_assert!(divides(&g, &a) && divides(&g, &b));
            if !c.is_zero() {
                prop_assert!(divides(&c, &g));
            }
        }
    }

    #[test]
    fn ring_laws(a in poly(), b in poly(), c in poly(), k in 0usize..200) {
        prop_assert_eq!(&a * &b, &b * &a);
        prop_assert_eq!(&a * &(&b + &c), &(&a * &b) + &(&a * &c));
        prop_assert_eq!(a.shifted(k), &a * &Poly::monomial(k));
        prop_assert_eq!((&a * &b).degree().map(|d| d as i64), match (a.degree(), b.degree()) {
            (Some(x), Some(y)) => Some((x + y) as i64),
            _ => None,
        });
        prop_assert!((&a + &a).is_zero());
    }
}

#[test]
fn display_and_small_facts() {
    assert_eq!(Poly::from_exponents(&[3, 1, 0]).to_string(), "x^3 + x + 1");
    assert_eq!(Poly::zero().to_string(), "0");
    // (x + 1)^2 = x^2 + 1 in characteristic 2.
    let x1 = Poly::from_exponents(&[1, 0]);
    assert_eq!(&x1 * &x1, Poly::from_exponents(&[2, 0]));
    assert_eq!(Poly::monomial(130).degree(), Some(130));
}

/// Irreducible by brute force: no factor of degree 1..=deg/2.
fn is_irreducible(p: &Poly) -> bool {
    let d = p.degree().unwrap_or(0);
    d > 0
        && (1..=d / 2)
            .all(|k| (1u64 << k..1u64 << (k + 1)).all(|w| !p.rem(&Poly::from_words(vec![w])).is_zero()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn factorisation_rebuilds_into_irreducibles(a in poly(), b in poly()) {
        // Products of small polynomials, often with repeated factors.
        let a = Poly::from_words(a.as_words().iter().take(1).map(|w| w & 0xfff).collect());
        let b = Poly::from_words(b.as_words().iter().take(1).map(|w| w & 0x3f).collect());
        let f = &(&a * &b) * &b;
        prop_assume!(f.degree().unwrap_or(0) > 0);
        let factors = f.factor();
        let mut product = Poly::one();
        for (p, m) in &factors {
            prop_assert!(is_irreducible(p), "{} is not irreducible", p);
            for _ in 0..*m {
                product = &product * p;
            }
        }
        prop_assert_eq!(product, f);
    }
}

#[test]
fn known_factorisations() {
    // x^2 + 1 = (x + 1)^2; x^3 + 1 = (x + 1)(x^2 + x + 1); x^8 + x is the
    // product of all irreducibles of degree 1 and 3.
    let x1 = Poly::from_exponents(&[1, 0]);
    assert_eq!(Poly::from_exponents(&[2, 0]).factor(), vec![(x1.clone(), 2)]);
    assert_eq!(Poly::from_exponents(&[3, 0]).factor(), vec![(x1, 1), (Poly::from_exponents(&[2, 1, 0]), 1)]);
    let f = Poly::from_exponents(&[8, 1]).factor();
    assert_eq!(
        f.iter().map(|(p, m)| (p.degree().unwrap(), *m)).collect::<Vec<_>>(),
        vec![(1, 1), (1, 1), (3, 1), (3, 1)]
    );
    assert!(Poly::one().factor().is_empty());
}
