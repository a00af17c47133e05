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

use std::borrow::Cow;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rand::{RngExt, SeedableRng};

use crate::Shard;

mod fold;
mod slices;

use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
pub use slices::{SlicedCoset, StateSearchState, merge_states};

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
/// use lightsout::state_minimum::minimize;
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
/// use lightsout::state_minimum::{minimize, minimize_with_stop};
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
    if k < 2 {
        let presses = vec![0; particular.len()];
        return Minimum { presses, total: 0, proven_minimal: true, lower_bound: 0 };
    }
    let coset = Coset::new(k, particular, generators);
    if coset.orders.is_empty() {
        let total = weight(&coset.x0);
        return Minimum { presses: coset.x0, total, proven_minimal: true, lower_bound: total };
    }
    let exhaustive = coset.members().is_some_and(|m| m <= budget(max_members_log2));
    let units = Units::new(&coset, exhaustive || worth_grouping(&coset));
    let bound = units.lower_bound(k);
    if exhaustive {
        let how = How { stop, ..How::default() };
        let found = search_tasks(&coset, &units, false, bound, progress, tuning, how);
        return exhaustive_minimum(&coset, found, bound, stop);
    }
    let best = descend(k, &units, &coset.orders, bound, stop);
    let presses = match &units.of_cell {
        None => best,
        Some(of_cell) => of_cell.iter().map(|&u| best[u as usize]).collect(),
    };
    let total = weight(&presses);
    Minimum { presses, total, proven_minimal: total <= bound, lower_bound: bound.min(total) }
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
/// use lightsout::state_minimum::lightest_nonzero;
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
/// use lightsout::state_minimum::{minimize, minimize_symmetric};
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

/// Seeded restarts of the local search after its first descent.
const RESTARTS: u32 = 32;

/// Seed of the restarts, so that every run gives the same answer.
const SEED: u64 = 0x5eed_0f2a;

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

/// gcd(a, b) for bytes, from a table built once per process.
fn gcd(a: u8, b: u8) -> u8 {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        fn euclid(mut a: u32, mut b: u32) -> u32 {
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        }
        (0..1u32 << 16).map(|i| euclid(i >> 8, i & 255) as u8).collect()
    });
    table[usize::from(a) << 8 | usize::from(b)]
}

/// The coset, normalised: entries reduced mod K, zero generators dropped,
/// each generator with its additive order.
struct Coset<'a> {
    k: u8,
    x0: Vec<u8>,
    gens: Vec<Cow<'a, [u8]>>,
    orders: Vec<u32>,
}

impl<'a> Coset<'a> {
    fn new(k: u8, particular: &[u8], generators: &[(&'a [u8], u32)]) -> Self {
        let n = particular.len();
        let x0 = particular.iter().map(|&v| v % k).collect();
        let (mut gens, mut orders) = (Vec::new(), Vec::new());
        for &(g, _) in generators {
            let g: Cow<'a, [u8]> = if g.len() == n && g.iter().all(|&e| e < k) {
                Cow::Borrowed(g)
            } else {
                Cow::Owned((0..n).map(|c| g.get(c).map_or(0, |&e| e % k)).collect())
            };
            // gcd(K, entries): the order of g is K / gcd.
            let mut common = k;
            for &e in g.iter() {
                common = gcd(common, e);
                if common == 1 {
                    break;
                }
            }
            if common != k {
                orders.push(u32::from(k / common));
                gens.push(g);
            }
        }
        Coset { k, x0, gens, orders }
    }

    /// Π order_i, if it fits a `u64`.
    fn members(&self) -> Option<u64> {
        self.orders.iter().try_fold(1u64, |m, &r| m.checked_mul(u64::from(r)))
    }

    /// The coefficients of the member with mixed-radix `index` (`c_1` least
    /// significant).
    fn coefficients(&self, mut index: u64) -> Vec<u32> {
        self.orders
            .iter()
            .map(|&r| {
                let c = index % u64::from(r);
                index /= u64::from(r);
                c as u32
            })
            .collect()
    }

    /// `x0 + Σ c_i·g_i` (mod K).
    fn member(&self, coefficients: &[u32]) -> Vec<u8> {
        let k = usize::from(self.k);
        let mut x = self.x0.clone();
        for (g, &c) in self.gens.iter().zip(coefficients) {
            if c != 0 {
                let add: [u8; 256] = std::array::from_fn(|e| (e * c as usize % k) as u8);
                for (xc, &e) in x.iter_mut().zip(g.iter()) {
                    let v = usize::from(*xc) + usize::from(add[usize::from(e)]);
                    *xc = if v >= k { v - k } else { v } as u8;
                }
            }
        }
        x
    }
}

/// The cells as units: one per (key, particular value), with how many
/// cells it stands for.
struct Units<'a> {
    /// The particular's value of each unit.
    value: Vec<u8>,
    /// How many cells each unit stands for.
    mult: Vec<u32>,
    /// Each generator's entry for each unit.
    cols: Vec<Cow<'a, [u8]>>,
    /// The key group of each unit and the number of groups; `None` when
    /// no two units share a key.
    group: Option<(Vec<u32>, usize)>,
    /// The unit of each cell; `None` when unit `u` is cell `u`.
    of_cell: Option<Vec<u32>>,
}

impl<'a> Units<'a> {
    /// The units of `coset`; with `group` false, one unit a cell (the
    /// search is as right, only slower where cells share keys, and the
    /// bound is the per-cell one).
    fn new(coset: &'a Coset<'a>, group: bool) -> Self {
        let (k, n) = (coset.k, coset.x0.len());
        let cells = |group| Units {
            value: coset.x0.clone(),
            mult: vec![1; n],
            cols: coset.gens.iter().map(|g| Cow::Borrowed(&g[..])).collect(),
            group,
            of_cell: None,
        };
        if !group {
            return cells(None);
        }
        let (group_of, reps) = group_cells(coset);
        if reps.len() == n {
            // Every key is a single cell: the units are the cells.
            return cells(None);
        }
        let mut ids = IdMap::new(Some(reps.len() as u64 * u64::from(k)), n);
        let mut of_cell = Vec::with_capacity(n);
        let (mut value, mut mult, mut group, mut first) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (c, (&g, &v)) in group_of.iter().zip(&coset.x0).enumerate() {
            let u = ids.id(u64::from(g) * u64::from(k) + u64::from(v));
            if u as usize == value.len() {
                value.push(v);
                mult.push(0);
                group.push(g);
                first.push(c as u32);
            }
            mult[u as usize] += 1;
            of_cell.push(u);
        }
        let cols =
            coset.gens.iter().map(|g| Cow::Owned(first.iter().map(|&c| g[c as usize]).collect())).collect();
        Units { value, mult, cols, group: Some((group, reps.len())), of_cell: Some(of_cell) }
    }

    fn len(&self) -> usize {
        self.value.len()
    }

    /// The same units owning their columns (a sliced search keeps them
    /// beside the coset they were made from).
    fn into_owned(self) -> Units<'static> {
        let cols = self.cols.into_iter().map(|c| Cow::Owned(c.into_owned())).collect();
        Units { value: self.value, mult: self.mult, cols, group: self.group, of_cell: self.of_cell }
    }

    /// gcd(K, the entries of unit `u`'s key): its value moves in steps of it.
    fn step(&self, k: u8, u: usize) -> u8 {
        let mut g = k;
        for col in &self.cols {
            g = gcd(g, col[u]);
            if g == 1 {
                break;
            }
        }
        g
    }

    /// See [`lower_bound`].
    fn lower_bound(&self, k: u8) -> u64 {
        let per_unit = |u: usize| match self.value[u] {
            0 => 0,
            v => u64::from(self.mult[u]) * u64::from(v % self.step(k, u)),
        };
        let Some((group, groups)) = &self.group else {
            return (0..self.len()).map(per_unit).sum();
        };
        let mut units_of = vec![0u32; *groups];
        for &g in group {
            units_of[g as usize] += 1;
        }
        let mut bound: u64 =
            (0..self.len()).filter(|&u| units_of[group[u] as usize] == 1).map(&per_unit).sum();
        // Keys shared by several units: the least weight over the key's
        // shifts, while the work stays within a few passes over the cells.
        let mut shared: Vec<(u32, u32)> = (0..self.len() as u32)
            .filter(|&u| units_of[group[u as usize] as usize] > 1)
            .map(|u| (group[u as usize], u))
            .collect();
        shared.sort_unstable();
        let mut work_left = 4 * self.len() as u64 + (1 << 16);
        for run in shared.chunk_by(|a, b| a.0 == b.0) {
            let step = usize::from(self.step(k, run[0].1 as usize));
            let cost = (usize::from(k) / step * run.len()) as u64;
            if cost <= work_left {
                work_left -= cost;
                bound += (0..usize::from(k))
                    .step_by(step)
                    .map(|s| {
                        run.iter()
                            .map(|&(_, u)| {
                                let v = (usize::from(self.value[u as usize]) + s) % usize::from(k);
                                u64::from(self.mult[u as usize]) * v as u64
                            })
                            .sum::<u64>()
                    })
                    .min()
                    .unwrap_or(0);
            } else {
                bound += run.iter().map(|&(_, u)| per_unit(u as usize)).sum::<u64>();
            }
        }
        bound
    }
}

/// Whether grouping the cells by key may pay for a local search: always on
/// boards of up to 2^16 cells; on larger ones, when at least a quarter of
/// 4096 cells spread over the board share their key with another of them.
/// (Grouping costs a pass over every key; when keys are all different it
/// buys nothing.)
fn worth_grouping(coset: &Coset) -> bool {
    let n = coset.x0.len();
    if n <= 1 << 16 {
        return true;
    }
    let sample = 4096;
    let mut keys: Vec<Vec<u8>> =
        (0..sample).map(|i| i * (n / sample)).map(|c| coset.gens.iter().map(|g| g[c]).collect()).collect();
    keys.sort_unstable();
    keys.dedup();
    keys.len() <= sample * 3 / 4
}

/// The key group of each cell, and the first cell of each group, groups
/// numbered in the order their first cells come.
///
/// When `Π order_i` fits a `u64` the key is packed exactly (mixed radix
/// over the orders); otherwise it is hashed, the groups are checked cell by
/// cell against their first cell, and on a collision (never seen; the hash
/// is 64 bits) the cells are grouped by sorting their keys.
fn group_cells(coset: &Coset) -> (Vec<u32>, Vec<u32>) {
    let n = coset.x0.len();
    let exact = coset.members().is_some();
    let mut keys = vec![0u64; n];
    let mut stride = 1u64;
    for (g, &r) in coset.gens.iter().zip(&coset.orders) {
        if exact {
            let unit = coset.k / r as u8;
            let digit: [u64; 256] = std::array::from_fn(|e| (e / usize::from(unit)) as u64 * stride);
            for (key, &e) in keys.iter_mut().zip(g.iter()) {
                *key += digit[usize::from(e)];
            }
            stride = stride.wrapping_mul(u64::from(r));
        } else {
            for (key, &e) in keys.iter_mut().zip(g.iter()) {
                *key = (*key ^ u64::from(e)).wrapping_mul(0x0100_0000_01b3).rotate_left(17);
            }
        }
    }
    let mut ids = IdMap::new(coset.members(), n);
    let mut reps = Vec::new();
    let group_of: Vec<u32> = keys
        .iter()
        .enumerate()
        .map(|(c, &key)| {
            let id = ids.id(key);
            if id as usize == reps.len() {
                reps.push(c as u32);
            }
            id
        })
        .collect();
    if exact || reps.len() == n {
        return (group_of, reps);
    }
    let collision = coset
        .gens
        .iter()
        .any(|g| group_of.iter().zip(g.iter()).any(|(&id, &e)| g[reps[id as usize] as usize] != e));
    if !collision {
        return (group_of, reps);
    }
    // Exact grouping: sort the cells by key.
    let mut cells: Vec<u32> = (0..n as u32).collect();
    let key_order = |a: &u32, b: &u32| {
        coset
            .gens
            .iter()
            .map(|g| g[*a as usize].cmp(&g[*b as usize]))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
    };
    cells.sort_by(|a, b| key_order(a, b).then(a.cmp(b)));
    let mut group_of = vec![0u32; n];
    let mut reps: Vec<u32> = Vec::new();
    for (i, &c) in cells.iter().enumerate() {
        if i == 0 || key_order(&cells[i - 1], &c).is_ne() {
            reps.push(c);
        }
        group_of[c as usize] = reps.len() as u32 - 1;
    }
    (group_of, reps)
}

/// Ids for `u64` keys, handed out in the order keys are first seen: a
/// plain array when the keys are known to be small, else an
/// open-addressing table (cheaper than `HashMap` for the millions of cells
/// of a large board).
struct IdMap {
    /// Direct: `ids[key]`. Hashed: `keys[slot]`, `ids[slot]`.
    direct: bool,
    keys: Vec<u64>,
    ids: Vec<u32>,
    len: usize,
}

impl IdMap {
    const EMPTY: u32 = u32::MAX;

    /// A map for up to `n` keys, each below `limit` if that is known.
    fn new(limit: Option<u64>, n: usize) -> Self {
        match limit {
            Some(limit) if limit <= (2 * n as u64).max(1 << 16) => {
                IdMap { direct: true, keys: Vec::new(), ids: vec![Self::EMPTY; limit as usize], len: 0 }
            }
            _ => IdMap { direct: false, keys: vec![0; 64], ids: vec![Self::EMPTY; 64], len: 0 },
        }
    }

    fn slot(&self, key: u64) -> usize {
        if self.direct {
            return key as usize;
        }
        // splitmix64's finaliser: packed keys are far from random.
        let mut h = key ^ key >> 30;
        h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h ^= h >> 27;
        h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^= h >> 31;
        let mask = self.keys.len() - 1;
        let mut i = h as usize & mask;
        while self.ids[i] != Self::EMPTY && self.keys[i] != key {
            i = (i + 1) & mask;
        }
        i
    }

    /// The id of `key`, a new one (the number of keys so far) if unseen.
    fn id(&mut self, key: u64) -> u32 {
        let i = self.slot(key);
        if self.ids[i] != Self::EMPTY {
            return self.ids[i];
        }
        let id = self.len as u32;
        self.ids[i] = id;
        self.len += 1;
        if self.direct {
            return id;
        }
        self.keys[i] = key;
        if 2 * self.len > self.keys.len() {
            let (keys, ids) = (std::mem::take(&mut self.keys), std::mem::take(&mut self.ids));
            self.keys = vec![0; 2 * keys.len()];
            self.ids = vec![Self::EMPTY; 2 * keys.len()];
            for (key, id) in keys.into_iter().zip(ids) {
                if id != Self::EMPTY {
                    let j = self.slot(key);
                    self.keys[j] = key;
                    self.ids[j] = id;
                }
            }
        }
        id
    }
}

/// The number type the tables add in: `u32` while no member can weigh
/// 2^32 or more, else `u64`. Arithmetic wraps: the tables hold
/// differences, and every value read back is a true weight.
trait Acc: Copy + Send + Sync + Ord + Default + 'static {
    fn of(v: u64) -> Self;
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn get(self) -> u64;
}

impl Acc for u32 {
    fn of(v: u64) -> Self {
        v as u32
    }
    fn add(self, o: Self) -> Self {
        self.wrapping_add(o)
    }
    fn sub(self, o: Self) -> Self {
        self.wrapping_sub(o)
    }
    fn get(self) -> u64 {
        u64::from(self)
    }
}

impl Acc for u64 {
    fn of(v: u64) -> Self {
        v
    }
    fn add(self, o: Self) -> Self {
        self.wrapping_add(o)
    }
    fn sub(self, o: Self) -> Self {
        self.wrapping_sub(o)
    }
    fn get(self) -> u64 {
        self
    }
}

/// The exhaustive search: the lightest member's (weight, index), ties to
/// the smallest index; with `nonzero`, members of weight 0 are skipped.
/// `bound` is a weight no member (nonzero member) is below: a member that
/// meets it lets the search skip every block of larger indices.
fn search(
    coset: &Coset,
    units: &Units,
    nonzero: bool,
    bound: u64,
    progress: &(dyn Fn(u64, u64) + Sync),
    tuning: Option<Tuning>,
) -> Option<(u64, u64)> {
    search_tasks(coset, units, nonzero, bound, progress, tuning, How::default())
}

/// Which tasks of a sliced search one call weighs: the slice's tasks
/// `range` (see [`Tasks`]), and the index of a member already found that
/// meets the bound (`u64::MAX` if none), past which nothing is weighed.
#[derive(Clone)]
struct Only {
    /// Most members of a task (see [`sliced_top`]).
    cap: u64,
    shard: Shard,
    range: std::ops::Range<u64>,
    met: u64,
}

/// What a search weighs besides the plain whole: only some tasks of a
/// sliced search, or one block per orbit of the symmetries.
#[derive(Default)]
struct How<'f> {
    only: Option<Only>,
    fold: Option<&'f fold::Folding>,
    /// Once set, each task ends after its current batch of blocks.
    stop: Option<&'f AtomicBool>,
}

/// [`search`], or with `only` the tasks it names of the layout
/// [`Tasks::of`] fixes.
fn search_tasks(
    coset: &Coset,
    units: &Units,
    nonzero: bool,
    bound: u64,
    progress: &(dyn Fn(u64, u64) + Sync),
    tuning: Option<Tuning>,
    how: How,
) -> Option<(u64, u64)> {
    let How { only, fold, stop } = how;
    let tuning = tuning.unwrap_or_else(|| Tuning::auto(units.len(), &coset.orders));
    let heaviest: u64 = units.mult.iter().map(|&m| u64::from(m)).sum::<u64>() * u64::from(coset.k - 1);
    let sliced = only.as_ref().map(|o| o.cap);
    macro_rules! run {
        ($a:ty) => {
            match tuning.lanes {
                0 | 1 => Engine::<$a, 1>::new(coset, units, tuning, sliced, fold)
                    .run(nonzero, bound, progress, only, stop),
                2..=4 => Engine::<$a, 4>::new(coset, units, tuning, sliced, fold)
                    .run(nonzero, bound, progress, only, stop),
                _ => Engine::<$a, 16>::new(coset, units, tuning, sliced, fold)
                    .run(nonzero, bound, progress, only, stop),
            }
        };
    }
    if heaviest < 1 << 32 && !tuning.wide { run!(u32) } else { run!(u64) }
}

impl Tuning {
    /// The engine's sizes for `units` units (bench group `tuning`): few
    /// units are cheap to move, so blocks are small and weighed 16 at a
    /// time; many units make each step of the Gray walk dear (every unit
    /// whose key has the coefficient moves), so blocks grow, fewer at a
    /// time, to need fewer steps.
    fn auto(units: usize, orders: &[u32]) -> Tuning {
        let mut lanes = match units {
            0..=1000 => LANES,
            1001..=5000 => 4,
            _ => 1,
        };
        // Too few blocks to fill the lanes twice over: fewer lanes (and
        // larger blocks).
        let orders: Vec<usize> = orders.iter().map(|&r| r as usize).collect();
        let members: u64 = orders.iter().map(|&r| r as u64).product();
        while lanes > 1 && members / (inner_plan(&orders, MAX_INNER / lanes).1 as u64) < 2 * lanes as u64 {
            lanes /= 4;
        }
        Tuning { max_inner: MAX_INNER, lanes, wide: false }
    }
}

/// Members a task of a sliced search weighs at most, unless there are no
/// coefficients left to split by: a few milliseconds of work, so that a
/// batch of tasks, a checkpoint and a time limit come every fraction of a
/// second.
pub const SLICED_TASK_MEMBERS: u64 = 1 << 18;

/// How many top coefficients split a sliced search into tasks: fixed by the
/// coset (never by the threads), so that a slice, a checkpoint and a record
/// mean the same on every machine. As many as keep a task within
/// `cap` members ([`SLICED_TASK_MEMBERS`] but in tests).
fn sliced_top(p: u64, outer: &[usize], cap: u64) -> usize {
    let mut per_task = p.saturating_mul(outer.iter().map(|&r| r as u64).product());
    let mut top = 0;
    while top < outer.len() && per_task > cap {
        per_task /= outer[outer.len() - 1 - top] as u64;
        top += 1;
    }
    top
}

/// Lanes of the engine `lanes` asks for (as [`search`] rounds them).
fn lanes_of(lanes: usize) -> usize {
    match lanes {
        0 | 1 => 1,
        2..=4 => 4,
        _ => 16,
    }
}

/// How many of the low coefficients (`t`) make the inner block, and its
/// members `P` and sampled shifts `S`: as many as keep `S·P` within
/// `entries`, and at least one.
fn inner_plan(orders: &[usize], entries: usize) -> (usize, usize, usize) {
    let (mut t, mut p, mut s) = (0, 1usize, 1usize);
    while t < orders.len() {
        let r = orders[t];
        let s2 = s / usize::from(gcd(s as u8, r as u8)) * r;
        if s2 * p * r > entries && t > 0 {
            break;
        }
        (t, p, s) = (t + 1, p * r, s2);
    }
    (t, p, s)
}

/// One entry of the buffers for each of `L` blocks weighed together.
type Row<A, const L: usize> = [A; L];

/// The exhaustive engine (see the module documentation), weighing `L`
/// blocks at a time, one a lane.
///
/// For each low key `λ` the table `T_λ[s] = Σ_(units of λ) m·((a + s) mod K)`
/// is kept as differences over the `S` shifts the inner coefficients can
/// make (`s = σ·K/S`): slot 0 holds `Σ m·a`, slot `σ ≥ 1` adds `(K/S)·M_λ`
/// (the `s·M_λ` part, `M_λ = Σ m`) less `K·m` for each unit that wraps
/// past K from shift σ on, and `T_λ[σ·K/S]` is the sum of slots 0 ..= σ.
/// A unit whose value `a` moves changes slot 0 and at most two others;
/// slot `S` collects the wraps no sampled shift reaches.
struct Engine<'a, A: Acc, const L: usize> {
    k: usize,
    units: &'a Units<'a>,
    /// Orders of the inner coefficients, then of the outer ones.
    inner: Vec<usize>,
    outer: Vec<usize>,
    /// Members per block (Π inner orders) and sampled shifts per table.
    p: usize,
    s: usize,
    /// How many of the outer coefficients (from the top) split the work.
    top: usize,
    /// For `j` in `0..=K`: the slot where a wrap at shift `j` starts.
    slot_of: Vec<usize>,
    /// Per unit: its low key's table, `m` and `K·m`.
    lam: Vec<u32>,
    m: Vec<A>,
    km: Vec<A>,
    /// Per outer coefficient: the units it moves, with their entries.
    moves: Vec<Vec<(u32, u8)>>,
    /// The tables' part that never changes: `(K/S)·M_λ` in slots 1..S.
    fixed: Vec<A>,
    /// Symmetries: only the smallest block of each orbit is weighed.
    fold: Option<&'a fold::Folding>,
}

impl<'a, A: Acc, const L: usize> Engine<'a, A, L> {
    fn new(
        coset: &Coset,
        units: &'a Units<'a>,
        tuning: Tuning,
        sliced: Option<u64>,
        fold: Option<&'a fold::Folding>,
    ) -> Self {
        let k = usize::from(coset.k);
        let orders: Vec<usize> = coset.orders.iter().map(|&r| r as usize).collect();
        let (t, p, s) = match fold {
            // The inner block is the invariant subspace, whatever its size.
            Some(f) => (f.invariant, k.pow(f.invariant as u32), k),
            None => inner_plan(&orders, tuning.max_inner / L),
        };
        let (inner, outer) = (orders[..t].to_vec(), orders[t..].to_vec());
        // The top coefficients split the blocks into tasks: enough for the
        // threads to share, each with blocks to fill its lanes if it can;
        // for a sliced search, the fixed split of `Tasks`.
        let threads = rayon::current_num_threads().max(1) as u64;
        let blocks: u64 = outer.iter().map(|&r| r as u64).product();
        let mut top = 0;
        let mut tasks = 1u64;
        while sliced.is_none() && top < outer.len() && tasks < 16 * threads {
            let more = tasks * outer[outer.len() - 1 - top] as u64;
            if more * L as u64 > blocks && tasks >= threads {
                break;
            }
            (tasks, top) = (more, top + 1);
        }
        if let Some(cap) = sliced {
            top = sliced_top(p as u64, &outer, cap);
        }
        let slot_of = (0..=k).map(|j| (j * s).div_ceil(k)).collect();
        let mut lam = vec![0u32; units.len()];
        let mut stride = 1u32;
        for (col, &r) in units.cols.iter().zip(&inner) {
            let unit = (k / r) as u8;
            for (l, &e) in lam.iter_mut().zip(col.iter()) {
                *l += u32::from(e / unit) * stride;
            }
            stride *= r as u32;
        }
        let moves = units.cols[t..]
            .iter()
            .map(|col| {
                (0..units.len() as u32)
                    .filter(|&u| col[u as usize] != 0)
                    .map(|u| (u, col[u as usize]))
                    .collect()
            })
            .collect();
        let m: Vec<A> = units.mult.iter().map(|&m| A::of(u64::from(m))).collect();
        let km = units.mult.iter().map(|&m| A::of(u64::from(m) * k as u64)).collect();
        let mut fixed = vec![A::default(); p * (s + 1)];
        let step = A::of((k / s) as u64);
        for (&l, &mu) in lam.iter().zip(&m) {
            let row = &mut fixed[l as usize * (s + 1)..][..s + 1];
            for slot in &mut row[1..s] {
                *slot = slot.add(mu_times(mu, step));
            }
        }
        Engine { k, units, inner, outer, p, s, top, slot_of, lam, m, km, moves, fixed, fold }
    }

    /// Every block; see [`search`].
    fn run(
        &self,
        nonzero: bool,
        bound: u64,
        progress: &(dyn Fn(u64, u64) + Sync),
        only: Option<Only>,
        stop: Option<&AtomicBool>,
    ) -> Option<(u64, u64)> {
        let split = self.outer.len() - self.top;
        let tasks: u64 = self.outer[split..].iter().map(|&r| r as u64).product();
        let per_task = self.p as u64 * self.outer[..split].iter().map(|&r| r as u64).product::<u64>();
        let total = per_task * tasks;
        let met = AtomicU64::new(only.as_ref().map_or(u64::MAX, |o| o.met));
        let done = AtomicU64::new(0);
        let task = |t: u64| {
            let best = self.task(t, nonzero, bound, &met, stop);
            progress(done.fetch_add(per_task, Ordering::Relaxed) + per_task, total);
            best
        };
        if let Some(Only { shard, range, .. }) = only {
            return range
                .into_par_iter()
                .map(|i| shard.block(i))
                .filter(|&t| t < tasks)
                .filter_map(task)
                .min();
        }
        if tasks == 1 {
            return task(0);
        }
        (0..tasks).into_par_iter().filter_map(task).min()
    }

    /// One task: the blocks whose top coefficients spell `task`, walked in
    /// Gray-code order over the middle ones, `L` blocks weighed at once
    /// (block `i` of a batch in lane `i` of the buffers).
    fn task(
        &self,
        task: u64,
        nonzero: bool,
        bound: u64,
        met: &AtomicU64,
        stop: Option<&AtomicBool>,
    ) -> Option<(u64, u64)> {
        let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
        if stopped() {
            return None;
        }
        let (k, s, p) = (self.k, self.s, self.p);
        let split = self.outer.len() - self.top;
        // Block strides: block index = Σ_outer c_i · stride_i.
        let strides: Vec<u64> =
            self.outer.iter().scan(1u64, |st, &r| Some(std::mem::replace(st, *st * r as u64))).collect();
        let mut a = self.units.value.clone();
        let mut block = 0u64;
        let mut rest = task;
        // Every outer coefficient of the block, for the symmetries' test.
        let mut outer_digits = vec![0usize; self.outer.len()];
        let top = self.outer.iter().zip(&strides).zip(&self.moves).skip(split);
        for (i, ((&r, &stride), moves)) in top.enumerate() {
            let c = (rest % r as u64) as usize;
            rest /= r as u64;
            outer_digits[split + i] = c;
            block += c as u64 * stride;
            for &(u, e) in moves {
                let v = &mut a[u as usize];
                *v = ((usize::from(*v) + c * usize::from(e)) % k) as u8;
            }
        }
        if block.saturating_mul(p as u64) > met.load(Ordering::Relaxed) {
            return None;
        }
        let mut d = self.fixed.clone();
        for (u, &v) in a.iter().enumerate() {
            let row = self.lam[u] as usize * (s + 1);
            d[row] = d[row].add(mu_times(self.m[u], A::of(u64::from(v))));
            d[row + self.slot_of[k - usize::from(v)]] =
                d[row + self.slot_of[k - usize::from(v)]].sub(self.km[u]);
        }
        let mut buf = vec![[A::default(); L]; s * p];
        let mut tmp = buf.clone();
        let mut lane_block = [0u64; L];
        let mut filled = 0;
        let mut digit = vec![0usize; split];
        let mut up = vec![true; split];
        let mut best: Option<(u64, u64)> = None;
        loop {
            let weighed = self.fold.is_none_or(|f| {
                outer_digits[..split].copy_from_slice(&digit);
                f.is_canonical(&outer_digits)
            });
            if weighed && block * p as u64 <= met.load(Ordering::Relaxed) {
                self.capture(&d, &mut buf, filled);
                lane_block[filled] = block;
                filled += 1;
            }
            // The next block in the reflected Gray code: the lowest middle
            // coefficient that can move on in its direction moves by one;
            // those below it, at their ends, turn round.
            let next = (0..split).find(|&j| {
                let can = if up[j] { digit[j] + 1 < self.outer[j] } else { digit[j] > 0 };
                if !can {
                    up[j] = !up[j];
                }
                can
            });
            if filled == L || (next.is_none() && filled > 0) {
                transform(&mut buf, &mut tmp, &self.inner, s, p);
                let found = lightest(&mut buf[..p], filled, &lane_block, p, nonzero);
                if let Some(found) = found {
                    if best.is_none_or(|b| found < b) {
                        best = Some(found);
                    }
                    if found.0 <= bound {
                        met.fetch_min(found.1, Ordering::Relaxed);
                    }
                }
                filled = 0;
                if stopped() {
                    break;
                }
            }
            let Some(j) = next else {
                break;
            };
            let e_of = |e: u8| if up[j] { usize::from(e) } else { k - usize::from(e) };
            if up[j] {
                digit[j] += 1;
                block += strides[j];
            } else {
                digit[j] -= 1;
                block -= strides[j];
            }
            for &(u, e) in &self.moves[j] {
                let u = u as usize;
                let old = usize::from(a[u]);
                let mut new = old + e_of(e);
                let mut change = A::of(e_of(e) as u64);
                if new >= k {
                    new -= k;
                    change = change.sub(A::of(k as u64));
                }
                a[u] = new as u8;
                let row = self.lam[u] as usize * (s + 1);
                d[row] = d[row].add(mu_times(self.m[u], change));
                d[row + self.slot_of[k - old]] = d[row + self.slot_of[k - old]].add(self.km[u]);
                d[row + self.slot_of[k - new]] = d[row + self.slot_of[k - new]].sub(self.km[u]);
            }
        }
        best
    }

    /// The block's tables `T_λ[σ·K/S]` into `lane` of `buf` (row σ·P + λ),
    /// from their differences `d`.
    fn capture(&self, d: &[A], buf: &mut [Row<A, L>], lane: usize) {
        let (s, p) = (self.s, self.p);
        for (l, row) in d.chunks_exact(s + 1).enumerate() {
            let mut sum = A::default();
            for (sigma, &x) in row[..s].iter().enumerate() {
                sum = sum.add(x);
                buf[sigma * p + l][lane] = sum;
            }
        }
    }
}

fn mu_times<A: Acc>(m: A, v: A) -> A {
    A::of(m.get().wrapping_mul(v.get()))
}

/// The lightest member among the transformed blocks: `weights[c][lane]` is
/// member `c` of block `lane_block[lane]`, for the first `filled` lanes.
/// (weight, index), the smallest index among the lightest; with `nonzero`,
/// weight 0 is skipped.
fn lightest<A: Acc, const L: usize>(
    weights: &mut [Row<A, L>],
    filled: usize,
    lane_block: &[u64; L],
    p: usize,
    nonzero: bool,
) -> Option<(u64, u64)> {
    // Unfilled lanes hold stale sums: make them the heaviest. With
    // `nonzero`, w − 1 (wrapping) puts weight 0 last.
    let skip = A::of(u64::MAX);
    let shift = A::of(u64::from(nonzero));
    if filled < L {
        for row in weights.iter_mut() {
            for w in &mut row[filled..] {
                *w = skip.add(shift);
            }
        }
    }
    let least = weights.iter().map(|row| row.iter().map(|w| w.sub(shift)).min().unwrap_or(skip)).min()?;
    if least == skip {
        return None;
    }
    let index = weights
        .iter()
        .enumerate()
        .flat_map(|(c, row)| {
            row.iter()
                .zip(lane_block)
                .filter(|(w, _)| w.sub(shift) == least)
                .map(move |(_, &b)| b * p as u64 + c as u64)
        })
        .min()?;
    Some((least.add(shift).get(), index))
}

/// Turns the tables `buf[σ·P + λ] = T_λ[σ·K/S]` (λ in mixed radix over the
/// inner orders, the first coordinate least significant; each row holds
/// `L` blocks) into the weights `buf[c] = Σ_λ T_λ[⟨c, λ⟩]` of the `P`
/// members `c` of each block.
///
/// One coordinate at a time, its key digit `a` is replaced by its
/// coefficient `c`: `new[σ][…c…] = Σ_a old[σ + c·a·S/r][…a…]`, where a
/// digit `a` stands for the entry `a·K/r` (`r` the coordinate's order) and
/// the shift is counted in units of K/S. The last coordinate needs σ = 0
/// only. Compiled for AVX-512 and AVX2 when the processor has them: the
/// rows of `L` lanes are what the vector instructions add.
///
/// # Complexity
/// O(S · P · Σ r) row additions.
fn transform<A: Acc, const L: usize>(
    buf: &mut Vec<Row<A, L>>,
    tmp: &mut Vec<Row<A, L>>,
    inner: &[usize],
    s: usize,
    p: usize,
) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU was seen to support the features.
            return unsafe { transform_avx512(buf, tmp, inner, s, p) };
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: as above.
            return unsafe { transform_avx2(buf, tmp, inner, s, p) };
        }
    }
    transform_portable(buf, tmp, inner, s, p)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn transform_avx512<A: Acc, const L: usize>(
    buf: &mut Vec<Row<A, L>>,
    tmp: &mut Vec<Row<A, L>>,
    inner: &[usize],
    s: usize,
    p: usize,
) {
    transform_portable(buf, tmp, inner, s, p)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn transform_avx2<A: Acc, const L: usize>(
    buf: &mut Vec<Row<A, L>>,
    tmp: &mut Vec<Row<A, L>>,
    inner: &[usize],
    s: usize,
    p: usize,
) {
    transform_portable(buf, tmp, inner, s, p)
}

#[inline(always)]
fn transform_portable<A: Acc, const L: usize>(
    buf: &mut Vec<Row<A, L>>,
    tmp: &mut Vec<Row<A, L>>,
    inner: &[usize],
    s: usize,
    p: usize,
) {
    let mut run = 1;
    for (j, &r) in inner.iter().enumerate() {
        let sigmas = if j + 1 == inner.len() { 1 } else { s };
        let shift = s / r;
        let chunk = run * r;
        for so in 0..sigmas {
            let out = &mut tmp[so * p..(so + 1) * p];
            let plane_of = |a: usize, c: usize| {
                let sigma = (so + c * a * shift) % s;
                &buf[sigma * p..(sigma + 1) * p]
            };
            for c in 0..r {
                // Terms a = 0 and a = 1 together (every order is at least 2),
                // then the others.
                let (p0, p1) = (plane_of(0, c), plane_of(1, c));
                let chunks =
                    out.chunks_exact_mut(chunk).zip(p0.chunks_exact(chunk)).zip(p1.chunks_exact(chunk));
                for ((oc, c0), c1) in chunks {
                    // Flat runs of run·L entries: the compiler vectorises
                    // along them (over rows of L it would gather).
                    let o = oc[c * run..(c + 1) * run].as_flattened_mut();
                    let (y0, y1) = (c0[..run].as_flattened(), c1[run..2 * run].as_flattened());
                    for ((x, &y0), &y1) in o.iter_mut().zip(y0).zip(y1) {
                        *x = y0.add(y1);
                    }
                }
                for a in 2..r {
                    let pa = plane_of(a, c);
                    for (oc, ca) in out.chunks_exact_mut(chunk).zip(pa.chunks_exact(chunk)) {
                        let o = oc[c * run..(c + 1) * run].as_flattened_mut();
                        for (x, &y) in o.iter_mut().zip(ca[a * run..(a + 1) * run].as_flattened()) {
                            *x = x.add(y);
                        }
                    }
                }
            }
        }
        std::mem::swap(buf, tmp);
        run = chunk;
    }
}

/// The local search beyond the budget: coordinate descent over the
/// generators' multiples, from the particular and then from seeded
/// restarts (the best member so far with one to three coefficients
/// redrawn), until [`LOCAL_WORK`] is spent, [`RESTARTS`] restarts have
/// run, or a member meets `bound`. Returns the best member's value per
/// unit.
///
/// One descent pass tries, for each generator in turn, every multiple to
/// add and takes the one that lowers the weight most (the smallest on a
/// tie), until a whole pass changes nothing. Weighing every multiple of a
/// generator at once costs one pass over the units: a histogram of (unit
/// value, key digit) gives each multiple's change from suffix sums.
fn descend(k: u8, units: &Units, orders: &[u32], bound: u64, stop: Option<&AtomicBool>) -> Vec<u8> {
    let mut walk =
        Walk { k: usize::from(k), units, orders, y: units.value.clone(), work: 0, hist: Vec::new(), stop };
    let mut weight: u64 = walk.y.iter().zip(&units.mult).map(|(&v, &m)| u64::from(v) * u64::from(m)).sum();
    weight = walk.descend(weight);
    let (mut best, mut best_weight) = (walk.y.clone(), weight);
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let d = orders.len();
    for _ in 0..RESTARTS {
        if walk.work >= LOCAL_WORK || best_weight <= bound || walk.stopped() {
            break;
        }
        walk.y.clone_from(&best);
        let mut weight = best_weight;
        for _ in 0..1 + rng.random_range(0..d.min(3)) {
            let i = rng.random_range(0..d);
            let delta = rng.random_range(1..orders[i]);
            weight = walk.add(i, delta, weight);
        }
        weight = walk.descend(weight);
        if weight < best_weight {
            best.clone_from(&walk.y);
            best_weight = weight;
        }
    }
    best
}

/// A member of the coset during the local search: the value of each unit.
struct Walk<'a> {
    k: usize,
    units: &'a Units<'a>,
    orders: &'a [u32],
    y: Vec<u8>,
    /// Units looked at so far, over all coefficients.
    work: u64,
    hist: Vec<u64>,
    /// Once set, the walk ends after its current pass.
    stop: Option<&'a AtomicBool>,
}

impl Walk<'_> {
    fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Descent passes from the current member until none improves or the
    /// work is spent; returns the new weight.
    fn descend(&mut self, mut weight: u64) -> u64 {
        loop {
            let mut improved = false;
            for i in 0..self.orders.len() {
                if self.work >= LOCAL_WORK {
                    return weight;
                }
                if let Some(delta) = self.best_multiple(i) {
                    weight = self.add(i, delta, weight);
                    improved = true;
                }
            }
            if !improved || self.stopped() {
                return weight;
            }
        }
    }

    /// The multiple of generator `i` whose addition lowers the weight most,
    /// if any does.
    fn best_multiple(&mut self, i: usize) -> Option<u32> {
        let (k, r) = (self.k, self.orders[i] as usize);
        let unit = k / r;
        let col = &self.units.cols[i];
        // Four histograms filled in turn, summed after: consecutive units
        // rarely wait for each other's increments.
        let size = r * k;
        self.hist.clear();
        self.hist.resize(4 * size, 0);
        let bin: [u32; 256] = std::array::from_fn(|e| (e / unit * k) as u32);
        let bin_of = |e: u8, y: u8| bin[usize::from(e)] as usize + usize::from(y);
        let (hist, y) = (&mut self.hist, &self.y);
        if self.units.of_cell.is_none() {
            // One cell a unit: no multiplicities to read.
            let (cols4, ys4) = (col.chunks_exact(4), y.chunks_exact(4));
            let (col_rest, y_rest) = (cols4.remainder(), ys4.remainder());
            for (e, y) in cols4.zip(ys4) {
                for j in 0..4 {
                    hist[j * size + bin_of(e[j], y[j])] += 1;
                }
            }
            for (&e, &y) in col_rest.iter().zip(y_rest) {
                hist[bin_of(e, y)] += 1;
            }
        } else {
            for (j, ((&e, &y), &m)) in col.iter().zip(y).zip(&self.units.mult).enumerate() {
                hist[(j & 3) * size + bin_of(e, y)] += u64::from(m);
            }
        }
        for j in 0..size {
            hist[j] += hist[size + j] + hist[2 * size + j] + hist[3 * size + j];
        }
        self.work += col.len() as u64 + (r * k) as u64;
        // change[δ]: the weight change of adding δ·g_i.
        let mut change = vec![0i64; r];
        let mut suffix = vec![0u64; k + 1];
        for digit in 1..r {
            let row = &self.hist[digit * k..(digit + 1) * k];
            for y in (0..k).rev() {
                suffix[y] = suffix[y + 1] + row[y];
            }
            let units = suffix[0] as i64;
            if units == 0 {
                continue;
            }
            for (delta, ch) in change.iter_mut().enumerate().skip(1) {
                // Each unit gains t, less K for those at K − t or above.
                let t = delta * digit * unit % k;
                *ch += t as i64 * units - (k as i64) * suffix[k - t] as i64 * i64::from(t != 0);
            }
        }
        let (delta, &gain) = change.iter().enumerate().skip(1).min_by_key(|&(delta, &ch)| (ch, delta))?;
        (gain < 0).then_some(delta as u32)
    }

    /// Adds `delta`·g_i to the member; returns the new weight.
    fn add(&mut self, i: usize, delta: u32, weight: u64) -> u64 {
        let k = self.k;
        let add: [u8; 256] = std::array::from_fn(|e| (e * delta as usize % k) as u8);
        let mut weight = weight as i64;
        for ((y, &e), &m) in self.y.iter_mut().zip(self.units.cols[i].iter()).zip(&self.units.mult) {
            let old = usize::from(*y);
            let mut new = old + usize::from(add[usize::from(e)]);
            if new >= k {
                new -= k;
            }
            *y = new as u8;
            weight += (new as i64 - old as i64) * i64::from(m);
        }
        self.work += self.y.len() as u64;
        weight as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every member in index order (`c_1` fastest): the reference.
    fn members(k: u8, x0: &[u8], gens: &[(Vec<u8>, u32)]) -> Vec<Vec<u8>> {
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
    fn brute(k: u8, x0: &[u8], gens: &[(Vec<u8>, u32)], nonzero: bool) -> Option<Vec<u8>> {
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
    fn random_coset(rng: &mut ChaCha8Rng, k: u8, n: usize, d: usize) -> (Vec<u8>, Vec<(Vec<u8>, u32)>) {
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

    fn borrowed(gens: &[(Vec<u8>, u32)]) -> Vec<(&[u8], u32)> {
        gens.iter().map(|(g, r)| (&g[..], *r)).collect()
    }

    #[test]
    fn exhaustive_equals_brute_force() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for k in [2u8, 3, 4, 5, 6, 8, 9] {
            for round in 0..60 {
                let n = rng.random_range(1..30);
                let d = rng.random_range(0..5);
                let (x0, gens) = random_coset(&mut rng, k, n, d);
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
                assert_eq!(
                    (got.total, got.proven_minimal, got.lower_bound),
                    (weight(&expected), true, got.total)
                );
                assert!(lower_bound(k, &x0, &borrowed(&gens)) <= got.total);
            }
        }
    }

    #[test]
    fn lightest_nonzero_equals_brute_force() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        for k in [2u8, 3, 4, 5, 6, 8, 9] {
            for round in 0..60 {
                let n = rng.random_range(1..30);
                let d = rng.random_range(0..5);
                let (_, gens) = random_coset(&mut rng, k, n, d);
                let expected = brute(k, &vec![0; n], &gens, true);
                assert_eq!(lightest_nonzero(k, &borrowed(&gens), 40), expected, "K={k} round {round}");
            }
        }
    }

    #[test]
    fn blocks_tasks_and_gray_walk_equal_brute_force() {
        // Enough members for several blocks, tasks and a Gray walk over the
        // middle coefficients, and small tables so that the walk is long.
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for (k, n, d) in [(3u8, 40, 11), (4, 30, 8), (6, 25, 7), (2, 50, 17), (9, 12, 5), (8, 20, 7)] {
            let (x0, gens) = random_coset(&mut rng, k, n, d);
            let expected = brute(k, &x0, &gens, false).unwrap();
            let got = minimize(k, &x0, &borrowed(&gens), 40);
            assert_eq!(got.presses, expected, "K={k} n={n} d={d}");
            let sizes = [(1, 1, false), (20, 3, true), (200, 1, false), (200, 16, true), (5000, 7, false)];
            for (max_inner, lanes, wide) in sizes {
                let tuning = Tuning { max_inner, lanes, wide };
                let small = minimize_tuned(k, &x0, &borrowed(&gens), 40, &|_, _| {}, Some(tuning));
                assert_eq!(small, got, "K={k} n={n} d={d} {tuning:?}");
            }
            let zero = vec![0; n];
            assert_eq!(lightest_nonzero(k, &borrowed(&gens), 40), brute(k, &zero, &gens, true), "K={k}");
        }
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
    fn local_search_claims_only_true_minima() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut proven = 0;
        for k in [2u8, 3, 4, 5, 6, 8, 9] {
            for round in 0..40 {
                let n = rng.random_range(1..25);
                let d = rng.random_range(1..5);
                let (x0, gens) = random_coset(&mut rng, k, n, d);
                let all = members(k, &x0, &gens);
                let true_min = all.iter().map(|m| weight(m)).min().unwrap();
                let got = minimize(k, &x0, &borrowed(&gens), 0);
                assert!(all.contains(&got.presses), "K={k} round {round}: not a member");
                assert_eq!(got.total, weight(&got.presses));
                assert!(got.lower_bound <= true_min && true_min <= got.total, "K={k} round {round}");
                if got.proven_minimal {
                    assert_eq!(got.total, true_min, "K={k} round {round}: claimed proven");
                    proven += 1;
                }
            }
        }
        // The bound is met often enough to be worth having.
        assert!(proven > 20, "{proven}");
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
            assert!(all.contains(&got.presses), "round {round}: not a member");
            assert_eq!(got.total, weight(&got.presses));
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
    fn a_stop_ends_a_task_between_its_batches() {
        // 3^24 members, hours of work: the search runs in tasks of about
        // 10^10 members each, so it returns only if a task stops mid-way.
        let mut rng = ChaCha8Rng::seed_from_u64(13);
        let (x0, gens) = random_coset(&mut rng, 3, 100, 24);
        let stop = AtomicBool::new(false);
        let got = std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(50));
                stop.store(true, Ordering::Relaxed);
            });
            minimize_with_stop(3, &x0, &borrowed(&gens), 40, &stop)
        });
        assert!(!got.proven_minimal && got.lower_bound < got.total, "{got:?}");
        assert_eq!(got.total, weight(&got.presses));
        assert!(got.lower_bound >= lower_bound(3, &x0, &borrowed(&gens)));
    }

    #[test]
    fn bound_is_at_least_the_per_cell_gcd_bound() {
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        for k in [4u8, 6, 8, 9] {
            for _ in 0..30 {
                let (x0, gens) = random_coset(&mut rng, k, 20, 3);
                let per_cell: u64 = (0..20)
                    .map(|c| {
                        let g = gens.iter().fold(k, |a, (g, _)| gcd(a, g[c]));
                        u64::from(x0[c] % g)
                    })
                    .sum();
                assert!(lower_bound(k, &x0, &borrowed(&gens)) >= per_cell);
            }
        }
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
        assert_eq!(got, minimize(3, &x0, &borrowed(&gens), 40));
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

    #[test]
    fn hashed_keys_group_as_exact_ones() {
        // 70 generators of order 2 over Z_4: Π orders is past u64, so
        // keys are hashed; only 4 distinct keys among the cells.
        let k = 4u8;
        let n = 40;
        let gens: Vec<(Vec<u8>, u32)> = (0..70)
            .map(|j| ((0..n).map(|c| if (c % 4 + j) % 3 == 0 { 2 } else { 0 }).collect(), 2))
            .collect();
        let x0: Vec<u8> = (0..n).map(|c| (c * 7 % 4) as u8).collect();
        let coset = Coset::new(k, &x0, &borrowed(&gens));
        let (group_of, reps) = group_cells(&coset);
        assert_eq!(reps.len(), 3);
        for c in 0..n {
            let r = reps[group_of[c] as usize] as usize;
            assert!(gens.iter().all(|(g, _)| g[c] == g[r]));
        }
        let got = minimize(k, &x0, &borrowed(&gens), 63);
        assert!(!got.proven_minimal || got.total == got.lower_bound);
    }

    #[test]
    fn id_map_hands_out_ids_in_order() {
        for limit in [None, Some(1000 * 0x1_0000_0001)] {
            let mut ids = IdMap::new(limit, 10);
            for round in 0..2 {
                for key in 0..1000u64 {
                    assert_eq!(ids.id(key * 0x1_0000_0001), key as u32, "round {round}");
                }
            }
        }
        let mut direct = IdMap::new(Some(5000), 10);
        assert!(direct.direct);
        assert_eq!([4999, 7, 4999, 0].map(|key| direct.id(key)), [0, 1, 0, 2]);
    }
}
