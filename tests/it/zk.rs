//! `lightsout::zk`, linear algebra over Z_K, against brute force: solutions,
//! kernels, left kernels and obstructions of small random and press
//! matrices, and larger systems rebuilt. (Its unit tests are in `src/zk/`;
//! the K-state solver built on it is tested in `states_solver.rs`.)
//!
//! Answers are checked by rebuilding (A·x = b, A·g = 0, yᵀ·A = 0), never by
//! pinned vectors: solutions and generators are not unique.

use std::collections::HashSet;

use lightsout::zk::{Modulus, ZkFactors, ZkMatrix};
use lightsout::{Puzzle, Rule, Topology};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const MODULI: [u32; 7] = [2, 3, 4, 6, 8, 9, 12];

/// Every vector of `len` entries mod `k`, in mixed-radix order.
fn all_vectors(k: u8, len: usize) -> impl Iterator<Item = Vec<u8>> {
    let count = (k as usize).pow(len as u32);
    (0..count).map(move |mut i| {
        (0..len)
            .map(|_| {
                let d = (i % k as usize) as u8;
                i /= k as usize;
                d
            })
            .collect()
    })
}

fn dot(a: &[u8], b: &[u8], k: Modulus) -> u8 {
    k.reduce(a.iter().zip(b).map(|(&x, &y)| u64::from(x) * u64::from(y)).sum())
}

fn scale(v: &[u8], c: u32, k: Modulus) -> Vec<u8> {
    v.iter().map(|&x| k.reduce(u64::from(x) * u64::from(c))).collect()
}

/// `g` has exactly the order `order`: order·g = 0 and no smaller positive
/// multiple is 0.
fn has_order(g: &[u8], order: u32, k: Modulus) -> bool {
    scale(g, order, k).iter().all(|&x| x == 0) && (1..order).all(|c| scale(g, c, k).iter().any(|&x| x != 0))
}

/// Every combination `Σ c_i·g_i` (0 ≤ c_i < order_i), or `None` if there
/// are more than `limit`.
fn span(gens: &[(Vec<u8>, u32)], len: usize, k: Modulus, limit: usize) -> Option<Vec<Vec<u8>>> {
    let mut members = vec![vec![0u8; len]];
    for (g, order) in gens {
        if members.len() * *order as usize > limit {
            return None;
        }
        let mut next = Vec::with_capacity(members.len() * *order as usize);
        for c in 0..*order {
            let step = scale(g, c, k);
            next.extend(members.iter().map(|m| m.iter().zip(&step).map(|(&a, &b)| k.add(a, b)).collect()));
        }
        members = next;
    }
    Some(members)
}

/// The generators are of their stated orders, lie in `{v : f(v) = 0}`,
/// and form a direct sum of exactly `count` elements.
fn check_direct_sum(
    gens: &[(Vec<u8>, u32)],
    len: usize,
    k: Modulus,
    count: usize,
    zero: impl Fn(&[u8]) -> bool,
) {
    for (g, order) in gens {
        assert!(has_order(g, *order, k), "generator {g:?} is not of order {order} mod {k}");
        assert!(zero(g), "generator {g:?} is not in the kernel");
    }
    let members = span(gens, len, k, 1 << 20).expect("a small kernel");
    let distinct: HashSet<&Vec<u8>> = members.iter().collect();
    assert_eq!(distinct.len(), members.len(), "the generators are not independent mod {k}");
    assert_eq!(members.len(), count, "the generators do not span the kernel mod {k}");
}

/// Checks the factorisation of `a` mod `k` against an enumeration of
/// every x (and of every b and y, when there are few enough).
fn check_against_brute_force(a: &ZkMatrix, k: Modulus) {
    let (m, n) = (a.nrows(), a.ncols());
    let f = ZkFactors::new(a, k);
    let mut image = HashSet::new();
    let mut kernel_count = 0usize;
    for x in all_vectors(k.get(), n) {
        let b = a.mul_vec(&x, k);
        kernel_count += usize::from(b.iter().all(|&v| v == 0));
        image.insert(b);
    }
    assert_eq!(f.kernel_size(), kernel_count.to_string(), "{a:?} mod {k}");
    assert!((f.kernel_size_log2() - (kernel_count as f64).log2()).abs() < 1e-9);
    check_direct_sum(f.kernel(), n, k, kernel_count, |g| a.mul_vec(g, k).iter().all(|&v| v == 0));
    let left = f.left_kernel();
    let left_count = (k.get() as usize).pow(m as u32) / image.len();
    check_direct_sum(&left, m, k, left_count, |y| a.vec_mul(y, k).iter().all(|&v| v == 0));
    if k.is_prime() {
        let rank = f.rank().expect("a prime modulus has a rank");
        assert_eq!((k.get() as usize).pow(rank as u32), image.len());
        assert_eq!(f.nullity(), Some(n - rank));
    } else {
        assert_eq!((f.rank(), f.nullity()), (None, None));
    }
    for b in all_vectors(k.get(), m) {
        match f.solve(&b) {
            Some(x) => {
                assert!(image.contains(&b), "{a:?} mod {k}: solved an unreachable {b:?}");
                assert_eq!(a.mul_vec(&x, k), b, "{a:?} mod {k}: wrong solution for {b:?}");
                assert_eq!(f.obstruction(&b), None);
            }
            None => {
                assert!(!image.contains(&b), "{a:?} mod {k}: missed a solution of {b:?}");
                let y = f.obstruction(&b).expect("an unsolvable system has an obstruction");
                assert!(a.vec_mul(&y, k).iter().all(|&v| v == 0), "obstruction not in the left kernel");
                assert_ne!(dot(&y, &b, k), 0, "obstruction orthogonal to b");
            }
        }
    }
}

/// A random m×n matrix mod k, of one of several kinds: uniform, sparse,
/// full of multiples of a prime factor of k (so pivots of every valuation
/// occur), banded with holes on the diagonal (so pivots move and rows
/// reach only so far), or of low rank.
fn random_matrix(rng: &mut ChaCha8Rng, m: usize, n: usize, k: Modulus) -> ZkMatrix {
    let kk = k.get();
    let powers = k.prime_powers();
    match rng.random_range(0..5) {
        4 => {
            let width = rng.random_range(0..4usize);
            let p = u64::from(powers[0].0);
            ZkMatrix::from_fn(m, n, |i, j| {
                let near = i.abs_diff(j) <= width || (i + j) % (n + 3) == 0;
                let value = match rng.random_range(0..3) {
                    0 => 0,
                    1 => k.reduce(p * u64::from(rng.random_range(0..kk))),
                    _ => rng.random_range(0..kk),
                };
                if near { value } else { 0 }
            })
        }
        0 => ZkMatrix::from_fn(m, n, |_, _| rng.random_range(0..kk)),
        1 => ZkMatrix::from_fn(m, n, |_, _| if rng.random_bool(0.3) { rng.random_range(0..kk) } else { 0 }),
        2 => {
            let p = powers[rng.random_range(0..powers.len())].0;
            ZkMatrix::from_fn(m, n, |_, _| {
                let v = rng.random_range(0..3u32);
                k.reduce(u64::from(rng.random_range(0..kk)) * u64::from(p).pow(v))
            })
        }
        _ => {
            let r = rng.random_range(1..=m.min(n));
            let left = ZkMatrix::from_fn(m, r, |_, _| rng.random_range(0..kk));
            let right = ZkMatrix::from_fn(r, n, |_, _| rng.random_range(0..kk));
            product(&left, &right, k)
        }
    }
}

#[test]
fn factors_match_brute_force_on_small_random_matrices() {
    let mut rng = ChaCha8Rng::seed_from_u64(255);
    for k in MODULI {
        let k = Modulus::new(k).unwrap();
        // Shapes whose K^n and K^m stay within a few thousand vectors.
        let most = if k.get() <= 4 { 5 } else { 3 };
        for _ in 0..60 {
            let (m, n) = (rng.random_range(1..=most), rng.random_range(1..=most));
            let a = random_matrix(&mut rng, m, n, k);
            check_against_brute_force(&a, k);
        }
    }
}

#[test]
fn zero_and_identity_matrices() {
    for k in MODULI {
        let k = Modulus::new(k).unwrap();
        check_against_brute_force(&ZkMatrix::zeros(2, 3), k);
        // No columns: only b = 0 is reached; no rows: everything is kernel.
        check_against_brute_force(&ZkMatrix::zeros(2, 0), k);
        check_against_brute_force(&ZkMatrix::zeros(0, 3), k);
        check_against_brute_force(&ZkMatrix::from_fn(3, 3, |i, j| u8::from(i == j)), k);
    }
}

#[test]
fn a_solution_mod_2_need_not_lift_to_mod_4() {
    // 2x = 2 over Z_4: x = 1 or 3. x = 0 solves it mod 2 and does not lift:
    // a solver that reduced Z_4 to Z_2 and lifted one solution would fail.
    let k = Modulus::new(4).unwrap();
    let a = ZkMatrix::from_fn(1, 1, |_, _| 2);
    let f = ZkFactors::new(&a, k);
    let x = f.solve(&[2]).unwrap();
    assert!(x == [1] || x == [3], "{x:?}");
    assert_eq!(f.kernel(), &[(vec![2], 2)]);
    assert_eq!(f.kernel_size(), "2");
    assert_eq!(f.solve(&[1]), None);
    assert_eq!(f.solve(&[3]), None);
    let y = f.obstruction(&[1]).unwrap();
    assert_eq!(y, [2]);
    check_against_brute_force(&a, k);
}

/// The press matrix of `puzzle`: column j adds 1 to each cell press j flips.
fn press_matrix(puzzle: &Puzzle) -> ZkMatrix {
    let n = puzzle.cells();
    let mut a = ZkMatrix::zeros(n, n);
    for (j, cells) in puzzle.press_lists().iter().enumerate() {
        for &i in cells {
            a.set(i, j, 1);
        }
    }
    a
}

#[test]
fn classic_kernels_of_known_size() {
    // 4x4 plus over Z_4: 64 quiet patterns (over GF(2) the nullity is 4,
    // and the kernel mod 4 is not free: 4^4 would be 256).
    let f = ZkFactors::new(&press_matrix(&Puzzle::new(4, 4).unwrap()), Modulus::new(4).unwrap());
    assert_eq!(f.kernel_size(), "64");
    assert_eq!(f.rank(), None);
    // 5x5 plus over GF(3): nullity 3.
    let f = ZkFactors::new(&press_matrix(&Puzzle::new(5, 5).unwrap()), Modulus::new(3).unwrap());
    assert_eq!((f.nullity(), f.kernel_size()), (Some(3), "27".to_string()));
    // 5x5 over GF(2): the classic nullity 2.
    let f = ZkFactors::new(&press_matrix(&Puzzle::new(5, 5).unwrap()), Modulus::TWO);
    assert_eq!(f.nullity(), Some(2));
}

#[test]
fn press_matrices_of_other_rules_match_brute_force() {
    for (rows, cols) in [(1, 4), (2, 2), (2, 3)] {
        for puzzle in [
            Puzzle::new(rows, cols).unwrap(),
            Puzzle::new(rows, cols).unwrap().with_topology(Topology::Torus),
            Puzzle::new(rows, cols).unwrap().with_rule(Rule::neighbours()),
            Puzzle::new(rows, cols).unwrap().with_rule(Rule::from_mask("110/011/000").unwrap()),
        ] {
            for k in [2u32, 3, 4, 6] {
                let k = Modulus::new(k).unwrap();
                if (k.get() as usize).pow(puzzle.cells() as u32) <= 5000 {
                    check_against_brute_force(&press_matrix(&puzzle), k);
                }
            }
        }
    }
}

#[test]
fn rows_put_back_follow_later_column_exchanges() {
    // Over Z_4, rows of even entries wait for the second level while later
    // rows take unit pivots, which exchange columns. A waiting row from an
    // earlier block must follow each exchange (a block is at most 64 rows):
    // 200 rows, the even ones first, then rows whose units are late in the
    // row and only in the first half of the columns, so that the second
    // level too has pivots to find, and exchanges to make, over 100 rows.
    let k = Modulus::new(4).unwrap();
    let n = 12;
    let a = ZkMatrix::from_fn(200, n, |i, j| match i {
        0..100 => [0, 2][(i * 7 + j * 3) % 5 % 2] * u8::from((i + j) % 3 != 0 && (j > 5 || i % 4 == 0)),
        _ if j < 6 => u8::from(j == 5 - (i * 5) % 6 || j == 5 - (i * 5 + 1) % 6) * [1, 3, 2][i % 3],
        _ => [0, 2][(i + j) % 2],
    });
    let f = ZkFactors::new(&a, k);
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    for _ in 0..20 {
        let x0: Vec<u8> = (0..n).map(|_| rng.random_range(0..4)).collect();
        let b = a.mul_vec(&x0, k);
        assert_eq!(a.mul_vec(&f.solve(&b).unwrap(), k), b);
    }
    for (g, order) in f.kernel() {
        assert!(has_order(g, *order, k) && a.mul_vec(g, k).iter().all(|&v| v == 0));
    }
    let left: f64 = f.left_kernel().iter().map(|g| f64::from(g.1).log2()).sum();
    assert!((f.kernel_size_log2() + 200.0 * 2.0 - left - n as f64 * 2.0).abs() < 1e-9);
}

#[test]
fn a_column_exchange_keeps_lazy_sums_in_range() {
    // Rows being eliminated hold unreduced 16-bit sums and remember how far
    // they were added to; only that part is reduced when a sum could
    // overflow. A column exchange once moved an unreduced sum past that
    // mark, where the next row operation overflowed it (a wrong factor).
    // Over Z_243: 64 rows make pivots 0..63 (1 and 242 on two diagonals,
    // filling the first block of rows); then row Y has the non-unit 240 at
    // position 64 and its unit at 80, so its pivot exchanges 64 and 80,
    // and row X, which pivot 63 left with 242·242 at position 64, carries
    // that sum to 80, where Y adds 242·240 more.
    let k = Modulus::new(243).unwrap();
    let n = 100;
    let a = ZkMatrix::from_fn(66, n, |i, j| match i {
        0..64 => [0, 1, 242][usize::from(j == i) + 2 * usize::from(j == i + 1)],
        64 => [0, 240, 1][usize::from(j == 64) + 2 * usize::from(j == 80)],
        _ => u8::from(j == 63 || j == 80),
    });
    let f = ZkFactors::new(&a, k);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..10 {
        let x0: Vec<u8> = (0..n).map(|_| rng.random_range(0..243)).collect();
        let b = a.mul_vec(&x0, k);
        assert_eq!(f.solve(&b).map(|x| a.mul_vec(&x, k)), Some(b));
    }
}

#[test]
fn large_moduli_on_sparse_systems_of_many_blocks() {
    // Large q leaves room for one unreduced row operation at most, sparse
    // rows exchange columns often, and more than 64 rows make several
    // blocks: where the lazy sums are most fragile.
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for k in [128u32, 243, 251, 255] {
        let k = Modulus::new(k).unwrap();
        for _ in 0..12 {
            let (m, n) = (rng.random_range(65..200), rng.random_range(40..120));
            let density = rng.random_range(0.01..0.2);
            let a = ZkMatrix::from_fn(m, n, |_, _| {
                if rng.random_bool(density) { rng.random_range(1..k.get()) } else { 0 }
            });
            let f = ZkFactors::new(&a, k);
            for _ in 0..3 {
                let x0: Vec<u8> = (0..n).map(|_| rng.random_range(0..k.get())).collect();
                let b = a.mul_vec(&x0, k);
                assert_eq!(f.solve(&b).map(|x| a.mul_vec(&x, k)), Some(b), "{m}x{n} mod {k}");
            }
            for (g, order) in f.kernel() {
                assert!(has_order(g, *order, k) && a.mul_vec(g, k).iter().all(|&v| v == 0));
            }
        }
    }
}

fn product(a: &ZkMatrix, b: &ZkMatrix, k: Modulus) -> ZkMatrix {
    let bt = b.transpose();
    ZkMatrix::from_fn(a.nrows(), b.ncols(), |i, j| dot(a.row(i), bt.row(j), k))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Where brute force cannot go: solutions rebuild their right-hand
    /// side, generators have their orders and lie in their kernels, the
    /// obstruction appears exactly when there is no solution, and the sizes
    /// agree with |ker|·K^m = |left ker|·K^n.
    #[test]
    fn factors_rebuild_larger_systems(
        k in prop::sample::select(vec![2u32, 3, 4, 5, 6, 8, 9, 12, 16, 25, 27, 30, 60, 128, 210, 243, 251, 255]),
        // Up to 160 rows: the elimination takes rows in blocks of up to 64,
        // and rows put back in one block meet pivots of later ones.
        m in 1usize..160,
        n in 1usize..40,
        rank in 1usize..40,
        seed in any::<u64>(),
    ) {
        let k = Modulus::new(k).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let a = if rank < m.min(n) {
            let left = random_matrix(&mut rng, m, rank, k);
            let right = random_matrix(&mut rng, rank, n, k);
            product(&left, &right, k)
        } else {
            random_matrix(&mut rng, m, n, k)
        };
        let f = ZkFactors::new(&a, k);
        let x0: Vec<u8> = (0..n).map(|_| rng.random_range(0..k.get())).collect();
        let b = a.mul_vec(&x0, k);
        let x = f.solve(&b).expect("A·x0 is solvable");
        prop_assert_eq!(a.mul_vec(&x, k), b.clone());
        prop_assert_eq!(f.obstruction(&b), None);
        for (g, order) in f.kernel() {
            prop_assert!(has_order(g, *order, k));
            prop_assert!(a.mul_vec(g, k).iter().all(|&v| v == 0));
        }
        let left = f.left_kernel();
        for (y, order) in &left {
            prop_assert!(has_order(y, *order, k));
            prop_assert!(a.vec_mul(y, k).iter().all(|&v| v == 0));
        }
        let left_log2: f64 = left.iter().map(|g| f64::from(g.1).log2()).sum();
        let kk = f64::from(k.get()).log2();
        prop_assert!((f.kernel_size_log2() + m as f64 * kk - left_log2 - n as f64 * kk).abs() < 1e-6);
        for _ in 0..4 {
            let b: Vec<u8> = (0..m).map(|_| rng.random_range(0..k.get())).collect();
            match f.solve(&b) {
                Some(x) => {
                    prop_assert_eq!(a.mul_vec(&x, k), b.clone());
                    prop_assert!(left.iter().all(|(y, _)| dot(y, &b, k) == 0));
                }
                None => {
                    let y = f.obstruction(&b).expect("an obstruction");
                    prop_assert!(a.vec_mul(&y, k).iter().all(|&v| v == 0));
                    prop_assert_ne!(dot(&y, &b, k), 0);
                }
            }
        }
    }
}
