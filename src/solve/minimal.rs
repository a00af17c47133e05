//! The lightest press set in a coset: particular solution + span(quiet patterns).

use crate::gf2::words;
use crate::model::Grid;

/// The minimum-weight member of `x + span(quiet)`, and whether it is proven
/// minimal.
///
/// With `quiet.len() <= max_nullity` every one of the 2^d members is visited
/// in Gray-code order (each step is one XOR of a quiet pattern and a
/// word-parallel popcount), so the result is exact. Beyond the budget the
/// search would take too long: the result is then the best found by greedy
/// descent (add any pattern that lowers the weight, until none does), and is
/// reported as not proven minimal.
///
/// # Complexity
/// O(2^d · R·C / 64) word operations within the budget; O(d² · R·C / 64) per
/// greedy pass beyond it.
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
    // Gray codes are counted in a u64, so 63 is a hard ceiling.
    if quiet.len() > max_nullity.min(63) {
        return (greedy(x, quiet), false);
    }
    let mut current = x.clone();
    let mut best_weight = current.count_ones();
    let mut best_code = 0u64;
    for step in 1u64..(1u64 << quiet.len()) {
        let flip = step.trailing_zeros() as usize;
        words::xor_into(current.as_words_mut(), quiet[flip].as_words());
        let weight = current.count_ones();
        if weight < best_weight {
            best_weight = weight;
            best_code = step ^ (step >> 1);
        }
    }
    let mut best = x.clone();
    for (i, q) in quiet.iter().enumerate() {
        if best_code >> i & 1 == 1 {
            best.xor_assign(q);
        }
    }
    (best, true)
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
