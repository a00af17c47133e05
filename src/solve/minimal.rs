//! The lightest press set in a coset: particular solution + span(quiet patterns).

use std::collections::HashMap;

use crate::gf2::words;
use crate::model::Grid;

/// The minimum-weight member of `x + span(quiet)`, and whether it is proven
/// minimal.
///
/// With `d = quiet.len() <= max_nullity` every one of the 2^d members is
/// weighed, so the result is exact:
/// - small `d`: a Gray-code walk, one XOR of a quiet pattern and a
///   word-parallel popcount per member;
/// - larger `d`: the Walsh–Hadamard transform. Cell i contributes
///   `x_i ⊕ ⟨k_i, s⟩` to the weight of member `s`, where `k_i` holds bit i
///   of each quiet pattern, so `weight(s) = (n − Σ_i (−1)^(x_i) (−1)^⟨k_i,s⟩) / 2`
///   and the sum, for all `s` at once, is the transform of
///   `f(v) = Σ_(k_i = v) (−1)^(x_i)`. The low bits of `s` go through the
///   transform, the high bits through a Gray-code walk.
///
/// Beyond the budget (`max_nullity`, and never above
/// [`MAX_EXHAUSTIVE_NULLITY`]) the search would take too long: the result is then the
/// best found by greedy descent (add any pattern that lowers the weight,
/// until none does), and is reported as not proven minimal.
///
/// # Complexity
/// Gray code: O(2^d · R·C / 64) word operations. Transform: O(2^d · d) adds
/// plus O(2^(d−t) · R·C) for the 2^(d−t) high parts (t ≤ 22 transform bits).
/// Greedy: O(d² · R·C / 64) per pass.
///
/// # Example
/// ```
/// use lightsout::{minimize, Grid};
///
/// let x = Grid::ones(1, 4);
/// let q = Grid::from_fn(1, 4, |_, c| c < 3);
/// let (best, proven) = minimize(&x, &[q], 32);
/// assert_eq!((best.count_ones(), proven), (1, true));
/// ```
pub fn minimize(x: &Grid, quiet: &[Grid], max_nullity: usize) -> (Grid, bool) {
    minimize_with_progress(x, quiet, max_nullity, &|_, _| {})
}

/// Reports how far a long search has got: `(done, total)` in steps of the
/// search's own choosing.
pub type Progress = dyn Fn(u64, u64) + Send + Sync;

/// [`minimize`], reporting its progress (only the transform's walk over the
/// high bits of large null spaces, d > 22, is long enough to report).
pub fn minimize_with_progress(
    x: &Grid,
    quiet: &[Grid],
    max_nullity: usize,
    progress: &Progress,
) -> (Grid, bool) {
    if quiet.len() > max_nullity.min(MAX_EXHAUSTIVE_NULLITY) {
        let best = greedy(x, quiet);
        // No presses at all needs no proof.
        let proven = best.is_zero();
        return (best, proven);
    }
    // The transform counts in i32: every signed sum is at most the number of cells.
    let small = quiet.len() < TRANSFORM_FROM || x.nrows() * x.ncols() > i32::MAX as usize;
    let best = if small { gray_walk(x, quiet) } else { transform(x, quiet, progress) };
    (combine(x, quiet, best), true)
}

/// The exhaustive search's own budget, whatever `max_nullity` says: 2^34
/// members are 2^12 transforms of 2^22, about a minute here; beyond, hours.
pub const MAX_EXHAUSTIVE_NULLITY: usize = 34;

/// Nullity from which the transform beats the Gray-code walk.
const TRANSFORM_FROM: usize = 12;

/// Most bits handled by one transform (a table of 2^22 counters, 16 MiB).
const TRANSFORM_BITS: usize = 22;

/// `x + Σ_(bit j of mask) quiet[j]`.
fn combine(x: &Grid, quiet: &[Grid], mask: u64) -> Grid {
    let mut member = x.clone();
    for (j, q) in quiet.iter().enumerate() {
        if mask >> j & 1 == 1 {
            member.xor_assign(q);
        }
    }
    member
}

/// The lightest member's mask, visiting members in Gray-code order.
pub(crate) fn gray_walk(x: &Grid, quiet: &[Grid]) -> u64 {
    let mut current = x.clone();
    let mut best_weight = current.count_ones();
    let mut best = 0u64;
    for step in 1u64..(1u64 << quiet.len()) {
        let flip = step.trailing_zeros() as usize;
        words::xor_into(current.as_words_mut(), quiet[flip].as_words());
        let weight = current.count_ones();
        if weight < best_weight {
            best_weight = weight;
            best = step ^ (step >> 1);
        }
    }
    best
}

/// The lightest member's mask, by Walsh–Hadamard transforms over the low
/// bits of the mask for each value of the high bits.
pub(crate) fn transform(x: &Grid, quiet: &[Grid], progress: &Progress) -> u64 {
    let d = quiet.len();
    let low = d.min(TRANSFORM_BITS);
    // Cells with the same key and colour act alike: group them, with the
    // signed count Σ(−1)^(x_i) as weight.
    let mut groups: HashMap<u64, i32> = HashMap::new();
    for r in 0..x.nrows() {
        for c in 0..x.ncols() {
            let key = quiet.iter().enumerate().fold(0u64, |k, (j, q)| k | (q.get(r, c) as u64) << j);
            *groups.entry(key).or_insert(0) += if x.get(r, c) { -1 } else { 1 };
        }
    }
    let groups: Vec<(u64, i32)> = groups.into_iter().filter(|&(_, a)| a != 0).collect();
    let low_mask = (1u64 << low) - 1;
    let mut table = vec![0i32; 1 << low];
    let (mut best_sum, mut best) = (i32::MIN, 0u64);
    let highs = 1u64 << (d - low);
    for high in 0u64..highs {
        progress(high, highs);
        table.fill(0);
        for &(key, signed) in &groups {
            let odd = ((key >> low) & high).count_ones() % 2 == 1;
            table[(key & low_mask) as usize] += if odd { -signed } else { signed };
        }
        walsh_hadamard(&mut table);
        // The largest signed sum is the lightest member.
        let (s, &sum) =
            table.iter().enumerate().max_by_key(|&(s, &v)| (v, std::cmp::Reverse(s))).unwrap_or((0, &0));
        if sum > best_sum {
            best_sum = sum;
            best = high << low | s as u64;
        }
    }
    best
}

/// In-place Walsh–Hadamard transform: `t(s) = Σ_v f(v)·(−1)^⟨v,s⟩`.
fn walsh_hadamard(table: &mut [i32]) {
    let mut half = 1;
    while half < table.len() {
        for block in table.chunks_mut(2 * half) {
            let (lo, hi) = block.split_at_mut(half);
            for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
                let (u, v) = (*a, *b);
                *a = u + v;
                *b = u - v;
            }
        }
        half *= 2;
    }
}

fn greedy(x: &Grid, quiet: &[Grid]) -> Grid {
    let mut best = x.clone();
    let mut weight = best.count_ones();
    let mut improved = true;
    while improved {
        improved = false;
        for q in quiet {
            best.xor_assign(q);
            let w = best.count_ones();
            if w < weight {
                weight = w;
                improved = true;
            } else {
                best.xor_assign(q);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Generate;

    /// The transform must find a member exactly as light as the walk's.
    #[test]
    fn transform_matches_gray_walk() {
        for (rows, cols, d) in [(1, 1, 1), (3, 5, 4), (8, 8, 12), (10, 70, 14), (4, 4, 16), (20, 20, 23)] {
            for seed in 0..4u64 {
                let x = Generate::Random { seed, density: 0.5 }.board(rows, cols);
                let quiet: Vec<Grid> = (0..d)
                    .map(|j| Generate::Random { seed: 1000 + seed * 64 + j, density: 0.3 }.board(rows, cols))
                    .collect();
                let walk = combine(&x, &quiet, gray_walk(&x, &quiet)).count_ones();
                let fast = combine(&x, &quiet, transform(&x, &quiet, &|_, _| {})).count_ones();
                assert_eq!(walk, fast, "{rows}x{cols} d={d} seed {seed}");
            }
        }
    }
}
