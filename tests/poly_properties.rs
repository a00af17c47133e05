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
