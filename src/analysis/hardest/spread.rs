//! Every coset at once, by how many cells of each class it presses how
//! often: the exact distribution of minimum presses, for any K.
//!
//! A press set presses `c_k[r]` cells of class `k` `r` times. Member `s`
//! adds `v_k(s)` to every cell of class `k`, which then weighs
//! `Σ_r c_k[r]·((r + v_k(s)) mod K)`; the press set's coset weighs the
//! least of these sums over the members. `Π_k multinomial(n_k; c_k)` press
//! sets share the counts `c`. The cells no quiet pattern touches add their
//! own presses whatever the member, a convolution at the end.
//!
//! Each coset is counted once, not once per member: a few *pivot* cells
//! are taken out of their classes, chosen so that no member but 0 leaves
//! them all unchanged. Then every coset has exactly one press set whose
//! pivot values lie in a fixed transversal `R` of the pivot values the
//! members add, and the walk runs over `R` times the counts of the other
//! cells: `|kernel|` times fewer press sets than all of them (for 5×5 with
//! 3 states, 27 times fewer).
//!
//! The walk is a product of *blocks* of options (the transversal, then one
//! block per class), each option a weight per member. The last blocks are
//! merged into one inner block laid out member by member, so the innermost
//! loop is a plain vector `min(acc[o], W[s] + inner[s][o])`; the outer
//! blocks are split over the threads.

use num_bigint::BigUint;
use num_traits::{One, Zero};
use rayon::prelude::*;

use std::ops::{ControlFlow, Range};
use std::sync::atomic::AtomicBool;

use super::classes::Classes;
use super::work::Work;
use super::{CosetTally, DistributionSlice, SliceHeaviest, WalkPrefixes};
use crate::solve::slices::{Reduce, Slice, merge_slices};
use crate::solve::{MergeError, Shard, check_coverage};

/// The cosets of the touched classes by the weight of their lightest
/// member, and the first counts (in the walk's order) reaching the
/// heaviest such weight.
pub(crate) struct Tally {
    /// `by_weight[w]`: cosets of the code on the touched cells whose
    /// lightest member weighs `w` there.
    pub by_weight: Vec<BigUint>,
    /// The heaviest lightest weight.
    pub heaviest: u64,
    /// Per class, how many of its cells each residue has, at the heaviest.
    pub counts: Vec<Vec<u32>>,
}

/// Most options of the inner block, and most of its weights (members ×
/// options, `u16` each: 2 MiB), so it stays in cache.
const INNER_OPTIONS: usize = 1 << 12;
const INNER_WEIGHTS: usize = 1 << 20;

/// Most `members × classes` looked at to choose the pivots; past it the
/// kernel is too large for any walk within a budget anyway.
const MAX_PIVOT_SCAN: u64 = 1 << 26;

/// Outer prefixes to spread over the threads (a few per thread, so that
/// uneven ones even out).
const TASKS: u64 = 256;

/// One choice of an option: `(class, residue, cells)`.
type Part = (u32, u8, u32);

/// A set of options, each a weight per member, a count of the press sets
/// it stands for, and the cells it presses how often (to rebuild the
/// heaviest).
struct Block {
    /// `weights[o · members + s]`.
    weights: Vec<u16>,
    ways: Vec<BigUint>,
    parts: Vec<Vec<Part>>,
}

impl Block {
    fn len(&self) -> usize {
        self.ways.len()
    }
}

/// The walk's plan: its pivots, and its blocks' sizes.
struct Plan {
    /// `pivot[k]`: whether one cell of class `k` is a pivot.
    pivot: Vec<bool>,
    /// How many pivot values a member's shift leaves distinct (`|kernel|`
    /// once the pivots are chosen).
    pivot_values: u64,
}

/// Member weighings a full [`tally`] makes, as a float (it passes `u64`):
/// infinite when the kernel is too large to plan a walk.
pub(crate) fn tally_cost(classes: &Classes) -> f64 {
    walk_cost(classes, 1).map_or(f64::INFINITY, |c| c.prefixes as f64 * c.per_prefix)
}

/// Member weighings [`tally_slice`] makes for `shard`, as a float:
/// infinite when the kernel is too large to plan a walk.
pub(crate) fn slice_cost(classes: &Classes, shard: Shard) -> f64 {
    walk_cost(classes, shard.count).map_or(f64::INFINITY, |c| shard.len(c.prefixes) as f64 * c.per_prefix)
}

/// How a walk cut into `count` slices splits: its prefixes, and what one
/// prefix costs (every prefix has the same blocks below it).
struct WalkCost {
    prefixes: u64,
    per_prefix: f64,
}

fn walk_cost(classes: &Classes, count: u64) -> Option<WalkCost> {
    let (plan, members) = plan(classes)?;
    let shape = shape(classes, &plan);
    let sizes: Vec<u64> = shape.iter().map(|b| b.0 as u64).collect();
    let inner = inner_start(&shape, members);
    let (split, prefixes) = split(&sizes[..inner], count);
    // Per prefix: its weights summed over the `split` blocks, every node
    // below it, and the inner block at each leaf.
    let (mut nodes, mut total) = (1.0, split as f64);
    for &size in &sizes[split..inner] {
        nodes *= size as f64;
        total += nodes;
    }
    let inner_options: f64 = sizes[inner..].iter().map(|&s| s as f64).product();
    Some(WalkCost { prefixes, per_prefix: (total + nodes * inner_options) * members as f64 })
}

/// The shortest run of outer blocks (of these sizes) with at least
/// `TASKS · count` prefixes, or all of them: how many, and the prefixes.
/// It depends on the slices asked for, never on the threads.
fn split(sizes: &[u64], count: u64) -> (usize, u64) {
    let want = TASKS.saturating_mul(count);
    let (mut split, mut prefixes) = (0, 1u64);
    while split < sizes.len() && prefixes < want {
        prefixes = prefixes.saturating_mul(sizes[split]);
        split += 1;
    }
    (split, prefixes)
}

/// Per block, in the walk's order, its options and a bound on the bits of
/// its counts of press sets: the transversal, then each class's
/// compositions of the cells left to it, largest first (the outer blocks
/// split over the threads, the small ones merge into the inner block).
fn shape(classes: &Classes, plan: &Plan) -> Vec<(f64, u32)> {
    let k = u64::from(classes.states);
    let pivots = plan.pivot.iter().filter(|&&p| p).count() as i32;
    let mut shape = vec![((k as f64).powi(pivots) / plan.pivot_values as f64, 0)];
    let mut rest: Vec<(f64, u32)> = Vec::new();
    for (n, &pivot) in classes.sizes().iter().zip(&plan.pivot) {
        let left = n - u64::from(pivot);
        if left > 0 {
            // multinomial(left; c) ≤ K^left.
            rest.push((compositions(left, k), left as u32 * (64 - (k - 1).leading_zeros())));
        }
    }
    rest.sort_by(|a, b| b.0.total_cmp(&a.0));
    shape.extend(rest);
    shape
}

/// Where the inner block starts: as many trailing blocks as fit it, their
/// press sets counted in a `u64`.
fn inner_start(shape: &[(f64, u32)], members: u64) -> usize {
    let mut start = shape.len();
    let (mut options, mut bits) = (1.0, 0);
    while start > 0 {
        let (size, more) = shape[start - 1];
        let next = options * size;
        if next > INNER_OPTIONS as f64 || next * members as f64 > INNER_WEIGHTS as f64 || bits + more > 64 {
            break;
        }
        (options, bits) = (next, bits + more);
        start -= 1;
    }
    start
}

/// The work after the tally: the untouched cells' weights and their
/// convolution with it, additions and products of numbers of up to
/// n_0 log2(K) bits, counted in 64-bit words (a 300x300 of nullity 0
/// would spend hours there).
pub(crate) fn untouched_cost(classes: &Classes) -> f64 {
    let (untouched, k) = (classes.untouched.len() as f64, f64::from(classes.states));
    let words = (untouched * k.log2() / 64.0).max(1.0);
    let spread = untouched * untouched * (k - 1.0) * k / 2.0 * words;
    let touched: f64 = classes.sizes().iter().map(|&n| n as f64 * (k - 1.0)).sum();
    let convolution = (touched + 1.0) * (untouched * (k - 1.0) + 1.0) * words * words;
    spread + convolution
}

/// `C(n + K − 1, K − 1)`: the ways to spread `n` cells over K residues.
fn compositions(n: u64, k: u64) -> f64 {
    (1..k).map(|i| (n + i) as f64 / i as f64).product()
}

/// Chooses the pivots: classes, smallest first, whose values leave fewer
/// members unchanged, until only member 0 is. `None` when the kernel is
/// too large to look at or the weights pass `u16`.
fn plan(classes: &Classes) -> Option<(Plan, u64)> {
    let members = classes.members()?;
    let count = classes.classes.len() as u64;
    let most = classes.sizes().iter().sum::<u64>() * (u64::from(classes.states) - 1);
    if members.saturating_mul(count.max(1)) > MAX_PIVOT_SCAN || most > u64::from(u16::MAX) {
        return None;
    }
    let values = classes.member_values(members as usize);
    let mut fixed: Vec<usize> = (0..members as usize).collect();
    let mut pivot = vec![false; classes.classes.len()];
    let mut by_size: Vec<usize> = (0..classes.classes.len()).collect();
    by_size.sort_by_key(|&k| (classes.classes[k].cells.len(), k));
    for k in by_size {
        if fixed.len() == 1 {
            break;
        }
        let kept: Vec<usize> =
            fixed.iter().copied().filter(|&s| values[s * count as usize + k] == 0).collect();
        if kept.len() < fixed.len() {
            (fixed, pivot[k]) = (kept, true);
        }
    }
    // The members are a group and a cell's value a homomorphism: the
    // members left unchanged are the kernel of the pivots' projection.
    let pivot_values = members / fixed.len() as u64;
    debug_assert_eq!(fixed.len(), 1, "only member 0 fixes every cell's value");
    // The transversal's values are all listed once.
    let pivots = pivot.iter().filter(|&&p| p).count() as u32;
    if u64::from(classes.states).checked_pow(pivots).is_none_or(|all| all > MAX_PIVOT_SCAN) {
        return None;
    }
    Some((Plan { pivot, pivot_values }, members))
}

/// Tallies every coset of the touched classes, or `None` when `work`
/// runs out first (or the kernel is too large to plan the walk).
pub(crate) fn tally(classes: &Classes, work: &mut Work) -> Option<Tally> {
    let setup = Setup::new(classes)?;
    let walk = setup.walk();
    let found = walk.run(work, Shard::WHOLE, 0..walk.split(1).1)?;
    // Some coset is always walked: the empty press set's, at least.
    let best = found.best?;
    let counts = walk.counts(&best, classes);
    Some(Tally { by_weight: found.by_weight, heaviest: u64::from(best.weight), counts })
}

/// Walks slice `shard` of the walk's prefixes (every `count`-th from
/// `index − 1`, as [`Shard`] cuts blocks), from `resume` (the same slice
/// walked part way) if given, in the batches of the long search's loop
/// ([`Slice::run_batches`]): `batch` is told the slice so far after each,
/// and may break. Stopped by `work`, it returns what the batches before
/// finished (`done` short of the slice); `None` when the kernel is too
/// large to plan the walk.
pub(crate) fn tally_slice(
    classes: &Classes,
    shard: Shard,
    resume: Option<DistributionSlice>,
    work: &mut Work,
    batch: &mut dyn FnMut(&DistributionSlice) -> ControlFlow<()>,
) -> Option<DistributionSlice> {
    let setup = Setup::new(classes)?;
    let walk = setup.walk();
    let prefixes = walk.split(shard.count).1;
    let mut slice = resume.unwrap_or_else(|| Slice::fresh(WalkPrefixes { prefixes }, shard, ()));
    // The walk gives up on its own (its work's budget and stop).
    static NEVER: AtomicBool = AtomicBool::new(false);
    slice.run_batches(&mut Batches { walk: &walk, classes, work }, &NEVER, batch);
    Some(slice)
}

/// The walk as the long search's batch loop asks it: what a range of a
/// slice's prefixes holds.
struct Batches<'w, 'a> {
    walk: &'w Walk<'w>,
    classes: &'w Classes,
    work: &'w mut Work<'a>,
}

impl Reduce<WalkPrefixes, CosetTally> for Batches<'_, '_> {
    fn reduce(&mut self, slice: &DistributionSlice, range: Range<u64>, _: &AtomicBool) -> Option<CosetTally> {
        let found = self.walk.run(self.work, slice.shard, range)?;
        let cosets = found.by_weight.into_iter().enumerate().filter(|(_, n)| !n.is_zero());
        let heaviest = found.best.map(|best| SliceHeaviest {
            weight: u64::from(best.weight),
            prefix: best.prefix,
            counts: self.walk.counts(&best, self.classes),
        });
        Some(CosetTally { cosets: cosets.map(|(w, n)| (w as u64, n)).collect(), heaviest })
    }
}

/// Checks a slice (finished or not) against the walk planned again: `Err`
/// says why it does not hold up.
pub(crate) fn check_slice(classes: &Classes, slice: &DistributionSlice) -> Result<(), String> {
    let setup = Setup::new(classes).ok_or("the kernel is too large to walk")?;
    let walk = setup.walk();
    let values = classes.member_values(setup.members);
    walk.check(classes, slice, &values, setup.members)
}

/// Joins slices that cover the walk once each into the whole tally (the
/// long search's merge, [`merge_slices`]), checking each against the walk
/// planned again here: its prefixes, the press sets its counts stand for,
/// and its heaviest (in the slice, and weighing what it claims against
/// every member).
///
/// # Errors
/// [`MergeError`]: slices missing, given twice, of other splits,
/// unfinished, or not holding up (the slice's number and why).
pub(crate) fn join(classes: &Classes, slices: &[DistributionSlice]) -> Result<Tally, MergeError> {
    let shards: Vec<Shard> = slices.iter().map(|slice| slice.shard).collect();
    check_coverage(&shards)?;
    let Some(setup) = Setup::new(classes) else {
        return Err(MergeError::Inconsistent(shards[0].index, "the kernel is too large to walk".into()));
    };
    let walk = setup.walk();
    let members = setup.members;
    let values = classes.member_values(members);
    let parts: Vec<&DistributionSlice> = slices.iter().collect();
    let merged = merge_slices(&parts, |slice| walk.check(classes, slice, &values, members))?;
    let mut by_weight = vec![BigUint::zero(); walk.most + 1];
    for (w, n) in merged.cosets {
        by_weight[w as usize] = n;
    }
    let count = shards[0].count;
    let Some(SliceHeaviest { weight: heaviest, prefix, counts }) = merged.heaviest else {
        return Err(MergeError::Inconsistent(shards[0].index, "no slice holds a coset".into()));
    };
    // The slice that walked the heaviest's prefix (the one that claims it).
    let index = prefix % count + 1;
    // The board printed is rebuilt from these counts: the prefix they are
    // under is walked again (a sliver of the walk), so a record whose
    // counts were edited to another coset as heavy, and sealed again, is
    // refused rather than printing a board the whole count would not.
    let split = walk.split(count).0;
    match walk.prefix_heaviest(prefix, split) {
        Some(h) if u64::from(h.weight) == heaviest && walk.counts(&h, classes) == counts => {}
        Some(h) if u64::from(h.weight) == heaviest => {
            return Err(MergeError::Inconsistent(
                index,
                format!(
                    "its heaviest's counts are not the first heaviest coset under prefix {prefix}, walked again"
                ),
            ));
        }
        found => {
            let there = found.map_or(0, |h| u64::from(h.weight));
            return Err(MergeError::Inconsistent(
                index,
                format!(
                    "its heaviest claims {heaviest} at prefix {prefix}, where the walk again weighs {there} at most"
                ),
            ));
        }
    }
    Ok(Tally { by_weight, heaviest, counts })
}

/// The weight of the lightest member of a press set with these counts
/// (per class, per residue): `Σ_k Σ_r c_k[r]·((r + v_k(s)) mod K)`, least
/// over the members `s`.
fn lightest_weight(counts: &[Vec<u32>], values: &[u8], members: usize, k: usize) -> u64 {
    let n = counts.len();
    (0..members)
        .map(|s| {
            let weigh = |(class, counts): (usize, &Vec<u32>)| -> u64 {
                let v = usize::from(values[s * n + class]);
                counts.iter().enumerate().map(|(r, &x)| u64::from(x) * ((r + v) % k) as u64).sum()
            };
            counts.iter().enumerate().map(weigh).sum::<u64>()
        })
        .min()
        .unwrap_or(0)
}

/// The blocks of a walk, built once: the outer ones and the inner one.
struct Setup {
    members: usize,
    outer: Vec<Block>,
    inner: Inner,
    most: usize,
}

impl Setup {
    fn new(classes: &Classes) -> Option<Setup> {
        let (plan, members) = plan(classes)?;
        let members = members as usize;
        let k = classes.states;
        let values = classes.member_values(members);
        let count = classes.classes.len();
        let value = |s: usize, class: usize| values[s * count + class];
        let mut blocks = vec![transversal(classes, &plan, members, &value)];
        for (class, (&n, &pivot)) in classes.sizes().iter().zip(&plan.pivot).enumerate() {
            let left = n as u32 - u32::from(pivot);
            if left > 0 {
                blocks.push(class_block(class, left, k, members, &value));
            }
        }
        // In the order of `shape` (a stable sort on the same sizes).
        blocks[1..].sort_by_key(|b| std::cmp::Reverse(b.len()));
        let start = inner_start(&shape(classes, &plan), members as u64);
        let inner = Inner::merge(blocks.split_off(start), members);
        let most: u64 = classes.sizes().iter().sum::<u64>() * (u64::from(k) - 1);
        Some(Setup { members, outer: blocks, inner, most: most as usize })
    }

    fn walk(&self) -> Walk<'_> {
        Walk { members: self.members, outer: &self.outer, inner: &self.inner, most: self.most }
    }
}

/// The pivots' values, one per coset of the members' shifts of them: the
/// lexicographically first of each.
fn transversal(classes: &Classes, plan: &Plan, members: usize, value: &impl Fn(usize, usize) -> u8) -> Block {
    let k = usize::from(classes.states);
    let pivots: Vec<usize> = (0..plan.pivot.len()).filter(|&c| plan.pivot[c]).collect();
    let all = k.pow(pivots.len() as u32);
    let index = |digits: &[u8]| digits.iter().rev().fold(0usize, |i, &d| i * k + usize::from(d));
    let mut seen = vec![false; all];
    let mut block = Block { weights: Vec::new(), ways: Vec::new(), parts: Vec::new() };
    let mut digits = vec![0u8; pivots.len()];
    for y in 0..all {
        let mut rest = y;
        for d in &mut digits {
            *d = (rest % k) as u8;
            rest /= k;
        }
        if seen[y] {
            continue;
        }
        for s in 0..members {
            let shifted: Vec<u8> = digits
                .iter()
                .zip(&pivots)
                .map(|(&d, &c)| ((usize::from(d) + usize::from(value(s, c))) % k) as u8)
                .collect();
            seen[index(&shifted)] = true;
            block.weights.push(shifted.iter().map(|&d| u16::from(d)).sum());
        }
        block.ways.push(BigUint::one());
        block.parts.push(pivots.iter().zip(&digits).map(|(&c, &d)| (c as u32, d, 1)).collect());
    }
    block
}

/// Every way to spread `n` cells of class `class` over the K residues.
fn class_block(class: usize, n: u32, k: u8, members: usize, value: &impl Fn(usize, usize) -> u8) -> Block {
    let mut block = Block { weights: Vec::new(), ways: Vec::new(), parts: Vec::new() };
    let mut counts = vec![0u32; usize::from(k)];
    fill(n, 0, &mut counts, &mut |counts| {
        for s in 0..members {
            let v = usize::from(value(s, class));
            let w: u32 = counts.iter().enumerate().map(|(r, &c)| c * ((r + v) % usize::from(k)) as u32).sum();
            block.weights.push(w as u16);
        }
        block.ways.push(multinomial(counts));
        let parts = counts.iter().enumerate().filter(|(_, c)| **c > 0);
        block.parts.push(parts.map(|(r, &c)| (class as u32, r as u8, c)).collect());
    });
    block
}

fn fill(left: u32, residue: usize, counts: &mut Vec<u32>, out: &mut impl FnMut(&[u32])) {
    if residue == counts.len() - 1 {
        counts[residue] = left;
        out(counts);
        return;
    }
    for c in 0..=left {
        counts[residue] = c;
        fill(left - c, residue + 1, counts, out);
    }
}

/// `(Σ c)! / Π c!`.
fn multinomial(counts: &[u32]) -> BigUint {
    let mut ways = BigUint::one();
    let mut placed = 0u32;
    for &c in counts {
        for i in 1..=c {
            placed += 1;
            ways *= placed;
            ways /= i;
        }
    }
    ways
}

/// The trailing blocks as one, its weights member by member
/// (`weights[s · options + o]`), each option's press sets as a `u64`.
struct Inner {
    options: usize,
    weights: Vec<u16>,
    ways: Vec<u64>,
    parts: Vec<Vec<Part>>,
}

impl Inner {
    fn merge(blocks: Vec<Block>, members: usize) -> Inner {
        // Option by option first: start from the one empty option.
        let mut weights = vec![0u16; members];
        let mut ways = vec![1u64];
        let mut parts: Vec<Vec<Part>> = vec![Vec::new()];
        for block in blocks {
            let (mut w2, mut ways2, mut parts2) = (Vec::new(), Vec::new(), Vec::new());
            for o in 0..ways.len() {
                for b in 0..block.len() {
                    let (mine, theirs) =
                        (&weights[o * members..][..members], &block.weights[b * members..][..members]);
                    w2.extend(mine.iter().zip(theirs).map(|(x, y)| x + y));
                    // `inner_start` bounds the product below 2^64.
                    debug_assert!(block.ways[b].bits() <= 64);
                    ways2.push(ways[o] * block.ways[b].iter_u64_digits().next().unwrap_or(0));
                    parts2.push([parts[o].as_slice(), &block.parts[b]].concat());
                }
            }
            (weights, ways, parts) = (w2, ways2, parts2);
        }
        let options = ways.len();
        let mut by_member = vec![0u16; members * options];
        for o in 0..options {
            for s in 0..members {
                by_member[s * options + o] = weights[o * members + s];
            }
        }
        Inner { options, weights: by_member, ways, parts }
    }
}

/// The walk over the outer blocks, each leaf finished by the inner block.
struct Walk<'a> {
    members: usize,
    outer: &'a [Block],
    inner: &'a Inner,
    most: usize,
}

/// What one part of the walk found.
struct Found {
    by_weight: Vec<BigUint>,
    /// The first heaviest lightest weight in walk order, and where.
    best: Option<Heaviest>,
}

/// One part of the walk, under a prefix of outer options.
struct Task<'a> {
    walk: &'a Walk<'a>,
    by_weight: Vec<BigUint>,
    /// Leaf counts under the current outer path, before its ways.
    local: Vec<u128>,
    /// Counts under the current node above the last outer block, before
    /// the ways above it.
    near: Vec<BigUint>,
    /// Per outer depth, the members' weights below it (kept, not
    /// allocated per node).
    below: Vec<Vec<u16>>,
    acc: Vec<u16>,
    path: Vec<usize>,
    /// The prefix walked now, by its number.
    prefix: u64,
    heaviest: Option<Heaviest>,
}

impl Walk<'_> {
    /// The outer blocks a prefix fixes when the walk is cut into `count`
    /// slices, and how many prefixes that makes.
    fn split(&self, count: u64) -> (usize, u64) {
        let sizes: Vec<u64> = self.outer.iter().map(|b| b.len() as u64).collect();
        split(&sizes, count)
    }

    /// Walks prefixes `slice` of `shard` (by their place in it): one task
    /// per thread's run of them
    /// (rayon's fold), each prefix walked whole, the tasks merged in
    /// prefix order, so the heaviest found is the first in walk order
    /// whatever the threads.
    fn run(&self, work: &mut Work, shard: Shard, slice: std::ops::Range<u64>) -> Option<Found> {
        let split = self.split(shard.count).0;
        let shared = &*work;
        let tasks: Vec<(Task, Work, bool)> = slice
            .into_par_iter()
            .fold(
                || (self.task(), shared.share(), true),
                |(mut task, mut part, done), i| {
                    let done = done && task.prefix(shard.block(i), split, &mut part);
                    (task, part, done)
                },
            )
            .collect();
        let mut found = Found { by_weight: vec![BigUint::zero(); self.most + 1], best: None };
        let mut complete = true;
        for (task, mut part, done) in tasks {
            complete &= work.absorb(&mut part) && done;
            for (total, w) in found.by_weight.iter_mut().zip(task.by_weight) {
                *total += w;
            }
            if let Some(h) = task.heaviest
                && found.best.as_ref().is_none_or(|b| {
                    (h.weight, std::cmp::Reverse(h.prefix)) > (b.weight, std::cmp::Reverse(b.prefix))
                })
            {
                found.best = Some(h);
            }
        }
        complete.then_some(found)
    }

    /// The first heaviest coset under prefix number `prefix` of `split`
    /// blocks, walked again alone (none only for a prefix outside the walk).
    fn prefix_heaviest(&self, prefix: u64, split: usize) -> Option<Heaviest> {
        let never = || false;
        let mut work = Work::new(u64::MAX, &never);
        let mut task = self.task();
        task.prefix(prefix, split, &mut work);
        task.heaviest
    }

    /// Per class, how many of its cells each residue has in `best`.
    fn counts(&self, best: &Heaviest, classes: &Classes) -> Vec<Vec<u32>> {
        let mut counts = vec![vec![0u32; usize::from(classes.states)]; classes.classes.len()];
        let outer = self.outer.iter().zip(&best.path).flat_map(|(block, &o)| &block.parts[o]);
        for &(class, residue, cells) in outer.chain(&self.inner.parts[best.inner]) {
            counts[class as usize][usize::from(residue)] += cells;
        }
        counts
    }

    /// The press sets a slice's prefixes stand for (each counted once per
    /// coset: the walk's press sets are one per coset): per prefix the
    /// ways of its options, times every way below a prefix.
    fn slice_press_sets(&self, shard: Shard, split: usize, done: u64) -> BigUint {
        let sum = |ways: &[BigUint]| ways.iter().sum::<BigUint>();
        let below: BigUint = self.outer[split..].iter().map(|b| sum(&b.ways)).product::<BigUint>()
            * self.inner.ways.iter().map(|&w| BigUint::from(w)).sum::<BigUint>();
        let mut total = BigUint::zero();
        for i in 0..done {
            let mut p = shard.block(i);
            let mut ways = BigUint::one();
            for block in self.outer[..split].iter().rev() {
                let n = block.len() as u64;
                ways *= &block.ways[(p % n) as usize];
                p /= n;
            }
            total += ways;
        }
        total * below
    }

    /// Whether `slice` (its first `done` prefixes walked) holds up: its
    /// cut, the press sets its cosets add up to, and its heaviest (at the
    /// top weight, in the slice, fitting the classes, and weighing what it
    /// claims against every member).
    fn check(
        &self,
        classes: &Classes,
        slice: &DistributionSlice,
        values: &[u8],
        members: usize,
    ) -> Result<(), String> {
        let k = usize::from(classes.states);
        let shard = slice.shard;
        let (split, prefixes) = self.split(shard.count);
        if slice.layout.prefixes != prefixes {
            return Err(format!(
                "it cuts the walk into {} prefixes, where this problem's walk has {prefixes}",
                slice.layout.prefixes
            ));
        }
        let len = shard.len(prefixes);
        if slice.units != len {
            return Err(format!("it holds {} prefixes, where its slice has {len}", slice.units));
        }
        if slice.done > len {
            return Err(format!("it claims {} prefixes walked of the {len} it holds", slice.done));
        }
        let tally = &slice.best;
        let ascending = tally.cosets.windows(2).all(|pair| pair[0].0 < pair[1].0);
        if !ascending || tally.cosets.iter().any(|(_, n)| n.is_zero()) {
            return Err("its weights are not ascending, or a count of cosets is not positive".into());
        }
        let top = tally.cosets.last().map(|&(w, _)| w);
        if top.is_some_and(|w| w > self.most as u64) {
            // Worded as the records' own check words weights out of order.
            return Err("its weights are not ascending within the puzzle's cells".into());
        }
        let held: BigUint = tally.cosets.iter().map(|(_, n)| n).sum();
        let expected = self.slice_press_sets(shard, split, slice.done);
        if held != expected {
            return Err(format!("its cosets add up to {held}, where its prefixes hold {expected}"));
        }
        match (&tally.heaviest, top) {
            (None, None) => Ok(()),
            (Some(SliceHeaviest { weight, prefix, counts }), Some(top)) => {
                if *weight != top {
                    return Err(format!("its heaviest weighs {weight}, but it counts cosets of {top}"));
                }
                let walked = *prefix < prefixes
                    && *prefix % shard.count == shard.index - 1
                    && *prefix / shard.count < slice.done;
                if !walked {
                    return Err(format!("its heaviest is at prefix {prefix}, outside the slice"));
                }
                let shaped = counts.len() == classes.classes.len()
                    && counts.iter().zip(&classes.classes).all(|(c, class)| {
                        c.len() == k
                            && c.iter().map(|&n| u64::from(n)).sum::<u64>() == class.cells.len() as u64
                    });
                if !shaped {
                    return Err("its heaviest's counts do not fit the classes of cells".into());
                }
                let lightest = lightest_weight(counts, values, members, k);
                if lightest != *weight {
                    return Err(format!(
                        "its heaviest claims {weight}, but its lightest member weighs {lightest}"
                    ));
                }
                Ok(())
            }
            _ => Err("its heaviest does not match its counts".into()),
        }
    }

    fn task(&self) -> Task<'_> {
        Task {
            walk: self,
            by_weight: vec![BigUint::zero(); self.most + 1],
            local: vec![0; self.most + 1],
            near: vec![BigUint::zero(); self.most + 1],
            below: vec![vec![0; self.members]; self.outer.len()],
            acc: vec![0; self.inner.options],
            path: vec![0; self.outer.len()],
            prefix: 0,
            heaviest: None,
        }
    }
}

/// The heaviest lightest weight a task met first, and where.
struct Heaviest {
    weight: u16,
    prefix: u64,
    path: Vec<usize>,
    inner: usize,
}

impl Task<'_> {
    /// Walks every outer path under prefix number `p` of `split` blocks.
    fn prefix(&mut self, mut p: u64, split: usize, work: &mut Work) -> bool {
        let walk = self.walk;
        let m = walk.members;
        // The prefix's weights, summed over its blocks.
        if !work.spend((split * m) as u64) {
            return false;
        }
        self.prefix = p;
        for d in (0..split).rev() {
            let n = walk.outer[d].len() as u64;
            self.path[d] = (p % n) as usize;
            p /= n;
        }
        let mut weights = vec![0u16; m];
        let mut ways = BigUint::one();
        for (block, &o) in walk.outer.iter().zip(&self.path[..split]) {
            for (w, x) in weights.iter_mut().zip(&block.weights[o * m..][..m]) {
                *w += x;
            }
            ways *= &block.ways[o];
        }
        self.descend(split, &weights, &ways, work)
    }

    /// Walks the outer blocks from `depth` on, `ways` press sets above.
    fn descend(&mut self, depth: usize, weights: &[u16], ways: &BigUint, work: &mut Work) -> bool {
        let walk = self.walk;
        let m = walk.members;
        let last = walk.outer.len();
        if depth == last {
            // A whole outer path in a task's prefix (or no outer block).
            if !work.spend((m * walk.inner.options) as u64) {
                return false;
            }
            let range = self.leaves(weights);
            fold(&mut self.local, range, &mut self.by_weight, ways);
            return true;
        }
        let block = &walk.outer[depth];
        let mut next = std::mem::take(&mut self.below[depth]);
        // Under the last outer block, the counts gather in `near` with
        // that block's ways (an addition per leaf where the inner ways are
        // 1), and take the ways above once per node.
        let (mut near, mut range) = (Vec::new(), (usize::MAX, 0));
        if depth + 1 == last {
            near = std::mem::take(&mut self.near);
        }
        for o in 0..block.len() {
            if !work.spend(m as u64) {
                return false;
            }
            for ((out, &before), &x) in next.iter_mut().zip(weights).zip(&block.weights[o * m..][..m]) {
                *out = before + x;
            }
            self.path[depth] = o;
            if depth + 1 < last {
                if !self.descend(depth + 1, &next, &(ways * &block.ways[o]), work) {
                    return false;
                }
                continue;
            }
            if !work.spend((m * walk.inner.options) as u64) {
                return false;
            }
            let (low, high) = self.leaves(&next);
            fold(&mut self.local, (low, high), &mut near, &block.ways[o]);
            range = (range.0.min(low), range.1.max(high));
        }
        if depth + 1 == last {
            for w in range.0..=range.1.min(near.len() - 1) {
                if !near[w].is_zero() {
                    self.by_weight[w] += ways * &near[w];
                    // Zero, keeping its digits' room for the next node.
                    near[w].set_zero();
                }
            }
            self.near = near;
        }
        self.below[depth] = next;
        true
    }

    /// Every inner option under one outer path: the lightest member of
    /// each, its press sets added to `local`; returns the weights touched.
    fn leaves(&mut self, weights: &[u16]) -> (usize, usize) {
        let inner = self.walk.inner;
        let options = inner.options;
        self.acc.fill(u16::MAX);
        for (s, &w) in weights.iter().enumerate() {
            let row = &inner.weights[s * options..][..options];
            for (a, &x) in self.acc.iter_mut().zip(row) {
                *a = (*a).min(w + x);
            }
        }
        let (mut low, mut high) = (usize::MAX, 0);
        for (o, (&lightest, &n)) in self.acc.iter().zip(&inner.ways).enumerate() {
            let w = usize::from(lightest);
            self.local[w] += u128::from(n);
            (low, high) = (low.min(w), high.max(w));
            if self.heaviest.as_ref().is_none_or(|h| lightest > h.weight) {
                self.heaviest = Some(Heaviest {
                    weight: lightest,
                    prefix: self.prefix,
                    path: self.path.clone(),
                    inner: o,
                });
            }
        }
        (low, high)
    }
}

/// Moves the counts of `local` in `low..=high` into `into`, times `ways`.
fn fold(local: &mut [u128], (low, high): (usize, usize), into: &mut [BigUint], ways: &BigUint) {
    for w in low..=high {
        match std::mem::take(&mut local[w]) {
            0 => {}
            1 => into[w] += ways,
            n => into[w] += ways * n,
        }
    }
}

/// `untouched[j]`: the ways `n` cells, each pressed `0..K` times, press `j`
/// times in all: the coefficients of `(1 + z + … + z^(K−1))^n`.
pub(crate) fn untouched_weights(n: usize, k: usize) -> Vec<BigUint> {
    let mut poly = vec![BigUint::one()];
    for _ in 0..n {
        let mut next = vec![BigUint::zero(); poly.len() + k - 1];
        for (j, c) in poly.iter().enumerate() {
            for slot in &mut next[j..j + k] {
                *slot += c;
            }
        }
        poly = next;
    }
    poly
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multinomials_and_untouched_weights() {
        assert_eq!(multinomial(&[2, 1, 1]), BigUint::from(12u32));
        assert_eq!(multinomial(&[0, 5]), BigUint::one());
        let w = untouched_weights(3, 3);
        let w: Vec<u32> = w.iter().map(|c| c.try_into().unwrap()).collect();
        assert_eq!(w, [1, 3, 6, 7, 6, 3, 1]);
        let value = |_: usize, _: usize| 0u8;
        assert_eq!(class_block(0, 3, 2, 1, &value).len(), 4);
        assert_eq!(class_block(0, 4, 3, 1, &value).len(), 15);
    }

    use super::super::classes::QuietCode;
    use num_traits::ToPrimitive;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Every press set of the cells, its coset's lightest member.
    fn brute_force(code: &QuietCode) -> Vec<u64> {
        let (k, cells) = (usize::from(code.states), code.cells);
        let mut members = vec![vec![0u8; cells]];
        for (generator, order) in &code.generators {
            let mut more = Vec::new();
            for member in &members {
                for c in 0..*order as usize {
                    more.push(
                        (0..cells)
                            .map(|i| ((member[i] as usize + c * generator[i] as usize) % k) as u8)
                            .collect(),
                    );
                }
            }
            members = more;
        }
        let mut by_weight = vec![0u64; cells * (k - 1) + 1];
        for x in 0..k.pow(cells as u32) {
            let digits: Vec<usize> = (0..cells).map(|i| x / k.pow(i as u32) % k).collect();
            let lightest = members
                .iter()
                .map(|m| digits.iter().zip(m).map(|(&d, &v)| (d + v as usize) % k).sum::<usize>())
                .min()
                .unwrap();
            by_weight[lightest] += 1;
        }
        by_weight.iter().map(|n| n / members.len() as u64).collect()
    }

    /// Random codes over Z_K, free or not (generators of order K/t take
    /// multiples of t), against brute force: the cosets by weight, the
    /// heaviest and the counts that reach it.
    #[test]
    fn walk_agrees_with_brute_force() {
        let never = || false;
        let mut rng = ChaCha8Rng::seed_from_u64(23);
        let mut tried = 0;
        while tried < 200 {
            let k: u8 = [2, 3, 4, 6][rng.random_range(0..4)];
            let cells = rng.random_range(1..=if k == 2 { 12 } else { 7 });
            let mut generators = Vec::new();
            for _ in 0..rng.random_range(1..=3) {
                let divisors: Vec<u8> = (1..k).filter(|t| k.is_multiple_of(*t)).collect();
                let t = divisors[rng.random_range(0..divisors.len())];
                let values = (0..cells).map(|_| t * rng.random_range(0..k / t)).collect();
                generators.push((values, u32::from(k / t)));
            }
            let code = QuietCode { states: k, cells, generators };
            let expected = brute_force(&code);
            // Members not all distinct: not a code as QuietCode states it.
            let members = code.members().unwrap() as u64;
            if expected.iter().sum::<u64>() * members != u64::from(k).pow(cells as u32) {
                continue;
            }
            tried += 1;
            let classes = Classes::new(&code);
            let mut work = Work::new(u64::MAX, &never);
            let tally = tally(&classes, &mut work).unwrap();
            let untouched = untouched_weights(classes.untouched.len(), usize::from(k));
            let mut found = vec![0u64; expected.len()];
            for (w1, n) in tally.by_weight.iter().enumerate() {
                for (w2, ways) in untouched.iter().enumerate() {
                    found[w1 + w2] += (n * ways).to_u64().unwrap();
                }
            }
            assert_eq!(found, expected, "K={k} {code:?}");
            let most = tally.heaviest + classes.untouched.len() as u64 * u64::from(k - 1);
            assert_eq!(most as usize, expected.iter().rposition(|&n| n > 0).unwrap(), "K={k} {code:?}");
            // The heaviest counts: each class's cells, weighing the heaviest.
            for (class, counts) in classes.classes.iter().zip(&tally.counts) {
                assert_eq!(counts.iter().sum::<u32>() as usize, class.cells.len());
            }
            let values = classes.member_values(members as usize);
            let n = classes.classes.len();
            let lightest = (0..members as usize)
                .map(|s| {
                    let weigh = |(c, counts): (usize, &Vec<u32>)| -> u64 {
                        let v = usize::from(values[s * n + c]);
                        counts
                            .iter()
                            .enumerate()
                            .map(|(r, &x)| u64::from(x) * ((r + v) % usize::from(k)) as u64)
                            .sum()
                    };
                    tally.counts.iter().enumerate().map(weigh).sum::<u64>()
                })
                .min()
                .unwrap();
            assert_eq!(lightest, tally.heaviest, "K={k} {code:?}");
            assert_eq!(work.spent(), tally_cost(&classes) as u64, "K={k} {code:?}");
            // Cut into slices, each walked alone and on its own budget, the
            // walk joins to the same tally: counts, heaviest and where.
            for count in [2, 3, 7] {
                let mut slices = Vec::new();
                for index in 1..=count {
                    let shard = Shard { index, count };
                    let mut work = Work::new(u64::MAX, &never);
                    let walked =
                        tally_slice(&classes, shard, None, &mut work, &mut |_| ControlFlow::Continue(()));
                    slices.push(walked.unwrap());
                    assert_eq!(work.spent(), slice_cost(&classes, shard) as u64, "{shard} K={k} {code:?}");
                }
                let joined = join(&classes, &slices).unwrap();
                assert_eq!(joined.by_weight, tally.by_weight, "N={count} K={k} {code:?}");
                assert_eq!((joined.heaviest, &joined.counts), (tally.heaviest, &tally.counts), "N={count}");
                // One slice left out, or given twice, is refused by number.
                assert!(matches!(join(&classes, &slices[1..]), Err(MergeError::Missing(m)) if m == [1]));
                let mut twice = slices.clone();
                twice[0].shard = Shard { index: 2, count };
                assert!(matches!(join(&classes, &twice), Err(MergeError::Duplicated(d)) if d == [2]));
            }
        }
    }

    /// A slice edited to claim other cosets, another heaviest or another
    /// cut of the walk does not hold up against the walk planned again.
    #[test]
    fn edited_slices_do_not_hold_up() {
        let never = || false;
        let code = QuietCode { states: 3, cells: 7, generators: vec![(vec![1, 2, 0, 1, 1, 2, 0], 3)] };
        let classes = Classes::new(&code);
        let cut = |count: u64| -> Vec<DistributionSlice> {
            (1..=count)
                .map(|index| {
                    let shard = Shard { index, count };
                    let mut work = Work::new(u64::MAX, &never);
                    tally_slice(&classes, shard, None, &mut work, &mut |_| ControlFlow::Continue(())).unwrap()
                })
                .collect()
        };
        assert!(join(&classes, &cut(2)).is_ok());
        let refused = |edit: &dyn Fn(&mut DistributionSlice)| {
            let mut slices = cut(2);
            edit(&mut slices[0]);
            match join(&classes, &slices) {
                Err(MergeError::Inconsistent(1, why)) => why,
                other => panic!("{:?}", other.map(|t| t.heaviest)),
            }
        };
        assert!(refused(&|t| t.layout.prefixes += 1).contains("prefixes"));
        assert!(refused(&|t| t.best.cosets[0].1 += 1u32).contains("add up to"));
        // Every cell unpressed: the empty press set, whose lightest weighs 0.
        let why = refused(&|t| {
            if let Some(h) = &mut t.best.heaviest {
                for counts in &mut h.counts {
                    let all = counts.iter().sum();
                    counts.fill(0);
                    counts[0] = all;
                }
            }
        });
        assert!(why.contains("its lightest member weighs 0"), "{why}");
        assert!(refused(&|t| t.best.heaviest = None).contains("does not match"));
    }
}
