//! The lightest press set in a coset: particular solution + span(quiet patterns).

mod branch;
mod coset;
mod exhaustive;
mod fixed;
mod local;
mod search;
mod symmetry;
pub(crate) use symmetry::grid_symmetries;
mod transform;

pub use crate::solve::slices::{Best, Mask, Shard};
pub use branch::{
    Branching, Estimate, Fold, LEAF_BITS, cross_coset, cross_coset_for_problem, cross_order, estimate,
    search_branch,
};
pub use coset::{Coset, Layout, MAX_TABLE_BITS};
pub use exhaustive::search_blocks;
pub use fixed::Incumbent;
pub(crate) use fixed::improve_with_symmetry;
pub use local::{Anytime, Budget, improve};
pub use search::SearchState;

use crate::model::{Grid, Puzzle};

/// The minimum-weight member of `x + span(quiet)`, and whether it is proven
/// minimal.
///
/// With `d = quiet.len() <= max_nullity` every one of the 2^d members is
/// weighed, so the result is exact:
/// - small `d`: a Gray-code walk, one XOR of a quiet pattern and a
///   word-parallel popcount per member;
/// - larger `d`: Walsh–Hadamard transforms over the cells grouped by key
///   (see [`search_blocks`]), on all threads.
///
/// Beyond the budget the result is the best that a local search finds
/// (see [`improve`]); it is reported as proven only when it meets a lower
/// bound (0 presses always does). Past 63 patterns (a mask's width) it is
/// a greedy descent over whole patterns, proven only when it is empty.
///
/// # Complexity
/// Gray code: O(2^d · R·C / 64) word operations. Transform: O(2^d · t / L)
/// vector operations with `t ≤ 13` table bits and `L` lanes a vector, plus
/// one scaled add per group and block.
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

/// [`minimize`], reporting its progress in blocks of the exhaustive search.
pub fn minimize_with_progress(
    x: &Grid,
    quiet: &[Grid],
    max_nullity: usize,
    progress: &Progress,
) -> (Grid, bool) {
    minimize_with(x, quiet, max_nullity, progress, || Coset::new(x, quiet), || cross_coset(x, quiet), || None)
}

/// [`minimize_with_progress`] for the solutions of `puzzle` with
/// right-hand side `rhs` (board plus target): the same minimum, found
/// faster when the problem is symmetric (see [`Coset::for_problem`]).
///
/// Beyond the exhaustive budget the answer is the best of the local search
/// and of searches over the solutions each symmetry of the problem fixes
/// (see `fixed.rs`), still proven only when it meets a lower bound; the
/// third value then says how it was found, with the coset's lower bound
/// (for the answer's note).
pub fn minimize_problem(
    puzzle: &Puzzle,
    rhs: &Grid,
    x: &Grid,
    quiet: &[Grid],
    max_nullity: usize,
    progress: &Progress,
) -> (Grid, bool, Option<String>) {
    let coset = || Coset::for_problem(puzzle, rhs, x, quiet);
    let cross = || cross_coset_for_problem(puzzle, rhs, x, quiet);
    // Branch and bound looks below the lightest symmetric solution.
    let incumbent = || {
        fixed::improve_with_symmetry(puzzle, rhs, quiet, x.clone(), "the particular solution")
            .map(|found| found.presses.count_ones() as u64)
    };
    let (presses, proven) = minimize_with(x, quiet, max_nullity, progress, coset, cross, incumbent);
    if proven || quiet.len() <= max_nullity.min(MAX_EXHAUSTIVE_NULLITY) {
        return (presses, proven, None);
    }
    // Beyond exhaustive reach: the symmetric solutions, searched as
    // incumbents; the local search's answer stays unless one is lighter.
    let start = if quiet.len() > MAX_KEY_BITS { "a descent over whole patterns" } else { "a local search" };
    let Some(found) = fixed::improve_with_symmetry(puzzle, rhs, quiet, presses.clone(), start) else {
        return (presses, proven, None);
    };
    let proven = found.proven();
    let how = format!("found by {}; lower bound {}", found.found_by, found.lower_bound);
    (found.presses, proven, (!proven).then_some(how))
}

/// The Gray-code walk for small null spaces, a descent past a mask's
/// width, and otherwise the coset that `coset` builds, searched.
fn minimize_with(
    x: &Grid,
    quiet: &[Grid],
    max_nullity: usize,
    progress: &Progress,
    coset: impl FnOnce() -> Coset,
    cross: impl FnOnce() -> Option<Coset>,
    incumbent: impl FnOnce() -> Option<u64>,
) -> (Grid, bool) {
    let d = quiet.len();
    if d < TRANSFORM_FROM && d <= max_nullity {
        return (combine(x, quiet, gray_walk(x, quiet)), true);
    }
    if d > MAX_KEY_BITS {
        // Keys of more than 128 bits: a plain descent over whole patterns.
        let best = greedy(x, quiet);
        let proven = best.is_zero();
        return (best, proven);
    }
    let cross = (BRANCH_FROM..=max_nullity.min(MAX_EXHAUSTIVE_NULLITY)).contains(&d).then(cross);
    if let Some(Some(cross)) = cross {
        return (minimize_branch(x, quiet, &cross, incumbent(), progress), true);
    }
    minimize_coset(x, quiet, &coset(), max_nullity, progress)
}

/// The lightest member of `coset` (over the basis `quiet`): exhaustive up
/// to the budget, a local search beyond.
fn minimize_coset(
    x: &Grid,
    quiet: &[Grid],
    coset: &Coset,
    max_nullity: usize,
    progress: &Progress,
) -> (Grid, bool) {
    if quiet.len() > max_nullity.min(MAX_TRANSFORM_NULLITY) {
        let best = improve(coset, &Budget::default());
        return (coset.member(x, quiet, best.best.mask), best.proven());
    }
    let blocks = coset.layout().blocks();
    let mut best = None;
    for batch in batches(0..blocks) {
        best = Best::better(best, search_blocks(coset, batch.clone(), false));
        progress(batch.end, blocks);
    }
    (coset.member(x, quiet, best.map_or(Mask::ZERO, |b| b.mask)), true)
}

/// The lightest member of `cross` (a coset in the cross basis, over
/// `quiet`) by hybrid branch and bound, looking no higher than a local
/// search's member or `incumbent` (the weight of a member found another
/// way), whichever is lighter.
fn minimize_branch(
    x: &Grid,
    quiet: &[Grid],
    cross: &Coset,
    incumbent: Option<u64>,
    progress: &Progress,
) -> Grid {
    let local = improve(cross, &Budget::default());
    if local.proven() {
        return cross.member(x, quiet, local.best.mask);
    }
    let bound = incumbent.map_or(local.best.weight, |w| w.min(local.best.weight));
    let mut state = SearchState::new_branch(cross, Shard::WHOLE, Branching::new(cross.nullity(), 1, bound));
    let blocks = state.units;
    state.run(cross, false, &mut |s| {
        progress(s.done, blocks);
        std::ops::ControlFlow::Continue(())
    });
    // The local search's member is within the incumbent: found again.
    let best = state.best.unwrap_or(local.best);
    cross.member(x, quiet, best.mask)
}

/// The exact searches' own ceiling, whatever `max_nullity` says: a mask
/// is one `u128` (branch and bound past the transform's reach).
pub const MAX_EXHAUSTIVE_NULLITY: usize = MAX_KEY_BITS;

/// Most basis patterns a [`Coset`] keys cells by (a key is one `u128`).
pub const MAX_KEY_BITS: usize = Mask::BITS;

/// Most patterns the transform engine walks: its blocks are numbered by
/// one `u64` of at most 63 outer bits above 13 table and 4 lane bits.
pub const MAX_TRANSFORM_NULLITY: usize = 80;

/// Nullity from which the exact search is branch and bound rather than the
/// transform: at 42 (65×65) the transform takes 79 s on two cores and
/// branch and bound 436 s; at 46 (119×119) they estimate 1900–2900 and
/// 2000 s, at 50 (125×125) 4·10^4 and 2·10^5 s (the crossing depends on the
/// incumbent; at 62, 95×95, they estimate about the same); at 64 (79×79)
/// branch and bound is about 50 times cheaper, as the transform cannot fold
/// there (docs/performance.md).
pub const BRANCH_FROM: usize = 48;

/// Nullity from which the transform beats the Gray-code walk.
const TRANSFORM_FROM: usize = 12;

/// Splits a range of blocks into batches small enough to report progress
/// (and to stop or checkpoint between) a few times a second.
pub fn batches(blocks: std::ops::Range<u64>) -> impl Iterator<Item = std::ops::Range<u64>> {
    let size = 64 * rayon::current_num_threads() as u64;
    let (start, end) = (blocks.start, blocks.end);
    (start..end).step_by(size as usize).map(move |b| b..(b + size).min(end))
}

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
        current.xor_assign(&quiet[flip]);
        let weight = current.count_ones();
        if weight < best_weight {
            best_weight = weight;
            best = step ^ (step >> 1);
        }
    }
    best
}

/// Adds any pattern that lowers the weight, until none does.
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
    /// Found by review: this compared `minimize` with the walk, and for
    /// d below `TRANSFORM_FROM` `minimize` *is* the walk; the engine is now
    /// called directly, and both meet brute force where it is cheap.
    #[test]
    fn transform_matches_gray_walk() {
        for (rows, cols, d) in [(1, 1, 1), (3, 5, 4), (8, 8, 12), (10, 70, 14), (4, 4, 16), (20, 20, 21)] {
            for seed in 0..4u64 {
                let x = Generate::Random { seed, density: 0.5 }.board(rows, cols);
                let quiet: Vec<Grid> = (0..d)
                    .map(|j| Generate::Random { seed: 1000 + seed * 64 + j, density: 0.3 }.board(rows, cols))
                    .collect();
                let walk = combine(&x, &quiet, gray_walk(&x, &quiet)).count_ones();
                let coset = Coset::new(&x, &quiet);
                let (fast, proven) = minimize_coset(&x, &quiet, &coset, 63, &|_, _| {});
                assert!(proven);
                assert_eq!(walk, fast.count_ones(), "{rows}x{cols} d={d} seed {seed}");
                if d <= 14 {
                    let brute = (0..1u64 << d).map(|m| combine(&x, &quiet, m).count_ones()).min().unwrap();
                    assert_eq!(walk, brute, "{rows}x{cols} d={d} seed {seed}");
                }
            }
        }
    }
}
