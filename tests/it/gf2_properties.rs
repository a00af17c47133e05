//! Elimination checked by rebuilding: solutions satisfy the system, null
//! vectors are in the kernel and independent, rank + nullity = columns.

use lightsout::gf2::{BitMatrix, BitVector, Echelon};
use proptest::prelude::*;

/// A random matrix with a chosen density (sparse ones have big null spaces).
fn matrix() -> impl Strategy<Value = BitMatrix> {
    (1usize..140, 1usize..140, 0u32..4).prop_flat_map(|(rows, cols, sparsity)| {
        proptest::collection::vec(proptest::bool::weighted(0.5 / (1 << sparsity) as f64), rows * cols)
            .prop_map(move |bits| BitMatrix::from_fn(rows, cols, |r, c| bits[r * cols + c]))
    })
}

fn rank_of(vectors: &[BitVector], len: usize) -> usize {
    if vectors.is_empty() {
        return 0;
    }
    Echelon::new(&BitMatrix::from_fn(vectors.len(), len, |r, c| vectors[r][c])).rank()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn solutions_and_null_space_rebuild(a in matrix(), seed in any::<u64>()) {
        let e = Echelon::new(&a);
        prop_assert_eq!(e.rank() + e.nullity(), a.ncols());
        prop_assert_eq!(e.rank(), Echelon::new(&a.transpose()).rank());

        let basis = e.null_space();
        prop_assert_eq!(basis.len(), e.nullity());
        for q in &basis {
            prop_assert!(a.mul_vec(q).not_any());
        }
        prop_assert_eq!(rank_of(&basis, a.ncols()), basis.len());

        // A consistent right-hand side (A·x for a random x) is always solved.
        let x0: BitVector = (0..a.ncols()).map(|i| (seed.rotate_left(i as u32) ^ i as u64) & 1 == 1).collect();
        let b = a.mul_vec(&x0);
        let x = e.solve(&b).expect("A·x0 is in the column space");
        prop_assert_eq!(a.mul_vec(&x), b);

        // Any right-hand side: solved iff orthogonal to the null space of Aᵀ.
        let b: BitVector = (0..a.nrows()).map(|i| (seed >> (i % 64)) & 1 == 1).collect();
        let left = Echelon::new(&a.transpose()).null_space();
        let orthogonal = left.iter().all(|y| (y.clone() & &b).count_ones().is_multiple_of(2));
        match e.solve(&b) {
            Some(x) => { prop_assert!(orthogonal); prop_assert_eq!(a.mul_vec(&x), b); }
            None => prop_assert!(!orthogonal),
        }
    }
}

#[test]
fn sizes_straddling_word_boundaries() {
    for n in [63, 64, 65, 127, 128, 129] {
        let a = BitMatrix::from_fn(n, n, |r, c| (r * 131 + c * 71 + r * c) % 3 == 0);
        let e = Echelon::new(&a);
        for q in e.null_space() {
            assert!(a.mul_vec(&q).not_any(), "n = {n}");
        }
        let id = Echelon::new(&BitMatrix::identity(n));
        assert_eq!((id.rank(), id.nullity()), (n, 0));
    }
}
