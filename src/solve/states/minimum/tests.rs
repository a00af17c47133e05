//! Tests of the public searches, and the references (every member, the
//! first lightest by brute force, random cosets) that the tests of the
//! other parts share.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;

/// Every member in index order (`c_1` fastest): the reference.
pub(super) fn members(k: u8, x0: &[u8], gens: &[(Vec<u8>, u32)]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let total: u64 = gens.iter().map(|g| u64::from(g.1)).product();
    for index in 0..total {
        let mut rest = index;
        let mut x: Vec<u32> = x0.iter().map(|&v| u32::from(v)).collect();
        for (g, r) in gens {
            let c = (rest % u64::from(*r)) as u32;
            rest /= u64::from(*r);
            for (xc, &e) in x.iter_mut().zip(g) {
                *xc = (*xc + c * u32::from(e)) % u32::from(k);
            }
        }
        out.push(x.into_iter().map(|v| v as u8).collect());
    }
    out
}

/// The first lightest (nonzero) member by brute force.
pub(super) fn brute(k: u8, x0: &[u8], gens: &[(Vec<u8>, u32)], nonzero: bool) -> Option<Vec<u8>> {
    let mut best: Option<(u64, Vec<u8>)> = None;
    for m in members(k, x0, gens) {
        let w = weight(&m);
        if (!nonzero || w > 0) && best.as_ref().is_none_or(|b| w < b.0) {
            best = Some((w, m));
        }
    }
    best.map(|b| b.1)
}

/// A random generator of order `r | k`: entries multiples of k/r, not
/// all of them multiples of a larger divisor (so its order is `r`).
pub(super) fn random_coset(
    rng: &mut ChaCha8Rng,
    k: u8,
    n: usize,
    d: usize,
) -> (Vec<u8>, Vec<(Vec<u8>, u32)>) {
    let divisors: Vec<u8> = (2..=k).filter(|&r| k.is_multiple_of(r)).collect();
    let x0 = (0..n).map(|_| rng.random_range(0..k)).collect();
    let gens = (0..d)
        .map(|_| {
            let r = divisors[rng.random_range(0..divisors.len())];
            let unit = k / r;
            let mut g: Vec<u8> = (0..n).map(|_| rng.random_range(0..r) * unit).collect();
            g[rng.random_range(0..n)] = unit;
            (g, u32::from(r))
        })
        .collect();
    (x0, gens)
}

pub(super) fn borrowed(gens: &[(Vec<u8>, u32)]) -> Vec<(&[u8], u32)> {
    gens.iter().map(|(g, r)| (&g[..], *r)).collect()
}

/// [`lightest_nonzero`] against the brute force on the span of `gens`
/// (of `n` cells), `what` naming the case in a failure.
pub(super) fn assert_lightest_nonzero_is_brute(k: u8, n: usize, gens: &[(Vec<u8>, u32)], what: &str) {
    assert_eq!(lightest_nonzero(k, &borrowed(gens), 40), brute(k, &vec![0; n], gens, true), "{what}");
}

/// Calls `check` with K, the round and (x0, generators) of 60 random
/// cosets (1 to 29 cells, 0 to 4 generators) for each of a few K, drawn
/// from `seed`.
fn on_random_cosets(seed: u64, mut check: impl FnMut(u8, usize, Vec<u8>, Vec<(Vec<u8>, u32)>)) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for k in [2u8, 3, 4, 5, 6, 8, 9] {
        for round in 0..60 {
            let n = rng.random_range(1..30);
            let d = rng.random_range(0..5);
            let (x0, gens) = random_coset(&mut rng, k, n, d);
            check(k, round, x0, gens);
        }
    }
}

#[test]
fn exhaustive_equals_brute_force() {
    on_random_cosets(7, |k, round, x0, gens| {
        let (n, d) = (x0.len(), gens.len());
        let expected = brute(k, &x0, &gens, false).unwrap();
        let got = minimize(k, &x0, &borrowed(&gens), 40);
        assert_eq!(got.presses, expected, "K={k} round {round}: n={n} d={d}");
        let small = minimize_tuned(
            k,
            &x0,
            &borrowed(&gens),
            40,
            &|_, _| {},
            Some(Tuning { max_inner: 1, lanes: 2, wide: true }),
        );
        assert_eq!(small, got, "K={k} round {round}: one coefficient a block");
        // Exhaustive: proven, and its bound is the brute-force minimum.
        let least = weight(&expected);
        assert_eq!((got.total, got.proven_minimal, got.lower_bound), (least, true, least));
        assert!(lower_bound(k, &x0, &borrowed(&gens)) <= got.total);
    });
}

#[test]
fn lightest_nonzero_equals_brute_force() {
    on_random_cosets(8, |k, round, x0, gens| {
        assert_lightest_nonzero_is_brute(k, x0.len(), &gens, &format!("K={k} round {round}"));
    });
}

#[test]
fn same_answer_on_one_thread_and_two() {
    // Ties everywhere: a board of 0s and generators of repeated entries.
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    for (k, n, d) in [(3u8, 30, 10), (4, 16, 8), (2, 8, 14)] {
        let (x0, gens) = random_coset(&mut rng, k, n, d);
        let run = |threads| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| minimize(k, &x0, &borrowed(&gens), 40))
        };
        assert_eq!(run(1), run(2), "K={k}");
        assert_eq!(run(1).presses, brute(k, &x0, &gens, false).unwrap());
    }
}

#[test]
fn a_set_stop_ends_the_search_with_an_honest_answer() {
    // Stopped after the first task (the flag set from `progress`): the
    // answer is a member, its bound true, and proven only if minimal.
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let mut cut_short = 0;
    for (round, (k, n, d)) in
        [(3u8, 40, 9), (4, 30, 7), (5, 25, 6), (2, 50, 14)].into_iter().cycle().take(24).enumerate()
    {
        let (x0, gens) = random_coset(&mut rng, k, n, d);
        let all = members(k, &x0, &gens);
        let true_min = all.iter().map(|m| weight(m)).min().unwrap();
        let stop = AtomicBool::new(false);
        let tuning = Some(Tuning { max_inner: 1, lanes: 1, wide: false });
        let set = |_, _| stop.store(true, Ordering::Relaxed);
        let got = minimize_stoppable(k, &x0, &borrowed(&gens), 40, &set, tuning, Some(&stop));
        // A member, of the weight the enumeration gives it (not `total ==
        // weight(presses)`: the search computes `total` just so).
        let weighed = |x: &[u8]| all.iter().find(|m| m[..] == *x).map(|m| weight(m));
        assert_eq!(weighed(&got.presses), Some(got.total), "round {round}: not a member of that weight");
        assert!(got.lower_bound <= true_min && true_min <= got.total, "round {round}");
        assert!(!got.proven_minimal || got.total == true_min, "round {round}: claimed proven");
        cut_short += usize::from(got.total > true_min);
        // The local search, stopped after its first pass: as honest.
        let local = minimize_with_stop(k, &x0, &borrowed(&gens), 0, &AtomicBool::new(true));
        assert!(all.contains(&local.presses), "round {round}: local, not a member");
        assert!(local.lower_bound <= true_min && true_min <= local.total, "round {round}: local");
        assert!(!local.proven_minimal || local.total == true_min, "round {round}: local, claimed proven");
    }
    // The stop did end searches before they found the minimum.
    assert!(cut_short >= 6, "{cut_short}");
}

#[test]
fn progress_reaches_the_total() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let (x0, gens) = random_coset(&mut rng, 3, 30, 12);
    let seen = std::sync::Mutex::new(Vec::new());
    let got = minimize_with_progress(3, &x0, &borrowed(&gens), 40, &|done, total| {
        seen.lock().unwrap().push((done, total));
    });
    let seen = seen.into_inner().unwrap();
    let members: u64 = gens.iter().map(|g| u64::from(g.1)).product();
    assert!(seen.iter().all(|&(_, total)| total == members));
    assert_eq!(seen.iter().map(|&(done, _)| done).max(), Some(members));
    // Watching progress leaves the answer the brute-force one (it was
    // compared with `minimize`, the same search).
    let expected = brute(3, &x0, &gens, false).unwrap();
    assert_eq!((got.total, got.proven_minimal), (weight(&expected), true));
    assert_eq!(got.presses, expected);
}

#[test]
fn odd_inputs() {
    // Orders that are multiples of the true order, entries past K,
    // short generators, zero generators, K below 2.
    let got = minimize(4, &[3, 3, 7], &[(&[2, 6], 8), (&[0, 0, 0], 4)], 10);
    assert_eq!((got.presses, got.total), (vec![1, 1, 3], 5));
    assert_eq!(minimize(1, &[0, 0], &[(&[1, 1], 1)], 10).presses, vec![0, 0]);
    assert_eq!(minimize(5, &[], &[], 10).total, 0);
    assert_eq!(lightest_nonzero(3, &[], 10), None);
    assert_eq!(lightest_nonzero(3, &[(&[1, 2], 3)], 1), None); // 3 members > 2^1
}
