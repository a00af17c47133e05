//! Branch and bound over a coset's masks, for null spaces too large to
//! weigh member by member (79×79 has nullity 64).
//!
//! The coset is read in a *cross basis* ([`cross_coset`]): coordinate `j`
//! of a member is whether its quiet part presses pivot cell `p_j`, the
//! pivots taken in "dyadic cross" order (the middle row and column from
//! the centre outward, then the quadrants' middle lines, and so on). The
//! search fixes coordinates 0, 1, 2, … in turn. After `t` of them, the
//! cells that share their remaining key (over coordinates `t..d`) flip
//! together whatever the rest are, so each such group presses at least
//! min(lit, unlit) of its cells: with signed counts `c_g` that is
//! `(N − Σ|c_g|) / 2`, exact for the group of key 0. A subtree is pruned
//! when this bound is strictly above the lightest weight allowed. Fixing
//! coordinate `t` merges the groups whose keys differ in it: one linear
//! pass over the sorted groups makes both children.
//!
//! Coordinate `j` is mask bit `d − 1 − j`, so the subtree of a node is an
//! interval of masks and its *block* (the top `prefix_bits` of the mask)
//! is what shards and checkpoints count, as in the transform engine.
//!
//! **Tie rule.** The result is the member of least (weight, mask) among
//! the members of weight at most the bound (the incumbent): a subtree is
//! pruned only when its bound is above the best weight so far, or equal to
//! it with every mask of the subtree above the best's. So the press set
//! does not depend on the order of the search, the threads, the shards or
//! the incumbent (as long as the incumbent is not below the minimum).
//!
//! **Parity.** Where every quiet pattern has even weight, every member
//! has the parity of any one, so a node's bound rounds up to it and the
//! incumbent down ([`parity`]): a search below 2629 is then a search below
//! 2628 on 79×79 (odd members), and no answer changes.
//!
//! **Parity checks** ([`checks`]). Where 20 to 23 coordinates are free,
//! a node's bound also counts the groups that must take their dear side:
//! for three groups whose free keys XOR to 0 and whose cheap sides'
//! bits XOR to 1, at least one does. Each group's cost difference is
//! shared out among its checks, never counted twice. On a(79) this cuts
//! the tree 50-fold at depths 41 to 44; a node tests its triples 64 at a
//! time against bitmaps of the groups it has and steps the few that can
//! add, so a slice takes about a third of its time without the checks.
//!
//! The last `leaf_bits` coordinates go to the transform engine: a node at
//! that depth is a coset of `leaf_bits` patterns, weighed whole in one
//! block ([`LeafWeigher`]). `leaf_bits = 0` is pure branch and bound.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use num_traits::PrimInt;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::coset::{Coset, Layout};
use super::exhaustive::LeafWeigher;
use super::prefix_fold::Fold;
use crate::solve::slices::{Best, Mask, Shard};

mod checks;
mod cross;
mod estimate;
mod merge;

use checks::Checks;
use merge::{Children, Merger};

pub use cross::{cross_coset, cross_coset_for_problem, cross_order};
pub(super) use estimate::slice_work;
pub use estimate::{Estimate, estimate};

/// How a branch-and-bound search is cut and where it hands over to the
/// transform.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Branching {
    /// Coordinates weighed by the transform at the leaves (0: none).
    pub leaf_bits: usize,
    /// Top bits of a mask that name its block (what slices share out).
    pub prefix_bits: usize,
    /// Only members of at most this weight are looked for: a local
    /// search's weight (its member is then found again), or one less than
    /// the weight of a press set known beforehand (`--incumbent W`: is
    /// there one lighter?).
    pub bound: u64,
    /// The fold the slices are searched under, as a record names it
    /// (written since record version 3; absent, [`FoldTag::Unnamed`], in
    /// older records). [`SearchState::new_branch`](super::SearchState::new_branch)
    /// sets it from the coset; the search itself reads the coset's fold.
    #[serde(default, skip_serializing_if = "FoldTag::is_unnamed")]
    pub fold: FoldTag,
}

/// Which fold a branch-and-bound slice was searched under: a block covers
/// other members under another fold (it skips the prefixes its
/// symmetries map to smaller ones), so slices of different folds never
/// make one search. Written as `"none"` or the fold's [`Fold::id`] in 16
/// hex digits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FoldTag {
    /// Not named: a record written before records named their fold.
    #[default]
    Unnamed,
    /// Searched unfolded (the problem has no symmetry the fold uses).
    Unfolded,
    /// Searched under the fold of this [`Fold::id`].
    Folded(u64),
}

impl FoldTag {
    /// The tag of a search of `coset`.
    pub fn of(coset: &Coset) -> FoldTag {
        coset.fold().map_or(FoldTag::Unfolded, |f| FoldTag::Folded(f.id()))
    }

    /// Whether a slice tagged `self` was searched as a search tagged
    /// `current` searches: the same fold, or an unnamed one where the
    /// search is unfolded (an unfolded search is the same in every
    /// version: only folds changed).
    pub fn admits(self, current: FoldTag) -> bool {
        self == current || (self == FoldTag::Unnamed && current == FoldTag::Unfolded)
    }

    fn is_unnamed(&self) -> bool {
        *self == FoldTag::Unnamed
    }
}

impl std::fmt::Display for FoldTag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FoldTag::Unnamed => {
                f.write_str("an unnamed fold (a record from before records named their fold)")
            }
            FoldTag::Unfolded => f.write_str("no fold"),
            FoldTag::Folded(id) => write!(f, "fold {id:016x}"),
        }
    }
}

impl Serialize for FoldTag {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            FoldTag::Folded(id) => serializer.serialize_str(&format!("{id:016x}")),
            _ => serializer.serialize_str("none"),
        }
    }
}

impl<'de> Deserialize<'de> for FoldTag {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        match text.as_str() {
            "none" => Ok(FoldTag::Unfolded),
            hex if hex.len() == 16 => u64::from_str_radix(hex, 16)
                .map(FoldTag::Folded)
                .map_err(|_| serde::de::Error::custom(format!("fold '{hex}' is not 16 hex digits or none"))),
            other => Err(serde::de::Error::custom(format!("fold '{other}' is not 16 hex digits or none"))),
        }
    }
}

/// Free bits below which the transform takes over by default: none.
/// Measured on the a(79) search (docs/search.md): the bound prunes at
/// depths 46 to 52 of 64, where a node holds a few hundred groups, so a
/// transform of 2^18 members (one block) at depth 46 costs about 20 times
/// the subtree it replaces, and 2^14 twice; with 12 leaf bits no leaf
/// survives to be weighed. `--leaf-bits` sets it for other problems.
pub const LEAF_BITS: usize = 0;

impl Branching {
    /// The default plan for a coset of dimension `d` cut into `count`
    /// slices: leaves of [`LEAF_BITS`] coordinates (none), and blocks fine enough
    /// that every slice gets 2^10 of them (each block walks its path from
    /// the root again, so no finer).
    pub fn new(d: usize, count: u64, bound: u64) -> Branching {
        // No effect while LEAF_BITS is 0; it caps any other default.
        #[allow(clippy::unnecessary_min_or_max)]
        let leaf_bits = LEAF_BITS.min(d);
        let shard_bits = 64 - (count.max(1) - 1).leading_zeros() as usize;
        let prefix_bits = (shard_bits + 10).min(d - leaf_bits).min(63);
        Branching { leaf_bits, prefix_bits, bound, fold: FoldTag::Unnamed }
    }

    /// The layout that a [`SearchState`](super::SearchState) records: the
    /// blocks are the top `prefix_bits`, and the table bits stand for the
    /// rest of the mask (no table is built; the bits make the block of a
    /// mask `mask >> table_bits`, as for the transform).
    pub fn layout(&self, d: usize) -> Layout {
        Layout { table_bits: d - self.prefix_bits, lane_bits: 0, outer_bits: self.prefix_bits, symmetries: 0 }
    }
}

/// The lightest member of weight at most `plan.bound` (least weight,
/// then least mask) among the blocks `shard.block(i)`, `i` in `indices`,
/// of a coset in the cross basis ([`cross_coset`]); `None` when there is
/// none. Runs on all of rayon's threads, a block a task.
///
/// # Complexity
/// One pass over a node's groups (at most `min(N, 2^(d−t))` at depth t)
/// per node visited; 2^`leaf_bits` · (`leaf_bits` + 2) / 32 row operations
/// per leaf. How many nodes survive depends on the bound: see [`estimate`].
pub fn search_branch(coset: &Coset, plan: &Branching, shard: Shard, indices: Range<u64>) -> Option<Best> {
    static NEVER: AtomicBool = AtomicBool::new(false);
    search_branch_until(coset, plan, shard, indices, &NEVER).flatten()
}

/// [`search_branch`] that gives up soon after `stop` is set (within a
/// few thousand nodes of each block in flight, milliseconds): `None` then,
/// and the work on these blocks is dropped, to be done again on resume;
/// `Some(found)` when every block was searched.
pub fn search_branch_until(
    coset: &Coset,
    plan: &Branching,
    shard: Shard,
    indices: Range<u64>,
    stop: &AtomicBool,
) -> Option<Option<Best>> {
    if coset.nullity() <= 64 {
        search_keyed::<u64>(coset, plan, shard, indices, stop)
    } else {
        search_keyed::<u128>(coset, plan, shard, indices, stop)
    }
}

fn search_keyed<K: Key>(
    coset: &Coset,
    plan: &Branching,
    shard: Shard,
    indices: Range<u64>,
    stop: &AtomicBool,
) -> Option<Option<Best>> {
    // One block a task: their work varies a hundredfold, and the path
    // from the root that each task walks again costs a few hundred
    // microseconds only.
    // Trees (a few MB of buffers each) are kept for the next task.
    let pool: std::sync::Mutex<Vec<Tree<K>>> = std::sync::Mutex::new(Vec::new());
    (indices.start..indices.end)
        .into_par_iter()
        .map(|i| {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let spare = pool.lock().ok().and_then(|mut trees| trees.pop());
            let mut tree = spare.unwrap_or_else(|| Tree::<K>::new(coset, plan));
            tree.restrict(shard, i..i + 1);
            let found = tree.run(stop);
            if let Ok(mut trees) = pool.lock() {
                trees.push(tree);
            }
            found
        })
        .reduce(|| Some(None), |a, b| Some(Best::better(a?, b?)))
}

/// The first `t` coordinates of a prefix of depth `t <= 64` (coordinate 0
/// its top bit) with coordinate j at bit j, as [`Fold::check`] reads them.
#[inline]
fn coordinates(prefix: u128, t: usize) -> u64 {
    if t == 0 { 0 } else { (prefix as u64).reverse_bits() >> (64 - t) }
}

/// The parity every member of `coset` shares, if they share one.
///
/// Member `s` weighs `|x ⊕ Σ s_j q_j|`, whose parity is
/// `|x| + Σ s_j |q_j|` (mod 2): it is the same for all members exactly when
/// every pattern `q_j` has even weight, i.e. when the keys of all cells
/// XOR to 0 (key bit j of a cell is `q_j` there; a group of `|c|` cells
/// counts once when its count is odd). That holds whenever the press
/// matrix `A` is symmetric with ones on its diagonal (two states, the plus
/// and king rules on plane and torus, masks symmetric under the half turn
/// with a 1 in the centre, σ⁺ on graphs): a quiet pattern has `A q = 0`,
/// so `0 = qᵀ A q = Σ_i A_ii q_i + 2 Σ_(i<j) A_ij q_i q_j ≡ |q|` (mod 2).
/// Not for σ (the neighbours rule, zeros on the diagonal: `qᵀ A q` is
/// then 0 for every `q` and says nothing), nor any rule whose quiet
/// patterns may weigh odd; the check below decides from the patterns, not
/// from the rule.
fn parity(coset: &Coset) -> Option<u64> {
    let keys = coset.groups().iter().filter(|&&(_, c)| c % 2 != 0).fold(0u128, |acc, &(k, _)| acc ^ k);
    (keys == 0).then(|| coset.weight(Mask::from_bits(0u128)) & 1)
}

/// The depths where the parity checks run on a coset of dimension `d`:
/// where 20 to 23 coordinates are still free. Measured on slices of a(79)
/// (docs/search.md): there the checks cut the tree 50-fold at depths 41 to
/// 44. With the bitmap test (mean CPU-s of slices 263297 and 93771, two
/// runs each, load 9): 41-44 1.17, 40-44 1.16 (no gain), 39-44 1.32,
/// 42-44 1.44, 41-46 1.18, 41-48 1.17, 40-46 1.25.
/// None below nullity [`CHECKS_FROM`]: there a whole search takes under a
/// second, and building the triples costs more than they save (47×47 by
/// branch and bound: 0.17 CPU-s without them, 0.70 s with them).
fn check_depths(d: usize) -> Range<usize> {
    if d < CHECKS_FROM {
        return 0..0;
    }
    d.saturating_sub(CHECKS_FREE.end - 1)..d.saturating_sub(CHECKS_FREE.start - 1)
}

/// The least nullity whose searches run the parity checks.
const CHECKS_FROM: usize = 48;

/// Group merges that one triple of the parity checks counts as in a
/// tree's `work` (what a progress bar and the stop flag go by). It was
/// what a triple cost on slice 263297 of a(79) when every triple was
/// stepped (2.2 ns against 0.9 ns a merge); since only the triples that
/// can take a share are stepped, `--estimate` measures 1.5 in its probes
/// and a slice about 0.5. Left at 2: the bar's rate is measured, so a
/// weight off by a constant costs only its evenness, and `--estimate`
/// measures the ratio instead ([`Estimate`]).
const MERGES_A_TRIPLE: u64 = 2;

/// Free coordinates at the nodes the parity checks look at.
const CHECKS_FREE: Range<usize> = 20..24;

/// A node's remaining key: `u64` while it fits (every depth when d ≤ 64),
/// so a group is 16 bytes.
trait Key: PrimInt + Send + Sync + std::fmt::Debug + std::hash::Hash + 'static {
    fn from_u128(v: u128) -> Self;
    /// The same keys and buffers as `u64` ones, for the vector merge.
    #[allow(clippy::type_complexity)]
    fn as_u64<'a, 'b>(
        keys: &'a [Self],
        out: Children<'b, Self>,
    ) -> Result<(&'a [u64], Children<'b, u64>), Children<'b, Self>>;
}

impl Key for u64 {
    fn from_u128(v: u128) -> Self {
        v as u64
    }
    fn as_u64<'a, 'b>(
        keys: &'a [u64],
        out: Children<'b, u64>,
    ) -> Result<(&'a [u64], Children<'b, u64>), Children<'b, u64>> {
        Ok((keys, out))
    }
}

impl Key for u128 {
    fn from_u128(v: u128) -> Self {
        v
    }
    fn as_u64<'a, 'b>(
        _: &'a [u128],
        out: Children<'b, u128>,
    ) -> Result<(&'a [u64], Children<'b, u64>), Children<'b, u128>> {
        Err(out)
    }
}

/// One thread's depth-first search: the groups at each depth (both
/// children of the node above), the leaf weigher, the bound.
struct Tree<K> {
    plan: Branching,
    d: usize,
    cells: i64,
    /// `keys[t][s][..lens[t][s]]` and `counts[t][s][..]`: the groups of
    /// child `s` at depth t, sorted by key, whose bit i is coordinate t + i
    /// (the fixed ones are shifted out). Each buffer is as long as the
    /// root's groups and [`merge::SLACK`].
    keys: Vec<[Vec<K>; 2]>,
    counts: Vec<[Vec<i32>; 2]>,
    lens: Vec<[usize; 2]>,
    merger: Merger,
    weigher: Option<LeafWeigher>,
    fold: Option<Fold>,
    /// The parity every member shares ([`parity`]), if they do.
    parity: Option<u64>,
    /// The parity checks of the node bound, where they run.
    checks: Option<Checks<K>>,
    best: Option<Best>,
    /// Group passes made (each merges or copies one group), and the
    /// parity checks' cost counted as passes ([`MERGES_A_TRIPLE`]).
    work: u64,
    /// What of `work` the parity checks made: the triples they looked at
    /// and the groups they scattered (what `--estimate` times apart).
    triples: u64,
    scattered: u64,
    /// Wall seconds spent in the parity checks, measured only when
    /// `timed` (by the estimate, to price a triple against a merge).
    timed: bool,
    check_seconds: f64,
    /// The run stops (claiming nothing) once `work` passes it.
    budget: u64,
    /// `work >> 10` when the stop flag was last looked at; whether it was set.
    polled: u64,
    stopped: bool,
    /// The slice and the range of its blocks this run covers.
    shard: Shard,
    blocks: Range<u64>,
}

impl<K: Key> Tree<K> {
    fn new(coset: &Coset, plan: &Branching) -> Tree<K> {
        let d = coset.nullity();
        // Coordinate j is key bit j (mask bit d − 1 − j).
        let mut root: Vec<(K, i32)> = coset
            .groups()
            .iter()
            .map(|&(k, c)| (K::from_u128(k.reverse_bits() >> (Mask::BITS - d)), c))
            .collect();
        root.sort_unstable_by_key(|&(k, _)| k);
        let size = root.len();
        let room = size + merge::SLACK;
        let mut keys: Vec<[Vec<K>; 2]> =
            (0..=d).map(|_| [vec![K::zero(); room], vec![K::zero(); room]]).collect();
        let mut counts: Vec<[Vec<i32>; 2]> = (0..=d).map(|_| [vec![0; room], vec![0; room]]).collect();
        for (i, &(k, c)) in root.iter().enumerate() {
            keys[0][0][i] = k;
            counts[0][0][i] = c;
        }
        let mut lens = vec![[0usize; 2]; d + 1];
        lens[0][0] = size;
        let weigher = (plan.leaf_bits > 0).then(|| LeafWeigher::new(coset.cells(), plan.leaf_bits));
        let parity = parity(coset);
        let check_depths = check_depths(d);

        // No member of the other parity: the incumbent rounds down to ours.
        let mut plan = *plan;
        if let Some(p) = parity {
            plan.bound = plan.bound.saturating_sub((plan.bound ^ p) & 1);
        }
        let mut tree = Tree {
            plan,
            d,
            cells: coset.cells() as i64,
            keys,
            counts,
            lens,
            merger: Merger::detect(coset.cells()),
            weigher,
            fold: coset.fold().cloned(),
            parity,
            checks: None,
            best: None,
            work: 0,
            triples: 0,
            scattered: 0,
            timed: false,
            check_seconds: 0.0,
            budget: u64::MAX,
            polled: 0,
            stopped: false,
            shard: Shard::WHOLE,
            blocks: 0..1u64 << plan.prefix_bits,
        };
        tree.set_checks(check_depths, checks::MAX_TRIPLES);
        tree
    }

    /// Runs the parity checks at `depths`, with at most `max_triples`
    /// triples a depth (none when `depths` is empty).
    fn set_checks(&mut self, depths: Range<usize>, max_triples: usize) {
        let root = self.root();
        self.checks = (!depths.is_empty()).then(|| Checks::new(&root, depths, max_triples));
    }

    /// The root's (key, count) pairs, as the parity checks are built from.
    fn root(&self) -> Vec<(K, i32)> {
        self.keys[0][0].iter().zip(&self.counts[0][0]).take(self.lens[0][0]).map(|(&k, &c)| (k, c)).collect()
    }

    fn restrict(&mut self, shard: Shard, indices: Range<u64>) {
        self.shard = shard;
        self.blocks = indices;
        self.best = None;
    }

    /// The search of the blocks it is restricted to, from the root, or
    /// `None` when `stop` was seen set on the way.
    fn run(&mut self, stop: &AtomicBool) -> Option<Option<Best>> {
        if self.blocks.is_empty() {
            return Some(None);
        }
        let tied = self.fold.as_ref().map_or(0, |f| f.all_tied());
        self.stopped = false;
        self.visit(0, 0, 0, tied, stop);
        (!self.stopped).then_some(self.best)
    }

    /// The weight bound now: the incumbent or the best found.
    fn bound(&self) -> u64 {
        self.best.map_or(self.plan.bound, |b| b.weight.min(self.plan.bound))
    }

    /// Whether the node at depth `t` with mask prefix `prefix` (its top t
    /// bits) may hold a member better than the best: a bound `lb` no more
    /// than the best weight, a mask interval not wholly above the best's
    /// on a tie, and a block of the run's range.
    /// Returns the fold's motions that still tie at the node (`tied`: those
    /// of its parent), `None` when the node is not worth visiting.
    fn worth(&self, t: usize, prefix: u128, lb: u64, tied: u32) -> Option<u32> {
        if self.beaten(t, prefix, lb) {
            return None;
        }
        let tied = match &self.fold {
            Some(fold) if t <= 64 => fold.check(t, coordinates(prefix, t), tied)?,
            _ => tied,
        };
        (t > self.plan.prefix_bits || self.holds_blocks(t, prefix)).then_some(tied)
    }

    /// Whether a node of depth `t` with mask prefix `prefix` and bound `lb`
    /// holds nothing better than the best: its bound above the best
    /// weight, or equal to it with every mask of the node above the best's.
    #[inline]
    fn beaten(&self, t: usize, prefix: u128, lb: u64) -> bool {
        lb > self.bound()
            || self.best.is_some_and(|b| b.weight == lb && b.mask.bits() < prefix << (self.d - t))
    }

    /// Whether the parity checks prove the node (depth `t`, `side`,
    /// `prefix`) beaten, given its plain bound `raw` (not rounded to the
    /// parity: the penalty adds to it before rounding). Their cost goes
    /// into `work`, as merges ([`MERGES_A_TRIPLE`]).
    fn checks_prune(&mut self, t: usize, side: usize, prefix: u128, raw: u64) -> bool {
        let enough = self.bound() as i64 - raw as i64;
        let Some(checks) = self.checks.as_mut() else { return false };
        if !checks.depths.contains(&t) {
            return false;
        }
        let len = self.lens[t][side];
        // Two clock reads a checked node: tens of nanoseconds against the
        // microseconds of a node at the depths where checks run.
        let timer = self.timed.then(std::time::Instant::now);
        let (penalty, looked) =
            checks.penalty(t, &self.keys[t][side][..len], &self.counts[t][side][..len], enough);
        if let Some(timer) = timer {
            self.check_seconds += timer.elapsed().as_secs_f64();
        }
        self.work += len as u64 + looked * MERGES_A_TRIPLE;
        self.triples += looked;
        self.scattered += len as u64;
        self.beaten(t, prefix, self.round_up(raw + penalty as u64))
    }

    /// Whether the blocks under a node of depth `t <= prefix_bits` meet the
    /// slice blocks `shard.block(i)`, `i` in the run's range.
    fn holds_blocks(&self, t: usize, prefix: u128) -> bool {
        let shift = self.plan.prefix_bits - t;
        let (lo, hi) = ((prefix as u64) << shift, ((prefix as u64) + 1) << shift);
        let (first, last) = (self.shard.block(self.blocks.start), self.shard.block(self.blocks.end - 1));
        let from = lo.max(first);
        let residue = self.shard.index - 1;
        let next = from + (residue + self.shard.count - from % self.shard.count) % self.shard.count;
        next < hi && next <= last
    }

    fn visit(&mut self, t: usize, side: usize, prefix: u128, tied: u32, stop: &AtomicBool) {
        if t == self.d - self.plan.leaf_bits && self.plan.leaf_bits > 0 {
            return self.leaf(t, side, prefix);
        }
        if t == self.d {
            let c0 = if self.lens[t][side] > 0 { self.counts[t][side][0] as i64 } else { 0 };
            let weight = ((self.cells - c0) / 2) as u64;
            if weight <= self.bound() {
                let found = Best { weight, mask: Mask::from_bits(prefix) };
                self.best = Best::better(self.best, Some(found));
            }
            return;
        }
        // A look at the flag every 1024 merges: microseconds apart.
        if self.work >> 10 != self.polled {
            self.polled = self.work >> 10;
            self.stopped |= stop.load(Ordering::Relaxed) || self.work > self.budget;
        }
        if self.stopped {
            return;
        }
        let (raw0, raw1) = self.split_raw(t, side);
        let (lb0, lb1) = (self.round_up(raw0), self.round_up(raw1));
        let children =
            if lb1 < lb0 { [(1, lb1, raw1), (0, lb0, raw0)] } else { [(0, lb0, raw0), (1, lb1, raw1)] };
        for (s, lb, raw) in children {
            let child = prefix << 1 | s as u128;
            if let Some(tied) = self.worth(t + 1, child, lb, tied)
                && !self.checks_prune(t + 1, s, child, raw)
            {
                self.visit(t + 1, s, child, tied, stop);
            }
        }
    }

    /// Makes both children of the node (depth t, `side`) in
    /// `keys[t + 1]` and `counts[t + 1]` and returns their bounds, not yet
    /// rounded to the parity (a penalty adds to them first).
    fn split_raw(&mut self, t: usize, side: usize) -> (u64, u64) {
        let len = self.lens[t][side];
        let (upper_keys, lower_keys) = self.keys.split_at_mut(t + 1);
        let (upper_counts, lower_counts) = self.counts.split_at_mut(t + 1);
        let [zero_keys, one_keys] = &mut lower_keys[0];
        let [zero_counts, one_counts] = &mut lower_counts[0];
        let children = Children { keys: [zero_keys, one_keys], counts: [zero_counts, one_counts] };
        let merged = self.merger.merge(&upper_keys[t][side][..len], &upper_counts[t][side][..len], children);
        self.lens[t + 1] = merged.lens;
        self.work += len as u64;
        let [sum0, sum1] = merged.sums;
        ((self.cells - sum0) as u64 / 2, (self.cells - sum1) as u64 / 2)
    }

    /// A lower bound on members' weights raised to their parity.
    #[inline]
    fn round_up(&self, lb: u64) -> u64 {
        self.parity.map_or(lb, |p| lb + ((lb ^ p) & 1))
    }

    /// Weighs the 2^leaf_bits members below the node at once.
    fn leaf(&mut self, t: usize, side: usize, prefix: u128) {
        let bits = self.plan.leaf_bits as u32;
        let len = self.lens[t][side];
        let groups = self.keys[t][side][..len].iter().zip(&self.counts[t][side][..len]);
        // Leaf mask bit b is coordinate d − 1 − b, which is key bit
        // leaf_bits − 1 − b here.
        let keys = groups.map(|(&k, &c)| (k.to_u32().unwrap_or(0).reverse_bits() >> (32 - bits), c));
        let Some(weigher) = self.weigher.as_mut() else { return };
        let found = weigher.best(keys);
        self.work += len as u64;
        if found.weight <= self.bound() {
            let mask = prefix << bits | found.mask.bits();
            self.best =
                Best::better(self.best, Some(Best { weight: found.weight, mask: Mask::from_bits(mask) }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Generate, Grid, Puzzle};

    pub(super) fn random_coset(rows: usize, cols: usize, d: usize, seed: u64) -> (Grid, Vec<Grid>) {
        let x = Generate::Random { seed, density: 0.5 }.board(rows, cols);
        let basis = (0..d as u64)
            .map(|j| Generate::Random { seed: 7000 + seed * 131 + j, density: 0.2 }.board(rows, cols))
            .collect();
        (x, basis)
    }

    /// Folded, unfolded and the transform agree on the all-black n×n
    /// boards of nullity 16 to 20 (n = 19, 30, 33; OEIS A075464 has a(19)
    /// = 141, a(30) = 376), and every press set found turns the board white.
    #[test]
    fn folded_equals_unfolded_and_the_transform_on_a075464() {
        use crate::{Method, Solver, Target};
        for (n, known) in [(19, Some(141)), (30, Some(376)), (33, None)] {
            let puzzle = Puzzle::new(n, n).unwrap();
            let solver = Solver::new(&puzzle, Method::Auto, 63).unwrap();
            let board = Grid::ones(n, n);
            let quiet = solver.quiet_patterns();
            let (x, plain) = solver.coset(&board, &Target::White).unwrap().unwrap();
            let transform = super::super::search_blocks(&plain, 0..plain.layout().blocks(), false).unwrap();
            let (_, folded) = solver.cross_coset(&board, &Target::White).unwrap().unwrap();
            // Every motion acts at some depth, on even sides too.
            assert_eq!(folded.fold().map(|f| f.symmetries()), Some(7), "{n}x{n}");
            let unfolded = cross_coset(&x, quiet).unwrap();
            let d = quiet.len();
            for (coset, what) in [(&folded, "folded"), (&unfolded, "unfolded")] {
                for leaf_bits in [0, 8] {
                    let plan = Branching {
                        leaf_bits,
                        prefix_bits: 10,
                        bound: transform.weight + 5,
                        fold: FoldTag::Unnamed,
                    };
                    let found = search_branch(coset, &plan, Shard::WHOLE, 0..1 << 10).unwrap();
                    assert_eq!(found.weight, transform.weight, "{n}x{n} d={d} {what} leaf {leaf_bits}");
                    let presses = solver.member(&board, &Target::White, &x, coset, found.mask).unwrap();
                    assert_eq!(presses.count_ones() as u64, found.weight);
                }
            }
            if let Some(a) = known {
                assert_eq!(transform.weight, a);
            }
        }
    }

    /// Every member shares one parity where the press matrix is symmetric
    /// with ones on its diagonal (plus and king, plane and torus), and the
    /// search rounded to it finds what brute force finds, for every
    /// incumbent around the minimum. With zeros on the diagonal a quiet
    /// pattern may weigh odd (the left-and-right rule on 5x5), and there is
    /// no parity then; the neighbours rule on 8x8 happens to keep one.
    #[test]
    fn parity_holds_where_the_matrix_has_ones_on_its_diagonal_and_loses_nothing() {
        use crate::model::{Rule, Topology};
        use crate::{Method, Solver};
        let cases: [(usize, usize, Rule, Topology); 8] = [
            (9, 9, Rule::plus(), Topology::Plane),
            (16, 16, Rule::plus(), Topology::Plane),
            (19, 19, Rule::plus(), Topology::Plane),
            (12, 12, Rule::plus(), Topology::Torus),
            (11, 11, Rule::king(), Topology::Plane),
            (6, 6, Rule::king(), Topology::Torus),
            (8, 8, Rule::neighbours(), Topology::Plane),
            // Left and right neighbours only: 10101 in one row is quiet.
            (5, 5, Rule::from_mask("000/101/000").unwrap(), Topology::Plane),
        ];
        let mut odd_seen = false;
        for (i, (rows, cols, rule, topology)) in cases.into_iter().enumerate() {
            let diagonal = rule.offsets().contains(&(0, 0));
            let puzzle = Puzzle::new(rows, cols).unwrap().with_rule(rule).with_topology(topology);
            let solver = Solver::new(&puzzle, Method::Auto, 63).unwrap();
            let quiet = solver.quiet_patterns();
            let d = quiet.len();
            assert!((2..=21).contains(&d), "case {i}: nullity {d}");
            for seed in 0..3 {
                // Any press set x: x + span(quiet) are the solutions of its board.
                let x = Generate::Random { seed: 40 + seed, density: 0.5 }.board(rows, cols);
                let coset = cross_coset(&x, quiet).unwrap();
                let weights: Vec<u64> = (0..1u128 << d).map(|m| coset.weight(Mask::from_bits(m))).collect();
                let same = weights.iter().all(|w| w % 2 == weights[0] % 2);
                assert_eq!(parity(&coset), same.then_some(weights[0] % 2), "case {i}");
                if diagonal {
                    assert!(same, "case {i}: a rule with ones on the diagonal has one parity");
                } else {
                    odd_seen |= !same;
                }
                let brute = weights.iter().enumerate().map(|(m, &w)| (w, m as u128)).min().unwrap();
                for bound in brute.0.saturating_sub(1)..=brute.0 + 2 {
                    let plan =
                        Branching { leaf_bits: 0, prefix_bits: 6.min(d), bound, fold: FoldTag::Unnamed };
                    let found = search_branch(&coset, &plan, Shard::WHOLE, 0..1 << plan.prefix_bits);
                    let expected = (bound >= brute.0).then_some(brute);
                    assert_eq!(found.map(|b| (b.weight, b.mask.bits())), expected, "case {i} bound {bound}");
                }
            }
        }
        assert!(odd_seen, "the row rule on 5x5 has a quiet pattern of odd weight");
    }

    /// A stop set before the search claims nothing; one set while a slice
    /// of a(79) runs ends it within a second, also claiming nothing; an
    /// unset flag changes nothing.
    #[test]
    fn a_stopped_search_ends_at_once_and_claims_nothing() {
        use crate::{Method, Solver, Target};
        use std::time::{Duration, Instant};
        let solver = Solver::new(&Puzzle::new(19, 19).unwrap(), Method::Auto, 63).unwrap();
        let (_, coset) = solver.cross_coset(&Grid::ones(19, 19), &Target::White).unwrap().unwrap();
        let plan = Branching { leaf_bits: 0, prefix_bits: 8, bound: 141, fold: FoldTag::Unnamed };
        let found = search_branch_until(&coset, &plan, Shard::WHOLE, 0..256, &AtomicBool::new(false));
        assert_eq!(found.flatten().map(|b| b.weight), Some(141));
        assert_eq!(search_branch_until(&coset, &plan, Shard::WHOLE, 0..256, &AtomicBool::new(true)), None);
        let solver = Solver::new(&Puzzle::new(79, 79).unwrap(), Method::Auto, 64).unwrap();
        let (_, coset) = solver.cross_coset(&Grid::ones(79, 79), &Target::White).unwrap().unwrap();
        let shard = Shard { index: 1, count: 1 << 20 };
        let plan = Branching::new(64, shard.count, 2628);
        let stop = AtomicBool::new(false);
        let started = Instant::now();
        let found = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(300));
                stop.store(true, Ordering::Relaxed);
            });
            search_branch_until(&coset, &plan, shard, 0..1024, &stop)
        });
        assert_eq!(found, None);
        assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    }

    /// Pure and hybrid branch and bound both find the least (weight, mask)
    /// that brute force finds, with a loose and a tight incumbent, whole and
    /// sliced.
    #[test]
    fn branch_and_bound_matches_brute_force() {
        for (rows, cols, d, seed) in [(6, 6, 10, 1), (8, 8, 14, 2), (7, 9, 16, 3), (10, 10, 20, 5)] {
            let (x, quiet) = random_coset(rows, cols, d, seed);
            let coset = cross_coset(&x, &quiet).unwrap();
            let brute = (0..1u128 << d).map(|m| (coset.weight(Mask::from_bits(m)), m)).min().unwrap();
            for leaf_bits in [0, 6.min(d)] {
                for incumbent in [(rows * cols) as u64, brute.0, brute.0 + 3] {
                    let mut plan = Branching::new(d, 1, incumbent);
                    plan.leaf_bits = leaf_bits;
                    plan.prefix_bits = plan.prefix_bits.min(d - leaf_bits).min(8);
                    let whole = search_branch(&coset, &plan, Shard::WHOLE, 0..1 << plan.prefix_bits).unwrap();
                    assert_eq!(
                        (whole.weight, whole.mask.bits()),
                        brute,
                        "{rows}x{cols} d={d} leaf {leaf_bits}"
                    );
                    let parts = (1..=5)
                        .map(|index| {
                            let shard = Shard { index, count: 5 };
                            search_branch(&coset, &plan, shard, 0..shard.len(1 << plan.prefix_bits))
                        })
                        .fold(None, Best::better)
                        .unwrap();
                    assert_eq!(parts, whole);
                }
                // An incumbent below the minimum: nothing found.
                let plan =
                    Branching { leaf_bits, prefix_bits: 4, bound: brute.0 - 1, fold: FoldTag::Unnamed };
                assert_eq!(search_branch(&coset, &plan, Shard::WHOLE, 0..16), None);
            }
        }
    }
}
