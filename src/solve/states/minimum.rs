//! The lightest member of a coset over Z_K: a particular press set plus
//! any combination of the kernel's generators.
//!
//! A K-state press set is a vector `x ∈ Z_K^n`; its weight is `Σ x` (a cell
//! pressed three times counts three). The solutions of a solvable board are
//! `x0 + Σ c_i·g_i` with `0 ≤ c_i < order_i`, and [`minimize`] finds the
//! lightest of them.
//!
//! # How the exhaustive search weighs a member
//! Cell `c`'s value in the member with coefficients `c_1 … c_d` is
//! `(x0[c] + ⟨c, κ_c⟩) mod K`, where the *key* `κ_c = (g_1[c], …, g_d[c])`
//! is the column of generator entries. Cells of one key move together, and
//! cells of one key *and* one particular value are one *unit* with a
//! multiplicity: the weight of a member is a sum over units, whatever the
//! board's size.
//!
//! The coefficients split in two. The low ones (`t` of them, `P = Π_{i<t}
//! order_i` members) are the *inner* block: for the high coefficients fixed,
//! each unit adds `m·((a + s) mod K)` at inner shift `s = ⟨c_low, λ⟩`,
//! where `λ` is the low part of its key and `a` its value so far. Units of
//! one `λ` pool into one table `T_λ[s]`, and a transform over the low
//! coordinates (the Z_K analogue of the Walsh–Hadamard transform the
//! two-state engine uses) turns the tables into the weights of all `P`
//! members of the block at once. The high coefficients are walked in a
//! reflected mixed-radix Gray code: each step changes one coefficient by
//! ±1, which moves the value of each unit whose key has that coordinate
//! nonzero, and updates its table in O(1) (the tables are kept as
//! differences, see `Engine`). Blocks are weighed up to 16 at a time, one
//! in each lane of the transform's buffers, so that its additions run over
//! vectors (AVX-512 or AVX2 where the processor has them); fewer lanes and
//! larger blocks when many units make each step of the walk dear. The top
//! coefficients are split between threads.
//!
//! # Ties
//! Among members of equal weight the one returned is the first in
//! *colexicographic* order of the coefficient tuple: the smallest `c_d`,
//! then among those the smallest `c_(d−1)`, and so on down to `c_1`
//! (the coefficients read as a mixed-radix number with `c_1` the least
//! significant digit). The particular itself (all coefficients 0) wins
//! every tie it is in. The order does not depend on the threads or on
//! the order the search visits members, so the press set returned is the
//! same on every run and every machine.

use std::sync::atomic::{AtomicBool, Ordering};

mod coset;
mod engine;
mod exhaustive;
mod fold;
mod grouping;
mod local;
mod plan;
mod slices;
mod transform;
mod units;

use coset::Coset;
use exhaustive::{How, lanes_of, search, search_tasks};
use grouping::worth_grouping;
use local::descend;
use plan::{Only, inner_plan, sliced_top};
pub use slices::{SlicedCoset, StateSearchState, TaskLayout, merge_states};
use units::Units;

/// The lightest press set found in a coset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Minimum {
    /// The member, one state `0..K` per cell.
    pub presses: Vec<u8>,
    /// Its weight: `Σ presses`.
    pub total: u64,
    /// Whether no member is lighter: the search was exhaustive, or the
    /// member meets [`lower_bound`](Self::lower_bound).
    pub proven_minimal: bool,
    /// No member weighs less than this; equal to `total` when the search
    /// was exhaustive.
    pub lower_bound: u64,
}

/// Most members the exhaustive search walks, whatever the budget says: the
/// index of a member is one `u64`.
pub const MAX_MEMBERS_LOG2: u32 = 63;

/// The lightest member of particular + span(generators) over Z_k, searched exhaustively
/// while the coset has at most 2^max_members_log2 members, by local search otherwise.
///
/// `particular` has one state per cell; each generator is a vector of the
/// same length with its order (the additive order of the vector is used:
/// an order that is a multiple of it adds only repeats). Entries are read
/// mod `k`; a generator shorter than `particular` is padded with zeros.
/// With `k < 2` every press set is zero. Ties go to the first member in the
/// order the module documentation states.
///
/// Beyond the budget a local search gives the best member it finds,
/// `proven_minimal` only when it meets the lower bound (see
/// [`lower_bound`]). Its effort is scaled to the size: about
/// [`LOCAL_WORK`] unit-coefficient steps, so that a board of four million
/// cells with a few dozen generators gets one or two passes of coordinate
/// descent (measured in `benches/states_minimum.rs`, group `local`).
///
/// # Complexity
/// Exhaustive: O(M · S · Σ_{i<t} order_i) for the `M = Π order_i` members
/// (`t` inner coefficients, `S ≤ K` sampled shifts: a few dozen additions
/// per member, vectorised) plus O(units) per block of `P` members.
/// Measured on this machine's two cores, shared with other builds (bench
/// group `throughput`, 100 cells): 1–2·10^8 members/s for K = 2 and 3,
/// 7·10^7 for K = 4, 4–6·10^7 for K = 5 and 6; with 10^4 cells of distinct
/// keys, 2–6·10^7 for K = 3. Grouping the cells by key: O(n · d), about
/// 0.1 s for 4·10^6 cells (group `members`: 3^8 members on a 2000x2000
/// board in 85 ms, 4^8 in 140 ms; a 5x5 board over Z_3 in 8 µs). Local
/// search: O(n · d) per pass.
///
/// # Example
/// ```
/// use lightsout::solve::states::minimum::minimize;
///
/// // Over Z_3: x0 = (2, 2, 2) and one generator (1, 1, 1) of order 3.
/// // Adding it once gives (0, 0, 0), no presses at all.
/// let best = minimize(3, &[2, 2, 2], &[(&[1, 1, 1], 3)], 20);
/// assert_eq!((best.presses, best.total, best.proven_minimal), (vec![0, 0, 0], 0, true));
/// ```
pub fn minimize(k: u8, particular: &[u8], generators: &[(&[u8], u32)], max_members_log2: u32) -> Minimum {
    minimize_with_progress(k, particular, generators, max_members_log2, &|_, _| {})
}

/// [`minimize`], calling `progress(done, total)` with members weighed so
/// far as the exhaustive search goes (never for a local search).
pub fn minimize_with_progress(
    k: u8,
    particular: &[u8],
    generators: &[(&[u8], u32)],
    max_members_log2: u32,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Minimum {
    minimize_tuned(k, particular, generators, max_members_log2, progress, None)
}

/// [`minimize`] that gives up once `stop` is set: the exhaustive search
/// looks at it at the start of each task and after each batch of blocks
/// (one atomic load per batch, a fraction of a millisecond of work), the
/// local search between its passes. Stopped, it returns the lightest
/// member weighed so far (the particular if none), `proven_minimal` only
/// if it meets [`lower_bound`]. A flag set after the search ended may make
/// a complete search report itself unproven, never the reverse.
///
/// # Example
/// ```
/// use std::sync::atomic::AtomicBool;
/// use lightsout::solve::states::minimum::{minimize, minimize_with_stop};
///
/// let gens: [(&[u8], u32); 2] = [(&[1, 2, 0], 3), (&[0, 1, 1], 3)];
/// // Never set: the same answer as `minimize`.
/// let whole = minimize_with_stop(3, &[2, 1, 2], &gens, 20, &AtomicBool::new(false));
/// assert_eq!(whole, minimize(3, &[2, 1, 2], &gens, 20));
/// // Set from the start: a member of the coset, its bound honest.
/// let stopped = minimize_with_stop(3, &[2, 1, 2], &gens, 20, &AtomicBool::new(true));
/// assert!(stopped.lower_bound <= whole.total && stopped.total >= whole.total);
/// ```
pub fn minimize_with_stop(
    k: u8,
    particular: &[u8],
    generators: &[(&[u8], u32)],
    max_members_log2: u32,
    stop: &AtomicBool,
) -> Minimum {
    minimize_stoppable(k, particular, generators, max_members_log2, &|_, _| {}, None, Some(stop))
}

/// How the exhaustive engine sizes its work: for the benches that chose
/// the defaults and for tests (tiny buffers make small cosets walk many
/// blocks). Results do not depend on it.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// Most entries of one transform buffer (blocks × shifts × members).
    pub max_inner: usize,
    /// Blocks weighed together, one a lane of the buffers: 1, 4 or 16
    /// (others are rounded up).
    pub lanes: usize,
    /// Add in `u64` even where `u32` cannot overflow.
    pub wide: bool,
}

/// [`minimize_with_progress`] with the engine sized by `tuning` (`None`:
/// as [`minimize`] sizes it).
#[doc(hidden)]
pub fn minimize_tuned(
    k: u8,
    particular: &[u8],
    generators: &[(&[u8], u32)],
    max_members_log2: u32,
    progress: &(dyn Fn(u64, u64) + Sync),
    tuning: Option<Tuning>,
) -> Minimum {
    minimize_stoppable(k, particular, generators, max_members_log2, progress, tuning, None)
}

/// [`minimize_tuned`] with the stop of [`minimize_with_stop`].
fn minimize_stoppable(
    k: u8,
    particular: &[u8],
    generators: &[(&[u8], u32)],
    max_members_log2: u32,
    progress: &(dyn Fn(u64, u64) + Sync),
    tuning: Option<Tuning>,
    stop: Option<&AtomicBool>,
) -> Minimum {
    let coset = match coset_to_search(k, particular, generators) {
        Ok(coset) => coset,
        Err(answer) => return answer,
    };
    let exhaustive = coset.members().is_some_and(|m| m <= budget(max_members_log2));
    let units = Units::new(&coset, exhaustive || worth_grouping(&coset));
    let bound = units.lower_bound(k);
    if exhaustive {
        let how = How { stop, ..How::default() };
        let found = search_tasks(&coset, &units, false, bound, progress, tuning, how);
        return exhaustive_minimum(&coset, found, bound, stop);
    }
    local_minimum(k, &coset, &units, bound, LOCAL_WORK, stop)
}

/// The normalised coset to search, or its answer where there is nothing
/// to search: one state (every press set weighs 0) or no kernel.
fn coset_to_search<'a>(
    k: u8,
    particular: &[u8],
    generators: &[(&'a [u8], u32)],
) -> Result<Coset<'a>, Minimum> {
    if k < 2 {
        let presses = vec![0; particular.len()];
        return Err(Minimum { presses, total: 0, proven_minimal: true, lower_bound: 0 });
    }
    let coset = Coset::new(k, particular, generators);
    if coset.orders.is_empty() {
        let total = weight(&coset.x0);
        return Err(Minimum { presses: coset.x0, total, proven_minimal: true, lower_bound: total });
    }
    Ok(coset)
}

/// The local search's member of `coset`, within `limit` unit-coefficient
/// steps, with the coset's lower `bound`.
fn local_minimum(
    k: u8,
    coset: &Coset,
    units: &Units,
    bound: u64,
    limit: u64,
    stop: Option<&AtomicBool>,
) -> Minimum {
    let best = descend(k, units, &coset.orders, bound, limit, stop);
    let presses = match &units.of_cell {
        None => best,
        Some(of_cell) => of_cell.iter().map(|&u| best[u as usize]).collect(),
    };
    let total = weight(&presses);
    Minimum { presses, total, proven_minimal: total <= bound, lower_bound: bound.min(total) }
}

/// Unit-coefficient steps of a quick answer ([`quick_minimum`]): about a
/// millisecond, one or two passes of descent on a board of a few hundred
/// cells.
pub const QUICK_WORK: u64 = 1 << 20;

/// A light member of particular + span(generators) found in about a
/// millisecond, and the coset's lower bound: the local search's first
/// descent, cut at [`QUICK_WORK`] steps, with no restarts. A board solved
/// for many targets takes one per target first, then searches in full
/// only the targets that can still beat the lightest (those whose bound
/// is below it).
///
/// # Example
/// ```
/// use lightsout::solve::states::minimum::{minimize, quick_minimum};
///
/// let gens: [(&[u8], u32); 2] = [(&[1, 2, 0], 3), (&[0, 1, 1], 3)];
/// let quick = quick_minimum(3, &[2, 1, 2], &gens);
/// let best = minimize(3, &[2, 1, 2], &gens, 20);
/// assert!(quick.lower_bound <= best.total && best.total <= quick.total);
/// ```
pub fn quick_minimum(k: u8, particular: &[u8], generators: &[(&[u8], u32)]) -> Minimum {
    let coset = match coset_to_search(k, particular, generators) {
        Ok(coset) => coset,
        Err(answer) => return answer,
    };
    let units = Units::new(&coset, worth_grouping(&coset));
    let bound = units.lower_bound(k);
    local_minimum(k, &coset, &units, bound, QUICK_WORK, None)
}

/// The answer of an exhaustive search that `found` the lightest member's
/// (weight, index): proven, unless `stop` was set (then the search may
/// have left tasks out, and only `bound` is known).
fn exhaustive_minimum(
    coset: &Coset,
    found: Option<(u64, u64)>,
    bound: u64,
    stop: Option<&AtomicBool>,
) -> Minimum {
    let (lightest, index) = found.unwrap_or((0, 0));
    let presses = coset.member(&coset.coefficients(index));
    let total = weight(&presses);
    if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
        return Minimum { presses, total, proven_minimal: total <= bound, lower_bound: bound.min(total) };
    }
    debug_assert_eq!(lightest, total, "the engine weighed the member it returns wrongly");
    Minimum { presses, total, proven_minimal: true, lower_bound: total }
}

/// The lightest nonzero member of span(generators) (the lightest quiet pattern), if the
/// span has at most 2^max_members_log2 members; None if it is {0} or too large.
///
/// Ties go to the first member in the order the module documentation
/// states. A member is nonzero when its weight is: generators that are not
/// independent cannot make the search return zero.
///
/// # Complexity
/// As the exhaustive [`minimize`].
///
/// # Example
/// ```
/// use lightsout::solve::states::minimum::lightest_nonzero;
///
/// // Over Z_4: (2, 2, 0) of order 2 and (1, 3, 1) of order 4. Twice the
/// // second is (2, 2, 2); plus the first, (0, 0, 2): weight 2.
/// let q = lightest_nonzero(4, &[(&[2, 2, 0], 2), (&[1, 3, 1], 4)], 20);
/// assert_eq!(q, Some(vec![0, 0, 2]));
/// assert_eq!(lightest_nonzero(4, &[(&[0, 0, 0], 4)], 20), None);
/// ```
pub fn lightest_nonzero(k: u8, generators: &[(&[u8], u32)], max_members_log2: u32) -> Option<Vec<u8>> {
    if k < 2 {
        return None;
    }
    let n = generators.iter().map(|(g, _)| g.len()).max().unwrap_or(0);
    let coset = Coset::new(k, &vec![0; n], generators);
    if coset.orders.is_empty() || coset.members().is_none_or(|m| m > budget(max_members_log2)) {
        return None;
    }
    let units = Units::new(&coset, true);
    // Every nonzero member weighs at least 1.
    let (_, index) = search(&coset, &units, true, 1, &|_, _| {}, None)?;
    Some(coset.member(&coset.coefficients(index)))
}

/// A light nonzero member of `span(generators)` past an exhaustive
/// budget, and whether it is proven lightest: for each generator `g_i`, the
/// coset `g_i + span(the others)` (none of its members is zero: the sum is
/// direct) minimised by the local search, the lightest kept. Proven only
/// when it weighs 1, which no nonzero member can beat.
///
/// # Complexity
/// One local search (budget 2^0: no exhaustive part) per generator.
pub fn light_nonzero(k: u8, generators: &[(&[u8], u32)]) -> Option<(Vec<u8>, bool)> {
    light_nonzero_with_stop(k, generators, &AtomicBool::new(false))
}

/// [`light_nonzero`] that gives up once `stop` is set: the lightest of the
/// generators' cosets searched by then (the first is always searched, so
/// a nonzero span always has an answer), proven as there.
pub fn light_nonzero_with_stop(
    k: u8,
    generators: &[(&[u8], u32)],
    stop: &AtomicBool,
) -> Option<(Vec<u8>, bool)> {
    let mut best: Option<Minimum> = None;
    for (i, (g, order)) in generators.iter().enumerate() {
        if *order < 2 {
            continue;
        }
        if best.is_some() && stop.load(Ordering::Relaxed) {
            break;
        }
        let others: Vec<(&[u8], u32)> =
            generators.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &pair)| pair).collect();
        let found = minimize_with_stop(k, g, &others, 0, stop);
        if found.total > 0 && best.as_ref().is_none_or(|b| found.total < b.total) {
            best = Some(found);
        }
    }
    best.map(|b| {
        let proven = b.total <= 1;
        (b.presses, proven)
    })
}

/// No member of particular + span(generators) weighs less than this.
///
/// Cell `c` can only take the values `x0[c] + ⟨g_c⟩`, where `g_c = gcd(K,
/// κ_c)` is the gcd of its key's entries with K, so it weighs at least
/// `x0[c] mod g_c`; the bound here is at least that sum, and better: the
/// cells of one key share their shift, so each key contributes the least
/// weight of its cells over the shifts it can take (worked out while that
/// stays within a few passes over the cells, else the per-cell bound).
///
/// # Complexity
/// O(n · d) to group the cells, then O(n) for single cells and up to
/// O(n) more for the keys that several cells share.
pub fn lower_bound(k: u8, particular: &[u8], generators: &[(&[u8], u32)]) -> u64 {
    if k < 2 {
        return 0;
    }
    let coset = Coset::new(k, particular, generators);
    if coset.orders.is_empty() {
        return weight(&coset.x0);
    }
    Units::new(&coset, true).lower_bound(k)
}

/// Fewest members whose exhaustive search [`minimize_symmetric`] folds:
/// below it the plain search takes milliseconds, and building the
/// symmetric basis (O(n·d²) per symmetry) costs about as much as it saves
/// (bench group `folding`, docs/performance.md).
pub const MIN_FOLDED_MEMBERS: u64 = 1 << 19;

/// [`minimize`], folded by symmetries of the board where that applies: a
/// prime `k`, generators of order `k`, an exhaustive search of at least
/// `min_members` members ([`MIN_FOLDED_MEMBERS`] but in tests), and
/// `symmetries` (cell permutations, each keeping the rule and fixing the
/// right-hand side: see the `fold` module) that move the kernel. Otherwise
/// the plain search. The weight is the same; among members of equal weight
/// the one returned is the first over the symmetric basis, which may not be
/// [`minimize`]'s.
///
/// # Example
/// ```
/// use lightsout::solve::states::minimum::{minimize, minimize_symmetric};
///
/// // Over Z_3, two cells swapped by a mirror; the kernel (1, 2) and (1, 1).
/// let gens: [(&[u8], u32); 2] = [(&[1, 2], 3), (&[1, 1], 3)];
/// let folded = minimize_symmetric(3, &[1, 1], &gens, 20, &[vec![1, 0]], 0);
/// assert_eq!(folded.total, minimize(3, &[1, 1], &gens, 20).total);
/// ```
pub fn minimize_symmetric(
    k: u8,
    particular: &[u8],
    generators: &[(&[u8], u32)],
    max_members_log2: u32,
    symmetries: &[Vec<usize>],
    min_members: u64,
) -> Minimum {
    minimize_symmetric_stoppable(k, particular, generators, max_members_log2, symmetries, min_members, None)
}

/// [`minimize_symmetric`] with the stop of [`minimize_with_stop`].
#[doc(hidden)]
pub fn minimize_symmetric_stoppable(
    k: u8,
    particular: &[u8],
    generators: &[(&[u8], u32)],
    max_members_log2: u32,
    symmetries: &[Vec<usize>],
    min_members: u64,
    stop: Option<&AtomicBool>,
) -> Minimum {
    let plain = || minimize_stoppable(k, particular, generators, max_members_log2, &|_, _| {}, None, stop);
    let n = particular.len();
    let prime = k >= 2
        && (2..k).take_while(|q| u32::from(*q) * u32::from(*q) <= u32::from(k)).all(|q| !k.is_multiple_of(q));
    let coset = Coset::new(k, particular, generators);
    let fits = prime
        && coset.orders.len() == generators.len()
        && coset.orders.iter().all(|&r| r == u32::from(k))
        && coset.members().is_some_and(|m| m >= min_members && m <= budget(max_members_log2))
        && symmetries.iter().all(|s| s.len() == n);
    if !fits || symmetries.is_empty() {
        return plain();
    }
    // The inner block the plain search would use, as the most the
    // invariant subspace may take.
    let units = Units::new(&coset, true);
    let tuning = Tuning::auto(units.len(), &coset.orders);
    let orders: Vec<usize> = coset.orders.iter().map(|&r| r as usize).collect();
    let (inner, _, _) = inner_plan(&orders, tuning.max_inner / lanes_of(tuning.lanes));
    let gens: Vec<&[u8]> = coset.gens.iter().map(|g| &g[..]).collect();
    let Some(folding) = fold::fold(k, &coset.x0, &gens, symmetries, inner) else {
        return plain();
    };
    let new: Vec<(&[u8], u32)> = folding.gens.iter().map(|g| (&g[..], u32::from(k))).collect();
    let coset = Coset::new(k, &coset.x0, &new);
    let units = Units::new(&coset, true);
    let bound = units.lower_bound(k);
    let found = search_tasks(
        &coset,
        &units,
        false,
        bound,
        &|_, _| {},
        None,
        How { only: None, fold: Some(&folding), stop },
    );
    debug_assert!(folding.symmetries() > 0);
    exhaustive_minimum(&coset, found, bound, stop)
}

/// Unit-coefficient steps a local search may spend (each is one unit
/// looked at for one coefficient): about 0.2 s here, which is one or two
/// passes of descent over 4·10^6 cells with 36 generators, and hundreds of
/// descents on boards of a few thousand cells.
pub const LOCAL_WORK: u64 = 1 << 28;

/// Most entries of one transform buffer (`LANES` blocks of `P` members and
/// their `S` shifts): 2^16 `u32`s are 256 KiB, two of them inside a core's
/// 1 MiB level-2 cache (bench group `tuning` measures the choice).
pub const MAX_INNER: usize = 1 << 16;

/// Blocks weighed at once, one a lane: 16 `u32`s are one AVX-512 vector.
pub const LANES: usize = 16;

fn budget(max_members_log2: u32) -> u64 {
    1u64 << max_members_log2.min(MAX_MEMBERS_LOG2)
}

fn weight(x: &[u8]) -> u64 {
    x.iter().map(|&v| u64::from(v)).sum()
}

/// Members a task of a sliced search weighs at most, unless there are no
/// coefficients left to split by: a few milliseconds of work, so that a
/// batch of tasks, a checkpoint and a time limit come every fraction of a
/// second.
pub const SLICED_TASK_MEMBERS: u64 = 1 << 18;

#[cfg(test)]
mod tests;
